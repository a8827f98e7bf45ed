"""The PostgreSQL section: the store on PostgreSQL against raw psycopg and ``eventsourcing``,
then the service with 1, 2 and 4 servers on one database, then stream delivery across servers.

Everything runs on a throwaway cluster started for the run (``initdb`` as the ``postgres``
user when root, a Unix socket in a temporary folder, no TCP), with fsync on and
``synchronous_commit = on``: every COMMIT waits for the WAL to reach the disk, for all three
systems alike (equal durability). Where PostgreSQL is not installed the section is skipped
and says why.

1. Append and whole-session read at each session size, the systems of
   :mod:`benchmarks.postgres_appenders` taking turns every round of 100 appends (so load
   from elsewhere lands on all of them alike), each in a database of its own: ours, raw
   psycopg (the goal's floor), raw in one statement, raw with a log head, ``eventsourcing``.

2. Turns per second with 1, 2 and 4 ``python -m sqlite_demo serve`` processes on one
   database, clients spread over them, each on its own session.
3. Delivery delay (the event's ``created_at``, taken inside its append, to the frame's
   arrival) with 1 and 100 streams held by one server while another server appends: every
   frame is woken by LISTEN/NOTIFY, across processes.
"""

from __future__ import annotations

import os
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import httpx
import psycopg

from benchmarks.http_bench import Latencies, latencies
from benchmarks.measure import Ratio, median, paired_ratio
from benchmarks.postgres_appenders import (
    QUESTION,
    Appender,
    Eventsourcing,
    Ours,
    RawOneStatement,
    RawPsycopg,
    RawWithHead,
)
from benchmarks.stream_bench import DeliveryPoint, _finish, _start_readers
from sqlite_demo.server import ServerProcess
from sqlite_demo.store.postgres.throwaway import PostgresCluster, find_postgres_binaries

Progress = Callable[[str], None]
#: Appends per system per round.
ROUND: Final = 100


@dataclass(frozen=True, slots=True)
class PostgresPlan:
    """The sizes of the PostgreSQL section: the sessions appended to, the service's."""

    sizes: tuple[int, ...]
    server_counts: tuple[int, ...]
    clients: int
    turn_seconds: float
    reader_counts: tuple[int, ...]
    turns: int


@dataclass(frozen=True, slots=True)
class StoreFigures:
    """One system's appends (per append) and whole-session reads (per read)."""

    system: str
    append: Latencies
    read_seconds: float


@dataclass(frozen=True, slots=True)
class AppendComparison:
    """The systems' appends to one session of ``size`` events, and ours against each.

    Ratios are ours (or the head's) over the other's per-round median append time.
    """

    size: int
    stores: tuple[StoreFigures, ...]
    versus_raw: Ratio
    versus_one_statement: Ratio
    head_over_one_statement: Ratio
    versus_eventsourcing: Ratio | None
    load: tuple[float, float]


@dataclass(frozen=True, slots=True)
class TurnRate:
    """Turns per second with ``servers`` server processes on one database."""

    servers: int
    turns_per_second: float
    turn: Latencies


@dataclass(frozen=True, slots=True)
class PostgresFigures:
    """Everything the PostgreSQL section measured, or why it did not run."""

    skipped: str | None
    server_version: str = ""
    appends: tuple[AppendComparison, ...] = ()
    eventsourcing_skipped: str | None = None
    turn_rates: tuple[TurnRate, ...] = ()
    delivery: tuple[DeliveryPoint, ...] = ()


def run_postgres_benchmark(plan: PostgresPlan, progress: Progress) -> PostgresFigures:
    """Run the section on a throwaway cluster; skipped, with the reason, without PostgreSQL."""
    binaries = find_postgres_binaries()
    if binaries is None:
        reason = "PostgreSQL is not installed (apt-get install postgresql)"
        progress(f"postgres: skipped: {reason}")
        return PostgresFigures(skipped=reason)
    cluster = PostgresCluster(binaries, fsync=True)
    try:
        cluster.start()
        return _run(cluster, plan, progress)
    finally:
        cluster.remove()


def _run(cluster: PostgresCluster, plan: PostgresPlan, progress: Progress) -> PostgresFigures:
    with psycopg.connect(cluster.url(), autocommit=True) as connection:
        row = connection.execute("SHOW server_version").fetchone()
    version = str(row[0]).split(" ")[0] if row else "?"
    eventsourcing_skipped = None
    appends = []
    for size in plan.sizes:
        comparison, eventsourcing_skipped = _compare_appends(cluster, size)
        appends.append(comparison)
        for store in comparison.stores:
            progress(
                f"postgres: {size:,} events: {store.system}: append p50"
                f" {store.append.p50 * 1e3:.3f} ms, read {store.read_seconds * 1e3:.1f} ms"
            )
    rates = tuple(_turn_rate(cluster, servers, plan) for servers in plan.server_counts)
    for rate in rates:
        progress(f"postgres: {rate.servers} servers: {rate.turns_per_second:.1f} turns/s")
    delivery = tuple(_delivery(cluster, readers, plan.turns) for readers in plan.reader_counts)
    for point in delivery:
        progress(
            f"postgres: {point.readers} streams: delivery p50 {point.delay.p50 * 1e3:.1f} ms,"
            f" p99 {point.delay.p99 * 1e3:.1f} ms"
        )
    return PostgresFigures(None, version, tuple(appends), eventsourcing_skipped, rates, delivery)


def _compare_appends(cluster: PostgresCluster, size: int) -> tuple[AppendComparison, str | None]:
    appenders: list[Appender] = [
        Ours(cluster.new_database()),
        RawPsycopg(cluster.new_database()),
        RawOneStatement(cluster.new_database()),
        RawWithHead(cluster.new_database()),
    ]
    skipped = None
    try:
        appenders.append(Eventsourcing(cluster))
    except ImportError as error:
        skipped = f"eventsourcing is not installed ({error}): pip install -e '.[bench]'"
    load = os.getloadavg()[0]
    try:
        stores, per_round = _append_and_read(appenders, size)
    finally:
        for appender in appenders:
            appender.close()
    ours, one = per_round["ours"], per_round["raw, one statement"]
    comparison = AppendComparison(
        size,
        tuple(stores),
        paired_ratio(ours, per_round["raw psycopg"]),
        paired_ratio(ours, one),
        paired_ratio(per_round["raw + log head"], one),
        paired_ratio(ours, per_round["eventsourcing"]) if "eventsourcing" in per_round else None,
        (load, os.getloadavg()[0]),
    )
    return comparison, skipped


def _append_and_read(
    appenders: list[Appender], size: int
) -> tuple[list[StoreFigures], dict[str, list[float]]]:
    # Round-robin: each round, each system appends its share, so that load from elsewhere
    # lands on every system alike; a round's median append time is its figure.
    samples: dict[str, list[float]] = {appender.name: [] for appender in appenders}
    per_round: dict[str, list[float]] = {appender.name: [] for appender in appenders}
    for start in range(0, size, ROUND):
        turn = appenders if (start // ROUND) % 2 == 0 else appenders[::-1]
        for appender in turn:
            times = []
            for number in range(start, min(start + ROUND, size)):
                began = time.perf_counter()
                appender.append(number)
                times.append(time.perf_counter() - began)
            samples[appender.name] += times
            per_round[appender.name].append(median(times))
    figures = []
    for appender in appenders:
        reads = []
        for _ in range(5):
            began = time.perf_counter()
            count = appender.read_all()
            reads.append(time.perf_counter() - began)
        assert count == size, (appender.name, count)
        figures.append(
            StoreFigures(appender.name, latencies(samples[appender.name]), median(reads))
        )
    return figures, per_round


@contextmanager
def _servers(
    cluster: PostgresCluster, count: int, max_streams: int = 64
) -> Iterator[list[ServerProcess]]:
    url = cluster.new_database()
    with tempfile.TemporaryDirectory(prefix="bench-postgres-") as name, ExitStack() as stack:
        servers = []
        for number in range(count):
            server = ServerProcess(url, Path(name) / f"server{number}.log", max_streams=max_streams)
            stack.enter_context(server)
            servers.append(server)
        yield servers


def _turn_rate(cluster: PostgresCluster, count: int, plan: PostgresPlan) -> TurnRate:
    with _servers(cluster, count) as servers:
        turn_times: list[list[float]] = [[] for _ in range(plan.clients)]
        start = threading.Barrier(plan.clients + 1)
        stop = threading.Event()

        def talk(number: int) -> None:
            server = servers[number % len(servers)]
            with httpx.Client(base_url=server.url, headers=server.headers, timeout=60) as http:
                session = http.post("/sessions", json={"title": f"client {number}"}).json()["id"]
                start.wait()
                while not stop.is_set():
                    began = time.perf_counter()
                    response = http.post(
                        f"/sessions/{session}/messages", json={"content": QUESTION}
                    )
                    response.raise_for_status()
                    turn_times[number].append(time.perf_counter() - began)

        threads = [threading.Thread(target=talk, args=(n,)) for n in range(plan.clients)]
        for thread in threads:
            thread.start()
        start.wait()
        began = time.perf_counter()
        time.sleep(plan.turn_seconds)
        stop.set()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - began
    every = [seconds for times in turn_times for seconds in times]
    return TurnRate(count, len(every) / elapsed, latencies(every))


def _delivery(cluster: PostgresCluster, readers: int, turns: int) -> DeliveryPoint:
    # Two servers: the streams are held by one, the turns taken through the other, so every
    # frame was woken by a notification from another process.
    with _servers(cluster, 2, max_streams=max(readers, 64)) as (writer, streamer):
        with httpx.Client(base_url=writer.url, headers=writer.headers, timeout=60) as http:
            session = http.post("/sessions", json={"title": "delivery"}).json()["id"]
            reading = _start_readers(streamer, session, readers, "follow", 2 * turns)
            for _ in range(turns):
                response = http.post(f"/sessions/{session}/messages", json={"content": "hi"})
                response.raise_for_status()
                time.sleep(0.02)
        report = _finish(reading)
    return DeliveryPoint(readers, latencies(report.delays))
