"""Appending N chat messages one call at a time, then reading them back, for each system.

Every run starts from an empty directory per system, so no system profits from another's
warm files, and the size on disk is everything the system left there once closed
(database, WAL, journal). Each figure is the median over the runs.

Within a run the systems take turns every :data:`SLICE` messages: system A appends its
first slice, then B, then C, then A its second slice, and so on. A burst of load from
elsewhere on the machine (a neighbour's build, an fsync stall of the VM) then lands on
every system's run alike, instead of on whichever system happened to be appending.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from benchmarks.measure import median, median_time, time_once
from benchmarks.systems import ChatStore, Durability, LoadedSystem
from benchmarks.workload import ChatMessage, chat_messages, tail_length

#: Reads are fast and noisy; each run times them this many times and keeps the median.
READ_REPEATS = 3
#: Messages one system appends before the next system's turn, within a run.
SLICE = 100

Progress = Callable[[str], None]


class BenchmarkError(RuntimeError):
    """A system gave back a different number of messages than it was given."""


@dataclass(frozen=True, slots=True)
class ChatFigures:
    """One system's medians for one session size.

    Attributes:
        system: the system's display name.
        messages: N, the number of messages appended.
        runs: how many runs the medians are taken over.
        append_seconds: appending all N messages, one call each.
        read_all_seconds: reading the whole session back.
        read_tail_seconds: reading the last messages after a position; None if the API cannot.
        size_bytes: the files on disk after closing.
        durability: the journal mode and synchronous setting it ran with.
        append_samples: the append time of each run, in round order: run i of every system
            was taken in the same round, so ratios can be paired round by round.
        read_all_samples: the read-all time of each run, in round order.
    """

    system: str
    messages: int
    runs: int
    append_seconds: float
    read_all_seconds: float
    read_tail_seconds: float | None
    size_bytes: int
    durability: Durability
    append_samples: tuple[float, ...] = ()
    read_all_samples: tuple[float, ...] = ()

    @property
    def appends_per_second(self) -> float:
        """Messages appended per second: N over the time to append them all."""
        return self.messages / self.append_seconds


@dataclass(frozen=True, slots=True)
class SkippedSize:
    """A session size a system was not asked for, and why."""

    system: str
    messages: int
    reason: str


@dataclass(frozen=True, slots=True)
class _RunSample:
    append: float
    read_all: float
    read_tail: float | None
    size_bytes: int
    durability: Durability


def run_chat_benchmark(
    systems: Sequence[LoadedSystem], sizes: Sequence[tuple[int, int]], progress: Progress
) -> tuple[list[ChatFigures], list[SkippedSize]]:
    """Measure every system at every ``(messages, runs)`` size it accepts.

    Runs are interleaved (run 1 of every system, then run 2 of every system, ...), so a
    burst of load from elsewhere on the machine lands on all systems alike instead of on
    whichever one happened to be running.

    Returns:
        The figures, size by size, and the sizes skipped because of a system's limit.

    Raises:
        BenchmarkError: a read returned the wrong number of messages.
    """
    figures: list[ChatFigures] = []
    skipped: list[SkippedSize] = []
    for messages, runs in sizes:
        accepted = [system for system in systems if _accepts(system, messages)]
        for system in systems:
            if system not in accepted:
                skipped.append(SkippedSize(system.name, messages, system.info.limit_reason))
                progress(f"{system.name}: {messages:,} messages skipped (size limit)")
        figures += _measure_size(accepted, messages, runs, progress)
    return figures, skipped


def _measure_size(
    systems: Sequence[LoadedSystem], messages: int, runs: int, progress: Progress
) -> list[ChatFigures]:
    workload = chat_messages(messages)
    samples: dict[str, list[_RunSample]] = {system.name: [] for system in systems}
    for run in range(1, runs + 1):
        for name, sample in _one_run(systems, workload).items():
            samples[name].append(sample)
        progress(f"{messages:,} messages: run {run} of {runs} done for every system")
    return [_medians(name, messages, taken) for name, taken in samples.items()]


def _accepts(system: LoadedSystem, messages: int) -> bool:
    limit = system.info.max_messages
    return limit is None or messages <= limit


def _medians(system: str, messages: int, samples: Sequence[_RunSample]) -> ChatFigures:
    tails = [sample.read_tail for sample in samples]
    return ChatFigures(
        system=system,
        messages=messages,
        runs=len(samples),
        append_seconds=median([sample.append for sample in samples]),
        read_all_seconds=median([sample.read_all for sample in samples]),
        read_tail_seconds=None if None in tails else median([t for t in tails if t is not None]),
        size_bytes=int(median([sample.size_bytes for sample in samples])),
        durability=samples[-1].durability,
        append_samples=tuple(sample.append for sample in samples),
        read_all_samples=tuple(sample.read_all for sample in samples),
    )


def _one_run(
    systems: Sequence[LoadedSystem], workload: Sequence[ChatMessage]
) -> dict[str, _RunSample]:
    """One run of every system on a fresh directory each, their appends interleaved."""
    with ExitStack() as cleanup:
        opened: list[tuple[str, ChatStore, Path]] = []
        closers: list[_CloseOnce] = []
        for system in systems:
            folder = Path(cleanup.enter_context(tempfile.TemporaryDirectory(prefix="bench-")))
            closers.append(_CloseOnce(system.open(folder)))
            cleanup.callback(closers[-1])
            opened.append((system.name, closers[-1].store, folder))
        appends = _append_in_slices(opened, workload)
        return {
            name: _read_and_close(name, store, folder, appends[name], len(workload), close)
            for (name, store, folder), close in zip(opened, closers, strict=True)
        }


def _append_in_slices(
    opened: Sequence[tuple[str, ChatStore, Path]], workload: Sequence[ChatMessage]
) -> dict[str, float]:
    seconds = {name: 0.0 for name, _, _ in opened}
    for start in range(0, len(workload), SLICE):
        piece = workload[start : start + SLICE]
        for name, store, _ in opened:
            seconds[name] += time_once(partial(store.append_each, piece))
    return seconds


def _read_and_close(
    name: str, store: ChatStore, folder: Path, append: float, count: int, close: _CloseOnce
) -> _RunSample:
    read_all, read_tail = _time_reads(name, store, count)
    durability = store.durability()
    close()  # before measuring the folder: a closed store has written everything
    return _RunSample(append, read_all, read_tail, directory_size(folder), durability)


class _CloseOnce:
    """Closes its store once: when the run is done with it, or when a failed run unwinds."""

    def __init__(self, store: ChatStore) -> None:
        self.store = store
        self._open = True

    def __call__(self) -> None:
        if self._open:
            self._open = False
            self.store.close()


def _time_reads(name: str, store: ChatStore, count: int) -> tuple[float, float | None]:
    # Checked once, untimed, so that a system that loses messages cannot win on speed.
    _expect(name, "read_all", store.read_all(), count)
    read_all = median_time(store.read_all, READ_REPEATS)
    after = count - tail_length(count)
    tail_count = store.read_tail(after)
    if tail_count is None:
        return read_all, None
    _expect(name, f"read_tail({after})", tail_count, count - after)
    return read_all, median_time(lambda: store.read_tail(after), READ_REPEATS)


def _expect(name: str, call: str, got: int, expected: int) -> None:
    if got != expected:
        raise BenchmarkError(f"{name}: {call} returned {got} messages, expected {expected}")


def directory_size(directory: Path) -> int:
    """Return the total size in bytes of the files in ``directory`` and below."""
    return sum(path.stat().st_size for path in directory.rglob("*") if path.is_file())
