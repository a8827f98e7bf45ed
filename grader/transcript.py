"""The pieces of a transcript: names for learner values, and calls written as Python.

A learner value never leaves the child: the trusted side knows it by the name it has in the
transcript (``log3``, ``e2``), which is also the name the child keeps it under.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from grader import messages
from grader.callserver.codec import encode_argument
from grader.callserver.text import literal
from grader.oracle import ModelEvent, ModelLog
from grader.views import EventView

UNKNOWN_TYPE = "system"


@dataclass(frozen=True)
class LogVar:
    """A learner log: its name (in the transcript and in the child) and the oracle's twin."""

    name: str
    model: ModelLog


@dataclass(frozen=True)
class EventVar:
    """A learner event: its name, what the oracle says it should be, and how it read when
    ``append_event`` returned it (an :class:`EventView`, or the child's unreadable answer)."""

    name: str
    model: ModelEvent
    read: EventView | dict[str, Any]


@dataclass(frozen=True)
class Raised:
    """Learner code raised instead of returning: the exception as the child described it."""

    kind: str
    message: str
    where: str | None
    value_error: bool

    @classmethod
    def from_answer(cls, raised: dict[str, Any]) -> Raised:
        return cls(
            str(raised.get("type")),
            str(raised.get("message", "")),
            raised.get("where"),
            bool(raised.get("value_error")),
        )

    def describe(self) -> str:
        if self.where:
            return messages.RAISED_AT.format(kind=self.kind, message=self.message, where=self.where)
        return messages.RAISED.format(kind=self.kind, message=self.message)


def events_code(log_name: str, session: Any, after: int | None) -> str:
    suffix = "" if after is None else f", after_event_id={after}"
    return f"get_events_for_session({log_name}, {literal(session)}{suffix})"


def append_code(log_name: str, session: Any, event_type: Any, payload_code: str) -> str:
    return f"append_event({log_name}, {literal(session)}, {literal(event_type)}, {payload_code})"


def call_request(
    function: str,
    code: str,
    args: Sequence[Any],
    kwargs: dict[str, Any] | None = None,
    keep: str | list[str] | None = None,
    view: str = "none",
) -> dict[str, Any]:
    """The request that calls ``function``; ``code`` is how the transcript writes the call."""
    return {
        "op": "call",
        "fn": function,
        "args": [encode_argument(arg) for arg in args],
        "kwargs": {key: encode_argument(arg) for key, arg in (kwargs or {}).items()},
        "keep": keep,
        "view": view,
        "code": code,
    }
