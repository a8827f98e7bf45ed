"""Ratios and goal verdicts, computed from made-up figures (no system runs, no clock)."""

from __future__ import annotations

from pathlib import Path

from benchmarks.chat_bench import ChatFigures
from benchmarks.goals import goals_table
from benchmarks.http_bench import HttpFigures, LengthPoint, latencies
from benchmarks.http_tables import length_table, service_table
from benchmarks.results import Results
from benchmarks.scaling import ReplayPoint
from benchmarks.systems import AdapterInfo, ChatStore, LoadedSystem, Role, SystemEntry
from benchmarks.systems.base import Durability
from benchmarks.tables import ratio_table

_INFO = AdapterInfo(api="made up", tail=None, settings="made up")


def _system(name: str, role: Role) -> LoadedSystem:
    def never_opened(directory: Path) -> ChatStore:
        raise AssertionError("these tests run no system")

    return LoadedSystem(SystemEntry(name, "none", None, role), _INFO, never_opened)


def _figures(
    name: str, synchronous: str, append: float, read: float, rounds: tuple[float, ...] = ()
) -> ChatFigures:
    durability = Durability("wal", synchronous, "made up")
    return ChatFigures(name, 1_000, 3, append, read, None, 1, durability, rounds, rounds)


def _results(
    chat: list[ChatFigures],
    replay: list[ReplayPoint] | None = None,
    http: HttpFigures | None = None,
) -> Results:
    roles: dict[str, Role] = {"ours": "ours", "raw": "floor"}
    systems = [_system(f.system, roles.get(f.system.split()[0], "framework")) for f in chat]
    unique = list({system.name: system for system in systems}.values())
    return Results(False, unique, [], chat, [], [], replay or [], [], 1.0, (0.0, 0.0), http)


def _verdicts(results: Results) -> dict[str, tuple[str, str]]:
    return {row[0]: (row[1], row[2]) for row in goals_table(results).rows}


def test_a_framework_is_compared_with_ours_at_its_own_synchronous_setting() -> None:
    results = _results(
        [
            _figures("ours (NORMAL)", "NORMAL", append=1.0, read=1.0),
            _figures("ours (FULL)", "FULL", append=4.0, read=1.0),
            _figures("framework", "FULL", append=8.0, read=3.0),
        ]
    )
    framework = results.figures("framework", 1_000)
    assert framework is not None
    baseline = results.ours_like(framework)
    assert baseline is not None and baseline.system == "ours (FULL)"
    row = next(row for row in ratio_table(results).rows if row[0] == "framework")
    assert row[1:4] == ("ours (FULL)", "2.00", "3.00")


def test_the_append_goal_is_missed_when_ours_takes_over_one_and_a_half_times_raw() -> None:
    results = _results(
        [
            _figures("ours (NORMAL)", "NORMAL", append=1.6, read=1.0),
            _figures("raw (NORMAL)", "NORMAL", append=1.0, read=1.0),
        ]
    )
    measured, verdict = _verdicts(results)["our append within 1.5x of raw sqlite3"]
    assert verdict == "MISSED" and "1.60x" in measured


def test_the_append_goal_is_met_at_exactly_one_and_a_half_times_raw() -> None:
    results = _results(
        [
            _figures("ours (NORMAL)", "NORMAL", append=1.5, read=1.0),
            _figures("raw (NORMAL)", "NORMAL", append=1.0, read=1.0),
        ]
    )
    assert _verdicts(results)["our append within 1.5x of raw sqlite3"][1] == "met"


def test_a_framework_that_reads_faster_than_ours_is_named_in_the_verdict() -> None:
    results = _results(
        [
            _figures("ours (NORMAL)", "NORMAL", append=1.0, read=2.0),
            _figures("quick-reader", "NORMAL", append=3.0, read=1.0),
        ]
    )
    goal = "ahead of every framework on append and read at equal durability"
    measured, verdict = _verdicts(results)[goal]
    assert verdict == "MISSED"
    assert "read: quick-reader at 1,000" in measured and "append" not in measured


def test_the_replay_goal_compares_the_largest_database_with_the_session_alone() -> None:
    replay = [
        ReplayPoint(100, 1, 0.001, 0.001, 0.0, 1),
        ReplayPoint(10**6, 10**4, 0.002, 0.0, 0.0, 1),
    ]
    results = _results([_figures("ours (NORMAL)", "NORMAL", 1.0, 1.0)], replay)
    goal = "replay cost independent of database size (within 1.5x)"
    measured, verdict = _verdicts(results)[goal]
    assert verdict == "MISSED" and measured.startswith("2.00x")


def test_a_verdict_whose_rounds_fall_on_both_sides_of_the_limit_is_not_settled() -> None:
    results = _results(
        [
            _figures("ours (NORMAL)", "NORMAL", 1.45, 1.0, rounds=(1.3, 1.4, 1.45, 1.6, 1.7)),
            _figures("raw (NORMAL)", "NORMAL", 1.0, 1.0, rounds=(1.0,) * 5),
        ]
    )
    measured, verdict = _verdicts(results)["our append within 1.5x of raw sqlite3"]
    assert measured.startswith("worst 1.45x (middle half 1.40-1.60)")
    assert verdict == "met, not settled (middle half on both sides of 1.5)"


def test_a_framework_slower_in_every_round_is_behind_us_and_the_verdict_is_settled() -> None:
    results = _results(
        [
            _figures("ours (NORMAL)", "NORMAL", 1.0, 1.0, rounds=(1.0, 2.0, 1.0)),
            _figures("slow-framework", "NORMAL", 2.0, 2.0, rounds=(1.5, 3.0, 2.5)),
        ]
    )
    goal = "ahead of every framework on append and read at equal durability"
    measured, verdict = _verdicts(results)[goal]
    assert verdict == "met" and "closest" in measured and "behind" not in measured


def _http(short_rounds: tuple[float, ...], long_rounds: tuple[float, ...]) -> HttpFigures:
    health, victim = latencies([0.0005, 0.0006, 0.004]), latencies([0.01] * 99 + [0.2])
    lengths = [
        LengthPoint(30, latencies(short_rounds), short_rounds),
        LengthPoint(6_000, latencies(long_rounds), long_rounds),
    ]
    return HttpFigures(health, 16, 500.0, latencies([0.02]), lengths, 0.0001, victim, 40)


def test_the_http_goals_are_judged_from_their_own_figures() -> None:
    results = _results([], http=_http((0.001,) * 5, (0.0011, 0.0012, 0.0013, 0.0014, 0.0015)))
    verdicts = _verdicts(results)
    assert verdicts["a turn at 6,000 events within 1.5x of one at 30"] == (
        "1.30x (middle half 1.20-1.40) (1.30 ms vs 1.00 ms)",
        "met",
    )
    health = verdicts["GET /health on a kept-alive connection: p50 under 2 ms"]
    assert health == ("p50 0.60 ms, p99 4.00 ms", "met")
    slow = verdicts["one slow message: another session's p99 under 100 ms"]
    assert slow[1] == "MISSED" and slow[0].startswith("p99 200.0 ms over 100 turns")


def test_a_turn_that_slows_down_with_the_session_misses_its_goal() -> None:
    results = _results([], http=_http((0.001, 0.001, 0.001), (0.002, 0.003, 0.0025)))
    measured, verdict = _verdicts(results)["a turn at 6,000 events within 1.5x of one at 30"]
    assert verdict == "MISSED" and measured.startswith("2.50x")


def test_the_http_tables_show_each_length_against_the_shortest() -> None:
    http = _http((0.001, 0.002, 0.001, 0.001, 0.001), (0.002, 0.002, 0.003, 0.001, 0.003))
    rows = length_table(http).rows
    assert [row[0] for row in rows] == ["30", "6,000"]
    assert rows[1][-1] == "2.00x (middle half 1.00-3.00)"
    assert service_table(http).rows[1][-1] == "500 turns/s"
