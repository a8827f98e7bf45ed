"""The PostgreSQL section: the store on PostgreSQL against raw psycopg and ``eventsourcing``,
then the service with 1, 2 and 4 servers on one database, then stream delivery across servers.

Everything runs on a throwaway cluster started for the run (``initdb`` as the ``postgres``
user when root, a Unix socket in a temporary folder, no TCP), with fsync on and
``synchronous_commit = on``: every COMMIT waits for the WAL to reach the disk, for all three
systems alike (equal durability). Where PostgreSQL is not installed the section is skipped
and says why.

1. Append and whole-session read, three systems taking turns every round (so load from
   elsewhere lands on all of them alike), each in a database of its own:

   * ours: :class:`~sqlite_demo.store.postgres.PostgresEventStore`, every rule checked, the
     projection row written, the NOTIFY sent, ids from the log head;
   * raw psycopg, the floor: one ``INSERT`` into an IDENTITY-keyed table and ``COMMIT``;
   * ``eventsourcing``'s ``PostgresApplicationRecorder``: ``insert_events([event])``.

2. Turns per second with 1, 2 and 4 ``python -m sqlite_demo serve`` processes on one
   database, clients spread over them, each on its own session.
3. Delivery delay (the event's ``created_at``, taken inside its append, to the frame's
   arrival) with 1 and 100 streams held by one server while another server appends: every
   frame is woken by LISTEN/NOTIFY, across processes.
"""

from __future__ import annotations

import json
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Protocol

import httpx

from benchmarks.http_bench import Latencies, latencies
from benchmarks.measure import Ratio, median, paired_ratio
from benchmarks.stream_bench import DeliveryPoint, _finish, _start_readers
from sqlite_demo.server import ServerProcess
from sqlite_demo.store.postgres.store import PostgresEventStore
from sqlite_demo.store.postgres.throwaway import PostgresCluster, find_postgres_binaries

Progress = Callable[[str], None]
QUESTION: Final = "how many orders do I have?"


@dataclass(frozen=True, slots=True)
class PostgresPlan:
    """The sizes of the PostgreSQL section."""

    messages: int
    rounds: int
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
    messages: int = 0
    stores: tuple[StoreFigures, ...] = ()
    append_vs_raw: Ratio | None = None
    append_vs_eventsourcing: Ratio | None = None
    eventsourcing_skipped: str | None = None
    turn_rates: tuple[TurnRate, ...] = ()
    delivery: tuple[DeliveryPoint, ...] = ()


class _Appender(Protocol):
    name: str

    def append(self, number: int) -> None: ...

    def read_all(self) -> int: ...

    def close(self) -> None: ...


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
    import psycopg

    with psycopg.connect(cluster.url(), autocommit=True) as connection:
        row = connection.execute("SHOW server_version").fetchone()
    version = str(row[0]).split(" ")[0] if row else "?"
    appenders: list[_Appender] = [
        _Ours(cluster.new_database()),
        _RawPsycopg(cluster.new_database()),
    ]
    eventsourcing_skipped = None
    try:
        appenders.append(_Eventsourcing(cluster))
    except ImportError as error:
        eventsourcing_skipped = (
            f"eventsourcing is not installed ({error}): pip install -e '.[bench]'"
        )
        progress(f"postgres: skipping eventsourcing: {eventsourcing_skipped}")
    try:
        stores, per_round = _append_and_read(appenders, plan)
    finally:
        for appender in appenders:
            appender.close()
    for figures in stores:
        progress(
            f"postgres: {figures.system}: append p50 {figures.append.p50 * 1e3:.2f} ms,"
            f" read of {plan.messages} {figures.read_seconds * 1e3:.1f} ms"
        )
    ours = per_round["ours"]
    versus_raw = paired_ratio(ours, per_round["raw psycopg"])
    versus_library = None
    if "eventsourcing" in per_round:
        versus_library = paired_ratio(ours, per_round["eventsourcing"])
    rates = tuple(_turn_rate(cluster, servers, plan) for servers in plan.server_counts)
    for rate in rates:
        progress(f"postgres: {rate.servers} servers: {rate.turns_per_second:.1f} turns/s")
    delivery = tuple(_delivery(cluster, readers, plan.turns) for readers in plan.reader_counts)
    for point in delivery:
        progress(
            f"postgres: {point.readers} streams: delivery p50 {point.delay.p50 * 1e3:.1f} ms,"
            f" p99 {point.delay.p99 * 1e3:.1f} ms"
        )
    return PostgresFigures(
        None,
        version,
        plan.messages,
        tuple(stores),
        versus_raw,
        versus_library,
        eventsourcing_skipped,
        rates,
        delivery,
    )


def _append_and_read(
    appenders: list[_Appender], plan: PostgresPlan
) -> tuple[list[StoreFigures], dict[str, list[float]]]:
    # Round-robin: each round, each system appends its share, so that load from elsewhere
    # lands on every system alike; a round's median append time is its figure.
    samples: dict[str, list[float]] = {appender.name: [] for appender in appenders}
    per_round: dict[str, list[float]] = {appender.name: [] for appender in appenders}
    share = max(1, plan.messages // plan.rounds)
    for round_number in range(plan.rounds):
        for appender in appenders:
            times = []
            for number in range(round_number * share, (round_number + 1) * share):
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
        assert count == share * plan.rounds, (appender.name, count)
        figures.append(
            StoreFigures(appender.name, latencies(samples[appender.name]), median(reads))
        )
    return figures, per_round


def _content(number: int) -> tuple[str, str]:
    kind = "user_message" if number % 2 == 0 else "assistant_message"
    return kind, f"message {number}: {QUESTION} You have 42 orders."


class _Ours:
    name = "ours"

    def __init__(self, url: str) -> None:
        self.store = PostgresEventStore(url, max_connections=1)
        self.session = self.store.create_session("benchmark").id

    def append(self, number: int) -> None:
        kind, content = _content(number)
        self.store.append_event(self.session, kind, {"content": content})

    def read_all(self) -> int:
        return len(self.store.get_events_for_session(self.session))

    def close(self) -> None:
        self.store.close()


class _RawPsycopg:
    """The floor: one INSERT and COMMIT per message, no rules, no projection, no lock."""

    name = "raw psycopg"

    def __init__(self, url: str) -> None:
        import psycopg

        self.connection = psycopg.connect(url)
        self.connection.execute("SET synchronous_commit = on")
        self.connection.execute(
            "CREATE TABLE events (event_id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
            " session_id TEXT NOT NULL, type TEXT NOT NULL, payload TEXT NOT NULL,"
            " created_at BIGINT NOT NULL)"
        )
        self.connection.execute("CREATE INDEX ON events (session_id, event_id)")
        self.connection.commit()

    def append(self, number: int) -> None:
        kind, content = _content(number)
        self.connection.execute(
            "INSERT INTO events (session_id, type, payload, created_at) VALUES (%s, %s, %s, %s)",
            ("sess_benchmark", kind, json.dumps({"content": content}), int(time.time() * 1000)),
        )
        self.connection.commit()

    def read_all(self) -> int:
        rows = self.connection.execute(
            "SELECT type, payload FROM events WHERE session_id = %s ORDER BY event_id",
            ("sess_benchmark",),
        ).fetchall()
        self.connection.commit()
        return len([json.loads(payload) for _, payload in rows])  # decoded, as ours is

    def close(self) -> None:
        self.connection.close()


class _Eventsourcing:
    """``eventsourcing``'s PostgreSQL recorder, one originator, one event per message."""

    name = "eventsourcing"

    def __init__(self, cluster: PostgresCluster) -> None:
        from eventsourcing.persistence import StoredEvent
        from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore

        database = urllib.parse.urlsplit(cluster.new_database()).path.lstrip("/")
        self.stored_event = StoredEvent
        self.datastore = PostgresDatastore(
            database,
            str(cluster.socket_folder),
            5432,
            "postgres",
            "",
            originator_id_type="text",
        )
        self.recorder = PostgresApplicationRecorder(self.datastore)
        self.recorder.create_table()
        self.version = 0

    def append(self, number: int) -> None:
        kind, content = _content(number)
        self.version += 1
        state = json.dumps({"role": kind, "content": content}).encode()
        self.recorder.insert_events([self.stored_event("benchmark", self.version, kind, state)])

    def read_all(self) -> int:
        events = self.recorder.select_events("benchmark")
        return len([json.loads(event.state) for event in events])

    def close(self) -> None:
        self.datastore.close()


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
