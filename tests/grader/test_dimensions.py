"""Every dimension of the examples is met at every power of two and its neighbours, up to its
largest example, where a bug would be (issue 28).

The table names each dimension, how an example meets a size of it, and its largest example:
the size past which the grader has no example, and up to which every 2**n - 1, 2**n and
2**n + 1 is met. The largest sizes are what an honest implementation (immutable tuples, a
copy per append, a scan of the log per call) still does in milliseconds; where one costs the
grade more (tool events: a scan per call makes a run of calls quadratic), it stops earlier.
Where a row names a second size, every boundary is met up to it, and the largest example
alone goes further: the long gaps' session, read whole at 2,049 and 2,058 events as it grows
(a whole read of every size up to 2,049 would cost the grade some 2,000 events more for each).
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from grader.engine.boundaries import boundaries
from grader.engine.oracle import MAX_DEPTH, MAX_INT_DIGITS, outside_contract
from grader.tasks import TASKS_BY_ID
from tests.grader.dimensions import Sizes, every_example, plan_of, sizes_met


@dataclass(frozen=True)
class Dimension:
    """A row: the dimension as issue 28 names it, the key :func:`sizes_met` notes it under,
    how a size is met, and the largest example."""

    name: str
    key: str
    met_where: str
    largest: int
    #: Up to which size every 2**n - 1, 2**n and 2**n + 1 is met, where it stops short of
    #: ``largest`` (a single longer example past it, where every size would cost too much).
    every_size_to: int | None = None

    @property
    def every_size_up_to(self) -> int:
        return self.largest if self.every_size_to is None else self.every_size_to


#: The largest int the contract allows has this many bits.
INT_BITS = (10**MAX_INT_DIGITS - 1).bit_length()

TABLE: tuple[Dimension, ...] = (
    Dimension("events in a log", "log_events", "the id an append gives (the log's length)", 4108),
    Dimension("events in a session", "session_events", "the events one read returns", 2058, 1026),
    Dimension("sessions", "sessions", "the sessions one list returns", 1025),
    Dimension("open calls", "open_calls", "calls open in the session when a result comes", 513),
    Dimension(
        "answered calls",
        "answered_calls",
        "calls answered in the session when a tool event comes (or is refused)",
        513,
    ),
    Dimension(
        "gap between a call and its result",
        "gap",
        "the log's events between a call and its result",
        4097,
    ),
    Dimension(
        "a run of consecutive calls", "run_of_calls", "tool calls in a replayed message", 513
    ),
    Dimension("messages in a replay", "replay_messages", "the messages one replay returns", 1025),
    Dimension("items in a list", "list_items", "items of a list or tuple in a payload", 4097),
    Dimension("keys in a mapping", "mapping_keys", "keys of a mapping in a payload", 4097),
    Dimension("nesting depth", "depth", "levels of a payload, itself the first", MAX_DEPTH),
    Dimension("length of a text", "text_length", "characters of a text in a payload", 131_073),
    Dimension("length of a session id", "session_id_length", "characters of a session id", 4097),
    Dimension("length of a call id", "call_id_length", "characters of a call id", 4097),
    Dimension("size of an integer", "int_bits", "bits of an int in a payload", INT_BITS),
    Dimension(
        "size of a result changed after it is returned",
        "changed_result",
        "items of a result a caller changes (events, sessions, messages)",
        1025,
    ),
)
#: The dimensions issue 28 lists: each must have a row.
ISSUE_DIMENSIONS = (
    "events in a log", "events in a session", "sessions", "open calls", "answered calls",
    "gap between a call and its result", "a run of consecutive calls", "messages in a replay",
    "items in a list", "keys in a mapping", "nesting depth", "length of a text",
    "length of a session id", "length of a call id", "size of an integer",
    "size of a result changed after it is returned",
)  # fmt: skip


@pytest.fixture(scope="module")
def met() -> Sizes:
    """Every size every example meets, all examples together."""
    total: Sizes = {}
    for task_id, prop, _, value in every_example():
        for key, sizes in sizes_met(plan_of(TASKS_BY_ID[task_id].strict, prop, value)).items():
            total.setdefault(key, set()).update(sizes)
    return total


def test_every_dimension_the_issue_lists_has_a_row() -> None:
    assert sorted(set(ISSUE_DIMENSIONS) - {row.name for row in TABLE}) == []


@pytest.mark.parametrize("row", TABLE, ids=[row.key for row in TABLE])
def test_a_dimension_is_met_at_every_power_of_two_and_its_neighbours(
    row: Dimension, met: Sizes
) -> None:
    found = met.get(row.key, set())
    missing = [size for size in boundaries(row.every_size_up_to) if size not in found]
    assert missing == []


@pytest.mark.parametrize("row", TABLE, ids=[row.key for row in TABLE])
def test_the_table_names_each_dimension_s_largest_example(row: Dimension, met: Sizes) -> None:
    assert max(met.get(row.key, {0})) == row.largest


def test_boundaries_are_the_powers_of_two_and_their_neighbours_up_to_the_largest() -> None:
    assert boundaries(9) == (1, 2, 3, 4, 5, 7, 8, 9)
    assert boundaries(17)[-4:] == (9, 15, 16, 17)
    assert boundaries(16) == (1, 2, 3, 4, 5, 7, 8, 9, 16)


def test_every_payload_of_every_example_is_inside_the_contract() -> None:
    from grader.engine.steps import AppendStep

    outside = []
    for task_id, prop, index, value in every_example():
        plan = plan_of(TASKS_BY_ID[task_id].strict, prop, value)
        for step in plan.steps:
            if isinstance(step, AppendStep) and outside_contract(step.append.payload):
                outside.append((task_id, prop.name, index, outside_contract(step.append.payload)))
    assert outside == []


def test_the_contract_s_edges_are_told_apart() -> None:
    deep: object = "leaf"
    for _ in range(MAX_DEPTH - 1):
        deep = [deep]
    assert outside_contract({"k": deep, "n": -(10**MAX_INT_DIGITS - 1)}) is None
    assert outside_contract({"k": [deep]}) == f"nested {MAX_DEPTH + 1} levels deep"
    assert outside_contract({"n": 10**MAX_INT_DIGITS}) == "an int of more than 4300 digits"
    assert outside_contract({"x": float("nan")}) == "a float that is not finite"
    assert outside_contract({"x": b"bytes"}) == "a bytes"
    assert outside_contract({"\ud83d\ude42": 1, "🙂": 2}) == "two keys JSON counts as one"
    lone = dict.fromkeys(["\ud83d", "\ude42", "\ud800"], 1)  # three lone surrogates
    assert outside_contract({"k": lone}) is None
