"""A tiny model of the contract: the answers a correct event log gives, computed the plain way.

The grader never imports ``solutions`` or ``eventlog`` (a learner's copy may lack both, and a
grader that shares code with the reference could share its bugs). This model is deliberately
naive: a tuple of events, a linear scan for every question. It is only ever run on the short
programs the properties generate, so clarity beats speed.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

EVENT_TYPES: Final = ("user_message", "assistant_message", "tool_call", "tool_result")

#: Required keys per event type, each mapped to "must the string be non-empty?".
REQUIRED_KEYS: Final[Mapping[str, Mapping[str, bool]]] = {
    "user_message": {"content": False},
    "assistant_message": {"content": False},
    "tool_call": {"call_id": True, "name": True, "arguments": False},
    "tool_result": {"call_id": True, "content": False},
}


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
    """One event as the contract describes it; the payload is a private deep copy."""

    event_id: int
    session_id: str
    type: str
    payload: dict[str, Any] = field(hash=False)


@dataclass(frozen=True)
class ModelLog:
    """The log as a tuple of events in append order."""

    events: tuple[ModelEvent, ...] = ()

    def append(
        self, session_id: str, event_type: str, payload: Mapping[str, Any]
    ) -> tuple[ModelLog, ModelEvent]:
        """Return the longer log and the new event; the caller guarantees the append is valid."""
        event = ModelEvent(len(self.events) + 1, session_id, event_type, _copy(payload))
        return ModelLog((*self.events, event)), event

    def refusal(self, session_id: object, event_type: object, payload: object) -> Refusal | None:
        """Return why the append must be refused, or None when it is valid."""
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
        return self._call_id_refusal(session_id, str(event_type), payload)

    def _call_id_refusal(
        self, session_id: str, event_type: str, payload: Mapping[str, Any]
    ) -> Refusal | None:
        if event_type not in ("tool_call", "tool_result"):
            return None
        state = self.call_state(session_id, payload["call_id"])
        if event_type == "tool_call" and state != "unused":
            return Refusal.CALL_ID_REUSED
        if event_type == "tool_result" and state == "unused":
            return Refusal.RESULT_WITHOUT_CALL
        if event_type == "tool_result" and state == "answered":
            return Refusal.RESULT_ALREADY_GIVEN
        return None

    def call_state(self, session_id: str, call_id: str) -> str:
        """Return "unused", "open" (called, no result yet) or "answered" for a call id."""
        state = "unused"
        for event in self.events_for(session_id):
            if event.type in ("tool_call", "tool_result") and event.payload["call_id"] == call_id:
                state = "open" if event.type == "tool_call" else "answered"
        return state

    def open_calls(self, session_id: str) -> list[str]:
        """Call ids of the session that were called and not yet answered, oldest first."""
        called = [
            e.payload["call_id"] for e in self.events_for(session_id) if e.type == "tool_call"
        ]
        return [call_id for call_id in called if self.call_state(session_id, call_id) == "open"]

    def used_call_ids(self, session_id: str) -> list[str]:
        """Every call id the session's tool_call events used, oldest first."""
        return [e.payload["call_id"] for e in self.events_for(session_id) if e.type == "tool_call"]

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
        return replay_events(self.events_for(session_id))


def _copy(payload: Mapping[str, Any]) -> dict[str, Any]:
    # Payloads here are JSON data; a JSON round trip is a deep copy, and faster than deepcopy.
    copied: dict[str, Any] = json.loads(json.dumps(dict(payload)))
    return copied


def message_for(event: ModelEvent) -> dict[str, Any]:
    """The chat message one event becomes on its own (a tool call as a one-call message)."""
    payload = event.payload
    if event.type == "user_message":
        return {"role": "user", "content": payload["content"]}
    if event.type == "assistant_message":
        return {"role": "assistant", "content": payload["content"]}
    if event.type == "tool_result":
        return {"role": "tool", "tool_call_id": payload["call_id"], "content": payload["content"]}
    call = {
        "id": payload["call_id"],
        "type": "function",
        "function": {"name": payload["name"], "arguments": payload["arguments"]},
    }
    return {"role": "assistant", "content": None, "tool_calls": [call]}


def replay_events(events: list[ModelEvent], merge_runs: bool = True) -> list[dict[str, Any]]:
    """Fold events into messages; ``merge_runs=False`` gives the classic wrong answer."""
    messages: list[dict[str, Any]] = []
    previous_type = None
    for event in events:
        message = message_for(event)
        if merge_runs and event.type == "tool_call" and previous_type == "tool_call":
            messages[-1]["tool_calls"].extend(message["tool_calls"])
        else:
            messages.append(message)
        previous_type = event.type
    return messages
