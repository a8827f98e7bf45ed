"""Pieces properties share: looking at a log, and drawing branches off a program.

A task may only call the functions it declares. :func:`probes` looks at a log with
``append_event`` alone (what task 1 has): a log that never changes gives the same next event
every time, and its open calls can still be answered; :func:`read_back` looks with the
task's reader once it has one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from grader.engine.alphabets import ints
from grader.engine.oracle import OPEN, ModelEvent, ModelLog
from grader.engine.plan import Plan
from grader.engine.programs import (
    Append,
    Block,
    Intent,
    Program,
    Style,
    intents_of,
    programs_of,
    single_on,
)
from grader.engine.steps import AppendStep, LogVar, Step


def probes(
    plan: Plan,
    log: LogVar,
    role: str = "old_log_unchanged",
    first_role: str | None = None,
    only: str | None = None,
) -> list[Step]:
    """Steps (not added) that see a change to ``log`` with append_event alone: the next plain
    event, an answer to each session's first open call, a new call named ``changed`` (the
    value the changes write) in each session that made calls (in session ``only`` alone, when
    given: the others are probed where every log is).

    The first probe of a log is judged against the oracle (a wrong one breaks
    ``append.<first_role>``, by default ``role``); each later one against that first one (a
    log that never changes gives the same event every time): two that differ break
    ``append.<role>``."""
    model = log.model
    sessions = list(dict.fromkeys(session for session, _ in model.calls))
    if only is not None:
        sessions = [session for session in sessions if session == only]
    appends = [Append("probe", "user_message", {"content": "probe"})]
    for session in sessions:
        open_calls = model.calls_in(session, OPEN)
        if open_calls:
            appends.append(
                Append(session, "tool_result", {"call_id": open_calls[0], "content": "probe"})
            )
        if model.call_state(session, "changed") == "unused":
            payload = {"call_id": "changed", "name": "probe", "arguments": "{}"}
            appends.append(Append(session, "tool_call", payload))
    steps: list[Step] = []
    for append in appends:
        _, event = model.append(append.session_id, append.event_type, append.payload)
        # The role names the promise a difference breaks, not what is compared: a probe
        # is compared with the same probe of the same log made earlier, whatever its role.
        key = ("probe", log.name, append.session_id, append.event_type)
        steps.append(
            AppendStep(
                log,
                append,
                event,
                None,
                None,
                plan.strict,
                role,
                shown=False,
                key=key,
                first_role=first_role,
            )
        )
    return steps


def add_probes(
    plan: Plan,
    log: LogVar,
    role: str = "old_log_unchanged",
    first_role: str | None = None,
    only: str | None = None,
) -> None:
    plan.steps.extend(probes(plan, log, role, first_role, only))


def read_back(plan: Plan, log: LogVar, sessions: list[str], function: str) -> list[Step]:
    """Steps (not added) reading every session of ``log`` with ``function``."""

    def build(inner: Plan) -> None:
        if function == "get_events_for_session":
            for session in sessions:
                inner.read_events(log, session)
        elif function == "list_sessions":
            inner.list_sessions(log)
        else:
            for session in sessions:
                inner.replay(log, session)

    return plan.reads_of(build)


@dataclass(frozen=True)
class Branching:
    """A program, then appends each made to one of the logs the program made."""

    program: Program
    branches: tuple[tuple[int, Append], ...]


@st.composite
def branchings(draw: st.DrawFn, style: Style, most: int = 3) -> Branching:
    """A program, then one to ``most`` branches off logs it made (``log0`` included), each
    valid on the log it extends."""
    program = draw(programs_of(style, least=1))
    models = [ModelLog()]
    for segment in program.segments:
        models.append(
            models[-1].extend(segment.appends() if isinstance(segment, Block) else [segment])
        )
    branches = []
    for _ in range(draw(ints(1, most))):
        base = draw(ints(0, len(program.segments)))
        intent: Intent = draw(intents_of(style))
        branches.append((base, single_on(list(program.family), intent, models[base])))
    return Branching(program, tuple(branches))


#: A session whose payloads take more than this many bytes of JSON beyond an ordinary
#: event's is heavy: read whole once, and otherwise only where a read returns a few of its
#: events. (A long session of ordinary events is not heavy: its size is what is checked.)
HEAVY = 4096
ORDINARY_EVENT = 64


def heavy(events: Iterable[ModelEvent], limit: int = HEAVY) -> bool:
    """Whether the payloads of ``events`` take more than ``limit`` bytes as JSON beyond
    :data:`ORDINARY_EVENT` bytes each, roughly (what observing them costs past what any
    session of that length costs), counting no further than needed."""
    payloads = [event.payload for event in events]
    left = limit + ORDINARY_EVENT * len(payloads)
    stack: list[Any] = payloads
    while stack and left >= 0:
        value = stack.pop()
        if isinstance(value, str):
            left -= len(value) + 3
        elif isinstance(value, Mapping):
            left -= 2 + len(value)
            stack += [*value.keys(), *value.values()]
        elif isinstance(value, list | tuple):
            left -= 2 + len(value)
            stack += value
        else:
            left -= 4
    return left < 0


def each_log(build: Callable[[Plan, LogVar], None]) -> Callable[[Plan, list[LogVar]], None]:
    """Apply ``build`` to every log."""

    def apply(plan: Plan, logs: list[LogVar]) -> None:
        for log in logs:
            build(plan, log)

    return apply
