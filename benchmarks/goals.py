"""The issue's three goals, checked against one run's figures.

1. Our append within 1.5x of raw sqlite3 (same schema, same pragmas), projections included.
2. Ahead of every framework store on append and on read, at equal durability.
3. Replaying a session costs the same whatever the database's total size (within 1.5x).
"""

from __future__ import annotations

from benchmarks.results import Results
from benchmarks.tables import Table

APPEND_OVER_RAW_LIMIT = 1.5
REPLAY_GROWTH_LIMIT = 1.5


def goals_table(results: Results) -> Table:
    """One row per goal: the goal, the figure that decides it, and met or missed."""
    rows = [_append_near_floor(results), _ahead_of_frameworks(results), _replay_flat(results)]
    return Table("Goals", ("Goal", "Measured", "Verdict"), rows)


def _append_near_floor(results: Results) -> tuple[str, str, str]:
    goal = f"our append within {APPEND_OVER_RAW_LIMIT}x of raw sqlite3"
    worst: tuple[float, str] | None = None
    for raw_name in results.names_with_role("floor"):
        for size in results.sizes():
            raw = results.figures(raw_name, size)
            ours = None if raw is None else results.ours_like(raw)
            if raw is None or ours is None:
                continue
            ratio = ours.append_seconds / raw.append_seconds
            if worst is None or ratio > worst[0]:
                worst = (ratio, f"{ours.system} vs {raw.system}, {size:,} messages")
    if worst is None:
        return goal, "not measured", "-"
    return goal, f"worst {worst[0]:.2f}x ({worst[1]})", _verdict(worst[0] <= APPEND_OVER_RAW_LIMIT)


def _ahead_of_frameworks(results: Results) -> tuple[str, str, str]:
    goal = "ahead of every framework on append and read at equal durability"
    behind: list[str] = []
    compared = 0
    for name in results.names_with_role("framework"):
        for size in results.sizes():
            figures = results.figures(name, size)
            ours = None if figures is None else results.ours_like(figures)
            if figures is None or ours is None:
                continue
            compared += 1
            if figures.append_seconds <= ours.append_seconds:
                behind.append(f"append: {name} at {size:,}")
            if figures.read_all_seconds <= ours.read_all_seconds:
                behind.append(f"read: {name} at {size:,}")
    if not compared:
        return goal, "no framework ran", "-"
    measured = "ahead in all" if not behind else "behind in " + "; ".join(behind)
    return goal, f"{compared} comparisons, {measured}", _verdict(not behind)


def _replay_flat(results: Results) -> tuple[str, str, str]:
    goal = f"replay cost independent of database size (within {REPLAY_GROWTH_LIMIT}x)"
    if len(results.replay) < 2:
        return goal, "not measured", "-"
    alone, largest = results.replay[0], results.replay[-1]
    growth = largest.replay_seconds / alone.replay_seconds
    measured = f"{growth:.2f}x ({largest.total_events:,} events vs {alone.total_events:,})"
    return goal, measured, _verdict(growth <= REPLAY_GROWTH_LIMIT)


def _verdict(met: bool) -> str:
    return "met" if met else "MISSED"
