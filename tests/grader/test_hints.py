"""Hints that lead somewhere: the broken property's own hint, and techniques that work.

Under a failure the report shows the hint of the property that broke, not the task's first
hint. Every hint that names a technique is followed by an implementation in the corpus that
gets full marks, so no hint can send a learner down a road that fails (as "a MappingProxyType
over a deep copy" once did: a nested list inside still changes).
"""

from __future__ import annotations

import pytest

from grader import messages
from grader.i18n import text, using_language
from grader.report import Report
from tests.grader.conftest import CORPUS

#: hint id -> (phrase of the technique in the hint, implementation that follows it,
#: code of the technique in that implementation)
TECHNIQUES: dict[str, list[tuple[str, str, str]]] = {
    "hint.property.reader_cannot_change": [
        ("freeze them all the way down", "c11_deep_frozen", "MappingProxyType({key: freeze"),
        ("return copy.deepcopy of it on every read", "c02_slots_class", "return copy.deepcopy("),
    ],
    "task.append_and_ids.hint.3": [
        ("new_log = (*log, event)", "c07_tuple_log", "(*log, event)"),
        ("freeze it", "c11_deep_frozen", "MappingProxyType({key: freeze"),
        (
            "return copy.deepcopy of it on every read",
            "c01_namedtuple_events",
            "copy.deepcopy(self._data[key])",
        ),
    ],
    "hint.property.events_are_facts": [
        ("@dataclass(frozen=True)", "c08_frozen_dict_log", "@dataclass(frozen=True)\nclass Event"),
        ("a NamedTuple", "c01_namedtuple_events", "class Event(NamedTuple)"),
    ],
    "hint.property.caller_dict_isolated": [
        ("copy.deepcopy(dict(payload))", "c08_frozen_dict_log", "copy.deepcopy(dict(payload))"),
    ],
    "hint.property.accept.mapping_payload": [
        ("copy.deepcopy(dict(payload))", "c08_frozen_dict_log", "copy.deepcopy(dict(payload))"),
    ],
    "hint.property.old_log_unchanged": [
        ("(*log.events, event)", "c05_own_error", "(*log.events, event)"),
    ],
    "hint.property.branches": [
        ("its own tuple of events", "c07_tuple_log", "return (*log, event), event"),
    ],
    "hint.property.read_result_is_a_copy": [
        ("Return a new tuple", "c07_tuple_log", "return tuple(e for e in log"),
    ],
    "hint.property.list_sessions": [
        (
            "tuple(dict.fromkeys(e.session_id for e in events))",
            "c07_tuple_log",
            "tuple(dict.fromkeys(",
        ),
    ],
    "task.list_sessions.hint.3": [
        (
            "tuple(dict.fromkeys(e.session_id for e in events))",
            "c07_tuple_log",
            "tuple(dict.fromkeys(",
        ),
    ],
    "task.read_and_resume.hint.3": [
        ("e.event_id > after_event_id", "c07_tuple_log", "e.event_id > after_event_id"),
    ],
    "task.replay.hint.3": [
        (
            "{**last, 'tool_calls': [*last['tool_calls'], call]}",
            "c10_functional_reduce",
            '{**last, "tool_calls": [*last["tool_calls"], call]}',
        ),
    ],
}
CASES = [(hint, *technique) for hint, techniques in TECHNIQUES.items() for technique in techniques]


@pytest.mark.parametrize(("hint", "phrase", "implementation", "code"), CASES)
def test_each_technique_a_hint_names_is_followed_by_a_full_marks_implementation(
    hint: str, phrase: str, implementation: str, code: str, graded_corpus: dict[str, Report]
) -> None:
    with using_language("en"):
        assert phrase in text(hint)
    assert code in (CORPUS / "correct" / f"{implementation}.py").read_text(encoding="utf-8")
    assert graded_corpus[implementation].score == 100


def test_the_hint_under_a_failure_is_the_broken_property_s_own(
    graded_corpus: dict[str, Report],
) -> None:
    (result,) = [r for r in graded_corpus["ids_per_session"].results if r.failure is not None]
    with using_language("en"):
        assert result.hint == text("hint.property.event_ids")
        assert result.hint != result.hints[0]


def test_every_property_sentence_has_a_hint_of_its_own_in_every_language() -> None:
    for language in ("en", "zh"):
        with using_language(language):
            hints = [text(messages.property_hint_id(p)) for p in messages.property_ids()]
        assert len(set(hints)) == len(hints), "two properties share a hint"
        assert all(hint and not hint.startswith("hint.") for hint in hints)
