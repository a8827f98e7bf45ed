"""A trial: learner functions called one by one, each call written down as Python code.

Properties drive a :class:`Trial`; when one finds a broken promise it raises
:class:`~grader.failures.PropertyFailure` with the calls made so far, so the report can show
the shrunk counterexample as a program the learner can paste and run.
"""

from __future__ import annotations

import copy
import traceback
from collections.abc import Callable, Iterable
from typing import Any, NoReturn

from hypothesis import reject

from grader import messages, observing
from grader.failures import Failure, PropertyFailure
from grader.loading import Target
from grader.observing import Observation
from grader.oracle import ModelLog
from grader.programs import Append
from grader.rendering import literal, sanitize, show
from grader.transcript import (
    UNKNOWN_TYPE,
    EventVar,
    LogVar,
    Raised,
    append_code,
    events_code,
    short_path,
)
from grader.views import EventView, Unreadable, event_view, plain, plain_sequence

__all__ = ["EventVar", "LogVar", "Raised", "Trial", "events_code", "progress"]


def _no_progress(function: str) -> None:
    """Default progress hook: nobody is watching."""


#: Called with a function name just before learner code runs; the worker process points it
#: at shared memory so the supervisor can name the call that never returned.
progress: Callable[[str], None] = _no_progress


class Trial:
    """One run of one property against the target, with its transcript.

    Args:
        target: the loaded learner functions.
        on_refusal: what a ValueError on a valid append means: ``"skip"`` discards the example
            (refusing valid input is the reject_bad_input task's business, so other tasks do
            not judge it), ``"fail"`` makes it the failure.
    """

    def __init__(self, target: Target, on_refusal: str = "skip") -> None:
        self.target = target
        self.on_refusal = on_refusal
        self.lines: list[str] = []
        self._names: set[str] = set()

    # --- failing ---------------------------------------------------------------------------
    def fail(
        self, sentence: str, call: str | None, outcome: Iterable[str], status: str = ""
    ) -> NoReturn:
        lines = (*self.lines, call) if call else tuple(self.lines)
        failure = Failure(sentence, lines, tuple(outcome), status or messages.STATUS_FAILED)
        raise PropertyFailure(failure)

    def fail_mismatch(
        self, sentence: str, call: str | None, returned: object, expected: object
    ) -> NoReturn:
        """Fail with the two lines every mismatch shows: what came back, what was expected."""
        outcome = [
            messages.RETURNED.format(value=returned),
            messages.EXPECTED.format(value=expected),
        ]
        self.fail(sentence, call, outcome)

    # --- calling learner code ------------------------------------------------------------------
    def attempt(self, sentence: str, function: str, code: str, *args: Any, **kwargs: Any) -> Any:
        """Call a learner function; return its value or a :class:`Raised` (never raises it)."""
        progress(function)
        try:
            return self.target.functions[function](*args, **kwargs)
        except NotImplementedError:
            outcome = messages.NOT_IMPLEMENTED_CALL.format(function=function)
            self.fail(sentence, code, [outcome], messages.STATUS_NOT_IMPLEMENTED)
        except SystemExit as error:
            self.fail(
                sentence,
                code,
                [messages.CALLED_EXIT.format(code=literal(error.code))],
                messages.STATUS_ERROR,
            )
        except Exception as error:
            return Raised(error, self._where(error))
        except BaseException as error:
            if isinstance(error, KeyboardInterrupt):
                raise
            outcome = messages.RAISED_CONTROL.format(kind=type(error).__name__)
            self.fail(sentence, code, [outcome], messages.STATUS_ERROR)

    def call(self, sentence: str, function: str, code: str, *args: Any, **kwargs: Any) -> Any:
        """Call a learner function; any exception it raises breaks ``sentence``."""
        result = self.attempt(sentence, function, code, *args, **kwargs)
        if isinstance(result, Raised):
            self.fail(sentence, code, [result.describe()])
        return result

    def _where(self, error: Exception) -> str | None:
        frames = traceback.extract_tb(error.__traceback__)
        learner = [f for f in frames if self.target.owns(f.filename)]
        if not learner:
            return None
        return f"{short_path(learner[-1].filename)}:{learner[-1].lineno}"

    # --- building logs -----------------------------------------------------------------------
    def create(self) -> LogVar:
        code = "log0 = create_event_log()"
        value = self.call(messages.ACCEPT["plain"], "create_event_log", code)
        self.lines.append(code)
        self._names.add("log0")
        return LogVar(value, "log0", ModelLog())

    def append(
        self, log: LogVar, append: Append, payload: Any = None, payload_name: str | None = None
    ) -> tuple[LogVar, EventVar]:
        """Append a valid event; ``payload`` (default: a deep copy of the append's) is passed."""
        model, model_event = log.model.append(append.session_id, append.event_type, append.payload)
        new_name = self._fresh_name(f"log{len(model.events)}")
        event_name = self._fresh_name(f"e{len(model.events)}")
        payload = copy.deepcopy(append.payload) if payload is None else payload
        code = f"{new_name}, {event_name} = " + append_code(
            log.name, append.session_id, append.event_type, payload_name or literal(payload)
        )
        result = self.attempt(
            messages.ACCEPT["plain"],
            "append_event",
            code,
            log.value,
            append.session_id,
            append.event_type,
            payload,
        )
        if isinstance(result, Raised):
            self._refused_valid(append, code, result)
        try:
            new_value, event = result
        except Exception:
            self.fail(
                messages.APPEND_RETURNS_PAIR, code, [messages.NOT_A_PAIR.format(value=show(result))]
            )
        self.lines.append(code)
        return LogVar(new_value, new_name, model), EventVar(event, event_name, model_event)

    def refused_append(self, sentence: str, log: LogVar, session: str) -> None:
        """Make an append every implementation must refuse (an unknown event type).

        Other tasks use it to check that a refused call leaves no trace in *their* reads. An
        implementation that does not refuse it loses the reject_bad_input task for that; here
        the example is simply discarded.
        """
        payload = {"content": "hi"}
        code = append_code(log.name, session, UNKNOWN_TYPE, literal(payload))
        result = self.attempt(
            sentence, "append_event", code, log.value, session, UNKNOWN_TYPE, payload
        )
        if not isinstance(result, Raised) or not isinstance(result.error, ValueError):
            reject()
        self.lines.append(f"{code}  # raises {type(result.error).__name__}")

    def _refused_valid(self, append: Append, code: str, raised: Raised) -> None:
        if not isinstance(raised.error, ValueError):
            self.fail(messages.ACCEPT["plain"], code, [raised.describe()])
        if self.on_refusal == "skip":
            reject()
        feature = append.unusual[0] if append.unusual else "plain"
        kind, text = type(raised.error).__name__, sanitize(str(raised.error))
        self.fail(
            messages.ACCEPT[feature], code, [messages.REFUSED_VALID.format(kind=kind, message=text)]
        )

    def _fresh_name(self, name: str) -> str:
        candidate, suffix = name, 1
        while candidate in self._names:
            suffix += 1
            candidate = f"{name}_{suffix}"
        self._names.add(candidate)
        return candidate

    # --- reading ---------------------------------------------------------------------------------
    def events(
        self, sentence: str, log: LogVar, session: str, after: int | None = None
    ) -> tuple[str, list[EventView]]:
        """Call get_events_for_session; return the call's code and the events as views."""
        code = events_code(log.name, session, after)
        kwargs = {} if after is None else {"after_event_id": after}
        result = self.call(sentence, "get_events_for_session", code, log.value, session, **kwargs)
        return code, self.as_views(sentence, code, result)

    def as_views(self, sentence: str, code: str, result: Any) -> list[EventView]:
        try:
            return [event_view(event) for event in plain_sequence(result)]
        except Unreadable as problem:
            outcome = messages.UNREADABLE.format(what=problem.what, value=show(result))
            self.fail(messages.EVENT_READABLE, code, [outcome])

    def event(self, sentence: str, event: EventVar) -> EventView:
        """Read an event returned by append_event as a view."""
        try:
            return event_view(event.value)
        except Unreadable as problem:
            outcome = messages.UNREADABLE.format(what=problem.what, value=show(event.value))
            self.fail(messages.EVENT_READABLE, event.name, [outcome])

    def sessions(self, sentence: str, log: LogVar) -> tuple[str, list[Any]]:
        code = f"list_sessions({log.name})"
        result = self.call(sentence, "list_sessions", code, log.value)
        return code, self.as_list(sentence, code, result)

    def replay(self, sentence: str, log: LogVar, session: str) -> tuple[str, Any]:
        """Call replay_session; return the code and the raw result (may be mutated later)."""
        code = f"replay_session({log.name}, {literal(session)})"
        return code, self.call(sentence, "replay_session", code, log.value, session)

    def as_list(self, sentence: str, code: str, result: Any) -> list[Any]:
        try:
            return [plain(item) for item in plain_sequence(result)]
        except Unreadable as problem:
            outcome = messages.UNREADABLE.format(what=problem.what, value=show(result))
            self.fail(sentence, code, [outcome])

    # --- observing (see grader.observing) ------------------------------------------------------
    def observe(self, log: LogVar, sessions: Iterable[str], replays: bool = True) -> Observation:
        """Every read available to this task on ``log``, as (code, answer) pairs."""
        return observing.observe(self, log, sessions, replays)

    def compare_observations(self, sentence: str, before: Observation, after: Observation) -> None:
        """Fail with ``sentence`` at the first read whose answer changed."""
        observing.compare_observations(self, sentence, before, after)
