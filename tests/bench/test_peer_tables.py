"""The peer goals' verdicts: met, missed, and not settled, from made-up figures."""

from __future__ import annotations

import pytest

from benchmarks.measure import Ratio
from benchmarks.peer_tables import peer_table, verdict
from benchmarks.peers import PeerFigure, PeerFigures


def _figure(ratio: Ratio, at_most: float) -> PeerFigure:
    return PeerFigure("get_items()", "ours", "theirs", 3_000, ratio, at_most, 0.001, 0.002, 15,
                      (0.5, 0.6))  # fmt: skip


@pytest.mark.parametrize(
    ("ratio", "at_most", "expected"),
    [
        (Ratio(0.5, 0.45, 0.55), 1 / 1.2, "met"),
        (Ratio(0.9, 0.88, 0.92), 1 / 1.2, "MISSED"),
        (Ratio(0.8, 0.75, 0.86), 1 / 1.2, "met, not settled"),  # around the goal
        (Ratio(0.98, 0.9, 1.1), 1.0, "met, not settled"),  # around 1, which is the goal
        (Ratio(1.2, 1.1, 1.28), 1.3, "met"),
        (Ratio(1.05, 0.95, 1.1), 1.3, "met, not settled"),  # within the goal, but a tie with 1
    ],
)
def test_a_verdict_is_met_or_missed_and_says_when_the_rounds_cannot_tell(
    ratio: Ratio, at_most: float, expected: str
) -> None:
    assert verdict(_figure(ratio, at_most)) == expected


def test_each_row_shows_the_ratio_as_times_faster_the_goal_and_the_load() -> None:
    table = peer_table(
        PeerFigures((_figure(Ratio(0.5, 0.45, 0.55), 1 / 5),), ("eventsourcing: x",))
    )
    (row,) = table.rows
    assert "2.00x faster" in row[4] and "15 rounds" in row[4]
    assert row[5] == "<= 0.20 (5x faster)"
    assert row[7] == "0.50-0.60" and row[8] == "MISSED"
    assert "eventsourcing: x" in table.notes
