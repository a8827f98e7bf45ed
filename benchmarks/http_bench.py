"""The service over HTTP: a real ``python -m sqlite_demo serve`` process, driven by clients.

Four measurements, each against a fresh server on a fresh database file:

1. ``GET /health`` on one kept-alive connection: the fixed cost of any request.
2. Turns per second with 16 concurrent clients (threads of this process), each on its own
   session and kept-alive connection, with the latency of every turn (p50, p99).
3. Turn latency against session length: sessions of 30 up to 6,000 events, built by the
   agent itself before the server starts, then timed turn by turn, round-robin across the
   lengths, so a burst of load from elsewhere lands on every length alike.
4. One slow message: one session's turns while other clients post 64 KiB messages built to
   be the worst case for a backtracking pattern ("订单" repeated, never followed by "数量").

A turn is the order question: the user's message, the tool call, its result and the reply,
four appends. Its raw-sqlite3 floor is those four appends, each ``BEGIN IMMEDIATE``,
``INSERT``, ``COMMIT`` on the same schema and pragmas, without HTTP, model or rules.
"""

from __future__ import annotations

import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Final, TypeVar

import httpx

from benchmarks.measure import Ratio, median, paired_ratio, time_once
from benchmarks.systems.raw_sqlite import RawSqlite
from benchmarks.workload import chat_messages
from sqlite_demo.server import ServerProcess
from sqlite_demo.service.agent import Agent
from sqlite_demo.store.sqlite.store import SqliteEventStore

QUESTION: Final = "how many orders do I have?"
#: 65,532 bytes of UTF-8: "订单" (orders) over and over, never followed by a count word.
WORST_CASE_MESSAGE: Final = "订单" * 10922

Progress = Callable[[str], None]
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Latencies:
    """Request times in seconds: how many, the median, the 99th percentile, and the range."""

    count: int
    p50: float
    p99: float
    low: float
    high: float


def latencies(samples: Sequence[float]) -> Latencies:
    """Summarise ``samples`` (at least one)."""
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return Latencies(len(ordered), median(ordered), p99, ordered[0], ordered[-1])


@dataclass(frozen=True, slots=True)
class LengthPoint:
    """Turns timed on a session that held ``events`` events when the timing began.

    ``samples`` are the turn times in round order; round i of every length ran together.
    """

    events: int
    turn: Latencies
    samples: tuple[float, ...]

    def ratio_to(self, shortest: LengthPoint) -> Ratio:
        """Return this length's turn times over ``shortest``'s, paired round by round."""
        return paired_ratio(self.samples, shortest.samples, (self.turn.p50, shortest.turn.p50))


@dataclass(frozen=True, slots=True)
class HttpPlan:
    """The sizes of one HTTP run."""

    health_requests: int
    clients: int
    load_seconds: float
    lengths: tuple[int, ...]
    rounds: int
    heavy_clients: int
    slow_seconds: float


@dataclass(frozen=True, slots=True)
class HttpFigures:
    """Everything the HTTP section measured.

    Attributes:
        health: ``GET /health`` on one kept-alive connection.
        clients: concurrent clients of the load test.
        turns_per_second: turns completed per second under that load.
        turn: the latency of those turns.
        by_length: turn latency against session length, smallest first.
        floor_turn_seconds: the raw-sqlite3 floor of one turn (its four appends).
        victim: one session's turns while the heavy clients posted 64 KiB messages.
        heavy_posts: how many such messages they posted meanwhile.
    """

    health: Latencies
    clients: int
    turns_per_second: float
    turn: Latencies
    by_length: list[LengthPoint]
    floor_turn_seconds: float
    victim: Latencies
    heavy_posts: int


def run_http_benchmark(plan: HttpPlan, progress: Progress) -> HttpFigures:
    """Run the four measurements of ``plan``, each on a fresh server and file."""
    with served(_empty) as (target, _):
        health = _time_health(target, plan.health_requests)
    progress(f"http: GET /health p50 {health.p50 * 1e3:.2f} ms on a kept-alive connection")
    with served(_empty) as (target, _):
        per_second, turn = _load(target, plan.clients, plan.load_seconds)
    progress(f"http: {plan.clients} clients, {per_second:,.0f} turns/s")
    with served(lambda store: _grow_sessions(store, plan.lengths)) as (target, sessions):
        by_length = _time_by_length(target, sessions, plan.rounds)
    progress(f"http: turn latency timed at {', '.join(f'{n:,}' for n in plan.lengths)} events")
    with served(_empty) as (target, _):
        victim, posts = _slow_message(target, plan.heavy_clients, plan.slow_seconds)
    progress(f"http: p99 {victim.p99 * 1e3:.1f} ms beside {posts} worst-case messages")
    floor = median([_floor_turn() for _ in range(plan.rounds)])
    return HttpFigures(health, plan.clients, per_second, turn, by_length, floor, victim, posts)


def _empty(store: SqliteEventStore) -> None:
    """Prepare nothing: a server on a new, empty database."""


@dataclass(frozen=True, slots=True)
class Target:
    """A running server: its address, and the token every request carries."""

    url: str
    headers: dict[str, str]

    def client(self, timeout: float | None = 5.0) -> httpx.Client:
        """Return a client of the server that sends the token."""
        return httpx.Client(base_url=self.url, headers=self.headers, timeout=timeout)


@contextmanager
def served(prepare: Callable[[SqliteEventStore], T]) -> Iterator[tuple[Target, T]]:
    """Yield a running server, after ``prepare`` has filled its file through a store.

    The server is ``python -m sqlite_demo serve`` with a token, as anyone would run it.
    """
    with tempfile.TemporaryDirectory(prefix="bench-http-") as name:
        db_path = Path(name) / "agent.db"
        with SqliteEventStore(db_path) as store:
            prepared = prepare(store)
        with ServerProcess(db_path, Path(name) / "server.log") as server:
            yield Target(server.url, server.headers), prepared


def _ok(response: httpx.Response, status: int = 200) -> httpx.Response:
    if response.status_code != status:
        raise RuntimeError(f"{response.request.url}: {response.status_code} {response.text[:200]}")
    return response


def _turn(http: httpx.Client, session: str, content: str = QUESTION) -> None:
    _ok(http.post(f"/sessions/{session}/messages", json={"content": content}))


def _new_session(http: httpx.Client) -> str:
    session: str = _ok(http.post("/sessions", json={"title": "bench"}), 201).json()["id"]
    return session


def _time_health(target: Target, requests: int) -> Latencies:
    with target.client() as http:
        _ok(http.get("/health"))  # the connection is open and warm before the clock starts
        return latencies([time_once(lambda: _ok(http.get("/health"))) for _ in range(requests)])


def _load(target: Target, clients: int, seconds: float) -> tuple[float, Latencies]:
    samples: list[list[float]] = [[] for _ in range(clients)]
    ready, stop = threading.Barrier(clients + 1), threading.Event()

    def client(taken: list[float]) -> None:
        with target.client(timeout=60) as http:
            session = _new_session(http)
            ready.wait()
            while not stop.is_set():
                taken.append(time_once(lambda: _turn(http, session)))

    elapsed = _run_for(seconds, [partial(client, taken) for taken in samples], ready, stop)
    flat = [sample for taken in samples for sample in taken]
    return len(flat) / elapsed, latencies(flat)


def _run_for(
    seconds: float,
    workers: Sequence[Callable[[], None]],
    ready: threading.Barrier,
    stop: threading.Event,
) -> float:
    """Start the workers, wait until all are ready, let them run ``seconds``, stop them."""
    threads = [threading.Thread(target=work) for work in workers]
    for thread in threads:
        thread.start()
    ready.wait()
    began = time.perf_counter()
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join()
    return time.perf_counter() - began


def _grow_sessions(store: SqliteEventStore, lengths: Sequence[int]) -> list[tuple[int, str]]:
    """One session per length, grown by the agent's own turns (valid conversations)."""
    agent, grown = Agent(store), []
    chapter = ("你好", "帮我查一下订单数量", "帮我总结这份文档")  # 2, 4 and 2 events
    for length in lengths:
        session = store.create_session(f"{length} events").id
        events, turns = 0, 0
        while events < length:
            events += len(agent.handle_message(session, chapter[turns % 3]).events)
            turns += 1
        grown.append((events, session))
    return grown


def _time_by_length(
    target: Target, sessions: Sequence[tuple[int, str]], rounds: int
) -> list[LengthPoint]:
    samples: list[list[float]] = [[] for _ in sessions]
    with target.client(timeout=60) as http:
        for _, session in sessions:
            _turn(http, session)  # the server folds each session once; not timed
        for _ in range(rounds):
            for (_, session), taken in zip(sessions, samples, strict=True):
                taken.append(time_once(partial(_turn, http, session)))
    return [
        LengthPoint(events, latencies(taken), tuple(taken))
        for (events, _), taken in zip(sessions, samples, strict=True)
    ]


def _slow_message(target: Target, heavy_clients: int, seconds: float) -> tuple[Latencies, int]:
    victim: list[float] = []
    posts = [0] * heavy_clients
    ready, stop = threading.Barrier(heavy_clients + 2), threading.Event()

    def heavy(index: int) -> None:
        with target.client(timeout=60) as http:
            session = _new_session(http)
            ready.wait()
            while not stop.is_set():
                _turn(http, session, WORST_CASE_MESSAGE)
                posts[index] += 1

    def measured() -> None:
        with target.client(timeout=60) as http:
            session = _new_session(http)
            ready.wait()
            while not stop.is_set():
                victim.append(time_once(lambda: _turn(http, session)))

    workers: list[Callable[[], None]] = [measured]
    workers += [partial(heavy, index) for index in range(heavy_clients)]
    _run_for(seconds, workers, ready, stop)
    return latencies(victim), sum(posts)


def _floor_turn() -> float:
    """The raw-sqlite3 floor of one turn: its four appends, each with its own commit."""
    with tempfile.TemporaryDirectory(prefix="bench-floor-") as name:
        raw = RawSqlite(Path(name), "NORMAL")
        try:
            raw.append_each(chat_messages(8))  # warm: the file and its pages exist
            return time_once(lambda: raw.append_each(chat_messages(4)))
        finally:
            raw.close()
