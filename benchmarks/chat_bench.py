"""Appending N chat messages one call at a time, then reading them back, for each system.

Every run starts from an empty directory, so no system profits from another's warm files,
and the size on disk is everything the system left there once closed (database, WAL,
journal). Each figure is the median over the runs.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks.measure import median, median_time, time_once
from benchmarks.systems import ChatStore, Durability, LoadedSystem
from benchmarks.workload import ChatMessage, chat_messages, tail_length

#: Reads are fast and noisy; each run times them this many times and keeps the median.
READ_REPEATS = 3

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
        for system in systems:
            samples[system.name].append(_one_run(system, workload))
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


def _one_run(system: LoadedSystem, workload: Sequence[ChatMessage]) -> _RunSample:
    with tempfile.TemporaryDirectory(prefix="bench-") as name:
        directory = Path(name)
        store = system.open(directory)
        try:
            append = time_once(lambda: store.append_each(workload))
            read_all, read_tail = _time_reads(system.name, store, len(workload))
            durability = store.durability()
        finally:
            store.close()
        return _RunSample(append, read_all, read_tail, directory_size(directory), durability)


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
