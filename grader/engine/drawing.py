"""Drawing a property's examples with hypothesis: the boundary programs, then its draws.

hypothesis is pinned, and every property draws with a seed of its own (not derived from
source text or timing), no example database, no deadline and no shrinking (the grader's own
shrinker shrinks a failure: :mod:`grader.engine.shrink`), so the same examples come out on
every machine. The bank builder draws them once per grader version; a grade draws them live
only when its bank is stale.
"""

from __future__ import annotations

import warnings
import zlib
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity, given, seed, settings
from hypothesis.errors import HypothesisWarning
from hypothesis.strategies import SearchStrategy

BASE_SETTINGS = settings(
    database=None,
    deadline=None,
    print_blob=False,
    report_multiple_bugs=False,
    verbosity=Verbosity.quiet,
    phases=(Phase.generate,),
    suppress_health_check=list(HealthCheck),
)


def property_seed(task_id: str, name: str) -> int:
    return zlib.crc32(f"{task_id}/{name}".encode())


def draw_examples(task_id: str, prop: Any) -> list[Any]:
    """``prop``'s examples in the order they run: its boundary programs, then its draws."""
    values = list(prop.explicit)
    if prop.examples:
        values += _drawn(prop.strategy, prop.examples, property_seed(task_id, prop.name))
    return values


def _drawn(strategy: SearchStrategy[Any], count: int, chosen_seed: int) -> list[Any]:
    found: list[Any] = []

    def collect(value: Any) -> None:
        found.append(value)

    drawn = given(strategy)(collect)
    test: Callable[[], None] = seed(chosen_seed)(settings(BASE_SETTINGS, max_examples=count)(drawn))
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=HypothesisWarning)
        test()
    return found
