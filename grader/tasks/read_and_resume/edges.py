"""Task 2's examples at the edges (issue 28): reads that return exactly 2**n - 1, 2**n and
2**n + 1 events, each result changed by its caller; sessions whose ids hold lone surrogates
beside the characters an encoder would turn them into; and reads of newer logs after a
branch.
"""

from __future__ import annotations

from hypothesis import strategies as st

from grader.engine.checks import Branching
from grader.engine.plan import Plan
from grader.engine.programs import Append, Block, Program
from grader.engine.properties import Property
from grader.engine.sizes import boundaries
from grader.engine.steps import LogVar

#: The longest session read: 1,025 events.
LONGEST = 1025


def read_at_every_size(plan: Plan, program: Program) -> None:
    """The program's first session read after the id that leaves exactly k of its events,
    for every boundary k; each result changed every way a caller could, then read again."""
    log = plan.create()
    for segment in program.segments:
        log = (
            plan.block(log, segment) if isinstance(segment, Block) else plan.append(log, segment)[0]
        )
    session = program.family[0]
    ids = [event.event_id for event in log.model.events_for(session)]
    for count in boundaries(len(ids)):
        after = ids[-count] - 1
        name = plan.name(f"read{count}_")
        again = plan.reads_of(Plan.read_events, log, session, after)
        plan.read_events(log, session, after, keep=name).shown = True
        plan.mutate(name, name, [], ["shallow"], again, "read.result_is_a_copy")


#: One session of 1,025 events, and another's event before it (ids are not positions).
READ_SIZES = Program(
    ("a", "b"),
    (Append("b", "user_message", {"content": "b"}), Block("filler", LONGEST, ("a",), "loop1")),
)

#: Session ids holding lone surrogates, beside what an encoder turns them into ("?", U+FFFD,
#: the escape text, the character a pair encodes): each a session of its own.
SURROGATE_IDS = (
    "\ud800", "?", "\ufffd", "\\ud800", "\udc00", "\ud83d\ude42", "🙂", "\ud83d", "\ude42",
    "a\ud800b", "a?b", "a\ufffdb", "\udcff", "\\udcff",
)  # fmt: skip
SURROGATE_SESSIONS = Program(
    SURROGATE_IDS, (Block("alternate", 2 * len(SURROGATE_IDS), SURROGATE_IDS, "loop0"),)
)


def newer_after_branch(plan: Plan, example: Branching) -> None:
    """Every log the program made is read whole; then each branch is appended, and every log
    newer than its base (the newest too) is read again: it must read as before."""
    log, logs = plan.create(), []
    logs.append(log)
    for segment in example.program.segments:
        log = (
            plan.block(log, segment) if isinstance(segment, Block) else plan.append(log, segment)[0]
        )
        logs.append(log)
    _read_all(plan, logs, example.program.family)
    for base, append in example.branches:
        branch, _ = plan.append(logs[base], append)
        for session in example.program.family:
            plan.read_events(branch, session)
        _read_all(plan, logs[base + 1 :], example.program.family)


def _read_all(plan: Plan, logs: list[LogVar], family: tuple[str, ...]) -> None:
    for log in logs:
        for session in family:
            plan.read_events(log, session, repeat="append.branches")


def _call(session: str, call_id: str) -> Append:
    return Append(session, "tool_call", {"call_id": call_id, "name": "search", "arguments": "{}"})


NEWER_AFTER_BRANCH = Branching(
    Program(
        ("a", "b"),
        (
            Append("a", "user_message", {"content": "one"}),
            Append("b", "user_message", {"content": "two"}),
            _call("a", "c1"),
            Append("a", "tool_result", {"call_id": "c1", "content": "ok"}),
            Append("b", "user_message", {"content": "five"}),
        ),
    ),
    (
        (2, Append("a", "user_message", {"content": "branch of 2"})),
        (1, Append("b", "user_message", {"content": "branch of 1"})),
        (4, Append("a", "user_message", {"content": "branch of 4"})),
    ),
)

PROPERTIES = (
    Property(
        "sizes",
        st.nothing(),
        read_at_every_size,
        0,
        (READ_SIZES,),
        ("read.after", "read.result_is_a_copy"),
    ),
    Property(
        "newer_after_branch",
        st.nothing(),
        newer_after_branch,
        0,
        (NEWER_AFTER_BRANCH,),
        ("append.branches",),
    ),
)
