"""Every clause of the contract has a property, and a mutant that only that property catches.

The clauses are the ``Promises:`` bullets of the exercises' docstrings, the contract learners
read. The table below maps each bullet (by how it starts) to the properties that check it,
each with a mutant from the corpus that breaks that clause alone: graded, the mutant must be
told of exactly that property and no other. A bullet with no row, a row with no bullet, a
property no clause names, or a mutant caught by the wrong property fails a test here.
"""

from __future__ import annotations

import inspect

import pytest

import exercises
from grader import messages
from grader.i18n import text, using_language
from grader.report import Report
from grader.tasks import TASKS
from tests.implementations.mutants import MUTANTS

#: (function, how the bullet starts) -> ((property message id, mutant), ...)
CLAUSES: dict[tuple[str, str], tuple[tuple[str, str], ...]] = {
    ("append_event", "It returns a pair"): (
        ("property.append_returns_pair", "pair_returned_as_a_triple"),
    ),
    ("append_event", "The event has the attributes"): (
        ("property.event_readable", "payload_attribute_renamed"),
    ),
    ("append_event", "Event ids form one sequence"): (("property.event_ids", "ids_per_session"),),
    ("append_event", "The event carries the session_id and type"): (
        ("property.event_fields", "extra_keys_dropped"),
    ),
    ("append_event", "The log passed in never changes"): (
        ("property.old_log_unchanged", "old_log_changed"),
    ),
    ("append_event", "Appending to an older log starts a branch"): (
        ("property.branches", "branches_share_one_list"),
    ),
    ("append_event", "The payload is copied"): (
        ("property.caller_dict_isolated", "nested_extras_shallow"),
    ),
    ("append_event", "Nobody can change the log through a payload"): (
        ("property.reader_cannot_change", "payload_proxy_nested_leak"),
    ),
    ("append_event", "An event is a fact"): (("property.events_are_facts", "events_are_mutable"),),
    ("append_event", "Any valid append is accepted"): (
        ("property.accept.plain", "refuses_repeated_user_messages"),
        ("property.accept.empty_content", "rejects_empty_content"),
        ("property.accept.arguments_not_json", "rejects_invalid_json_arguments"),
        ("property.accept.extra_keys", "refuses_extra_payload_keys"),
        ("property.accept.shared_call_id", "call_ids_global"),
        ("property.accept.result_after_gap", "refuses_a_result_after_other_events"),
        ("property.accept.unusual_session_id", "refuses_unusual_session_ids"),
        ("property.accept.unusual_text", "refuses_non_ascii_content"),
        ("property.accept.mapping_payload", "refuses_payloads_that_are_not_dicts"),
    ),
    ("append_event", "Bad input raises ValueError"): (
        ("property.refuse.unknown_type", "accepts_unknown_type"),
        ("property.refuse.bad_session_id", "accepts_empty_session_id"),
        ("property.refuse.payload_not_mapping", "type_error_for_non_mapping"),
        ("property.refuse.missing_key", "accepts_missing_key"),
        ("property.refuse.wrong_value_type", "accepts_non_str_content"),
        ("property.refuse.empty_value", "accepts_empty_call_id_or_name"),
        ("property.refuse.call_id_reused", "accepts_reused_call_id"),
        ("property.refuse.result_without_call", "accepts_result_without_call"),
        ("property.refuse.result_already_given", "accepts_second_result"),
        ("property.refused_appends_nothing", "appends_before_raising"),
    ),
    ("get_events_for_session", "Only this session's events"): (
        ("property.read_session", "reads_match_session_prefix"),
    ),
    ("get_events_for_session", "Exactly the events whose event_id"): (
        ("property.read_after", "after_id_inclusive"),
    ),
    ("get_events_for_session", "The sequence returned is the caller's own"): (
        ("property.read_result_is_a_copy", "reads_hand_out_the_logs_list"),
    ),
    ("list_sessions", "Every session that has events"): (
        ("property.list_sessions", "sessions_sorted"),
    ),
    ("list_sessions", "The sequence returned is the caller's own"): (
        ("property.sessions_result_is_a_copy", "sessions_list_kept_in_the_log"),
    ),
    ("replay_session", "Each event becomes exactly the message"): (
        ("property.replay_mapping", "replay_camelcase_key"),
    ),
    ("replay_session", "Consecutive tool_call events"): (
        ("property.replay_merge", "replay_no_merge"),
    ),
    ("replay_session", "Only this session's events count"): (
        ("property.replay_isolated", "replay_leaks_other_sessions"),
    ),
    ("replay_session", "Every call builds fresh objects"): (
        ("property.replay_fresh", "replay_cached"),
    ),
}
ROWS = [(clause, row) for clause, rows in CLAUSES.items() for row in rows]


def promises(function: object) -> list[str]:
    """The ``Promises:`` bullets of a function's docstring, each on one line."""
    lines = (inspect.getdoc(function) or "").splitlines()
    if "Promises:" not in lines:
        return []
    bullets: list[str] = []
    for line in lines[lines.index("Promises:") + 1 :]:
        if not line.strip():
            break
        if line.lstrip().startswith("- "):
            bullets.append(line.lstrip()[2:])
        elif bullets:
            bullets[-1] += " " + line.strip()
    return bullets


def documented_clauses() -> list[tuple[str, str]]:
    """(function, bullet) for every promise in the exercises' docstrings."""
    return [
        (name, bullet)
        for name in exercises.__all__
        for bullet in promises(getattr(exercises, name))
    ]


def test_every_promise_in_the_exercises_has_exactly_one_row() -> None:
    unmatched = [
        (function, bullet)
        for function, bullet in documented_clauses()
        if sum(1 for (name, start) in CLAUSES if name == function and bullet.startswith(start)) != 1
    ]
    assert unmatched == []


def test_every_row_names_a_promise_that_is_still_in_the_exercises() -> None:
    documented = documented_clauses()
    stale = [
        clause
        for clause in CLAUSES
        if not any(
            name == clause[0] and bullet.startswith(clause[1]) for name, bullet in documented
        )
    ]
    assert stale == []


def test_every_property_sentence_belongs_to_a_clause() -> None:
    tabled = {message_id for _, (message_id, _) in ROWS}
    assert set(messages.property_ids()) <= tabled, set(messages.property_ids()) - tabled


def test_every_property_of_every_task_checks_tabled_clauses_only() -> None:
    tabled = {message_id for _, (message_id, _) in ROWS}
    checked = {check for task in TASKS for prop in task.properties for check in prop.checks}
    assert checked == tabled


def test_every_clause_has_a_killing_mutant_from_the_corpus() -> None:
    names = {mutant.name for mutant in MUTANTS}
    assert {mutant for _, (_, mutant) in ROWS} <= names


def broken_sentences(report: Report) -> set[str]:
    """The distinct properties a report says were broken."""
    return {r.failure.sentence for r in report.results if r.failure is not None}


@pytest.mark.parametrize(("clause", "row"), ROWS, ids=[row[1] for _, row in ROWS])
def test_the_clause_s_mutant_is_caught_by_that_property_and_no_other(
    clause: tuple[str, str], row: tuple[str, str], graded_corpus: dict[str, Report]
) -> None:
    message_id, mutant = row
    with using_language("en"):
        expected = text(message_id)
    assert broken_sentences(graded_corpus[mutant]) == {expected}
