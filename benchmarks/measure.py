"""Timing helpers: a clock, a median, and "run it k times, keep the median".

The median, not the mean: one run slowed down by a checkpoint, a GC pass or another process
moves the mean a lot and the median hardly at all, and the median of a handful of runs is a
figure a second run on the same machine reproduces.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence


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
