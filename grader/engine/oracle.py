"""A model of the contract: the answers a correct event log gives, computed the plain way.

The grader never imports ``solutions`` (a learner's copy lacks it, and a grader sharing code
with the reference could share its bugs). The model is a value like the log it describes:
appending returns a new model, so a branch of the learner's log has a branch of the model.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final

EVENT_TYPES: Final = ("user_message", "assistant_message", "tool_call", "tool_result")
TOOL_TYPES: Final = ("tool_call", "tool_result")

#: Required keys per event type, each mapped to "must the string be non-empty?".
REQUIRED_KEYS: Final[Mapping[str, Mapping[str, bool]]] = {
    "user_message": {"content": False},
    "assistant_message": {"content": False},
    "tool_call": {"call_id": True, "name": True, "arguments": False},
    "tool_result": {"call_id": True, "content": False},
}
UNUSED, OPEN, ANSWERED = "unused", "open", "answered"
#: The edges of payload data (see the ``exercises/event_log.py`` docstring): the deepest a
#: payload nests, itself counting as the first level, and the most digits of an int. Past
#: 4,300 digits Python refuses to write an int as text, so a copy through JSON could not keep
#: it: the contract stops there, and the grader never passes one.
MAX_DEPTH: Final = 200
MAX_INT_DIGITS: Final = 4300


class Refusal(enum.Enum):
    """Why the contract says an append must raise ValueError and append nothing."""

    UNKNOWN_TYPE = "unknown_type"
    BAD_SESSION_ID = "bad_session_id"
    PAYLOAD_NOT_MAPPING = "payload_not_mapping"
    MISSING_KEY = "missing_key"
    WRONG_VALUE_TYPE = "wrong_value_type"
    EMPTY_VALUE = "empty_value"
    CALL_ID_REUSED = "call_id_reused"
    RESULT_WITHOUT_CALL = "result_without_call"
    RESULT_ALREADY_GIVEN = "result_already_given"


@dataclass(frozen=True)
class ModelEvent:
    """One event as the contract describes it (the payload as it was given)."""

    event_id: int
    session_id: str
    type: str
    payload: Mapping[str, Any] = field(hash=False, compare=False)


@dataclass(frozen=True)
class ModelLog:
    """The log: its events in append order, and where each (session, call id) stands."""

    events: tuple[ModelEvent, ...] = ()
    calls: Mapping[tuple[str, str], str] = field(
        default_factory=lambda: MappingProxyType({}), compare=False
    )

    def append(
        self, session_id: str, event_type: str, payload: Mapping[str, Any]
    ) -> tuple[ModelLog, ModelEvent]:
        """The longer log and the new event; the caller guarantees the append is valid."""
        event = ModelEvent(len(self.events) + 1, session_id, event_type, payload)
        calls = self.calls
        if event_type in TOOL_TYPES:
            state = OPEN if event_type == "tool_call" else ANSWERED
            calls = MappingProxyType({**calls, (str(session_id), str(payload["call_id"])): state})
        return ModelLog((*self.events, event), calls), event

    def extend(self, appends: Iterable[Any]) -> ModelLog:
        """The log after valid ``appends`` (anything with session_id, event_type, payload)."""
        return self.extended(appends)[0]

    def extended(self, appends: Iterable[Any]) -> tuple[ModelLog, list[ModelEvent]]:
        """The log after valid ``appends``, and their events: :meth:`append` in a loop, but
        in one pass (a loop of a thousand appends would copy the log a thousand times)."""
        events, calls, made = list(self.events), dict(self.calls), []
        for append in appends:
            event = ModelEvent(
                len(events) + 1, append.session_id, append.event_type, append.payload
            )
            events.append(event)
            made.append(event)
            if append.event_type in TOOL_TYPES:
                state = OPEN if append.event_type == "tool_call" else ANSWERED
                calls[(str(append.session_id), str(append.payload["call_id"]))] = state
        return ModelLog(tuple(events), MappingProxyType(calls)), made

    def refusal(self, session_id: object, event_type: object, payload: object) -> Refusal | None:
        """Why the append must be refused, or None when it is valid."""
        if event_type not in EVENT_TYPES:
            return Refusal.UNKNOWN_TYPE
        if not isinstance(session_id, str) or not session_id:
            return Refusal.BAD_SESSION_ID
        if not isinstance(payload, Mapping):
            return Refusal.PAYLOAD_NOT_MAPPING
        for key, must_be_non_empty in REQUIRED_KEYS[str(event_type)].items():
            if key not in payload:
                return Refusal.MISSING_KEY
            if not isinstance(payload[key], str):
                return Refusal.WRONG_VALUE_TYPE
            if must_be_non_empty and not payload[key]:
                return Refusal.EMPTY_VALUE
        if event_type not in TOOL_TYPES:
            return None
        state = self.call_state(session_id, payload["call_id"])
        if event_type == "tool_call":
            return None if state == UNUSED else Refusal.CALL_ID_REUSED
        if state == UNUSED:
            return Refusal.RESULT_WITHOUT_CALL
        return Refusal.RESULT_ALREADY_GIVEN if state == ANSWERED else None

    def call_state(self, session_id: str, call_id: str) -> str:
        """``unused``, ``open`` (called, no result yet) or ``answered``."""
        return self.calls.get((str(session_id), str(call_id)), UNUSED)

    def calls_in(self, session_id: str, state: str) -> list[str]:
        """The session's call ids in ``state``, in the order they were called."""
        return [
            call
            for (session, call), now in self.calls.items()
            if session == session_id and now == state
        ]

    def events_for(self, session_id: str, after_event_id: int = 0) -> list[ModelEvent]:
        """The session's events with an id above ``after_event_id``, oldest first."""
        return [
            e for e in self.events if e.session_id == session_id and e.event_id > after_event_id
        ]

    def sessions(self) -> list[str]:
        """Session ids in order of their first event, each once."""
        return list(dict.fromkeys(e.session_id for e in self.events))

    def replay(self, session_id: str) -> list[dict[str, Any]]:
        """The session as chat messages, consecutive tool calls merged into one message."""
        return replay_of([(e.type, e.payload) for e in self.events_for(session_id)])


def depth_of(value: Any) -> int:
    """How many containers deep ``value`` nests: 0 for a scalar, 1 for a flat list or mapping."""
    if isinstance(value, Mapping):
        return 1 + max((depth_of(item) for item in value.values()), default=0)
    if isinstance(value, list | tuple):
        return 1 + max((depth_of(item) for item in value), default=0)
    return 0


def outside_contract(value: Any) -> str | None:
    """Why ``value``, a payload, is not payload data as the contract defines it (too deep, an
    int of too many digits, a float that is not finite, a key or value of another kind, two
    keys of one mapping that a copy through JSON would merge: a surrogate pair and the
    character it encodes), or None when it is. The grader's examples all are; a test holds
    them to it."""
    if depth_of(value) > MAX_DEPTH:
        return f"nested {depth_of(value)} levels deep"
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, Mapping):
            if not all(isinstance(key, str) for key in item):
                return "a key that is not a str"
            if len({_joined(key) for key in item}) < len(item):
                return "two keys JSON counts as one"
            stack += list(item.values())
        elif isinstance(item, list | tuple):
            stack += list(item)
        elif isinstance(item, float) and not -_INFINITY < item < _INFINITY:
            return "a float that is not finite"
        elif isinstance(item, int) and not isinstance(item, bool) and abs(item) >= _TOO_LONG:
            return f"an int of more than {MAX_INT_DIGITS} digits"
        elif not isinstance(item, str | int | float) and item is not None:
            return f"a {type(item).__name__}"
    return None


def _joined(text: str) -> str:
    """``text`` with each surrogate pair joined into the character it encodes, as JSON does."""
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


_INFINITY = float("inf")
#: The smallest int of more than MAX_INT_DIGITS digits (compared, never written as text).
_TOO_LONG = 10**MAX_INT_DIGITS


def message_for(event_type: str, payload: Mapping[str, Any]) -> dict[str, Any]:
    """The chat message one event becomes on its own (a tool call as a one-call message)."""
    if event_type == "user_message":
        return {"role": "user", "content": payload["content"]}
    if event_type == "assistant_message":
        return {"role": "assistant", "content": payload["content"]}
    if event_type == "tool_result":
        return {"role": "tool", "tool_call_id": payload["call_id"], "content": payload["content"]}
    call = {
        "id": payload["call_id"],
        "type": "function",
        "function": {"name": payload["name"], "arguments": payload["arguments"]},
    }
    return {"role": "assistant", "content": None, "tool_calls": [call]}


def replay_of(
    events: list[tuple[str, Mapping[str, Any]]], merge_runs: bool = True
) -> list[dict[str, Any]]:
    """Fold one session's ``(type, payload)`` pairs into messages; ``merge_runs=False`` gives
    the classic wrong answer (one message per call), for diagnosis."""
    messages: list[dict[str, Any]] = []
    previous = None
    for event_type, payload in events:
        message = message_for(event_type, payload)
        if merge_runs and event_type == "tool_call" and previous == "tool_call":
            messages[-1]["tool_calls"].extend(message["tool_calls"])
        else:
            messages.append(message)
        previous = event_type
    return messages
