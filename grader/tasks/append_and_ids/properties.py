"""Task 1's properties: every event as the oracle says, and nothing changing what it should not.

The boundary programs always run first: a log of 1,025 events (ids past 9, 99, 255, 999
and 1,024), three sessions that differ by case and a space taking turns for 260 events, and
payloads nested 60 deep with tuples holding lists, passed as every kind of mapping.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hypothesis import strategies as st

from grader.engine.checks import Branching, add_probes, branchings, heavy, probes, read_back
from grader.engine.plan import Plan
from grader.engine.programs import (
    Append,
    Block,
    Program,
    Style,
    programs,
    session_of,
    sweep,
    tagged,
)
from grader.engine.properties import Property
from grader.engine.steps import EventVar, LogVar, Step
from grader.tasks.append_and_ids import edges
from grader.values import Text

STYLE = Style(singles=8, blocks=1, longest=150)
#: Changing things in place is checked after every change: shorter programs, deeper data.
SHORT = Style(singles=4, blocks=1, longest=40)


def build(
    plan: Plan, program: Program, probe_each: bool = True
) -> tuple[LogVar, list[LogVar], list[EventVar]]:
    """Append the program; with ``probe_each``, probe each log right before the append to it
    and again right after, so that a difference can only come from that append (its calls
    in the session appended to: every session's are probed at the end, on every log). (A
    probe is an append too; the probes at the end, after appends to other logs, see
    branches.)"""
    log = plan.create()
    logs, events = [log], []
    # After a probe, the program's own append is the log's second: a wrong id there means
    # the probe changed the log. The first probe of a log is judged against the oracle: a
    # wrong one means a wrong id, or (past the first log) that the probe of its parent after
    # it was made, an append to an older log, changed it.
    role = "old_log_unchanged" if probe_each else "event_ids"
    for number, segment in enumerate(program.segments):
        previous, session = log, str(session_of(segment))
        if probe_each:
            first = "branches" if number else "event_ids"
            add_probes(plan, previous, first_role=first, only=session)
        if isinstance(segment, Block):
            log = plan.block(log, segment, role)
        else:
            log, event = plan.append(log, segment, role=role)
            events.append(event)
        if probe_each:
            add_probes(plan, previous, only=session)
        logs.append(log)
    return log, logs, events


def appends(plan: Plan, program: Program) -> None:
    """Ids and fields of every event; every log, and every event returned, unchanged by
    the append made to it, and by every append made to another log since (each event with a
    light payload is looked at again: a heavy one would cost its payload again for nothing
    more)."""
    _, logs, events = build(plan, program)
    for old in logs:
        add_probes(plan, old, "branches")
    for event in light(events):
        plan.view(event, "append.branches")


def light(events: list[EventVar]) -> list[EventVar]:
    """The events whose payloads are not heavy (see :func:`grader.engine.checks.heavy`)."""
    return [event for event in events if not heavy([event.ref.model])]


def branches(plan: Plan, example: Branching) -> None:
    """Appending to an older log gives that log's next event and leaves every log as it was."""
    _, logs, _ = build(plan, example.program, probe_each=False)
    for old in logs:
        add_probes(plan, old, "branches")
    for base, append in example.branches:
        branch, _ = plan.append(logs[base], append, role="branches")
        add_probes(plan, branch, "branches")
        add_probes(plan, branch, "branches")
        for old in logs:
            add_probes(plan, old, "branches")


def caller_payload(plan: Plan, program: Program) -> None:
    """Changing the mapping passed to append_event afterwards reaches nothing."""
    log = plan.create()
    kept: list[tuple[str, EventVar]] = []
    for segment in program.segments:
        if isinstance(segment, Block):
            log = plan.block(log, segment)
            continue
        name = plan.keep_payload(segment)
        log, event = plan.append(log, segment, payload_ref=name)
        kept.append((name, event))
    for name, event in kept:
        # After each change, its own event is read; after them all, every event and the
        # log, for a change that reached further than its own event.
        own = plan.reads_of(Plan.view, event, "append.caller_payload_copied")
        change_every_level(plan, name, [], event, own, "append.caller_payload_copied")
    for event in light([event for _, event in kept]):
        plan.view(event, "append.caller_payload_copied")
    add_probes(plan, log)


#: How many levels down a "deep" change follows a value (the kernel's ``mutate.MAX_PATH``):
#: past it, a payload's innermost container is changed on its own, where a copy that stops
#: at some depth would have left the caller's (or a reader's) own container.
FOLLOWED_LEVELS = 64


def change_every_level(
    plan: Plan, name: str, path: list[Any], event: EventVar, reads: list[Step], promise: str
) -> None:
    """Change ``event``'s payload, kept as ``name`` at ``path``, at every level: its innermost
    container on its own first, where it lies deeper than the kernel's deep walk follows (the
    walk's changes at the top, a clear, would leave no path to it), then the walk."""
    deepest = innermost(event.ref.model.payload)
    if len(deepest) > FOLLOWED_LEVELS:
        plan.mutate(name, [*path, *deepest], ["shallow"], reads, promise)
    plan.mutate(name, path, ["deep"], reads, promise)


def innermost(value: Any) -> list[list[Any]]:
    """The path (``["i", key]`` steps) to the deepest container inside ``value``: where a
    copy that stops at some depth would keep what it was given."""
    best: list[list[Any]] = []
    if isinstance(value, Mapping):
        children: list[tuple[Any, Any]] = list(value.items())
    elif isinstance(value, list | tuple):
        children = list(enumerate(value))
    else:
        return best
    for key, child in children:
        if isinstance(child, Mapping | list | tuple):
            below = [["i", key], *innermost(child)]
            if len(below) > len(best):
                best = below
    return best


def payload_read_only(plan: Plan, program: Program) -> None:
    """Changing what an event's payload holds reaches nothing later reads or appends see:
    after the changes, the log is probed and the event's session read again."""
    log, _, events = build(plan, program, probe_each=False)
    for event in events:
        session = str(event.ref.model.session_id)
        reads = [*probes(plan, log), *read_back(plan, log, [session], "get_events_for_session")]
        path = [["a", "payload"]]
        change_every_level(plan, event.name, path, event, reads, "append.payload_read_only")


def events_are_facts(plan: Plan, program: Program) -> None:
    """Assigning to an event's attributes reaches nothing later appends see."""
    log, _, events = build(plan, program, probe_each=False)
    reads = probes(plan, log)
    for event in events:
        plan.mutate(event.name, [], ["attributes"], reads, "append.events_are_facts")


# --- the boundary programs ------------------------------------------------------------------
def _deep(depth: int) -> object:
    value: object = ["leaf", -0.0, 2**70, True]
    for level in range(depth):
        value = (value, []) if level % 3 == 0 else [value] if level % 3 == 1 else {"d": value}
    return value


FOUR = ("a", "b", "c", "d")
#: Ids past 9, 99, 255, 999 and 1,024 (taking turns: a long session is also a slow one to
#: check): every log of 1 to 1,025 events is met where its id is given.
LONG = Program(FOUR, (Block("alternate", 1022, FOUR, "loop0"), Block("filler", 3, ("a",), "loop1")))
TWINS = ("a", "A", "a ")
TAKING_TURNS = Program(
    TWINS,
    (
        Block("alternate", 260, TWINS, "loop0"),
        Append(
            "A", "tool_call", {"call_id": "call_1", "name": "get weather", "arguments": "not json"}
        ),
        Append("a", "tool_call", {"call_id": "call_1", "name": "search", "arguments": "{}"}),
        Block("calls_reversed", 40, ("a ",), "loop3"),
    ),
)
ODD_PAYLOADS = tagged(
    Program(
        ("s", "é"),
        (
            Append("s", "user_message", {"content": "x" * 70_000, "meta": _deep(60)}, "proxy"),
            Append(
                Text("é"),
                "assistant_message",
                {"content": "\r\n\x00\ud800\u202e", "": (["n"],)},
                "mapping",
            ),
            Append(
                "s", "tool_call", {"call_id": "Call 1", "name": "工具", "arguments": "", "n": -0.0}
            ),
            Append(
                "s",
                "tool_result",
                {"call_id": "Call 1", "content": '{"n": 1}', "big": 2**70, "t": True},
            ),
        ),
    )
)
SIBLINGS = Branching(
    Program(
        ("a", "b"),
        (Block("filler", 300, ("a",), "loop0"), Append("b", "user_message", {"content": "hi"})),
    ),
    (
        (0, Append("b", "user_message", {"content": "first"})),
        (1, Append("a", "user_message", {"content": "x"})),
        (1, Append("b", "user_message", {"content": "y"})),
    ),
)

SWEEP = sweep()
PROMISES_SEEN = (
    "append.returns_pair",
    "append.event_attributes",
    "append.event_ids",
    "append.event_fields",
    "append.old_log_unchanged",
)
PROPERTIES = (
    Property(
        "appends",
        programs(STYLE),
        appends,
        15,
        (LONG, TAKING_TURNS, ODD_PAYLOADS, SWEEP),
        PROMISES_SEEN,
    ),
    Property("branches", branchings(STYLE), branches, 10, (SIBLINGS,), ("append.branches",)),
    Property(
        "caller_payload",
        programs(SHORT, least=1),
        caller_payload,
        8,
        (
            ODD_PAYLOADS,
            sweep(light=True),
            edges.WIDE_PAYLOAD,
            edges.DEEP_TO_CHANGE,
            edges.TUPLES_TO_CHANGE,
        ),
        ("append.caller_payload_copied",),
    ),
    Property(
        "payload_read_only",
        programs(SHORT, least=1),
        payload_read_only,
        6,
        (ODD_PAYLOADS, edges.WIDE_PAYLOAD, edges.DEEP_TO_CHANGE, edges.TUPLES_TO_CHANGE),
        ("append.payload_read_only",),
    ),
    Property(
        "events_are_facts",
        programs(SHORT, least=1),
        events_are_facts,
        5,
        (),
        ("append.events_are_facts",),
    ),
    *edges.PROPERTIES,
)

__all__ = ["PROPERTIES", "st"]
