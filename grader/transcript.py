"""The pieces of a transcript: names for learner values, and calls written as Python."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from grader import messages
from grader.oracle import ModelEvent, ModelLog
from grader.rendering import literal, sanitize

UNKNOWN_TYPE = "system"


@dataclass(frozen=True)
class LogVar:
    """A learner log, the name it has in the transcript, and the oracle's twin of it."""

    value: Any
    name: str
    model: ModelLog


@dataclass(frozen=True)
class EventVar:
    """A learner event, its transcript name, and what the oracle says it should be."""

    value: Any
    name: str
    model: ModelEvent


@dataclass(frozen=True)
class Raised:
    """Learner code raised instead of returning."""

    error: Exception
    where: str | None

    def describe(self) -> str:
        kind, text = type(self.error).__name__, sanitize(str(self.error))
        if self.where:
            return messages.RAISED_AT.format(kind=kind, message=text, where=self.where)
        return messages.RAISED.format(kind=kind, message=text)


def events_code(log_name: str, session: Any, after: int | None) -> str:
    suffix = "" if after is None else f", after_event_id={after}"
    return f"get_events_for_session({log_name}, {literal(session)}{suffix})"


def append_code(log_name: str, session: Any, event_type: Any, payload_code: str) -> str:
    return f"append_event({log_name}, {literal(session)}, {literal(event_type)}, {payload_code})"


def short_path(path: str) -> str:
    try:
        relative = os.path.relpath(path)
    except ValueError:
        return path
    return path if relative.startswith("..") else relative
