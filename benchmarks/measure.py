"""Timing helpers: a clock, a median, "run it k times, keep the median", and paired ratios.

The median, not the mean: one run slowed down by a checkpoint, a GC pass or another process
moves the mean a lot and the median hardly at all, and the median of a handful of runs is a
figure a second run on the same machine reproduces.

A ratio between two systems is taken round by round: the benchmarks interleave the systems
(round 1 of every system, then round 2, ...), so the two times of one round met the same
load from elsewhere on the machine. The spread of those per-round ratios says how much a
verdict can be trusted. It is their middle half (the quartiles), so that one round that a
burst of other work hit cannot decide it; a verdict whose middle half falls on both sides
of its limit is not settled.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass


def median(samples: Sequence[float]) -> float:
    """Return the median of ``samples`` (the mean of the middle two for an even count).

    Raises:
        ValueError: ``samples`` is empty; a figure measured zero times has no value.
    """
    if not samples:
        raise ValueError("cannot take the median of no samples: run the measurement at least once")
    return statistics.median(samples)


Clock = Callable[[], float]


def time_once(action: Callable[[], object], clock: Clock = time.perf_counter) -> float:
    """Run ``action`` once and return how long it took, in seconds.

    Args:
        action: what to time.
        clock: a monotonic clock in seconds; ``time.perf_counter``, the finest one, unless
            a test passes its own.
    """
    start = clock()
    action()
    return clock() - start


def median_time(action: Callable[[], object], runs: int, clock: Clock = time.perf_counter) -> float:
    """Run ``action`` ``runs`` times and return the median duration in seconds.

    Raises:
        ValueError: ``runs`` is less than 1.
    """
    if runs < 1:
        raise ValueError(f"runs must be at least 1, got {runs}")
    return median([time_once(action, clock) for _ in range(runs)])


@dataclass(frozen=True, slots=True)
class Ratio:
    """Per-round ratios of two systems' times: their median and their middle half.

    ``low`` and ``high`` are the first and third quartiles (both the median for one round).
    """

    median: float
    low: float
    high: float

    def straddles(self, limit: float) -> bool:
        """Whether the middle half falls on both sides of ``limit``: a verdict not settled."""
        return self.low < limit < self.high

    def __str__(self) -> str:
        if self.low == self.high:
            return f"{self.median:.2f}x"
        return f"{self.median:.2f}x (middle half {self.low:.2f}-{self.high:.2f})"


def paired_ratio(
    numerators: Sequence[float],
    denominators: Sequence[float],
    fallback: tuple[float, float] | None = None,
) -> Ratio:
    """Return the ratios ``numerators[i] / denominators[i]`` of each round, summarised.

    Args:
        numerators, denominators: one time per round, in round order, as many of each.
        fallback: ``(numerator, denominator)`` medians to use when no rounds were kept.

    Raises:
        ValueError: the two have different lengths, or neither rounds nor a fallback exist.
    """
    if len(numerators) != len(denominators):
        raise ValueError(f"{len(numerators)} rounds against {len(denominators)}: cannot pair them")
    ratios = [top / bottom for top, bottom in zip(numerators, denominators, strict=True)]
    if not ratios:
        if fallback is None:
            raise ValueError("no rounds to take a ratio of, and no fallback")
        ratios = [fallback[0] / fallback[1]]
    return Ratio(median(ratios), *quartiles(ratios))


def quartiles(samples: Sequence[float]) -> tuple[float, float]:
    """Return the first and third quartiles of ``samples`` (the value itself for just one)."""
    if len(samples) < 2:
        return median(samples), median(samples)
    first, _, third = statistics.quantiles(samples, n=4, method="inclusive")
    return first, third
