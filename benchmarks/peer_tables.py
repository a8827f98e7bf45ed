"""The peer goals as a table: each goal at each size, its ratio, the load, and the verdict."""

from __future__ import annotations

from benchmarks.peers import PeerFigure, PeerFigures
from benchmarks.tables import Table


def peer_table(peers: PeerFigures) -> Table:
    """One row per goal and size: ours against a peer, as a ratio over interleaved rounds."""
    rows = [_row(figure) for figure in peers.figures]
    notes = [
        "Ratio: our time over theirs, the median of the rounds' ratios and their middle half"
        " (below 1: ours is faster). 'x faster' is its inverse. A verdict whose middle half"
        " lies on both sides of the goal or of 1 is 'not settled'.",
        "Load: the 1-minute load average before and after the goal's rounds (2 cores).",
        "Clock: CPU is the process's CPU time, every thread of it (the peers' worker threads"
        " included), for what does not wait on the disk; wall is elapsed time, for the"
        " appends at FULL, whose cost is the wait for the disk. The SDK's reads are on both"
        " clocks, from the same calls: wall is what the awaiting agent waits.",
        *peers.skipped,
    ]
    headers = ("Goal", "Ours", "Theirs", "Size", "Ours / theirs", "Goal on the ratio",
               "Ours, theirs (ms)", "Load", "Verdict")  # fmt: skip
    return Table("Against the peers, goal by goal", headers, rows, notes)


def verdict(figure: PeerFigure) -> str:
    """``met`` or ``MISSED``, with ``not settled`` when the rounds cannot tell."""
    said = "met" if figure.met else "MISSED"
    if not figure.settled:
        return f"{said}, not settled"
    return said


def _row(figure: PeerFigure) -> tuple[str, ...]:
    ratio = figure.ratio
    faster = f"{1 / ratio.median:.2f}x faster" if ratio.median < 1 else "slower"
    return (
        figure.goal,
        figure.ours,
        figure.theirs,
        f"{figure.size:,}",
        f"{ratio} ({faster}), {figure.rounds} rounds, {figure.clock}",
        _goal(figure.at_most),
        f"{figure.ours_seconds * 1e3:.3f}, {figure.theirs_seconds * 1e3:.3f}",
        f"{figure.load[0]:.2f}-{figure.load[1]:.2f}",
        verdict(figure),
    )


def _goal(at_most: float) -> str:
    if at_most < 1:
        return f"<= {at_most:.2f} ({1 / at_most:g}x faster)"
    return f"<= {at_most:g}"
