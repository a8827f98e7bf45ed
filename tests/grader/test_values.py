"""What "equal" means, and how values are written for a learner to paste."""

from __future__ import annotations

import math
from types import MappingProxyType

import pytest

from grader.engine.data import literal, same, string_literal


@pytest.mark.parametrize(
    ("observed", "expected"),
    [
        ([1, 2], (1, 2)),
        ({"a": [1]}, MappingProxyType({"a": (1,)})),
        (-0.0, -0.0),
        (math.nan, math.nan),
        ("é", "é"),
        ("\U0001f642", "\ud83d\ude42"),  # JSON's view: a surrogate pair is the character
        ("a\ud800", "a\ud800"),
        (2**70, 2**70),
        ({}, {}),
        (None, None),
    ],
)
def test_equal_values_are_the_same(observed: object, expected: object) -> None:
    assert same(observed, expected)


@pytest.mark.parametrize(
    ("observed", "expected"),
    [
        (True, 1),
        (1, True),
        (1.0, 1),
        (1, 1.0),
        (0.0, -0.0),
        (-0.0, 0.0),
        ("1", 1),
        ([1], {"0": 1}),
        ({"a": 1, "b": 2}, {"a": 1}),
        ({"a": 1}, {"a": 1, "b": 2}),
        ([1, 2], [1]),
        (2**70, float(2**70)),
        ("e\u0301", "é"),
        ("\ud800", "\ud801"),
        ("\ud83d", "\U0001f642"),
        ({"a": 1.0}, {"a": 1}),
    ],
)
def test_values_that_differ_in_type_or_sign_are_not(observed: object, expected: object) -> None:
    assert not same(observed, expected)


@pytest.mark.parametrize(
    "text", ["\x00", "\r\n", "\u202e", "\ud800", "a\u2028b", "\x1b[31m", "\t", '"\\']
)
def test_a_string_literal_shows_what_would_otherwise_be_obeyed_as_an_escape(text: str) -> None:
    written = string_literal(text)
    assert written.isprintable() and eval(written) == text


def test_long_repetitions_are_written_as_a_product_that_evaluates_to_the_string() -> None:
    for text in ["ab" * 5000, "x" * 70_000 + "y", "a" + "\r\n" * 1000]:
        written = string_literal(text)
        assert len(written) < 40 and eval(written) == text


def test_a_long_literal_is_cut_for_display_only_when_a_limit_is_given() -> None:
    value = [str(n) for n in range(1000)]
    assert len(literal(value)) < 700 and literal(value, limit=None) == repr(value).replace("'", '"')
