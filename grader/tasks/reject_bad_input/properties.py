"""Task 5's properties: refusals in the middle of long histories, each leaving no trace, and
unusual valid appends accepted.

The tables always run: every bad append that needs no history (unhashable event types among
them), and odd but valid programs (a result 300 events after its call, ids with spaces, an
extra ``call_id`` key on a message, a session id that is a subclass of ``str``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from hypothesis import strategies as st

from grader.engine.oracle import ModelLog, Refusal
from grader.engine.plan import Plan
from grader.engine.programs import Append, Block, Program, Style, programs, sweep, tagged
from grader.engine.properties import Property
from grader.engine.reduce_data import shorter_sequences
from grader.tasks.reject_bad_input import edges
from grader.tasks.reject_bad_input.bad_input import (
    SEPARATORS,
    BadAppend,
    call_trouble,
    every_rule,
    history_free,
)
from grader.tasks.reject_bad_input.refusing import NO_TRACE, build, refuse_all
from grader.values import Text

TOOL_HEAVY = ("tool_call", "tool_result", "user_message", "tool_result", "assistant_message")
#: Light: refusals are about call ids and types; accepting long or odd texts is the business
#: of the acceptance properties, which draw them whole.
STYLE = Style(kinds=TOOL_HEAVY, singles=8, blocks=2, longest=150, light=True)
ODD = Style(singles=8, blocks=1, longest=150)


def refusals(plan: Plan, example: tuple[Program, int]) -> None:
    """After a long history, one bad append of each kind it makes possible: each raises
    ValueError and leaves no trace."""
    program, pick = example
    log = build(plan, program)
    sessions = list(program.family)
    rows = call_trouble(log.model, sessions, pick) + history_free(
        sessions[pick % len(sessions)], log.model, pick
    )
    refuse_all(plan, log, rows, sessions)


def acceptance(plan: Plan, program: Program) -> None:
    """Every valid append, however unusual, is accepted (and read back as it was given)."""
    log = build(plan, program)
    for session in program.family:
        plan.read_events(log, session)


@dataclass(frozen=True)
class RefusalTable:
    """The rows of the refusal table an example holds (every row, until a failure is
    shrunk to the few that show it): the bad appends on an empty log, those next to an open
    call, and the separators whose joined keys are tried."""

    empty: tuple[BadAppend, ...]
    opened: tuple[BadAppend, ...]
    separators: tuple[int, ...]

    def reductions(self) -> Iterator[RefusalTable]:
        """The table with rows cut from one of its parts (see :mod:`grader.engine.shrink`):
        the parts that need a call of their own first, so that a row that fails on the empty
        log is shown there."""
        for part in ("separators", "opened", "empty"):
            for kept in shorter_sequences(getattr(self, part), every_item=True):
                yield replace(self, **{part: tuple(kept)})


def refusal_table(plan: Plan, table: RefusalTable) -> None:
    """Every bad append that needs no history, on an empty log and next to an open call;
    then, for every separator a learner might join keys with, the result that a joined key
    would wrongly let through."""
    empty = plan.create()
    if table.empty:
        refuse_all(plan, empty, list(table.empty), ["a"])
    if table.opened:
        opened, _ = plan.append(empty, _call("a", "call_1"))
        refuse_all(plan, opened, list(table.opened), ["a"])
    if not table.separators:
        return
    log = plan.create()
    rows = []
    for number in table.separators:
        sep = SEPARATORS[number]
        owner, call = f"s{number}" + sep + "b", "c"
        log, _ = plan.append(log, _call(owner, call))
        rows.append(
            BadAppend(
                f"s{number}",
                "tool_result",
                {"call_id": "b" + sep + call, "content": "42"},
                Refusal.RESULT_WITHOUT_CALL.value,
            )
        )
        rows.append(
            BadAppend(
                owner,
                "tool_call",
                {"call_id": call, "name": "again", "arguments": ""},
                Refusal.CALL_ID_REUSED.value,
            )
        )
    refuse_all(plan, log, rows, [])


def _full_table() -> RefusalTable:
    opened, _ = ModelLog().append("a", "tool_call", _call("a", "call_1").payload)
    return RefusalTable(
        tuple(every_rule("a", ModelLog())),
        tuple(every_rule("a", opened)),
        tuple(range(len(SEPARATORS))),
    )


def _unique(rows: list[BadAppend]) -> list[BadAppend]:
    seen, unique = set(), []
    for row in rows:
        key = repr((row.session_id, row.event_type, row.payload))
        if key not in seen:
            seen.add(key)
            unique.append(row)
    return unique


def _call(session: str, call_id: str, name: str = "search", arguments: str = "{}") -> Append:
    return Append(session, "tool_call", {"call_id": call_id, "name": name, "arguments": arguments})


def _result(session: str, call_id: str, content: str = "42") -> Append:
    return Append(session, "tool_result", {"call_id": call_id, "content": content})


def _odd(*appends: Append) -> Program:
    family = tuple(dict.fromkeys(str(a.session_id) for a in appends)) or ("a",)
    return tagged(Program(family, appends))


#: Small programs, each ending in one valid but unusual append, run one by one so that a
#: refusal shows with the shortest history that explains it.
ODD_PROGRAMS: tuple[Program, ...] = (
    _odd(Append("a", "user_message", {"content": ""})),
    _odd(Append("a b", "user_message", {"content": "hi"})),
    _odd(Append(Text("a"), "user_message", {"content": "hi"})),
    _odd(Append("é\x00\u202e", "user_message", {"content": "hi"})),
    _odd(Append("a", "user_message", {"content": "\x00\r\n\ud800"})),
    _odd(Append("a", "user_message", {"content": "x" * 70_000})),
    _odd(Append("a", "assistant_message", {"content": "hi", "call_id": "c1"}), _call("a", "c1")),
    _odd(Append("a", "user_message", {"content": "hi", "meta": {"k": [1, 2]}}, "proxy")),
    _odd(_call("a", "call 1")),
    _odd(_call("a", "c1", "get weather")),
    _odd(_call("a", "c1", "search", "not json")),
    _odd(_call("a", "呼叫")),
    _odd(_call("a", "c1", "工具")),
    _odd(_call("a", "c1", "search", "")),
    tagged(
        Program(("a",), (_call("a", "c1"), _call("a", "C1"), _call("a", "c1 "), _result("a", "C1")))
    ),
    tagged(
        Program(
            ("a", "b"), (_call("a", "c1"), _result("a", "c1"), _call("b", "c1"), _result("b", "c1"))
        )
    ),
    tagged(
        Program(
            ("a:b", "a"),
            (_call("a:b", "c"), _call("a", "b:c"), _result("a", "b:c"), _result("a:b", "c")),
        )
    ),
    tagged(
        Program(
            ("a",), (_call("a", "c1"), Block("filler", 300, ("a",), "loop1"), _result("a", "c1"))
        )
    ),
    tagged(
        Program(
            ("a",),
            (
                Block("calls", 40, ("a",), "loop0"),
                _result("a", "loop0_0"),
                _result("a", "loop0_39"),
            ),
        )
    ),
    tagged(
        Program(
            ("a",),
            (
                _call("a", "c1"),
                Append("a", "tool_result", {"call_id": "c1", "content": ""}, "mapping"),
            ),
        )
    ),
)


def _joins() -> tuple[Program, ...]:
    """For every separator, two sessions whose joined keys collide, each with its own call:
    all valid, since call ids are per session."""
    programs_ = []
    for number, sep in enumerate(SEPARATORS):
        short, long = f"j{number}", f"j{number}" + sep + "b"
        programs_.append(tagged(Program((long, short), (
            _call(long, "c"), _call(short, "b" + sep + "c"), _result(short, "b" + sep + "c"),
            _result(long, "c"), _call(short, "c"), _result(short, "c")))))  # fmt: skip
    return tuple(programs_)


#: Odd but valid values of every kind in one place: a subclass of ``str`` for every string,
#: a ``defaultdict`` payload, and one session past a thousand events.
SUBCLASSES = tagged(
    Program(
        ("a",),
        (
            Append("a", "user_message", {"content": Text("hi")}),
            Append(
                "a",
                "tool_call",
                {"call_id": Text("c1"), "name": Text("search"), "arguments": Text("{}")},
            ),
            Append("a", "tool_result", {"call_id": Text("c1"), "content": Text("42")}),
            Append("a", "assistant_message", {"content": "hi", "extra": ""}, "defaultdict"),
            Append(
                "a",
                "tool_call",
                {"call_id": "c2", "name": "search", "arguments": "{}"},
                "defaultdict",
            ),
        ),
    )
)
LONG_SESSION = tagged(Program(("a",), (Block("filler", 1005, ("a",), "loop"), _call("a", "c"),
                                      _result("a", "c"))))  # fmt: skip


def acceptance_table(plan: Plan, program: Program) -> None:
    """One odd program of the table (each is an example of its own)."""
    build(plan, program)


#: The acceptance table: every odd program, then every alphabet at once, then every join.
ACCEPTANCE_TABLE = (
    *ODD_PROGRAMS, SUBCLASSES, LONG_SESSION, sweep(), *_joins(), edges.TEXT_SUBCLASSES
)  # fmt: skip


PROPERTIES = (
    Property(
        "acceptance_table",
        st.nothing(),
        acceptance_table,
        0,
        ACCEPTANCE_TABLE,
        ("append.accepts_valid",),
    ),
    Property("acceptance", programs(ODD, least=1), acceptance, 12, (), ("append.accepts_valid",)),
    Property(
        "refusal_table",
        st.nothing(),
        refusal_table,
        0,
        (_full_table(),),
        ("append.refuses_bad_input", NO_TRACE),
    ),
    Property(
        "refusals",
        st.tuples(programs(STYLE, least=1), st.integers(0, 63)),
        refusals,
        20,
        ((edges.CALLS_AT_ONCE, 0), (edges.GAPS, 0), (edges.LONG_GAPS, 0)),
        ("append.refuses_bad_input", NO_TRACE),
    ),
    *edges.PROPERTIES,
)
