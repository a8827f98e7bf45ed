"""The examples bank: committed fresh, exactly what the builder makes, and honest.

A grade compares digests with the bank's; a bank that does not match the grader's sources
would judge against stale examples, so it is not used (the grade draws the examples live),
and this test says so first, with the command that rebuilds it.
"""

from __future__ import annotations

import marshal
import pickle

import pytest

from grader.engine import bank
from grader.engine.bank import BankedProperty
from grader.engine.drawing import draw_examples
from grader.tasks import TASKS
from maintainer.bank import build_task

REBUILD = (
    "the examples bank is stale: run `python -m maintainer.bank` and commit grader/tasks/*/bank.z"
)


@pytest.mark.parametrize("task", TASKS, ids=lambda task: task.id)
def test_every_task_s_bank_is_fresh(task: object) -> None:
    assert bank.load(task.id) is not None, REBUILD  # type: ignore[attr-defined]


@pytest.mark.parametrize("task", TASKS, ids=lambda task: task.id)
def test_a_bank_holds_every_property_s_examples_in_order(task: object) -> None:
    banked = bank.load(task.id)  # type: ignore[attr-defined]
    assert banked is not None, REBUILD
    assert list(banked) == [prop.name for prop in task.properties]  # type: ignore[attr-defined]
    for prop in task.properties:  # type: ignore[attr-defined]
        drawn = draw_examples(task.id, prop)  # type: ignore[attr-defined]
        # Compared as pickles, types and all (a Text is not a str), after one round trip
        # each: what a round trip shares or copies is not part of the values.
        stored = [_pickled(value) for value in banked[prop.name].values]
        assert stored == [_pickled(value) for value in drawn], prop.name


def _pickled(value: object) -> bytes:
    return pickle.dumps(pickle.loads(pickle.dumps(value, protocol=5)), protocol=5)


def test_the_builder_makes_the_committed_bank_again() -> None:
    """Rebuilt from the same sources, each property's request and digests are the same:
    the bank is a function of the grader, and nothing else (no seed of the moment, no
    reference that answers differently on another run)."""
    task = TASKS[2]  # one task, rebuilt whole: a few seconds
    built = {name: BankedProperty.of(examples) for name, examples in build_task(task).items()}
    committed = bank.load(task.id)
    assert committed is not None, REBUILD
    for name, entry in built.items():
        # Compared decoded: marshal marks an object it has seen by its reference count,
        # which varies with what else holds it, so equal requests may differ in bytes.
        assert marshal.loads(entry.request) == marshal.loads(committed[name].request), name
        assert entry.digests == committed[name].digests, name


def test_a_bank_built_on_other_sources_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    bank.load.cache_clear()
    monkeypatch.setattr(bank, "fingerprint", lambda: "another grader")
    try:
        assert all(bank.load(task.id) is None for task in TASKS)
    finally:
        bank.load.cache_clear()
