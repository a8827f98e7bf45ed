"""A trial: learner functions called one by one in the child, each call written down as Python.

Properties drive a :class:`Trial`; when one finds a broken promise it raises
:class:`~grader.failures.PropertyFailure` with the calls made so far, so the report can show
the shrunk counterexample as a program the learner can paste and run. Every call goes through
:meth:`Trial.ask`, the one place where "the child did not answer" becomes a verdict.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, NoReturn, TypeVar

from hypothesis import reject

from grader import messages
from grader.callserver.codec import ReadOnlyMapping, Ref
from grader.callserver.text import listing, literal, multiline
from grader.contract import FUNCTION_NAMES
from grader.failures import Failure, PropertyFailure, StopProperty
from grader.oracle import ModelLog
from grader.programs import Append
from grader.remote import Learner, TaskOverrun
from grader.sandbox.child import ChildFailure
from grader.transcript import (
    UNKNOWN_TYPE,
    EventVar,
    LogVar,
    Raised,
    append_code,
    call_request,
    events_code,
)
from grader.views import EventView, Malformed, unreadable, value_of

__all__ = ["EventVar", "LogVar", "Raised", "Trial", "call_request", "events_code"]
T = TypeVar("T")
#: The line a transcript needs to build each kind of payload that is not a dict.
WRAPPER_IMPORTS = {
    "proxy": "from types import MappingProxyType",
    "mapping": "from grader.callserver.codec import ReadOnlyMapping",
}


@dataclass(frozen=True)
class Stopped:
    """Where a batch stopped: the child hung, died or broke the protocol at this request."""

    failure: ChildFailure


def called_function(call: str) -> str:
    """The graded function a line of the transcript calls, else "your code"."""
    return next((name for name in FUNCTION_NAMES if f"{name}(" in call), messages.YOUR_CODE)


@dataclass(frozen=True)
class _Planned:
    """An append worked out before it is sent: the names, the code and the request."""

    log: LogVar
    event: EventVar
    append: Append
    code: str
    request: dict[str, Any]


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
            answer = self.learner.ask(request)
        except TaskOverrun:
            raise StopProperty(self._overrun()) from None
        except ChildFailure as failure:
            self._child_failed(sentence, code, failure)
        if "too_large" in answer:
            self.fail(sentence, code, [messages.ANSWER_TOO_LARGE])
        return answer

    def batch(self, sentence: str, code: str, requests: list[dict[str, Any]]) -> list[Any]:
        """Send several requests as one; return their answers, one each, in order.

        When the child hangs, dies or breaks the protocol midway, the answers that came are
        returned as they are, then a :class:`Stopped` where it stopped (and None after), so
        the caller judges what happened first, in order, before the stop.
        """
        try:
            answers = self.learner.ask({"op": "batch", "requests": requests}).get("batch")
        except TaskOverrun:
            raise StopProperty(self._overrun()) from None
        except ChildFailure as failure:
            received = failure.parts[: len(requests)]
            if len(received) == len(requests):
                return received
            padding = [None] * (len(requests) - len(received) - 1)
            return [*received, Stopped(failure), *padding]
        if not isinstance(answers, list) or len(answers) != len(requests):
            self.fail(messages.CHILD_BROKE, code, [], messages.STATUS_ERROR)
        return answers

    def _overrun(self) -> Failure:
        text = messages.TASK_TIMED_OUT.format(seconds=self.learner.clock.task)
        return Failure(text, status=messages.STATUS_TIMED_OUT)

    def stopped(self, sentence: str, code: str, answer: Any) -> None:
        """Fail, as the stop says, if ``answer`` is where a batch stopped."""
        if isinstance(answer, Stopped):
            self._child_failed(sentence, code, answer.failure)

    def _child_failed(self, sentence: str, code: str, failure: ChildFailure) -> NoReturn:
        call = failure.doing or code
        function = called_function(call)
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
        request = call_request(function, code, args, kwargs, keep, view)
        return self.interpret(sentence, function, code, self.ask(sentence, code, request))

    def interpret(
        self, sentence: str, function: str, code: str, answer: Any
    ) -> dict[str, Any] | Raised:
        """What a call's answer means: a value, a :class:`Raised`, or (for a stub, an exit, a
        control-flow exception) the end of this trial."""
        self.stopped(sentence, code, answer)
        if not isinstance(answer, dict):
            self.fail(messages.CHILD_BROKE, code, [], messages.STATUS_ERROR)
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
            return self.guard(lambda: Raised.from_answer(answer["raised"]))
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

    def read_answer(self, sentence: str, function: str, code: str, answer: Any, kind: str) -> Any:
        """The value a read function answered, observed as ``kind``; anything it raised, or
        an answer that is not what the contract promises, breaks ``sentence``."""
        result = self.interpret(sentence, function, code, answer)
        if isinstance(result, Raised):
            self.fail(sentence, code, [result.describe()])
        return self.read(sentence, code, result, kind)

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
        plan = self.plan_append(log, append, payload, payload_code)
        answer = self.ask(messages.ACCEPT["plain"], plan.code, plan.request)
        return self.settle_append(plan, answer)

    def append_all(self, log: LogVar, appends: Sequence[Append]) -> tuple[LogVar, list[EventVar]]:
        """Append valid events one after the other, in one request; judged as :meth:`append`
        judges each, in order (a refusal ends the trial there)."""
        plans: list[_Planned] = []
        for append in appends:
            plans.append(self.plan_append(plans[-1].log if plans else log, append))
        if not plans:
            return log, []
        requests = [plan.request for plan in plans]
        answers = self.batch(messages.ACCEPT["plain"], plans[0].code, requests)
        events = [
            self.settle_append(plan, answer)[1] for plan, answer in zip(plans, answers, strict=True)
        ]
        return plans[-1].log, events

    def plan_append(
        self, log: LogVar, append: Append, payload: Any = None, payload_code: str | None = None
    ) -> _Planned:
        model, model_event = log.model.append(append.session_id, append.event_type, append.payload)
        new_name = self.fresh_name(f"log{len(model.events)}")
        event_name = self.fresh_name(f"e{len(model.events)}")
        if payload is None:
            payload = self._wrapped(copy.deepcopy(append.payload), append.wrapper)
        code = f"{new_name}, {event_name} = " + append_code(
            log.name, append.session_id, append.event_type, payload_code or literal(payload)
        )
        args = (Ref(log.name), append.session_id, append.event_type, payload)
        request = call_request("append_event", code, args, None, [new_name, event_name], "pair")
        event = EventVar(event_name, model_event, {})
        return _Planned(LogVar(new_name, model), event, append, code, request)

    def settle_append(self, plan: _Planned, answer: Any) -> tuple[LogVar, EventVar]:
        result = self.interpret(messages.ACCEPT["plain"], "append_event", plan.code, answer)
        if isinstance(result, Raised):
            self._refused_valid(plan.append, plan.code, result)
        if "not_pair" in result:
            outcome = messages.NOT_A_PAIR.format(value=result["not_pair"])
            self.fail(messages.APPEND_RETURNS_PAIR, plan.code, [outcome])
        read = self.guard(lambda: value_of(result, "event")) if "value" in result else result
        self.lines.append(plan.code)
        return plan.log, dataclasses.replace(plan.event, read=read)

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
        code, request = self.plan_refusal(log, session)
        self.settle_refusal(sentence, code, self.ask(sentence, code, request))

    def plan_refusal(self, log: LogVar, session: str) -> tuple[str, dict[str, Any]]:
        """The code and request of an append with an unknown event type."""
        payload = {"content": "hi"}
        code = append_code(log.name, session, UNKNOWN_TYPE, literal(payload))
        args = (Ref(log.name), session, UNKNOWN_TYPE, payload)
        return code, call_request("append_event", code, args)

    def settle_refusal(self, sentence: str, code: str, answer: Any) -> None:
        """Discard the example unless the append raised ValueError; note it in the transcript."""
        result = self.interpret(sentence, "append_event", code, answer)
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
