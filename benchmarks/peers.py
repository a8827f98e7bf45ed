"""The store against its peers, goal by goal: the SDK's session, raw sqlite3, read-all.

Each goal compares one call of ours with one call of a peer, on stores filled with the same
chat workload, and gives the ratio of their times (ours / theirs) over interleaved rounds:
in each round both are timed back to back, in alternating order, so that load from elsewhere
on the machine lands on both. The ratio is the median of the rounds', with their middle half.

* **The SDK's session** (:class:`~sqlite_demo.EventLogSession` against ``SQLiteSession``, both
  at synchronous FULL, one event loop, each call awaited as an agent awaits it): ``add_items``
  of one item (a round: 100 of them each), ``get_items()`` and ``get_items(limit=20)``.
* **Append at NORMAL**: ``SqliteEventStore.append_event`` against raw sqlite3 on the store's
  own schema and pragmas (:mod:`benchmarks.systems.raw_sqlite`); a round: 100 appends each.
* **Read all**: ``get_events_for_session`` and ``replay_session`` against ``SQLiteSession``'s
  ``get_items()`` and ``eventsourcing``'s ``select_events`` (payloads decoded by each).

Which clock: the process's CPU time (every thread of it, the peers' worker threads included)
for whatever does not wait on the disk, since on a shared machine wall time measures the
queue for the CPU as much as the work; wall time for the appends at FULL, whose cost is the
wait for the disk. The SDK's two reads are given on both clocks, from the same calls: CPU for
the work, wall for what the awaiting agent waits (``SQLiteSession`` hands every call to a
worker thread, whose wake-up is waiting, not work; the issue's own figures were wall). A
peer whose package is missing is left out, and the section says so.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from benchmarks.measure import Ratio, median, paired_ratio
from benchmarks.peer_stores import PeerStores, SdkPair, missing_peers
from benchmarks.workload import chat_messages

#: Items a round adds, per system, before the other system's turn.
SLICE: Final = 100
#: The newest items a limited read asks for (the issue's figure).
TAIL: Final = 20

Progress = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class PeerPlan:
    """The sizes and rounds of the section."""

    sdk_sizes: tuple[int, ...]
    append_sizes: tuple[int, ...]
    read_sizes: tuple[int, ...]
    read_rounds: int
    tail_rounds: int


@dataclass(frozen=True, slots=True)
class PeerFigure:
    """One goal at one size: ours against a peer.

    Attributes:
        goal: what is compared, e.g. ``get_items(limit=20)``.
        ours, theirs: the two calls.
        size: the session's items (or messages) when it was measured.
        ratio: our time over theirs, per round; below 1 is faster than theirs.
        at_most: the goal, on ``ratio``: 1/1.2 for "1.2x faster", 1.3 for "within 1.3x".
        ours_seconds, theirs_seconds: the median time of one call each.
        rounds: how many rounds the ratio is taken over.
        load: the 1-minute load average before and after the goal's rounds.
        clock: ``CPU`` (the process's CPU time) or ``wall``.
    """

    goal: str
    ours: str
    theirs: str
    size: int
    ratio: Ratio
    at_most: float
    ours_seconds: float
    theirs_seconds: float
    rounds: int
    load: tuple[float, float]
    clock: str = "CPU"

    @property
    def met(self) -> bool:
        """Whether the median ratio meets the goal."""
        return self.ratio.median <= self.at_most

    @property
    def settled(self) -> bool:
        """False when the middle half of the rounds lies on both sides of the goal or of 1."""
        return not (self.ratio.straddles(self.at_most) or self.ratio.straddles(1.0))


@dataclass(frozen=True, slots=True)
class PeerFigures:
    """The section's figures, and the peers it could not run."""

    figures: tuple[PeerFigure, ...]
    skipped: tuple[str, ...]


def run_peer_benchmark(plan: PeerPlan, progress: Progress) -> PeerFigures:
    """Measure every goal at every size of ``plan``."""
    skipped = missing_peers()
    for reason in skipped:
        progress(f"peers: skipping {reason}")
    figures: list[PeerFigure] = []
    sdk_installed = not any(reason.startswith("SQLiteSession") for reason in skipped)
    with (
        tempfile.TemporaryDirectory(prefix="bench-peers-") as name,
        PeerStores(Path(name)) as stores,
    ):
        if sdk_installed:
            for size in plan.sdk_sizes:
                figures += asyncio.run(_sdk_goals(stores.sdk_pair(size), size, plan))
                progress(f"peers: SDK sessions at {size:,} items done")
        for size in plan.append_sizes:
            figures.append(_append_goal(stores, size))
            progress(f"peers: append at NORMAL, {size:,} messages done")
        for size in plan.read_sizes:
            figures += _read_goals(stores, size, plan.read_rounds)
            progress(f"peers: read all, {size:,} messages done")
    return PeerFigures(tuple(figures), tuple(skipped))


async def _sdk_goals(pair: SdkPair, size: int, plan: PeerPlan) -> list[PeerFigure]:
    items = [message.as_openai_message() for message in chat_messages(size)]
    load = _load()
    adds: dict[str, list[float]] = {"ours": [], "theirs": []}
    for start in range(0, size, SLICE):
        piece = items[start : start + SLICE]
        for side in _in_turn(start // SLICE):
            session = pair.ours if side == "ours" else pair.theirs
            began = time.perf_counter()
            for item in piece:
                await session.add_items([dict(item)])
            adds[side].append(time.perf_counter() - began)
    add = _figure("add_items([item])", pair, size, adds, 1.0, (load, _load()), SLICE, "wall")
    await pair.check_equal()
    figures = [add]
    for goal, call, at_most, rounds in (
        ("get_items()", lambda session: session.get_items(), 1 / 1.2, plan.read_rounds),
        (f"get_items(limit={TAIL})", lambda session: session.get_items(TAIL), 1 / 5,
         plan.tail_rounds),
    ):  # fmt: skip
        clocks = await _timed_rounds(pair, call, rounds)
        for clock, times in clocks.items():
            figures.append(_figure(goal, pair, size, times, at_most, (load, _load()), 1, clock))
    return figures


async def _timed_rounds(
    pair: SdkPair, call: Callable[[Any], Awaitable[object]], rounds: int
) -> dict[str, dict[str, list[float]]]:
    # Both clocks of the same calls: the CPU the call costs the process, and the time the
    # awaiting agent waits for it (a hand-over to a worker thread and back is mostly the
    # latter: the thread's wake-up, which the load of the machine stretches).
    clocks: dict[str, dict[str, list[float]]] = {
        "CPU": {"ours": [], "theirs": []},
        "wall": {"ours": [], "theirs": []},
    }
    for number in range(rounds):
        for side in _in_turn(number):
            session = pair.ours if side == "ours" else pair.theirs
            began, began_wall = time.process_time(), time.perf_counter()
            await call(session)
            clocks["wall"][side].append(time.perf_counter() - began_wall)
            clocks["CPU"][side].append(time.process_time() - began)
    return clocks


def _append_goal(stores: PeerStores, size: int) -> PeerFigure:
    messages = chat_messages(size)
    ours, raw = stores.ours_appender(), stores.raw_appender()
    load = _load()
    times: dict[str, list[float]] = {"ours": [], "theirs": []}
    for start in range(0, size, SLICE):
        piece = messages[start : start + SLICE]
        for side in _in_turn(start // SLICE):
            appender = ours if side == "ours" else raw
            began = time.process_time()
            appender.append_each(piece)
            times[side].append(time.process_time() - began)
    ours.close()
    raw.close()
    names = ("SqliteEventStore.append_event (NORMAL)", "raw sqlite3 (NORMAL)")
    return _figure("append", names, size, times, 1.3, (load, _load()), per=SLICE)


def _read_goals(stores: PeerStores, size: int, rounds: int) -> list[PeerFigure]:
    readers = stores.readers(size)
    ours = {name: read for name, read in readers.items() if name.startswith("ours")}
    theirs = {name: read for name, read in readers.items() if not name.startswith("ours")}
    load = _load()
    times = _interleaved(readers, rounds)
    figures = []
    for our_call in ours:
        for their_call in theirs:
            paired = {"ours": times[our_call], "theirs": times[their_call]}
            names = (our_call.removeprefix("ours: "), their_call)
            figures.append(_figure("read all", names, size, paired, 1 / 1.2, (load, _load())))
    return figures


def _interleaved(calls: dict[str, Callable[[], object]], rounds: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {name: [] for name in calls}
    names = list(calls)
    for number in range(rounds):
        for name in names if number % 2 == 0 else reversed(names):
            began = time.process_time()
            calls[name]()
            times[name].append(time.process_time() - began)
    return times


def _figure(
    goal: str,
    systems: SdkPair | tuple[str, str],
    size: int,
    times: dict[str, list[float]],
    at_most: float,
    load: tuple[float, float],
    per: int = 1,
    clock: str = "CPU",
) -> PeerFigure:
    ours, theirs = systems.names if isinstance(systems, SdkPair) else systems
    return PeerFigure(
        goal,
        ours,
        theirs,
        size,
        paired_ratio(times["ours"], times["theirs"]),
        at_most,
        median(times["ours"]) / per,
        median(times["theirs"]) / per,
        len(times["ours"]),
        load,
        clock,
    )


def _in_turn(number: int) -> Sequence[str]:
    # Alternate who goes first, so that neither always meets a cache the other warmed.
    return ("ours", "theirs") if number % 2 == 0 else ("theirs", "ours")


def _load() -> float:
    return os.getloadavg()[0]
