"""Drawing a property's examples with hypothesis: the boundary programs, then its draws.

hypothesis is pinned, and every property draws with a seed of its own (not derived from
source text or timing), no example database, no deadline and no shrinking (the grader's own
shrinker shrinks a failure: :mod:`grader.engine.shrink`), so the same examples come out on
every machine. The bank builder draws them once per grader version; a grade draws them live
only when its bank is stale.

One more thing would make them differ: hypothesis also draws, now and then, from the
constants it finds in the "local" modules loaded at the time (the grader's own, a test
suite's, whatever else the process imported), and in a browser from none. So the examples
would depend on what the process had imported. They are drawn with that pool empty.
"""

from __future__ import annotations

import warnings
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
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
    with warnings.catch_warnings(), _no_local_constants():
        warnings.filterwarnings("ignore", category=HypothesisWarning)
        test()
    return found


@contextmanager
def _no_local_constants() -> Iterator[None]:
    """hypothesis's pool of constants from local modules, empty while drawing (see the
    module docstring). An internal of the pinned hypothesis: a test fails if it moves."""
    from hypothesis.internal.conjecture import providers
    from hypothesis.internal.constants_ast import Constants

    saved = providers._get_local_constants
    empty = Constants()
    providers._get_local_constants = lambda: empty
    providers.CONSTANTS_CACHE.cache.clear()
    try:
        yield
    finally:
        providers._get_local_constants = saved
        providers.CONSTANTS_CACHE.cache.clear()
