"""The child's side of the pipe: values as JSON, learner values read plainly, changes in place.

Counterexamples are runnable Python and the same on every run; harmless style (tuples for
lists, read-only mappings for dicts, any event class) is ignored when learner values are read.
"""

from __future__ import annotations

import ast
from types import MappingProxyType
from typing import Any, NamedTuple

import pytest
from hypothesis import given
from hypothesis import strategies as st

from grader.callserver.codec import Opaque, ReadOnlyMapping, Ref, decode, encode_argument
from grader.callserver.looking import Unreadable, event_view, observe
from grader.callserver.probing import scribble
from grader.callserver.text import literal, show

JSON_DATA = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8,
)
ARGUMENTS = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text() | st.binary(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text() | st.integers(), inner, max_size=3)
    ),
    max_leaves=8,
)


class NamedEvent(NamedTuple):
    event_id: int
    session_id: str
    type: str
    payload: object


@given(JSON_DATA)
def test_a_literal_reads_back_as_the_same_value(value: object) -> None:
    assert ast.literal_eval(literal(value)) == value


@given(ARGUMENTS)
def test_an_argument_crosses_the_pipe_as_itself(value: Any) -> None:
    # nan != nan, so values are compared by their repr (which also tells 1 from 1.0 and True)
    assert repr(decode(encode_argument(value))) == repr(value)


def test_refs_and_read_only_payloads_are_rebuilt_in_the_child() -> None:
    kept = {"p1": {"content": "hi"}}
    encoded = encode_argument([Ref("p1"), MappingProxyType({"a": 1}), ReadOnlyMapping({"b": 2})])
    ref, proxy, mapping = decode(encoded, kept.__getitem__)
    assert ref is kept["p1"]
    assert type(proxy) is MappingProxyType and proxy == {"a": 1}
    assert type(mapping) is ReadOnlyMapping and dict(mapping) == {"b": 2}


def test_a_dict_that_looks_like_a_tag_still_reads_back_as_a_dict() -> None:
    value = {"$ref": "log0"}
    assert decode(encode_argument(value)) == value
    assert decode(observe(value)) == value


def test_shown_values_carry_no_memory_addresses() -> None:
    shown = show([object(), {"k": object()}])
    assert "0x" not in shown
    assert show(object()) == show(object())


class _Thing:
    """An object whose repr carries a memory address, which show removes."""


@pytest.mark.parametrize(
    ("huge", "start"),
    [
        (["x" * 1000] * 100_000, ["x" * 1000] * 3),
        (
            [{"role": "user", "content": "x" * 10_000_000}] * 10,
            [{"role": "user", "content": "x" * 800}],
        ),
        ({n: _Thing() for n in range(10_000)}, {n: _Thing() for n in range(50)}),
        ([_Thing()] * 10_000, [_Thing()] * 50),
    ],
)
def test_a_huge_value_is_shown_as_its_start_is(huge: object, start: object) -> None:
    # show stops building text once it has more than it shows: the cut must not show.
    assert show(huge) == show(start)
    assert show(huge).endswith(" ...")


def test_observations_ignore_tuples_and_read_only_mappings() -> None:
    frozen = MappingProxyType({"tags": ("x", "y"), "meta": MappingProxyType({"k": (1,)})})
    assert observe(frozen) == {"tags": ["x", "y"], "meta": {"k": [1]}}
    assert observe(({"role": "user"},)) == [{"role": "user"}]


def test_an_object_json_cannot_hold_is_observed_by_type_and_repr() -> None:
    assert decode(observe({1, 2})) == Opaque("set", "{1, 2}")


def test_a_self_containing_list_is_observed_without_looping() -> None:
    loop: list[Any] = []
    loop.append(loop)
    assert "..." in repr(decode(observe(loop)))


def test_an_event_is_read_by_its_attributes_whatever_its_class() -> None:
    event = NamedEvent(1, "a", "user_message", MappingProxyType({"content": "hi"}))
    assert event_view(event) == [1, "a", "user_message", {"content": "hi"}]


def test_an_event_without_a_mapping_payload_is_unreadable() -> None:
    with pytest.raises(Unreadable) as problem:
        event_view(NamedEvent(1, "a", "user_message", "hi"))
    assert problem.value.what == "mapping"


def test_scribble_reports_only_the_changes_that_worked() -> None:
    data = {"content": "hi", "meta": [1]}
    lines = list(scribble(lambda: data, "p", False, ["deep"]))
    assert 'p["content"] = "changed"' in lines
    assert 'p["meta"].append("changed")' in lines
    frozen = MappingProxyType({"content": "hi", "meta": (1,)})
    assert list(scribble(lambda: frozen, "p", True, ["deep"])) == []


def test_scribble_assigns_to_the_attributes_of_events_in_a_sequence() -> None:
    class Mutable:
        def __init__(self) -> None:
            self.event_id, self.session_id, self.type, self.payload = 1, "a", "x", {}

    read = [Mutable(), NamedEvent(2, "a", "x", {})]
    lines = list(scribble(lambda: read, "read", False, ["shallow", "attributes"]))
    assert "read[0].event_id = 99" in lines
    assert not any(line.startswith("read[1].") for line in lines)  # a NamedTuple refuses
    assert 'read.append("changed")' in lines
