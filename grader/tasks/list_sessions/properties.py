"""Task 3's properties: the list after every segment, on every log; twins of session ids;
refused appends that must not open a session; results that are the caller's own.

The boundary programs always run first: 300 sessions one after another (a cache of N
sessions breaks), eight ids that differ only by case, a prefix, a space, a separator or
their Unicode form, thirty sessions with a refused append of every kind between them, and
every session id of the alphabet.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from grader.engine.checks import Branching, branchings
from grader.engine.plan import Plan
from grader.engine.programs import PATTERNS, SPREAD, Block, Program, Style, programs, sweep
from grader.engine.properties import Property
from grader.tasks.list_sessions import edges

# Light: a list of sessions never shows a payload, so long texts would be observed for nothing.
STYLE = Style(
    singles=8, blocks=2, longest=150, sessions=6, patterns=(*PATTERNS, SPREAD), light=True
)
SHORT = Style(singles=5, blocks=1, longest=40, sessions=4, light=True)
CHANGED = "append.old_log_unchanged"
#: Appended (and refused) between segments, each in a session of its own, refused for one of
#: these reasons in turn: (event type, payload, reason).
REFUSALS: tuple[tuple[str, Any, str], ...] = (
    ("system", {"content": "hi"}, "unknown_type"),
    ("user_message", {}, "missing_key"),
    ("user_message", ["content"], "payload_not_mapping"),
    ("tool_call", {"call_id": "c", "name": "", "arguments": "{}"}, "empty_value"),
    ("tool_result", {"call_id": "never", "content": "42"}, "result_without_call"),
    ("assistant_message", {"content": None}, "wrong_value_type"),
)


def listing(plan: Plan, example: tuple[Program, int]) -> None:
    """The list on the empty log and after each segment; bit ``i`` of the mask puts a refused
    append in a new session before segment ``i``; every earlier list read again at the end."""
    program, mask = example
    log = plan.create()
    logs = [log]
    plan.list_sessions(log, repeat=CHANGED)
    for index, segment in enumerate(program.segments):
        if mask >> index & 1:
            event_type, payload, reason = REFUSALS[index % len(REFUSALS)]
            plan.list_sessions(log, repeat="append.refusal_leaves_no_trace")
            plan.refuse(log, f"refused{index}", event_type, payload, reason)
            plan.list_sessions(log, repeat="append.refusal_leaves_no_trace")
        log = (
            plan.block(log, segment) if isinstance(segment, Block) else plan.append(log, segment)[0]
        )
        plan.list_sessions(log, repeat=CHANGED)
        logs.append(log)
    for old in logs:
        plan.list_sessions(old, repeat=CHANGED)


def branches(plan: Plan, example: Branching) -> None:
    """A branch lists its base's sessions and its own, never a sibling's."""
    log = plan.create()
    logs = [log]
    for segment in example.program.segments:
        log = (
            plan.block(log, segment) if isinstance(segment, Block) else plan.append(log, segment)[0]
        )
        logs.append(log)
    for base, append in example.branches:
        plan.list_sessions(logs[base], repeat="append.branches")
        branch, _ = plan.append(logs[base], append)
        plan.list_sessions(branch)
        plan.list_sessions(logs[base], repeat="append.branches")


def result_is_a_copy(plan: Plan, program: Program) -> None:
    """Changing what list_sessions returned reaches nothing the next call returns (on an empty
    log too)."""
    log = plan.create()
    for segment in program.segments:
        log = (
            plan.block(log, segment) if isinstance(segment, Block) else plan.append(log, segment)[0]
        )
    again = plan.reads_of(lambda inner: inner.list_sessions(log))
    plan.list_sessions(log, keep="sessions").shown = True
    plan.mutate("sessions", [], ["shallow"], again, "list.result_is_a_copy")


#: 300 sessions, then the 151st again, then the first: back after 299 others, past what a
#: memory of the last 256 sessions seen would still hold.
MANY = Program(
    ("s",),
    (
        Block(SPREAD, 300, ("s",), "loop0"),
        Block("filler", 3, ("s150",), "loop1"),
        Block("filler", 1, ("s0",), "loop2"),
    ),
)
TWIN_IDS = ("a", "A", "ab", "a ", "é", "e\u0301", "a:b", "a\tb")
TWINS = Program(TWIN_IDS, (Block("alternate", 16, TWIN_IDS, "loop0"),))
EMPTY = Program(("a",), ())
#: Thirty sessions in six blocks: a refused append of each kind goes before each block.
SOME = Program(
    tuple("pqrstu"), tuple(Block(SPREAD, 5, (base,), f"loop{i}") for i, base in enumerate("pqrstu"))
)

PROPERTIES = (
    Property(
        "listing",
        st.tuples(programs(STYLE), st.integers(0, 2**10 - 1)),
        listing,
        18,
        (
            (MANY, 0),
            (TWINS, 1),
            (EMPTY, 0),
            (SOME, 2**6 - 1),
            (sweep(light=True), 0),
            (edges.FAMILIES, 0),
            (edges.JOINED, 0),
        ),
        ("list.sessions", CHANGED),
    ),
    Property("branches", branchings(SHORT), branches, 8, (), ("append.branches",)),
    Property(
        "result_is_a_copy",
        programs(SHORT),
        result_is_a_copy,
        6,
        (EMPTY, TWINS, SOME),
        ("list.result_is_a_copy",),
    ),
    *edges.PROPERTIES,
)
