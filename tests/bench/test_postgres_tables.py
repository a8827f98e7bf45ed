"""The PostgreSQL section's verdicts are read from its own figures."""

from __future__ import annotations

from benchmarks.http_bench import latencies
from benchmarks.measure import Ratio
from benchmarks.postgres_bench import PostgresFigures, StoreFigures, TurnRate
from benchmarks.postgres_tables import postgres_service_table, postgres_table
from benchmarks.stream_bench import DeliveryPoint


def _figures(versus_raw: float, versus_library: float, delivery_p50: float) -> PostgresFigures:
    store = StoreFigures("ours", latencies([0.002]), 0.01)
    return PostgresFigures(
        None,
        "15.18",
        100,
        (store,),
        Ratio(versus_raw, versus_raw, versus_raw),
        Ratio(versus_library, versus_library, versus_library),
        None,
        (TurnRate(1, 50.0, latencies([0.1])),),
        (DeliveryPoint(1, latencies([delivery_p50])),),
    )


def test_the_append_goal_is_met_at_one_and_a_half_times_raw_and_missed_above() -> None:
    met = postgres_table(_figures(1.5, 0.9, 0.01)).notes
    missed = postgres_table(_figures(1.51, 1.2, 0.01)).notes

    assert any("raw psycopg: 1.50x" in note and note.endswith("met)") for note in met)
    assert any("eventsourcing: 0.90x" in note and note.endswith("met)") for note in met)
    assert any("raw psycopg: 1.51x" in note and note.endswith("missed)") for note in missed)
    assert any("eventsourcing: 1.20x" in note and note.endswith("missed)") for note in missed)


def test_the_delivery_goal_is_judged_on_the_p50_under_20_ms() -> None:
    fast = postgres_service_table(_figures(1.0, 0.5, 0.019)).notes
    slow = postgres_service_table(_figures(1.0, 0.5, 0.021)).notes

    assert fast[-1].endswith("met") and slow[-1].endswith("missed")


def test_a_skipped_section_says_why() -> None:
    table = postgres_table(PostgresFigures(skipped="PostgreSQL is not installed"))

    assert table.rows == [("skipped",)] and table.notes == ["PostgreSQL is not installed"]


def test_a_ratio_whose_middle_half_straddles_the_limit_is_not_settled() -> None:
    figures = _figures(1.0, 1.0, 0.01)
    tied = PostgresFigures(
        None,
        "15.18",
        100,
        figures.stores,
        Ratio(1.4, 1.3, 1.6),
        Ratio(0.9995, 0.91, 1.02),
        None,
        figures.turn_rates,
        figures.delivery,
    )

    notes = postgres_table(tied).notes

    assert any("raw psycopg" in note and note.endswith("not settled)") for note in notes)
    assert any("eventsourcing" in note and note.endswith("not settled)") for note in notes)
