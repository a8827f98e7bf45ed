"""The stream section's tables: delivery delay by number of readers, and the long catch-up."""

from __future__ import annotations

from benchmarks.http_tables import latency_cells
from benchmarks.stream_bench import StreamFigures
from benchmarks.tables import Table


def delivery_table(streams: StreamFigures) -> Table:
    """How soon an event written through the server reaches each of N readers."""
    rows = [(f"{point.readers:,}", *latency_cells(point.delay)) for point in streams.delivery]
    headers = ("Readers of the session", "Deliveries", "p50 (ms)", "p99 (ms)", "Range (ms)")
    notes = [
        "One session, N readers following its stream from a process of their own; a writer"
        " takes turns in it through the same server, one at a time.",
        "Delay: arrival at the reader less the event's created_at (unix ms, stamped before"
        " the INSERT, so it includes the commit and rounds up by at most 1 ms).",
    ]
    return Table("Delivery delay of the event stream (HTTP)", headers, rows, notes)


def catch_up_table(streams: StreamFigures) -> Table:
    """N readers catching up one long session at once, and the server meanwhile."""
    figures = streams.catch_up
    health = figures.health
    rows = [
        (
            f"{figures.streams} x {figures.events:,} events",
            f"{figures.seconds:,.1f}",
            f"{figures.mebibytes:,.0f}",
            f"{health.p50 * 1e3:,.1f}",
            f"{health.p99 * 1e3:,.1f}",
            f"{figures.memory_before_mb:,.0f}",
            f"{figures.memory_peak_mb:,.0f}",
            f"{figures.memory_after_mb:,.0f}",
        )
    ]
    headers = (
        "Catch-ups at once",
        "Seconds",
        "MiB sent",
        "/health p50 (ms)",
        "/health p99 (ms)",
        "RSS before (MB)",
        "RSS peak (MB)",
        "RSS after (MB)",
    )
    note = (
        "follow=false streams, all opened at once from a reader process; /health timed"
        f" meanwhile ({health.count:,} calls); RSS is the server's VmRSS."
    )
    return Table("A long session caught up by many streams at once (HTTP)", headers, rows, [note])
