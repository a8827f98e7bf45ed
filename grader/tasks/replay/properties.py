"""Task 4's properties: replays of tool-heavy sessions (runs of calls past any cap, other
sessions' events inside a run, empty assistant messages before calls, extra keys named like
a message's own), of old logs and sibling branches, and replays that are fresh every time.

The boundary programs always run first: a run of 120 calls answered in reverse, calls of two
sessions interleaved, an empty assistant message followed by calls, results that are JSON.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from grader.engine.checks import Branching, branchings, heavy
from grader.engine.oracle import message_for, replay_of
from grader.engine.plan import Plan
from grader.engine.programs import Append, Block, Program, Style, programs, session_of, sweep
from grader.engine.properties import Property
from grader.engine.steps import Context, LogVar
from grader.tasks.append_and_ids.edges import LONE_SURROGATES
from grader.tasks.replay import edges

KINDS = ("user_message", "assistant_message", "tool_call", "tool_result", "tool_call", "tool_call")
PATTERNS = ("calls", "calls_answered", "calls_reversed", "pairs", "filler", "alternate")
# Narrow: extra keys never reach a message, whatever they hold (their names are what matter).
STYLE = Style(kinds=KINDS, singles=8, blocks=2, patterns=PATTERNS, longest=150, narrow=True)
SHORT = Style(kinds=KINDS, singles=5, blocks=1, patterns=PATTERNS, longest=30, narrow=True)
CHANGED = "append.old_log_unchanged"


def diagnosis(log: LogVar, session: str) -> Callable[[Any, Any, Context], str]:
    """Which rule a wrong replay most plausibly broke: leaked sessions, runs, or the mapping."""

    def diagnose(got: Any, expected: Any, context: Context) -> str:
        model = log.model
        own = model.events_for(session)
        if not own:
            return "replay.isolated"
        mine = [message_for(e.type, e.payload) for e in own]
        others = [message_for(e.type, e.payload) for e in model.events if e.session_id != session]
        if isinstance(got, list) and any(
            m not in mine and m not in expected and m in others for m in got
        ):
            return "replay.isolated"
        if got == replay_of([(e.type, e.payload) for e in own], merge_runs=False):
            return "replay.merge"
        if isinstance(got, list):
            for message, wanted in zip(got, expected, strict=False):
                if message != wanted:
                    return "replay.merge" if _run(message) or _run(wanted) else "replay.mapping"
        return "replay.merge" if any(_run(m) for m in expected) else "replay.mapping"

    return diagnose


def _run(message: Any) -> bool:
    calls = message.get("tool_calls") if isinstance(message, dict) else None
    return isinstance(calls, list) and len(calls) > 1


#: A session this long is replayed at the end only (a replay costs what the session holds).
SHORT_SESSION = 40


def replayed_as_it_grows(log: LogVar, session: str) -> bool:
    """Whether ``session`` of ``log`` is replayed right after an append to it (and again at
    the end): while it is short and light. A long or heavy one is replayed at the end only:
    replaying it after every append would observe its payloads again and again."""
    events = log.model.events_for(session)
    return len(events) <= SHORT_SESSION and not heavy(events)


def build(plan: Plan, program: Program) -> tuple[LogVar, list[LogVar]]:
    """Append the program; after each single append to a short session, replay that session
    (a replay the end of the example repeats, to catch a log that changed)."""
    log = plan.create()
    logs = [log]
    for segment in program.segments:
        if isinstance(segment, Block):
            log = plan.block(log, segment)
        else:
            log, _ = plan.append(log, segment)
            session = segment.session_id
            if replayed_as_it_grows(log, session):
                plan.replay(log, session, repeat=CHANGED, diagnose=diagnosis(log, session))
        logs.append(log)
    return log, logs


def messages(plan: Plan, program: Program) -> None:
    """Every session (and one nobody used) replayed; every earlier replay repeated."""
    log, logs = build(plan, program)
    for session in [*program.family, "nobody"]:
        plan.replay(log, session, diagnose=diagnosis(log, session))
    for old, segment in zip(logs[1:], program.segments, strict=True):
        session = session_of(segment)
        if not isinstance(segment, Block) and replayed_as_it_grows(old, session):
            plan.replay(old, session, repeat=CHANGED, diagnose=diagnosis(old, session))


def branches(plan: Plan, example: Branching) -> None:
    """Sibling branches (often of the same length) replay to their own messages."""
    _, logs = build(plan, example.program)
    made = []
    for base, append in example.branches:
        branch, _ = plan.append(logs[base], append)
        made.append((branch, append.session_id))
    for branch, session in made:
        plan.replay(branch, session, diagnose=diagnosis(branch, session))
    for number, log in enumerate(logs):
        for session in example.program.family[:2]:
            if not heavy(log.model.events_for(session)):  # a heavy one is replayed above
                plan.replay(
                    log, session, repeat="append.branches", diagnose=diagnosis(log, session)
                )
        if number > 4:
            break


def fresh(plan: Plan, program: Program) -> None:
    """Changing what a replay returned, at any depth, never shows in the next replay."""
    log, _ = build(plan, program)
    for number, session in enumerate([*program.family[:3], "nobody"], start=1):
        name = plan.name(f"messages{number}")
        again = plan.reads_of(Plan.replay, log, session)
        plan.replay(log, session, keep=name).shown = True
        plan.mutate(name, [], ["deep"], again, "replay.fresh")


def _call(session: str, call_id: str, name: str = "search") -> Append:
    return Append(session, "tool_call", {"call_id": call_id, "name": name, "arguments": "{}"})


LONG_RUN = Program(("a",), (Block("calls_reversed", 120, ("a",), "loop0"),))
INTERLEAVED = Program(
    ("a", "b"),
    (
        _call("a", "c1"),
        _call("b", "c1"),
        _call("a", "c2"),
        Append("b", "user_message", {"content": "b"}),
        _call("a", "c3"),
        Append("a", "tool_result", {"call_id": "c2", "content": '{"ok": true}'}),
    ),
)
EMPTY_THEN_CALLS = Program(
    ("a",),
    (
        Append("a", "assistant_message", {"content": "", "name": "bot", "tool_calls": []}),
        _call("a", "c1"),
        _call("a", "c2"),
        Append(
            "a",
            "tool_result",
            {"call_id": "c1", "content": "null", "role": "x", "tool_call_id": "y"},
        ),
        Append("a", "assistant_message", {"content": ""}),
        _call("a", "c3"),
    ),
)

#: A replay of 1,025 messages, changed by its caller: past 512 and 1,024, where code that
#: keeps a long replay to hand out again would share the change. (An honest implementation
#: that copies the log per append, correct/c06, builds it in under a second of its 5.)
LONG_REPLAY = Program(("a",), (Block("filler", 1025, ("a",), "loop0"),))
SWEEP = sweep(light=True)
PROPERTIES = (
    Property(
        "messages",
        programs(STYLE),
        messages,
        22,
        (
            LONG_RUN,
            INTERLEAVED,
            EMPTY_THEN_CALLS,
            SWEEP,
            edges.MESSAGE_KEY_EXTRAS,
            edges.TEXT_SESSIONS,
            edges.FOREIGN_EVENTS_IN_A_RUN,
            LONE_SURROGATES,
        ),
        ("replay.mapping", "replay.merge", "replay.isolated", CHANGED),
    ),
    Property("branches", branchings(SHORT), branches, 8, (), ("append.branches",)),
    Property(
        "fresh",
        programs(SHORT),
        fresh,
        10,
        (EMPTY_THEN_CALLS, LONG_RUN, LONG_REPLAY),
        ("replay.fresh",),
    ),
    *edges.PROPERTIES,
)
