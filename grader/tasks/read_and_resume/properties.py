"""Task 2's properties: reads at every id boundary, of every session and its twins, on every
log (old ones and branches too), and results that are the caller's own.

The boundary programs always run first: a session of 1,025 events read after 9, 99, 255,
999 and 1,024, and so that exactly 2**n - 1, 2**n and 2**n + 1 of its events come back;
eight sessions whose ids differ by case, a prefix, a space, a separator or their Unicode
form, interleaved; an empty log.
"""

from __future__ import annotations

from grader.engine.alphabets import TWINS
from grader.engine.boundaries import boundaries
from grader.engine.checks import Branching, branchings, heavy, read_back
from grader.engine.oracle import ModelLog
from grader.engine.plan import Plan
from grader.engine.programs import (
    SPREAD,
    Append,
    Block,
    Program,
    Style,
    programs,
    session_of,
    sweep,
)
from grader.engine.properties import Property
from grader.engine.steps import LogVar
from grader.tasks.read_and_resume import edges

# Narrow: a read returns what append_event stored; how wide a payload is, is task 1's business.
STYLE = Style(singles=8, blocks=2, longest=150, sessions=5, narrow=True)
SHORT = Style(singles=5, blocks=1, longest=40, narrow=True)
#: Id boundaries where hand-made numbering or caching tends to break.
BOUNDARIES = (9, 10, 99, 100, 255, 256, 999, 1000)
#: How many events a resume read returns, just past where a reader might stop (a page of
#: 20, 32, 64, 100, 256 or 1,000).
PAGE_SIZES = (21, 33, 65, 101, 257, 1001)
#: A session longer than this is also read for every size at a power of two (see
#: :func:`grader.engine.boundaries.boundaries`): the boundary program's, of 1,025 events.
EVERY_SIZE_PAST = 512
CHANGED = "append.old_log_unchanged"


def afters(model: ModelLog, session: str) -> list[int | None]:
    """``after_event_id`` values worth trying for one session of ``model``: the edges (0,
    negative, past the end, huge), the session's own last ids, another session's id, and the
    boundaries (9, 99, 255, 999, ...) where hand-made numbering breaks. A long session is
    read in full twice only; its other reads return a few events each. A heavy one (long
    texts, wide payloads) is read in full once: its other reads return one event at most."""
    values = _afters(model, session)
    events = model.events_for(session)
    if not heavy(events):
        return values
    ids = [event.event_id for event in events]
    return [
        after
        for after in values
        if after is None or sum(1 for event_id in ids if event_id > after) <= 1
    ]


def _afters(model: ModelLog, session: str) -> list[int | None]:
    own = [event.event_id for event in model.events_for(session)]
    top = len(model.events)
    values: set[int | None] = {None, -1, top + 1, 10**12, -(10**12)}
    near_end = own[-1] - 40 if len(own) > 50 else 0
    values |= {boundary for boundary in BOUNDARIES if near_end <= boundary <= top}
    if own:
        values |= {own[-1], own[-1] - 1}
        if len(own) <= 50:
            values |= {0, own[0], own[0] - 1, own[len(own) // 2]}
        # Reads that return just past the page sizes a reader might cap a resume at.
        values |= {own[-(count + 1)] for count in PAGE_SIZES if len(own) > count}
        if len(own) > EVERY_SIZE_PAST:
            # A read of exactly 2**n - 1, 2**n and 2**n + 1 events, for every n.
            values |= {own[-count] - 1 for count in boundaries(len(own))}
    others = [
        event.event_id
        for event in model.events
        if event.session_id != session and event.event_id > near_end
    ]
    if others:
        values |= {others[0], others[-1]}
    return sorted(values, key=lambda value: -(10**13) if value is None else value)


def unused_twins(model: ModelLog, family: tuple[str, ...]) -> list[str]:
    """Ids a step away from the sessions in use (by case, a space, a prefix...) that have no
    events: reading them must give nothing."""
    used = set(model.sessions())
    twins = []
    for session in family[:2]:
        for twin in TWINS[:6]:
            candidate = twin(session)
            if candidate and candidate not in used and candidate not in twins:
                twins.append(candidate)
    return twins[:4]


def tail(log: LogVar, session: str) -> int:
    """An id a few events before the end of ``log``: reading ``session`` after it shows what a
    change in place added to the log, at the cost of a few events (of none, where they are
    heavy: then only what was added shows)."""
    end = len(log.model.events)
    few = max(0, end - 3)
    return end if heavy(log.model.events_for(session, few)) else few


def build(plan: Plan, program: Program) -> tuple[LogVar, list[LogVar]]:
    """Append the program; after each segment, read the end of the session it appended to (a
    read the end of the example repeats, to catch a log that changed)."""
    log = plan.create()
    logs = [log]
    for segment in program.segments:
        if isinstance(segment, Block):
            log = plan.block(log, segment)
        else:
            log, _ = plan.append(log, segment)
        plan.read_events(log, session_of(segment), tail(log, session_of(segment)), repeat=CHANGED)
        logs.append(log)
    return log, logs


def reads(plan: Plan, program: Program) -> None:
    """Every session (and ids next to them) read after every id worth trying."""
    log, logs = build(plan, program)
    for session in [*program.family, *unused_twins(log.model, program.family)]:
        for after in afters(log.model, session):
            plan.read_events(log, session, after)
    for old, segment in zip(logs[1:], program.segments, strict=True):
        plan.read_events(old, session_of(segment), tail(old, session_of(segment)), repeat=CHANGED)


def branches(plan: Plan, example: Branching) -> None:
    """Reads of a branch hold its base's events and its own, and nothing of its siblings."""
    _, logs = build(plan, example.program)
    sessions = list(example.program.family)
    for base, append in example.branches:
        for session in sessions:
            plan.read_events(
                logs[base], session, tail(logs[base], session), repeat="append.branches"
            )
        branch, _ = plan.append(logs[base], append)
        for session in dict.fromkeys([*sessions, append.session_id]):
            plan.read_events(branch, session)
            plan.read_events(
                logs[base], session, tail(logs[base], session), repeat="append.branches"
            )


def fresh_read(plan: Plan, log: LogVar, session: str, promise: str) -> None:
    """Read the whole session with arguments never used before (a negative id of its own):
    code that answers a repeated read from a cache of its first answer would hide a change
    that did reach the log, but cannot answer this one from its cache."""
    plan.read_events(log, session, after=-(10**9) - len(plan.steps), promise=promise)


def results_are_copies(plan: Plan, program: Program) -> None:
    """Changing what a read returned (the sequence, or the payloads in it) reaches nothing:
    for empty results too (an unknown session, an id past the end, an empty log).

    After each change the same session is read again; after all of them, every session."""
    log, _ = build(plan, program)
    sessions = [*program.family[:3], "nobody"]
    for number, session in enumerate(sessions, start=1):
        name = plan.name(f"read{number}")
        after = len(log.model.events) + 1 if session == "nobody" else None
        own = read_back(plan, log, [session], "get_events_for_session")
        plan.read_events(log, session, after, keep=name).shown = True
        for modes in (["shallow"], ["deep"]):
            plan.mutate(name, [], modes, own, "read.result_is_a_copy")
        fresh_read(plan, log, session, "read.result_is_a_copy")
    for session in sessions:
        plan.read_events(log, session)


def appended_values(plan: Plan, program: Program) -> None:
    """What append_event took and gave can be changed by its caller without reaching a read:
    the mapping passed in, the payload of the event returned, its attributes."""
    log = plan.create()
    kept = []
    for segment in program.segments:
        if isinstance(segment, Block):
            log = plan.block(log, segment)
            continue
        name = plan.keep_payload(segment)
        log, event = plan.append(log, segment, payload_ref=name)
        kept.append((name, event, segment.session_id))
    # After each change its own session is read again; after them all, every session.
    for name, event, session in kept:
        again = read_back(plan, log, [session], "get_events_for_session")
        plan.mutate(name, [], ["deep"], again, "append.caller_payload_copied")
        fresh_read(plan, log, session, "append.caller_payload_copied")
        plan.mutate(event.name, [["a", "payload"]], ["deep"], again,
                    "append.payload_read_only")  # fmt: skip
        fresh_read(plan, log, session, "append.payload_read_only")
        plan.mutate(event.name, [], ["attributes"], again, "append.events_are_facts")
        fresh_read(plan, log, session, "append.events_are_facts")
    for session in program.family:
        plan.read_events(log, session)


# --- the boundary programs ------------------------------------------------------------------
#: One session of 1,025 events: read after 9, 99, 255, 999 and 1,024, and for every size.
LONG = Program(
    ("a", "b"),
    (Block("filler", 1025, ("a",), "loop0"), Append("b", "user_message", {"content": "b"})),
)
TWIN_IDS = ("a", "A", "ab", "a ", "é", "e\u0301", "a:b", "a\tb")
TWIN_SESSIONS = Program(TWIN_IDS, (Block("alternate", 40, TWIN_IDS, "loop0"),))
EMPTY = Program(("a",), ())
#: A long session and many sessions: readers that hand out their own list past N items.
#: A session of 1,024 events read and changed by its caller: past 256 and at 1,024, where
#: code that hands a long read out of its own cache (skipping the copy) would share it. (A
#: read of more, 1,025, is LONG's, in ``reads``.)
MANY = Program(
    ("a", "s"), (Block("filler", 1024, ("a",), "loop0"), Block(SPREAD, 30, ("s",), "loop1"))
)
SWEEP = sweep(light=True)

PROPERTIES = (
    Property(
        "reads",
        programs(STYLE),
        reads,
        18,
        (
            LONG,
            TWIN_SESSIONS,
            EMPTY,
            SWEEP,
            edges.SURROGATE_SESSIONS,
            edges.TEXT_SESSIONS,
            edges.COLLIDING_SESSIONS,
        ),
        ("read.session_only", "read.after", CHANGED),
    ),
    Property("branches", branchings(SHORT), branches, 8, (), ("append.branches",)),
    Property(
        "results_are_copies",
        programs(SHORT),
        results_are_copies,
        8,
        (EMPTY, TWIN_SESSIONS, MANY),
        ("read.result_is_a_copy",),
    ),
    Property(
        "appended_values",
        programs(SHORT, least=1),
        appended_values,
        6,
        (),
        ("append.caller_payload_copied", "append.payload_read_only", "append.events_are_facts"),
    ),
    *edges.PROPERTIES,
)
