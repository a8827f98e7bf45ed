"""The PostgreSQL section's tables: append and read against the floors and a library, with
the goals' verdicts, then the service's turns and deliveries."""

from __future__ import annotations

from typing import Final

from benchmarks.measure import Ratio
from benchmarks.postgres_bench import AppendComparison, PostgresFigures
from benchmarks.tables import Table

#: The goals set for the section, reported met or missed.
APPEND_LIMIT: Final = 1.3
DELIVERY_P50_LIMIT_SECONDS: Final = 0.020


def postgres_table(figures: PostgresFigures) -> Table:
    """Append and read against raw psycopg and eventsourcing, with the goals' verdicts."""
    if figures.skipped is not None:
        return Table("PostgreSQL", ("section",), [("skipped",)], [figures.skipped])
    rows = [
        (
            f"{comparison.size:,}",
            store.system,
            f"{store.append.p50 * 1e3:.3f}",
            f"{store.append.p99 * 1e3:.3f}",
            f"{1 / store.append.p50:,.0f}",
            f"{store.read_seconds * 1e3:.1f}",
        )
        for comparison in figures.appends
        for store in comparison.stores
    ]
    notes = [
        f"PostgreSQL {figures.server_version}, a throwaway cluster on a Unix socket, fsync on,"
        " synchronous_commit on for every system: each COMMIT waits for the WAL on disk.",
        "Each system appends one message per transaction to a session of the size given, in"
        " rounds of 100 that take turns; the read is the whole session, decoded.",
    ]
    for comparison in figures.appends:
        notes += _append_notes(comparison)
    if figures.eventsourcing_skipped is not None:
        notes.append(figures.eventsourcing_skipped)
    headers = ("events", "system", "append p50 ms", "append p99 ms", "appends/s at p50",
               "read ms")  # fmt: skip
    return Table("PostgreSQL: append and whole-session read", headers, rows, notes)


def _append_notes(comparison: AppendComparison) -> list[str]:
    size, (start, end) = f"{comparison.size:,} events", comparison.load
    notes = [
        f"{size}, load {start:.2f}-{end:.2f}: append, ours / raw psycopg:"
        f" {comparison.versus_raw} (goal at most {APPEND_LIMIT}x:"
        f" {_verdict(comparison.versus_raw, APPEND_LIMIT)})",
        f"{size}: append, ours / raw in one statement (autocommit, the least an append can"
        f" cost): {comparison.versus_one_statement}",
        f"{size}: the log head's cost, raw + log head / raw in one statement:"
        f" {comparison.head_over_one_statement}",
    ]
    if comparison.versus_eventsourcing is not None:
        verdict = _verdict(comparison.versus_eventsourcing, 1.0, strictly=True)
        notes.append(
            f"{size}: append, ours / eventsourcing: {comparison.versus_eventsourcing} (goal"
            f" under 1x, ahead of it: {verdict})"
        )
    return notes


def postgres_service_table(figures: PostgresFigures) -> Table:
    """Turns per second by server count, and delivery delay by stream count."""
    rows = [
        (
            f"{rate.servers} server{'s' if rate.servers > 1 else ''}",
            f"{rate.turns_per_second:.1f} turns/s",
            f"p50 {rate.turn.p50 * 1e3:.1f} ms, p99 {rate.turn.p99 * 1e3:.1f} ms",
        )
        for rate in figures.turn_rates
    ]
    rows += [
        (
            f"{point.readers} stream{'s' if point.readers > 1 else ''}",
            "delivery (append to frame)",
            f"p50 {point.delay.p50 * 1e3:.1f} ms, p99 {point.delay.p99 * 1e3:.1f} ms",
        )
        for point in figures.delivery
    ]
    notes = [
        "Turns: clients spread over the servers, each on its own session, one database; a"
        " turn is four appends (question, tool call, result, reply).",
        "Delivery: streams held by one server, turns taken through another: every frame was"
        " woken by LISTEN/NOTIFY across processes.",
    ]
    if figures.delivery:
        p50 = max(point.delay.p50 for point in figures.delivery)
        verdict = "met" if p50 < DELIVERY_P50_LIMIT_SECONDS else "missed"
        notes.append(f"delivery p50 goal under 20 ms: {verdict}")
    return Table("PostgreSQL: the service", ("servers / streams", "what", "figure"), rows, notes)


def _verdict(ratio: Ratio, limit: float, *, strictly: bool = False) -> str:
    # A middle half on both sides of the limit is a tie the rounds could not settle.
    if ratio.straddles(limit):
        return "not settled"
    within = ratio.median < limit if strictly else ratio.median <= limit
    return "met" if within else "missed"
