"""The timing helpers: the median, and timing with a clock the test controls (no real time)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from benchmarks import measure


def test_the_median_of_an_odd_count_is_the_middle_value() -> None:
    assert measure.median([5.0, 1.0, 3.0]) == 3.0


def test_the_median_of_an_even_count_is_the_mean_of_the_middle_two() -> None:
    assert measure.median([4.0, 1.0, 2.0, 10.0]) == 3.0


def test_one_slow_outlier_does_not_move_the_median() -> None:
    assert measure.median([1.0, 1.0, 2.0, 2.0, 500.0]) == 2.0


def test_the_median_of_no_samples_is_refused() -> None:
    with pytest.raises(ValueError, match="no samples"):
        measure.median([])


def _clock_reading(*readings: float) -> measure.Clock:
    ticks: Iterator[float] = iter(readings)
    return lambda: next(ticks)


def test_time_once_runs_the_action_and_returns_the_clock_difference() -> None:
    calls: list[str] = []
    clock = _clock_reading(10.0, 12.5)
    assert measure.time_once(lambda: calls.append("ran"), clock) == 2.5
    assert calls == ["ran"]


def test_median_time_runs_the_action_once_per_run_and_keeps_the_median() -> None:
    calls: list[str] = []
    # Three runs lasting 3 s, 1 s and 2 s: the median is 2 s.
    clock = _clock_reading(0.0, 3.0, 10.0, 11.0, 20.0, 22.0)
    assert measure.median_time(lambda: calls.append("ran"), runs=3, clock=clock) == 2.0
    assert len(calls) == 3


def test_median_time_refuses_fewer_than_one_run() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        measure.median_time(lambda: None, runs=0)


def test_a_paired_ratio_divides_round_by_round_and_keeps_the_middle_half() -> None:
    # Round 2 was slow for both systems alike: paired, it changes nothing. Round 4 hit one
    # system only (ratio 4): as one round of five, it stays outside the middle half.
    ratio = measure.paired_ratio([2.0, 20.0, 3.0, 8.0, 5.0], [1.0, 10.0, 2.0, 2.0, 5.0])
    assert (ratio.median, ratio.low, ratio.high) == (2.0, 1.5, 2.0)
    assert str(ratio) == "2.00x (middle half 1.50-2.00)"


def test_a_ratio_whose_middle_half_falls_on_both_sides_of_a_limit_straddles_it() -> None:
    ratio = measure.paired_ratio([1.3, 1.4, 1.45, 1.6, 1.7], [1.0] * 5)
    assert (ratio.low, ratio.high) == (1.4, 1.6)
    assert ratio.straddles(1.5)
    assert not ratio.straddles(1.65)  # only the slowest round is past it
    assert not ratio.straddles(1.4)  # touching the edge is not being on both sides


def test_the_quartiles_of_one_sample_are_the_sample() -> None:
    assert measure.quartiles([3.0]) == (3.0, 3.0)


def test_without_rounds_the_ratio_of_the_fallback_medians_is_used() -> None:
    ratio = measure.paired_ratio([], [], fallback=(3.0, 2.0))
    assert (ratio.median, ratio.low, ratio.high, str(ratio)) == (1.5, 1.5, 1.5, "1.50x")


@pytest.mark.parametrize(("tops", "bottoms"), [([1.0], [1.0, 2.0]), ([], [])])
def test_rounds_that_cannot_be_paired_are_refused(tops: list[float], bottoms: list[float]) -> None:
    with pytest.raises(ValueError):
        measure.paired_ratio(tops, bottoms)
