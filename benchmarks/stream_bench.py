"""The event stream over HTTP: how soon a committed event reaches its readers, and what a
long session's catch-up costs the server.

1. **Delivery delay.** N readers (1, 50, 200) follow one session's stream; a writer takes
   turns in that session through the same server, one at a time, a short pause apart. For
   every event and every reader: the time it arrived, less the time the server stamped on
   it (``created_at``, unix ms, taken just before the INSERT, so the figure includes the
   commit and is rounded up by at most 1 ms). Each event wakes every reader at once (the
   append signal), so this is the fan-out case: N frames per event.
2. **Catch-up.** 64 readers catch up a 20,000-event session at once (``follow=false``) while
   ``/health`` is timed: how long the catch-ups take, ``/health`` p50 and p99 meanwhile,
   and the server's resident memory before, at its highest, and after they closed.

Readers run on an event loop in a process of their own, so that reading frames never
delays the writer, the ``/health`` probe, or the clock (niced for the catch-up, where they
are the load rather than what is measured).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import httpx

from benchmarks.http_bench import Latencies, latencies
from sqlite_demo.server import ServerProcess
from sqlite_demo.store.sqlite.store import SqliteEventStore

Progress = Callable[[str], None]
_READERS = [sys.executable, "-m", "benchmarks.stream_readers"]


@dataclass(frozen=True, slots=True)
class StreamPlan:
    """The sizes of the stream section."""

    reader_counts: tuple[int, ...]
    turns: int
    catch_up_events: int
    catch_up_streams: int


@dataclass(frozen=True, slots=True)
class DeliveryPoint:
    """Delivery delay with ``readers`` readers following one session: one sample per event
    per reader."""

    readers: int
    delay: Latencies


@dataclass(frozen=True, slots=True)
class CatchUpFigures:
    """``streams`` catch-ups of an ``events``-event session at once, and the server meanwhile."""

    events: int
    streams: int
    seconds: float
    mebibytes: float
    health: Latencies
    memory_before_mb: float
    memory_peak_mb: float
    memory_after_mb: float


@dataclass(frozen=True, slots=True)
class StreamFigures:
    """Everything the stream section measured."""

    delivery: list[DeliveryPoint]
    catch_up: CatchUpFigures


def run_stream_benchmark(plan: StreamPlan, progress: Progress) -> StreamFigures:
    """Measure delivery delay at each reader count, then the long session's catch-up."""
    delivery = []
    for readers in plan.reader_counts:
        point = _delivery(readers, plan.turns)
        progress(
            f"stream: {readers} readers, delivery p50 {point.delay.p50 * 1e3:.1f} ms,"
            f" p99 {point.delay.p99 * 1e3:.1f} ms"
        )
        delivery.append(point)
    catch_up = _catch_up(plan.catch_up_events, plan.catch_up_streams)
    progress(
        f"stream: {catch_up.streams} catch-ups of {catch_up.events:,} events in"
        f" {catch_up.seconds:.1f} s, /health p99 {catch_up.health.p99 * 1e3:.1f} ms"
    )
    return StreamFigures(delivery, catch_up)


def _server(folder: Path, db_path: Path, readers: int) -> ServerProcess:
    return ServerProcess(db_path, folder / "server.log", max_streams=max(readers, 64))


def _delivery(readers: int, turns: int) -> DeliveryPoint:
    with tempfile.TemporaryDirectory(prefix="bench-stream-") as name:
        folder = Path(name)
        with SqliteEventStore(folder / "agent.db") as store:
            session = store.create_session("delivery").id
        with _server(folder, folder / "agent.db", readers) as server:
            reading = _start_readers(server, session, readers, "follow", 2 * turns)
            with httpx.Client(base_url=server.url, headers=server.headers, timeout=60) as http:
                for _ in range(turns):
                    response = http.post(f"/sessions/{session}/messages", json={"content": "hi"})
                    response.raise_for_status()
                    time.sleep(0.02)
            report = _finish(reading)
    return DeliveryPoint(readers, latencies(report.delays))


def _catch_up(events: int, streams: int) -> CatchUpFigures:
    with tempfile.TemporaryDirectory(prefix="bench-catch-up-") as name:
        folder = Path(name)
        session = _long_session(folder / "agent.db", events)
        with _server(folder, folder / "agent.db", streams) as server:
            before = _resident_mb(server.pid)
            reading = _start_readers(server, session, streams, "catch-up", 0)
            health, peak = _probe_while(reading, server)
            report = _finish(reading)
            httpx.get(f"{server.url}/health").raise_for_status()
            after = _resident_mb(server.pid)
    size = report.bytes / 2**20
    return CatchUpFigures(
        events, streams, report.seconds, size, latencies(health), before, peak, after
    )


def _long_session(db_path: Path, events: int) -> str:
    question = "how many orders do I have? I asked before, but the numbers change every hour. "
    with SqliteEventStore(db_path) as store:
        session = store.create_session("long").id
        for turn in range(events // 2):
            store.append_event(session, "user_message", {"content": f"{turn} {question}"})
            store.append_event(session, "assistant_message", {"content": "You have 42 orders."})
    return session


@dataclass(frozen=True, slots=True)
class _Report:
    """What the reader process said at its end."""

    delays: list[float]
    bytes: int
    seconds: float


def _start_readers(
    server: ServerProcess, session: str, count: int, mode: str, events: int
) -> subprocess.Popen[str]:
    environment = {**os.environ, "SQLITE_DEMO_TOKEN": server.token or ""}
    command = [*_READERS, mode, server.url, session, str(count), str(events)]
    if mode == "catch-up":
        # The readers are the load there, not what is measured: niced, so that the server
        # and the /health probe are not kept waiting for a core by them.
        command = ["nice", "-n", "10", *command]
    reading = subprocess.Popen(command, env=environment, stdout=subprocess.PIPE, text=True)
    assert reading.stdout is not None
    if reading.stdout.readline().strip() != "ready":  # every stream has caught up
        raise RuntimeError("the stream readers did not start")
    return reading


def _finish(reading: subprocess.Popen[str]) -> _Report:
    out, _ = reading.communicate(timeout=600)
    if reading.returncode != 0:
        raise RuntimeError(f"stream readers failed: {out[-500:]}")
    report = json.loads(out.strip().splitlines()[-1])
    return _Report(report["delays"], report["bytes"], report["seconds"])


def _probe_while(
    reading: subprocess.Popen[str], server: ServerProcess
) -> tuple[list[float], float]:
    samples: list[float] = []
    peak = _resident_mb(server.pid)
    with httpx.Client(base_url=server.url, timeout=60) as http:
        # At least one probe: a small catch-up (--quick) can end before the first one, and a
        # summary of no samples has no percentiles.
        while not samples or reading.poll() is None:
            began = time.perf_counter()
            http.get("/health").raise_for_status()
            samples.append(time.perf_counter() - began)
            peak = max(peak, _resident_mb(server.pid))
            time.sleep(0.02)
    return samples, peak


def _resident_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for pid {pid}")
