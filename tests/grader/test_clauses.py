"""Every promise of the contract has its words, its property, and a mutant only it catches.

The promises are the ``Promises:`` bullets of the exercises' docstrings. The grader's table
of functions lists each function's promise ids in bullet order, and each id's English words
are exactly the bullet's: so the docstrings, the reports and the table cannot drift apart. A
promise with no property checking it, or no mutant caught by it alone, fails a test here; so
does an input class (issue 17's list) without a mutant whose bug lives there.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.engine.contract import CASES, FUNCTIONS
from grader.engine.outcomes import Report, Status
from grader.i18n import has, text, using_language
from grader.tasks import TASKS
from tests.grader.promises import bullets, docstrings
from tests.implementations.mutants import MUTANTS

#: promise (or case) id -> the mutant that breaks it alone.
KILLERS: dict[str, str] = {
    "append.returns_pair": "pair_returned_as_a_triple",
    "append.event_attributes": "payload_attribute_renamed",
    "append.event_ids": "ids_per_session",
    "append.event_fields": "extra_keys_dropped",
    "append.old_log_unchanged": "old_log_changed",
    "append.branches": "branches_share_one_list",
    "append.caller_payload_copied": "nested_extras_shallow",
    "append.payload_read_only": "payload_proxy_nested_leak",
    "append.events_are_facts": "events_are_mutable",
    "append.refusal_leaves_no_trace": "appends_before_raising",
    "accept.plain": "refuses_repeated_user_messages",
    "accept.empty_content": "rejects_empty_content",
    "accept.arguments_not_json": "rejects_invalid_json_arguments",
    "accept.extra_keys": "refuses_extra_payload_keys",
    "accept.shared_call_id": "call_ids_global",
    "accept.result_after_gap": "refuses_a_result_after_other_events",
    "accept.unusual_session_id": "refuses_unusual_session_ids",
    "accept.unusual_text": "unprintable_content_refused",
    "accept.long_text": "long_content_refused",
    "accept.unusual_call_id": "call_ids_with_spaces_refused",
    "accept.mapping_payload": "refuses_payloads_that_are_not_dicts",
    "refuse.unknown_type": "accepts_unknown_type",
    "refuse.bad_session_id": "accepts_empty_session_id",
    "refuse.payload_not_mapping": "type_error_for_non_mapping",
    "refuse.missing_key": "accepts_missing_key",
    "refuse.wrong_value_type": "accepts_non_str_content",
    "refuse.empty_value": "accepts_empty_call_id_or_name",
    "refuse.call_id_reused": "accepts_reused_call_id",
    "refuse.result_without_call": "accepts_result_without_call",
    "refuse.result_already_given": "accepts_second_result",
    "read.session_only": "reads_match_session_prefix",
    "read.after": "after_id_inclusive",
    "read.result_is_a_copy": "reads_hand_out_the_logs_list",
    "list.sessions": "sessions_sorted",
    "list.result_is_a_copy": "sessions_list_kept_in_the_log",
    "replay.mapping": "replay_camelcase_key",
    "replay.merge": "replay_no_merge",
    "replay.isolated": "replay_leaks_other_sessions",
    "replay.fresh": "replay_cached",
}
#: Issue 17's input classes -> mutants whose bug only an example of that class reaches.
INPUT_CLASSES: dict[str, tuple[str, ...]] = {
    "ids past 255 (long logs)": ("ids_wrap_at_256",),
    "reads past 100 events": ("reads_scan_the_last_100",),
    "ids past 9 ordered as text": ("reads_sorted_by_text_id",),
    "session ids on a prefix": ("reads_match_session_prefix",),
    "session ids by Unicode normalisation": ("sessions_compared_after_nfc",),
    "session ids without case": ("session_ids_compared_without_case",),
    "a separator a session id may hold": ("call_ids_keyed_with_a_colon",),
    "long content": ("long_content_refused",),
    "content holding \\r\\n": ("crlf_normalised",),
    "unprintable content": ("unprintable_content_refused",),
    "copies that stop at a depth": ("copy_stops_at_depth_two",),
    "copies that skip tuples": ("tuples_not_copied",),
    "a MappingProxyType copied shallowly": ("proxy_copied_shallowly",),
    "readers of an empty log sharing a list": ("empty_reads_share_one_list",),
    "replays cached across branches": ("replay_cached_by_length",),
    "a run of calls capped": ("replay_run_capped_at_five",),
    "extra keys passed into messages": ("replay_passes_the_name_key",),
    "a JSON result parsed": ("replay_parses_json_results",),
    "an empty assistant text joined to calls": ("replay_calls_join_an_empty_assistant_message",),
    "call-id rules in a window": ("call_ids_checked_in_a_window",),
    "call ids checked against the last call only": ("call_ids_checked_against_the_last_call",),
    "call ids checked in the last run of calls only": ("call_ids_checked_in_the_last_run",),
    "call ids differing only in case": ("call_ids_without_case",),
    "a TypeError for an unhashable type": ("unhashable_type_raises_type_error",),
    "call ids or names with spaces refused": ("call_ids_with_spaces_refused",),
}
BY_NAME = {mutant.name: mutant for mutant in MUTANTS}


def all_promises() -> list[str]:
    return [promise for function in FUNCTIONS for promise in function.promises]


@pytest.mark.parametrize("function", [f for f in FUNCTIONS if f.promises], ids=lambda f: f.name)
def test_the_docstring_bullets_are_the_promises_words(function, committed_stubs: Path) -> None:  # type: ignore[no-untyped-def]
    # The committed stubs: a learner's own docstrings in the working copy may say anything.
    stated = bullets(docstrings(committed_stubs)[function.name])
    with using_language("en"):
        worded = [" ".join(text(f"promise.{promise}").split()) for promise in function.promises]
    assert [" ".join(bullet.split()) for bullet in stated] == worded


def test_every_promise_and_case_has_words_and_hints() -> None:
    ids = all_promises() + [key for key in KILLERS if key.split(".")[0] in CASES]
    with using_language("en"):
        missing = [
            i for i in ids for key in (f"promise.{i}", f"hint.{i}.1", f"hint.{i}.2") if not has(key)
        ]
    assert missing == []


def test_every_promise_is_checked_by_a_property() -> None:
    checked = {promise for task in TASKS for prop in task.properties for promise in prop.promises}
    unchecked = [p for p in all_promises() if p not in checked and p not in CASES.values()]
    assert unchecked == []


def test_every_promise_and_case_has_a_killer_and_every_killer_exists() -> None:
    cases = [p for p in all_promises() if p not in CASES.values()]
    assert sorted(set(cases) - set(KILLERS)) == []
    assert sorted(name for name in KILLERS.values() if name not in BY_NAME) == []


def test_every_input_class_has_a_mutant() -> None:
    assert all(INPUT_CLASSES.values())
    assert (
        sorted(name for names in INPUT_CLASSES.values() for name in names if name not in BY_NAME)
        == []
    )


def _broken(report: Report) -> set[str]:
    return {
        r.failure.promise
        for r in report.results
        if r.failure is not None and r.status is Status.FAILED
    }


@pytest.mark.parametrize(("promise", "mutant"), sorted(KILLERS.items()), ids=sorted(KILLERS))
def test_the_promise_s_mutant_is_caught_by_that_promise(
    promise: str, mutant: str, graded_mutants
) -> None:  # type: ignore[no-untyped-def]
    report = graded_mutants(mutant)
    own = [r for r in report.results if r.task_id == BY_NAME[mutant].task]
    assert own and own[0].failure is not None and own[0].failure.promise == promise, _broken(report)
