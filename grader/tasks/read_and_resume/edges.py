"""Task 2's examples at the edges (issue 28): sessions whose ids hold lone surrogates beside
the characters an encoder would turn them into, or are a subclass of str, or collide in a
checksum or in their first 2,049 characters; reads of newer logs after a branch, and of two
branches of the same length off a log of 2,049 events. (Reads of every size at a power of two
are the ``reads`` property's, on its long session.)
"""

from __future__ import annotations

from hypothesis import strategies as st

from grader.engine.checks import Branching
from grader.engine.plan import Plan
from grader.engine.programs import SPREAD, Append, Block, Program
from grader.engine.properties import Property
from grader.engine.steps import LogVar
from grader.values import Text

#: A subclass of str as the session a reader is asked for, beside the plain id it equals.
TEXT_SESSIONS = Program(
    (Text("a"), "a", Text("b")),
    (
        Append(Text("a"), "user_message", {"content": "one"}),
        Append("b", "user_message", {"content": "two"}),
        Append("a", "user_message", {"content": "three"}),
    ),
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
#: Session ids that look alike to code keying sessions by something shorter than the id:
#: two with one CRC-32 (of their UTF-8), two with one Adler-32, and two that differ only
#: after their first 2,049 characters (a column of 255 or 256, a key cut at 1,024 or
#: 2,048). Each a session of its own: another's events never leak in.
COLLIDING_IDS = ("fqb17i228u", "hh578ntdii", "aca", "bab", "s" * 2049 + "a", "s" * 2049 + "b")
COLLIDING_SESSIONS = Program(
    COLLIDING_IDS, (Block("alternate", 2 * len(COLLIDING_IDS), COLLIDING_IDS, "loop0"),)
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

#: Two branches of the same length off a log of 2,049 events (the filler a session per event,
#: so that a check of the appended session stays short): their reads of the same session,
#: with the same arguments, differ only in the branch's own event. Code that keeps the
#: answers for long logs by the log's length, not the log itself, hands the second branch
#: the first one's events.
LONG_BRANCHES = Branching(
    Program(
        ("a",),
        (Append("a", "user_message", {"content": "first"}), Block(SPREAD, 2048, ("s",), "loop0")),
    ),
    (
        (2, Append("a", "user_message", {"content": "left"})),
        (2, Append("a", "user_message", {"content": "right"})),
    ),
)

PROPERTIES = (
    Property(
        "newer_after_branch",
        st.nothing(),
        newer_after_branch,
        0,
        (NEWER_AFTER_BRANCH, LONG_BRANCHES),
        ("append.branches",),
    ),
)
