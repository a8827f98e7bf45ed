"""The report's tables as plain rows of text, so the terminal and the README show the same.

Ratios are time divided by ours at the same synchronous setting: 1.00 is ours, 2.00 takes
twice as long as ours, 0.50 half as long. Only a comparison at equal durability is a fair
one, and a framework that cannot be set to NORMAL is compared with ours at FULL.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from benchmarks.chat_bench import ChatFigures
from benchmarks.measure import quartiles
from benchmarks.results import Results

_MB = 1024 * 1024


@dataclass(frozen=True, slots=True)
class Table:
    """A titled table of strings; ``notes`` are printed under it."""

    title: str
    headers: tuple[str, ...]
    rows: Sequence[tuple[str, ...]]
    notes: list[str] = field(default_factory=list)


def chat_table(results: Results) -> Table:
    """Absolute figures: appends per second, read times, size on disk, durability."""
    rows = [
        (
            figures.system,
            figures.durability.label,
            f"{figures.messages:,}",
            f"{figures.appends_per_second:,.0f}",
            _spread(figures.append_samples, figures.append_seconds),
            _ms(figures.read_all_seconds),
            "no API" if figures.read_tail_seconds is None else _ms(figures.read_tail_seconds),
            f"{figures.size_bytes / _MB:,.2f}",
        )
        for figures in _in_table_order(results)
    ]
    headers = (
        "System",
        "Journal + sync",
        "Messages",
        "Appends/s",
        "Append IQR",
        "Read all (ms)",
        "Read tail (ms)",
        "On disk (MB)",
    )
    return Table("Append one message per call, then read back", headers, rows, _chat_notes(results))


def ratio_table(results: Results) -> Table:
    """Each system's times divided by ours at the same size and synchronous setting."""
    sizes = results.sizes()
    headers: tuple[str, ...] = ("System", "Compared with")
    for label in ("Append", "Read all", "Read tail"):
        headers += tuple(f"{label} {size:,}" for size in sizes)
    rows = [_ratio_row(results, system.name, sizes) for system in results.systems]
    notes = ["time / ours (ours = 1.00): above 1 is slower than ours, below 1 faster."]
    notes += _unequal_journal_notes(results)
    return Table("Ratios against ours at equal durability", headers, rows, notes)


def _unequal_journal_notes(results: Results) -> list[str]:
    notes = {}
    for figures in results.chat:
        ours = results.ours_like(figures)
        if ours is not None and ours.durability.journal_mode != figures.durability.journal_mode:
            notes[figures.system] = (
                f"{figures.system} runs in {figures.durability.journal_mode.upper()} journal"
                f" mode, ours in {ours.durability.journal_mode.upper()}: its API cannot change"
                " that, so it is compared with ours at the same synchronous setting only."
            )
    return list(notes.values())


def _ratio_row(results: Results, name: str, sizes: list[int]) -> tuple[str, ...]:
    figures = [results.figures(name, size) for size in sizes]
    baselines = [None if f is None else results.ours_like(f) for f in figures]
    compared = {b.system for b in baselines if b is not None}
    cells = [name, ", ".join(sorted(compared)) or "-"]
    for seconds in (_append, _read_all, _read_tail):
        cells += [_ratio(f, b, seconds) for f, b in zip(figures, baselines, strict=True)]
    return tuple(cells)


def _append(figures: ChatFigures) -> float | None:
    return figures.append_seconds


def _read_all(figures: ChatFigures) -> float | None:
    return figures.read_all_seconds


def _read_tail(figures: ChatFigures) -> float | None:
    return figures.read_tail_seconds


def _ratio(
    figures: ChatFigures | None,
    baseline: ChatFigures | None,
    seconds: Callable[[ChatFigures], float | None],
) -> str:
    if figures is None:
        return "skipped"
    mine, ours = seconds(figures), None if baseline is None else seconds(baseline)
    if mine is None or ours is None:
        return "n/a"
    return f"{mine / ours:.2f}"


def read_paths_table(results: Results) -> Table:
    """Our store's read paths on one session: what decoding, folding and projecting cost."""
    rows = [(path.call, path.returns, _ms(path.seconds)) for path in results.read_paths]
    largest = max(results.sizes(), default=0)
    title = f"Our read paths, one session of {largest:,} messages (NORMAL)"
    note = (
        "replay_session = one SELECT, one json.loads for every payload, then the fold;"
        " get_messages reads the projection."
    )
    return Table(title, ("Call", "Returns", "Time (ms)"), rows, [note])


def replay_table(results: Results) -> Table:
    """Replay time of the same 100-event session against the size of the database."""
    alone = results.replay[0].replay_seconds if results.replay else 0.0
    rows = [
        (
            f"{point.total_events:,}",
            f"{point.sessions:,}",
            _ms(point.replay_seconds),
            f"{point.replay_seconds / alone:.2f}",
            _ms(point.first_replay_seconds),
            f"{point.size_bytes / _MB:,.1f}",
            f"{point.build_seconds:.1f}",
        )
        for point in results.replay
    ]
    headers = (
        "Events in database",
        "Sessions",
        "Replay (ms)",
        "x alone",
        "First replay (ms)",
        "On disk (MB)",
        "Build (s)",
    )
    note = "replay_session of one 100-event session; median of warm reads, then the first one."
    return Table("Replay scaling (our SQLite store)", headers, rows, [note])


def core_table(results: Results) -> Table:
    """The pure core's append and replay costs against the length of the log."""
    rows = [
        (
            f"{point.log_events:,}",
            f"{point.append_seconds * 1e6:,.1f}",
            _ms(point.replay_session_seconds),
            _ms(point.replay_whole_seconds),
        )
        for point in results.core
    ]
    headers = (
        "Events in log",
        "Append one (us)",
        "Replay 100-event session (ms)",
        "Replay whole-log session (ms)",
    )
    note = "append copies the tuple (O(n)); replay scans the whole log for the session (O(n))."
    return Table("Pure core (solutions)", headers, rows, [note])


def _chat_notes(results: Results) -> list[str]:
    notes = []
    for system in results.systems:
        info = system.info
        tail = info.tail or "no way to read after a position"
        notes.append(f"{system.name}: {info.api}. Tail: {tail}. Settings: {info.settings}.")
    for skipped in results.skipped_sizes:
        notes.append(f"{skipped.system}: {skipped.messages:,} messages skipped: {skipped.reason}.")
    for missing in results.skipped_systems:
        notes.append(f"{missing.name}: not run: {missing.reason}.")
    return notes


def _in_table_order(results: Results) -> list[ChatFigures]:
    order = {system.name: index for index, system in enumerate(results.systems)}
    return sorted(results.chat, key=lambda f: (order[f.system], f.messages))


def _spread(samples: Sequence[float], middle: float) -> str:
    # The middle half of the runs as a share of their median: "12%" means the first and
    # third quartiles of the runs lie 12% of the median apart.
    if len(samples) < 2:
        return "-"
    first, third = quartiles(samples)
    return f"{(third - first) / middle:.0%}"


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:,.2f}"
