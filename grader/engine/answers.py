"""What the kernel answered, as the judge reads it: values, events, and what went wrong.

An answer is a dict the kernel wrote (see :mod:`grader.kernel.plans`). :func:`trouble` turns
the ones that are not a value (an exception, ``exit()``, an unreadable value, ...) into the
outcome a failure shows; :class:`Seen` keeps the learner's events as the judge reads them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from grader.engine.data import Malformed, from_observation, literal
from grader.engine.outcomes import Cause, Said, Status


@dataclass(frozen=True)
class EventView:
    """The four attributes of a learner's event, as plain values."""

    event_id: Any
    session_id: Any
    type: Any
    payload: Any

    def code(self) -> str:
        fields = ", ".join(
            f"{name}={literal(getattr(self, name))}"
            for name in ("event_id", "session_id", "type", "payload")
        )
        return f"Event({fields})"


def event_view(observed: Any) -> EventView:
    """The view of ``[event_id, session_id, type, payload]`` as the kernel observed it.

    Raises:
        Malformed: it is not four fields with a mapping last.
    """
    fields = from_observation(observed)
    if not isinstance(fields, list) or len(fields) != 4 or not isinstance(fields[3], dict):
        raise Malformed()
    return EventView(*fields)


@dataclass(frozen=True)
class Problem:
    """What the judge found wrong with one answer: the promise broken (or a ``cause.*``),
    what to show, and what it costs the task."""

    promise: str
    outcome: tuple[Said, ...] = ()
    status: Status = Status.FAILED


class Skip(Exception):
    """The example cannot be judged by this task (a valid append was refused: another task's
    business); hypothesis discards it."""


def raised(answer: dict[str, Any]) -> Said:
    """The outcome line for an exception learner code raised."""
    details = answer["raised"]
    args = {
        "kind": str(details.get("type", "?")),
        "message": literal(str(details.get("message", ""))),
    }
    if details.get("where"):
        return Said("outcome.raised_at", {**args, "where": str(details["where"])})
    return Said("outcome.raised", args)


def trouble(answer: Any, promise: str, shape: str | None = None) -> Problem | None:
    """The problem with an answer that holds no value, or None when it holds one.

    Args:
        promise: what an exception breaks (what the call should have done).
        shape: what a value of the wrong shape breaks (default: ``promise``).
    """
    if not isinstance(answer, dict):
        return Problem(f"cause.{Cause.BROKEN.value}", (), Status.ERROR)
    if answer.get("not_implemented"):
        return Problem("outcome.not_implemented", (), Status.NOT_IMPLEMENTED)
    if "exit" in answer:
        exited = Said("outcome.called_exit", {"code": str(answer["exit"])[:200]})
        return Problem(f"cause.{Cause.EXITED.value}", (exited,), Status.ERROR)
    if "control" in answer:
        control = Said("outcome.raised_control", {"kind": str(answer["control"])[:100]})
        return Problem(f"cause.{Cause.CONTROL.value}", (control,), Status.ERROR)
    if "too_large" in answer:
        return Problem(promise, (Said("outcome.too_large"),))
    if "raised" in answer:
        if answer["raised"].get("type") == "MemoryError":
            return Problem(f"cause.{Cause.MEMORY.value}", (raised(answer),), Status.ERROR)
        return Problem(promise, (raised(answer),))
    if "unreadable" in answer:
        return Problem(shape or promise, (_unreadable(answer),))
    if "not_pair" in answer:
        shown = Said("outcome.not_a_pair", {"value": str(answer["not_pair"])[:600]})
        return Problem("append.returns_pair", (shown,))
    if "missing" in answer:
        return Problem(f"cause.{Cause.BROKEN.value}", (), Status.ERROR)
    return None


def _unreadable(answer: dict[str, Any]) -> Said:
    what = str(answer.get("unreadable"))
    shown = str(answer.get("shown", ""))[:600]
    if what.startswith("attribute:"):
        return Said("outcome.needs_attribute", {"name": what.split(":", 1)[1], "value": shown})
    if what == "mapping":
        return Said("outcome.needs_mapping", {"value": shown})
    return Said("outcome.needs_sequence", {"value": shown})


def value(answer: dict[str, Any]) -> Any:
    """The plain value an answer holds.

    Raises:
        Malformed: it holds none.
    """
    if "value" not in answer:
        raise Malformed()
    return from_observation(answer["value"])
