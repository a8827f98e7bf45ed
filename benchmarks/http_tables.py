"""The HTTP section's tables: the service under load, and turn latency against session length."""

from __future__ import annotations

from benchmarks.http_bench import HttpFigures, Latencies
from benchmarks.tables import Table


def service_table(http: HttpFigures) -> Table:
    """Requests against a real server process: health, 16 clients, one slow message."""
    rows = [
        ("GET /health, one kept-alive connection", *latency_cells(http.health), "-"),
        (
            f"{http.clients} clients, one order turn each at a time",
            *latency_cells(http.turn),
            f"{http.turns_per_second:,.0f} turns/s",
        ),
        (
            "one client's turns beside 64 KiB worst-case posts",
            *latency_cells(http.victim),
            f"{http.heavy_posts:,} posts",
        ),
    ]
    headers = ("Requests", "Count", "p50 (ms)", "p99 (ms)", "Range (ms)", "Throughput")
    floor = http.floor_turn_seconds * 1e3
    notes = [
        "python -m sqlite_demo serve (uvicorn) on a fresh file each; clients are threads of"
        " the benchmark on the same machine, with their own kept-alive connections.",
        f"An order turn is 4 appends; the raw-sqlite3 floor of those appends is {floor:.2f} ms.",
    ]
    return Table("The service over HTTP", headers, rows, notes)


def length_table(http: HttpFigures) -> Table:
    """Turn latency against the session's length, with each length's ratio to the shortest."""
    shortest = http.by_length[0]
    rows = []
    for point in http.by_length:
        rows.append(
            (f"{point.events:,}", *latency_cells(point.turn), str(point.ratio_to(shortest)))
        )
    headers = ("Events in session", "Turns", "p50 (ms)", "p99 (ms)", "Range (ms)", "x shortest")
    note = (
        "One order turn at a time, round-robin across the sessions; each session was built by"
        " the agent before the server started and had one untimed turn first."
    )
    return Table("Turn latency against session length (HTTP)", headers, rows, [note])


def latency_cells(latency: Latencies) -> tuple[str, str, str, str]:
    """Count, p50, p99 and range of ``latency``, in milliseconds, as table cells."""
    return (
        f"{latency.count:,}",
        f"{latency.p50 * 1e3:,.2f}",
        f"{latency.p99 * 1e3:,.2f}",
        f"{latency.low * 1e3:,.2f}-{latency.high * 1e3:,.2f}",
    )
