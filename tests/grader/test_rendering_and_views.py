"""Counterexamples are runnable Python, the same on every run; harmless style is ignored."""

from __future__ import annotations

import ast
from types import MappingProxyType
from typing import NamedTuple

from hypothesis import given
from hypothesis import strategies as st

from grader.mutations import scribble
from grader.rendering import literal, show
from grader.views import event_view, plain

JSON_DATA = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
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


def test_shown_values_carry_no_memory_addresses() -> None:
    shown = show([object(), {"k": object()}])
    assert "0x" not in shown
    assert show(object()) == show(object())


def test_views_ignore_tuples_and_read_only_mappings() -> None:
    frozen = MappingProxyType({"tags": ("x", "y"), "meta": MappingProxyType({"k": (1,)})})
    assert plain(frozen) == {"tags": ["x", "y"], "meta": {"k": [1]}}
    assert plain(({"role": "user"},)) == [{"role": "user"}]


def test_an_event_is_read_by_its_attributes_whatever_its_class() -> None:
    view = event_view(NamedEvent(1, "a", "user_message", MappingProxyType({"content": "hi"})))
    assert str(view) == (
        'Event(event_id=1, session_id="a", type="user_message", payload={"content": "hi"})'
    )


def test_scribble_reports_only_the_changes_that_worked() -> None:
    data = {"content": "hi", "meta": [1]}
    lines = list(scribble("p", lambda: data, thorough=False))
    assert 'p["content"] = "changed"' in lines
    assert 'p["meta"].append("changed")' in lines
    frozen = MappingProxyType({"content": "hi", "meta": (1,)})
    assert list(scribble("p", lambda: frozen, thorough=True)) == []
