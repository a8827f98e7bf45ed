"""A trial: the contract's calls (create, append, read) made in the child, written as Python.

Properties drive a :class:`Trial`; when one finds a broken promise it raises
:class:`~grader.failures.PropertyFailure` with the calls made so far, so the report can show
the shrunk counterexample as a program the learner can paste and run. How a call reaches the
child, and what a silent or dead child means, is :class:`grader.asking.Asker`'s business.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, NoReturn

from hypothesis import reject

from grader import messages
from grader.asking import Asker
from grader.callserver.codec import ReadOnlyMapping, Ref
from grader.callserver.text import literal
from grader.oracle import ModelLog
from grader.programs import Append
from grader.transcript import (
    UNKNOWN_TYPE,
    EventVar,
    LogVar,
    Raised,
    append_code,
    call_request,
    events_code,
)
from grader.views import EventView, unreadable, value_of

__all__ = ["EventVar", "LogVar", "Raised", "Trial"]
#: The line a transcript needs to build each kind of payload that is not a dict.
WRAPPER_IMPORTS = {
    "proxy": "from types import MappingProxyType",
    "mapping": "from grader.callserver.codec import ReadOnlyMapping",
}


@dataclass(frozen=True)
class _Planned:
    """An append worked out before it is sent: the names, the code and the request."""

    log: LogVar
    event: EventVar
    append: Append
    code: str
    request: dict[str, Any]


class Trial(Asker):
    """One run of one property against the learner's code, in the contract's words."""

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

    def plan_refusal(self, log: LogVar, session: str) -> tuple[str, dict[str, Any]]:
        """The code and request of an append every implementation must refuse: an unknown
        event type.

        Other tasks use it to check that a refused call leaves no trace in *their* reads. An
        implementation that does not refuse it loses the reject_bad_input task for that; in the
        other tasks the example is simply discarded (see :meth:`settle_refusal`).
        """
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
