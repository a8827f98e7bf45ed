"""The PostgreSQL section's verdicts are read from its own figures."""

from __future__ import annotations

from benchmarks.http_bench import latencies
from benchmarks.measure import Ratio
from benchmarks.postgres_bench import AppendComparison, PostgresFigures, StoreFigures, TurnRate
from benchmarks.postgres_tables import postgres_service_table, postgres_table
from benchmarks.stream_bench import DeliveryPoint


def _ratio(value: float) -> Ratio:
    return Ratio(value, value, value)


def _figures(
    versus_raw: Ratio, versus_library: Ratio, delivery_p50: float = 0.01
) -> PostgresFigures:
    store = StoreFigures("ours", latencies([0.002]), 0.01)
    comparison = AppendComparison(
        3_000, (store,), versus_raw, _ratio(1.1), _ratio(1.05), versus_library, (0.5, 0.7)
    )
    return PostgresFigures(
        None,
        "15.18",
        (comparison,),
        None,
        (TurnRate(1, 50.0, latencies([0.1])),),
        (DeliveryPoint(1, latencies([delivery_p50])),),
    )


def test_the_append_goal_is_met_at_one_point_three_times_raw_and_missed_above() -> None:
    met = postgres_table(_figures(_ratio(1.3), _ratio(0.9))).notes
    missed = postgres_table(_figures(_ratio(1.31), _ratio(1.2))).notes

    assert any("raw psycopg: 1.30x" in note and note.endswith("met)") for note in met)
    assert any("eventsourcing: 0.90x" in note and note.endswith("met)") for note in met)
    assert any("raw psycopg: 1.31x" in note and note.endswith("missed)") for note in missed)
    assert any("eventsourcing: 1.20x" in note and note.endswith("missed)") for note in missed)


def test_each_size_says_its_load_and_what_the_log_head_costs() -> None:
    notes = postgres_table(_figures(_ratio(1.0), _ratio(0.9))).notes

    assert any(note.startswith("3,000 events, load 0.50-0.70: append") for note in notes)
    assert any("raw + log head / raw in one statement: 1.05x" in note for note in notes)


def test_the_delivery_goal_is_judged_on_the_p50_under_20_ms() -> None:
    fast = postgres_service_table(_figures(_ratio(1.0), _ratio(0.5), 0.019)).notes
    slow = postgres_service_table(_figures(_ratio(1.0), _ratio(0.5), 0.021)).notes

    assert fast[-1].endswith("met") and slow[-1].endswith("missed")


def test_a_skipped_section_says_why() -> None:
    table = postgres_table(PostgresFigures(skipped="PostgreSQL is not installed"))

    assert table.rows == [("skipped",)] and table.notes == ["PostgreSQL is not installed"]


def test_a_ratio_whose_middle_half_straddles_the_limit_is_not_settled() -> None:
    notes = postgres_table(_figures(Ratio(1.25, 1.2, 1.4), Ratio(0.9995, 0.91, 1.02))).notes

    assert any("raw psycopg" in note and note.endswith("not settled)") for note in notes)
    assert any("eventsourcing" in note and note.endswith("not settled)") for note in notes)
