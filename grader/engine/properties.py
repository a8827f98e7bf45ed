"""A property: examples whose plans the learner's code must answer right.

How a property is run, from the bank or in full, is :mod:`grader.engine.running`; this
module only says what a property is, so that the tasks' tables can import it without the
judge, and the judge's trial without a cycle.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from grader.engine.plan import Plan


@dataclass(frozen=True)
class Property:
    """One property.

    Attributes:
        name: its id within the task (also its seed).
        strategy: draws its examples (a hypothesis strategy; the grade itself never draws).
        build: adds an example's steps to a plan.
        examples: how many examples to draw.
        explicit: examples always run first (the boundary cases: 1,025 events, ...).
        promises: the promise ids it checks (the clause table maps each to a mutant).
    """

    name: str
    strategy: Any
    build: Callable[[Plan, Any], None]
    examples: int
    explicit: tuple[Any, ...] = ()
    promises: tuple[str, ...] = ()
