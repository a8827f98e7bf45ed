"""A trial: learner functions called one by one in the child, each call written down as Python.

Properties drive a :class:`Trial`; when one finds a broken promise it raises
:class:`~grader.failures.PropertyFailure` with the calls made so far, so the report can show
the shrunk counterexample as a program the learner can paste and run. Every call goes through
:meth:`Trial.ask`, the one place where "the child did not answer" becomes a verdict.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Sequence
from types import MappingProxyType
from typing import Any, NoReturn, TypeVar

from hypothesis import reject

from grader import messages
from grader.callserver.codec import ReadOnlyMapping, Ref, encode_argument
from grader.callserver.text import listing, literal, multiline
from grader.failures import Failure, PropertyFailure, StopProperty
from grader.oracle import ModelLog
from grader.programs import Append
from grader.remote import Learner, TaskOverrun
from grader.sandbox.child import ChildFailure
from grader.transcript import UNKNOWN_TYPE, EventVar, LogVar, Raised, append_code, events_code
from grader.views import EventView, Malformed, unreadable, value_of

__all__ = ["EventVar", "LogVar", "Raised", "Trial", "events_code"]
T = TypeVar("T")
#: The line a transcript needs to build each kind of payload that is not a dict.
WRAPPER_IMPORTS = {
    "proxy": "from types import MappingProxyType",
    "mapping": "from grader.callserver.codec import ReadOnlyMapping",
}


class Trial:
    """One run of one property against the learner's code, with its transcript.

    Args:
        learner: the submission's child process.
        on_refusal: what a ValueError on a valid append means: ``"skip"`` discards the example
            (refusing valid input is the reject_bad_input task's business, so other tasks do
            not judge it), ``"fail"`` makes it the failure.
        prefix: put before every value name, for a second trial in the same example.
    """

    def __init__(self, learner: Learner, on_refusal: str = "skip", prefix: str = "") -> None:
        self.learner = learner
        self.on_refusal = on_refusal
        self.prefix = prefix
        self.lines: list[str] = []
        self._names: set[str] = set()

    # --- failing ---------------------------------------------------------------------------
    def fail(
        self, sentence: str, call: str | None, outcome: Iterable[str], status: str = ""
    ) -> NoReturn:
        lines = (*self.lines, call) if call else tuple(self.lines)
        status = status or messages.STATUS_FAILED
        hint = messages.hint_for(sentence, status)
        raise PropertyFailure(Failure(sentence, lines, tuple(outcome), status, None, hint))

    def fail_mismatch(
        self, sentence: str, call: str | None, returned: object, expected: object
    ) -> NoReturn:
        """Fail with what came back and what was expected, both laid out the same way.

        Lists (of item texts) go on one line each when both are short, else one item per
        line each, so the two can be read side by side.
        """
        shown: list[object] = [returned, expected]
        if isinstance(returned, list) and isinstance(expected, list):
            lists = [returned, expected]
            one_line = [listing(items, width=10**9) for items in lists]
            long = any(len(text) > 80 for text in one_line) and max(map(len, lists)) > 1
            shown = [
                multiline(items) if long else text
                for items, text in zip(lists, one_line, strict=True)
            ]
        outcome = [
            messages.RETURNED.format(value=shown[0]),
            messages.EXPECTED.format(value=shown[1]),
        ]
        self.fail(sentence, call, outcome)

    # --- asking the child ------------------------------------------------------------------------
    def ask(self, sentence: str, code: str, request: dict[str, Any]) -> dict[str, Any]:
        """Send ``request``; a child that does not answer in time, dies or breaks the protocol
        fails ``sentence`` with the call it was making."""
        try:
            return self.learner.ask(request)
        except TaskOverrun:
            text = messages.TASK_TIMED_OUT.format(seconds=self.learner.clock.task)
            raise StopProperty(Failure(text, status=messages.STATUS_TIMED_OUT)) from None
        except ChildFailure as failure:
            self._child_failed(sentence, code, failure)

    def _child_failed(self, sentence: str, code: str, failure: ChildFailure) -> NoReturn:
        call = failure.doing or code
        function = call.split("(")[0].split(" = ")[-1].split(".")[0] or messages.YOUR_CODE
        if failure.kind == "timed_out":
            seconds = self.learner.example_seconds
            text = messages.TIMED_OUT.format(function=function, seconds=seconds)
            self.fail(sentence, call, [text], messages.STATUS_TIMED_OUT)
        if failure.kind == "died":
            text = messages.WORKER_DIED.format(function=function, code=failure.code)
            self.fail(sentence, call, [text], messages.STATUS_ERROR)
        self.fail(sentence, call, [messages.CHILD_BROKE], messages.STATUS_ERROR)

    def attempt(
        self,
        sentence: str,
        function: str,
        code: str,
        args: Sequence[Any],
        kwargs: dict[str, Any] | None = None,
        keep: str | list[str] | None = None,
        view: str = "none",
    ) -> dict[str, Any] | Raised:
        """Call a learner function; return the answer or a :class:`Raised` (never raises it)."""
        request = {
            "op": "call",
            "fn": function,
            "args": [encode_argument(arg) for arg in args],
            "kwargs": {key: encode_argument(arg) for key, arg in (kwargs or {}).items()},
            "keep": keep,
            "view": view,
        }
        answer = self.ask(sentence, code, request)
        if answer.get("not_implemented"):
            outcome = messages.NOT_IMPLEMENTED_CALL.format(function=function)
            self.fail(sentence, code, [outcome], messages.STATUS_NOT_IMPLEMENTED)
        if "exit" in answer:
            exited = messages.CALLED_EXIT.format(code=answer["exit"])
            self.fail(sentence, code, [exited], messages.STATUS_ERROR)
        if "control" in answer:
            outcome = messages.RAISED_CONTROL.format(kind=answer["control"])
            self.fail(sentence, code, [outcome], messages.STATUS_ERROR)
        if "raised" in answer:
            return Raised.from_answer(answer["raised"])
        return answer

    def call(self, sentence: str, function: str, code: str, *args: Any, **options: Any) -> Any:
        """Call a learner function; any exception it raises breaks ``sentence``."""
        result = self.attempt(sentence, function, code, args, **options)
        if isinstance(result, Raised):
            self.fail(sentence, code, [result.describe()])
        return result

    def guard(self, work: Callable[[], T]) -> T:
        """Run ``work`` on the child's answers; an answer out of protocol is the child's error."""
        try:
            return work()
        except (Malformed, KeyError, TypeError, ValueError, AttributeError):
            self.fail(messages.CHILD_BROKE, None, [], messages.STATUS_ERROR)

    def read(self, sentence: str, code: str, answer: dict[str, Any], kind: str) -> Any:
        """The value of an answer observed as ``kind``; an unreadable one breaks the
        contract's promise of what the function returns."""
        if "value" in answer:
            return self.guard(lambda: value_of(answer, kind))
        if "too_large" in answer:
            self.fail(sentence, code, [messages.ANSWER_TOO_LARGE])
        failing = messages.EVENT_READABLE if kind in ("event", "events") else sentence
        self.fail(failing, code, [unreadable(answer)])

    def fresh_name(self, name: str) -> str:
        """A name no value of this example has yet (``prefix`` keeps a twin trial apart)."""
        candidate, suffix = self.prefix + name, 1
        while candidate in self._names:
            suffix += 1
            candidate = f"{self.prefix}{name}_{suffix}"
        self._names.add(candidate)
        return candidate

    # --- building logs -----------------------------------------------------------------------
    def create(self) -> LogVar:
        name = self.fresh_name("log0")
        code = f"{name} = create_event_log()"
        self.call(messages.ACCEPT["plain"], "create_event_log", code, keep=name)
        self.lines.append(code)
        return LogVar(name, ModelLog())

    def make(self, name: str, value: Any) -> Ref:
        """Keep ``value`` in the child as ``name`` (a dict the caller will change later)."""
        self.ask(messages.ACCEPT["plain"], name, {"op": "make", "name": name, "value": value})
        self.lines.append(f"{name} = {literal(value)}")
        return Ref(name)

    def append(
        self, log: LogVar, append: Append, payload: Any = None, payload_code: str | None = None
    ) -> tuple[LogVar, EventVar]:
        """Append a valid event; ``payload`` (default: a deep copy of the append's) is passed."""
        model, model_event = log.model.append(append.session_id, append.event_type, append.payload)
        new_name = self.fresh_name(f"log{len(model.events)}")
        event_name = self.fresh_name(f"e{len(model.events)}")
        if payload is None:
            payload = self._wrapped(copy.deepcopy(append.payload), append.wrapper)
        code = f"{new_name}, {event_name} = " + append_code(
            log.name, append.session_id, append.event_type, payload_code or literal(payload)
        )
        args = (Ref(log.name), append.session_id, append.event_type, payload)
        sentence = messages.ACCEPT["plain"]
        result = self.attempt(
            sentence, "append_event", code, args, None, [new_name, event_name], "pair"
        )
        if isinstance(result, Raised):
            self._refused_valid(append, code, result)
        if "not_pair" in result:
            outcome = messages.NOT_A_PAIR.format(value=result["not_pair"])
            self.fail(messages.APPEND_RETURNS_PAIR, code, [outcome])
        read = self.guard(lambda: value_of(result, "event")) if "value" in result else result
        self.lines.append(code)
        return LogVar(new_name, model), EventVar(event_name, model_event, read)

    def _wrapped(self, payload: dict[str, Any], wrapper: str) -> Any:
        """The payload as ``wrapper`` says to pass it, importing what the transcript needs."""
        if wrapper == "dict":
            return payload
        self._import(WRAPPER_IMPORTS[wrapper])
        return MappingProxyType(payload) if wrapper == "proxy" else ReadOnlyMapping(payload)

    def _import(self, line: str) -> None:
        if line not in self.lines:
            self.lines.insert(0, line)

    def refused_append(self, sentence: str, log: LogVar, session: str) -> None:
        """Make an append every implementation must refuse (an unknown event type).

        Other tasks use it to check that a refused call leaves no trace in *their* reads. An
        implementation that does not refuse it loses the reject_bad_input task for that; here
        the example is simply discarded.
        """
        payload = {"content": "hi"}
        code = append_code(log.name, session, UNKNOWN_TYPE, literal(payload))
        args = (Ref(log.name), session, UNKNOWN_TYPE, payload)
        result = self.attempt(sentence, "append_event", code, args)
        if not isinstance(result, Raised) or not result.value_error:
            reject()
        self.lines.append(f"{code}  # raises {result.kind}")

    def _refused_valid(self, append: Append, code: str, raised: Raised) -> NoReturn:
        feature = append.unusual[0] if append.unusual else "plain"
        if not raised.value_error:
            self.fail(messages.ACCEPT[feature], code, [raised.describe()])
        if self.on_refusal == "skip":
            reject()
        refused = messages.REFUSED_VALID.format(kind=raised.kind, message=raised.message)
        self.fail(messages.ACCEPT[feature], code, [refused])

    # --- reading ---------------------------------------------------------------------------------
    def events(
        self,
        sentence: str,
        log: LogVar,
        session: str,
        after: int | None = None,
        keep: str | None = None,
    ) -> tuple[str, list[EventView]]:
        """Call get_events_for_session; return the call's code and the events as views."""
        code = events_code(log.name, session, after)
        kwargs = {} if after is None else {"after_event_id": after}
        args = (Ref(log.name), session)
        answer = self.call(
            sentence, "get_events_for_session", code, *args, kwargs=kwargs, keep=keep, view="events"
        )
        return code, self.read(sentence, code, answer, "events")

    def event(self, sentence: str, event: EventVar) -> EventView:
        """The view of an event as ``append_event`` returned it."""
        if isinstance(event.read, EventView):
            return event.read
        self.fail(messages.EVENT_READABLE, event.name, [unreadable(event.read)])

    def sessions(
        self, sentence: str, log: LogVar, keep: str | None = None
    ) -> tuple[str, list[Any]]:
        code = f"list_sessions({log.name})"
        answer = self.call(sentence, "list_sessions", code, Ref(log.name), keep=keep, view="list")
        return code, self.read(sentence, code, answer, "list")

    def replay(
        self, sentence: str, log: LogVar, session: str, keep: str | None = None
    ) -> tuple[str, list[Any]]:
        """Call replay_session; return the code and the messages as plain data."""
        code = f"replay_session({log.name}, {literal(session)})"
        args = (Ref(log.name), session)
        answer = self.call(sentence, "replay_session", code, *args, keep=keep, view="list")
        return code, self.read(sentence, code, answer, "list")
