"""Each example issue 28 added is needed: its mutant, whose bug lives past a maximum the
examples had or in a mechanism none exercised, gets full marks on its task without it.

The corpus test shows each mutant loses its task with every example; this one grades it
again with the one example named here taken out, and asserts it then passes. Together they
say that this example, and no other, catches the bug.
"""

from __future__ import annotations

import marshal
import pickle
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from grader.engine import bank
from grader.engine.bank import BankedProperty
from grader.engine.outcomes import Report, Status
from grader.i18n import using_language
from grader.run import grade_in_process
from grader.tasks import TASKS_BY_ID
from grader.tasks.append_and_ids import edges as append_edges
from grader.tasks.append_and_ids import properties as append_properties
from grader.tasks.list_sessions import edges as list_edges
from grader.tasks.list_sessions import properties as list_properties
from grader.tasks.read_and_resume import edges as read_edges
from grader.tasks.read_and_resume import properties as read_properties
from grader.tasks.reject_bad_input import edges as reject_edges
from grader.tasks.replay import edges as replay_edges
from grader.tasks.replay import properties as replay_properties
from tests.grader.conftest import in_pool
from tests.implementations.corpus import write_mutant
from tests.implementations.mutants import EDGE_MUTANTS

#: mutant -> (the property, the one example of it that catches the mutant). The task is the
#: mutant's own. A ``(program, pick)`` example names its program.
CAUGHT_ONLY_BY: dict[str, tuple[str, Any]] = {
    # sizes
    "ids_wrap_at_1024": ("appends", append_properties.LONG),
    "reads_return_at_most_1024_events": ("reads", read_properties.LONG),
    "sessions_listed_up_to_1024": ("sizes", list_edges.LIST_SIZES),
    "results_matched_among_the_last_256_calls": ("refusals", reject_edges.CALLS_AT_ONCE),
    "answers_remembered_for_the_last_256_results": ("refusals", reject_edges.CALLS_AT_ONCE),
    "results_looked_for_in_the_last_1024_events": ("refusals", reject_edges.GAPS),
    "replay_runs_split_at_512_calls": ("sizes", replay_edges.RUN_SIZES),
    "replay_returns_at_most_1024_messages": ("sizes", replay_edges.REPLAY_SIZES),
    "long_replays_handed_out_from_a_cache": ("fresh", replay_properties.LONG_REPLAY),
    "long_reads_handed_out_from_a_cache": ("results_are_copies", read_properties.MANY),
    "sessions_seen_remembered_for_the_last_256": ("listing", list_properties.MANY),
    "long_lists_copied_in_one_step": ("caller_payload", append_edges.WIDE_PAYLOAD),
    "wide_mappings_wrapped_not_copied": ("caller_payload", append_edges.WIDE_PAYLOAD),
    "replayed_results_clipped_at_32768_characters": ("sizes", append_edges.LONG_RESULT),
    "long_texts_stored_as_utf8_with_replace": ("edges", append_edges.LONG_RESULT),
    "payload_lists_cut_at_2048_items": ("edges", append_edges.ITEMS),
    "payload_keys_cut_at_2048": ("edges", append_edges.KEYS),
    "copy_stops_160_levels_down": ("edges", append_edges.DEPTHS),
    "contents_of_a_power_of_two_lose_a_character": ("edges", append_edges.TEXTS),
    "session_ids_cut_at_2048": ("edges", append_edges.SESSION_IDS),
    "call_ids_compared_by_their_first_1024_characters": ("edges", append_edges.CALL_IDS),
    "ints_stored_in_4096_bits": ("edges", append_edges.INTS),
    "long_lists_handed_out_from_a_cache": ("sizes", list_edges.LIST_SIZES),
    "contents_cut_at_131072_characters": ("edges", append_edges.TEXTS),
    "replayed_results_clipped_at_131072_characters": ("sizes", append_edges.LONG_RESULT),
    "copy_keeps_the_caller_s_containers_past_192_levels": (
        "caller_payload",
        append_edges.DEEP_TO_CHANGE,
    ),
    "payloads_frozen_down_to_192_levels_only": ("payload_read_only", append_edges.DEEP_TO_CHANGE),
    "lists_past_1024_items_stored_as_lists": ("payload_read_only", append_edges.WIDE_PAYLOAD),
    "answers_remembered_for_the_last_512_results": ("refusals", reject_edges.CALLS_AT_ONCE),
    "calls_joined_only_within_1024_positions": ("sizes", replay_edges.REPLAY_SIZES),
    "replays_past_1024_messages_handed_out_from_a_cache": (
        "fresh",
        replay_properties.LONG_REPLAY,
    ),
    "results_looked_for_in_the_last_2048_events": ("refusals", reject_edges.LONG_GAPS),
    "reused_call_ids_looked_for_in_the_last_2048_events": ("refusals", reject_edges.LONG_GAPS),
    "reads_of_long_logs_kept_by_the_log_s_length": (
        "newer_after_branch",
        read_edges.LONG_BRANCHES,
    ),
    "results_looked_for_in_the_session_s_last_2048_events": (
        "refusals",
        reject_edges.LONG_GAPS,
    ),
    # the long gaps' session, read as it grows through 2**11 + 1
    "session_reads_paged_by_2048_lose_a_last_page_of_one": ("refusals", reject_edges.LONG_GAPS),
    # mechanisms
    "payload_keys_named_like_event_fields_dropped": ("edges", append_edges.FIELD_NAMED_KEYS),
    "results_checked_against_every_call_of_the_family": (
        "older_logs",
        reject_edges.CALL_HISTORY,
    ),
    "payload_copies_cached_by_identity": ("same_mapping_twice", append_edges.SAME_MAPPING),
    "branches_cut_the_index_newer_logs_read": (
        "newer_after_branch",
        read_edges.NEWER_AFTER_BRANCH,
    ),
    "replay_shows_a_refused_tool_event": ("after_refusals", replay_edges.BEFORE_REFUSALS),
    "arguments_with_several_keys_normalised": (
        "edges",
        append_edges.ARGUMENTS_WITH_SEVERAL_KEYS,
    ),
    "compact_arguments_stored_with_sorted_keys": (
        "edges",
        append_edges.ARGUMENTS_WITH_SEVERAL_KEYS,
    ),
    "str_subclass_event_types_refused": ("acceptance_table", reject_edges.TEXT_SUBCLASSES),
    "session_ids_compared_with_surrogates_replaced": ("reads", read_edges.SURROGATE_SESSIONS),
    "session_ids_checked_for_messages_only": ("every_type", None),
    "a_refused_tool_event_lets_its_retry_through": ("refused_twice", reject_edges.CALL_HISTORY),
    "reused_call_ids_looked_for_in_the_last_1024_events": ("refusals", reject_edges.GAPS),
    "sessions_listed_by_family": ("listing", list_edges.FAMILIES),
    "sessions_listed_with_surrogate_pairs_joined": ("listing", list_edges.FAMILIES),
    "tool_call_messages_take_content_from_the_payload": (
        "messages",
        replay_edges.MESSAGE_KEY_EXTRAS,
    ),
    "refused_calls_reserve_their_id": (
        "newest_after_refusals",
        reject_edges.SHORT_HISTORY,
    ),
    "a_refused_result_forgets_its_call": (
        "newest_after_refusals",
        reject_edges.SHORT_HISTORY,
    ),
    "another_sessions_result_ends_a_run": ("messages", replay_edges.FOREIGN_EVENTS_IN_A_RUN),
    "assistant_messages_pass_refusal_through": ("messages", replay_edges.MESSAGE_KEY_EXTRAS),
    "sessions_seen_looked_for_in_a_joined_text": ("listing", list_edges.JOINED),
    "tool_names_cleaned_into_utf8": ("edges", append_edges.LONE_SURROGATES),
    "payload_keys_must_be_utf8": ("edges", append_edges.LONE_SURROGATES),
    "call_ids_compared_by_their_escaped_utf8": ("edges", append_edges.LONE_SURROGATES),
    "replayed_arguments_made_utf8_safe": ("messages", append_edges.LONE_SURROGATES),
    "sessions_read_by_their_crc32": ("reads", read_edges.COLLIDING_SESSIONS),
    "session_ids_read_by_their_first_1024_characters": ("reads", read_edges.COLLIDING_SESSIONS),
    "long_texts_kept_once_by_their_first_1024_characters": (
        "edges",
        append_edges.TEXTS_ALIKE,
    ),
    "payload_keys_must_be_exact_strs": ("acceptance_table", reject_edges.TEXT_SUBCLASSES),
    "tuples_holding_no_list_or_dict_kept_as_given": (
        "caller_payload",
        append_edges.TUPLES_TO_CHANGE,
    ),
}
#: Examples added after a mutant's own that catch it too, by the same mechanism (a payload
#: as deep as the contract allows, changed after the append, shows a copy that stopped short
#: as surely as one only read; a replay of 1,025 messages changed by its caller is first a
#: replay of 1,025 messages; a window over the log's last 1,024 events misses a call 4,097
#: events back as surely as one 1,025 back): taken out with its own, the mutant passes.
ALSO_CAUGHT_BY: dict[str, tuple[tuple[str, Any], ...]] = {
    "replay_returns_at_most_1024_messages": (("fresh", replay_properties.LONG_REPLAY),),
    "results_looked_for_in_the_last_1024_events": (("refusals", reject_edges.LONG_GAPS),),
    "reused_call_ids_looked_for_in_the_last_1024_events": (("refusals", reject_edges.LONG_GAPS),),
    "copy_stops_160_levels_down": (
        ("caller_payload", append_edges.DEEP_TO_CHANGE),
        ("payload_read_only", append_edges.DEEP_TO_CHANGE),
    ),
}
BY_NAME = {mutant.name: mutant for mutant in EDGE_MUTANTS}
#: Each mechanism issue 28 lists (and each the contract's decisions added), with the mutants
#: whose bug lives in it: each is in CAUGHT_ONLY_BY, so only that mechanism's example
#: catches it.
MECHANISMS: dict[str, tuple[str, ...]] = {
    "extra payload keys named like the event's own fields or a message's fields": (
        "payload_keys_named_like_event_fields_dropped",
        "tool_call_messages_take_content_from_the_payload",
    ),
    "a refused append tried on an older log or on a branch": (
        "results_checked_against_every_call_of_the_family",
    ),
    "the same mapping passed to two appends and changed in between": (
        "payload_copies_cached_by_identity",
    ),
    "a branch taken, then a read of a log newer than the branch": (
        "branches_cut_the_index_newer_logs_read",
    ),
    "a refused append followed by a replay": ("replay_shows_a_refused_tool_event",),
    "JSON arguments with several keys, which must come back as given": (
        "arguments_with_several_keys_normalised",
        "compact_arguments_stored_with_sorted_keys",
    ),
    "a str subclass wherever a string goes": (
        "str_subclass_event_types_refused",
        "payload_keys_must_be_exact_strs",
    ),
    "lone surrogates beside the characters an encoder would turn them into": (
        "session_ids_compared_with_surrogates_replaced",
    ),
    "every bad input tried with every event type": ("session_ids_checked_for_messages_only",),
    "a refused append that must leave every later rule as it was": (
        "a_refused_tool_event_lets_its_retry_through",
    ),
    "a call id reused long after its first use": (
        "reused_call_ids_looked_for_in_the_last_1024_events",
    ),
    "session ids related by prefix or family, interleaved, for the order of the list": (
        "sessions_listed_by_family",
    ),
    "extra payload keys named like a message's own fields never reach a replayed message": (
        "tool_call_messages_take_content_from_the_payload",
        "assistant_messages_pass_refusal_through",
    ),
    "a surrogate pair and the character it encodes are two ids (decided)": (
        "sessions_listed_with_surrogate_pairs_joined",
    ),
    "a refused tool event followed at once by an append to the newest log": (
        "refused_calls_reserve_their_id",
        "a_refused_result_forgets_its_call",
    ),
    "another session's result, message or call inside a run of calls": (
        "another_sessions_result_ends_a_run",
    ),
    "session ids joined by a separator, then their pieces": (
        "sessions_seen_looked_for_in_a_joined_text",
    ),
    "lone surrogates in every string an append takes, call ids beside their encodings": (
        "tool_names_cleaned_into_utf8",
        "payload_keys_must_be_utf8",
        "call_ids_compared_by_their_escaped_utf8",
        "replayed_arguments_made_utf8_safe",
    ),
    "session ids alike in a checksum or a long prefix, each a session of its own": (
        "sessions_read_by_their_crc32",
        "session_ids_read_by_their_first_1024_characters",
    ),
    "long texts of one length, alike but for one character": (
        "long_texts_kept_once_by_their_first_1024_characters",
    ),
    "a list inside a tuple inside a tuple, changed by its caller (the contract: at any depth)": (
        "tuples_holding_no_list_or_dict_kept_as_given",
    ),
}


@pytest.mark.parametrize("mechanism", sorted(MECHANISMS))
def test_every_mechanism_has_a_mutant_only_its_example_catches(mechanism: str) -> None:
    mutants = MECHANISMS[mechanism]
    assert mutants, mechanism
    assert [name for name in mutants if name not in CAUGHT_ONLY_BY] == []


def example_index(task_id: str, property_name: str, example: Any) -> int:
    """Where ``example`` is among the property's explicit examples (by identity)."""
    prop = next(p for p in TASKS_BY_ID[task_id].properties if p.name == property_name)
    found = [
        index
        for index, value in enumerate(prop.explicit)
        if value is example or (isinstance(value, tuple) and value and value[0] is example)
    ]
    assert len(found) == 1, (task_id, property_name, found)
    return found[0]


def bank_without(task_id: str, taken: list[tuple[str, int]]) -> dict[str, BankedProperty]:
    """The task's bank with the ``(property, index)`` examples taken out."""
    stored = bank.load(task_id)
    assert stored is not None, f"the bank of {task_id} is stale: python -m maintainer.bank"
    smaller = dict(stored)
    for property_name in {name for name, _ in taken}:
        entry = stored[property_name]
        requests = marshal.loads(entry.request)
        values = entry.values
        out = {index for name, index in taken if name == property_name}
        kept = [i for i in range(len(entry)) if i not in out]
        smaller[property_name] = BankedProperty(
            marshal.dumps([requests[i] for i in kept]),
            tuple(entry.digests[i] for i in kept),
            pickle.dumps([values[i] for i in kept], protocol=5),
        )
    return smaller


def grade_without(job: tuple[Path, str, list[tuple[str, int]]]) -> Report:
    """Grade the file on its task, some examples out of its bank (in a worker: tasks do not
    pickle)."""
    path, task_id, taken = job
    smaller = bank_without(task_id, taken)
    with using_language("en"), mock.patch.object(bank, "load", lambda _: smaller):
        return grade_in_process(str(path), (TASKS_BY_ID[task_id],))


@pytest.fixture(scope="module")
def graded_without(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Report]:
    folder = tmp_path_factory.mktemp("edge_mutants")
    names = sorted(CAUGHT_ONLY_BY)
    jobs = []
    for name in names:
        mutant = BY_NAME[name]
        examples = (CAUGHT_ONLY_BY[name], *ALSO_CAUGHT_BY.get(name, ()))
        taken = [(prop, example_index(mutant.task, prop, example)) for prop, example in examples]
        jobs.append((write_mutant(mutant, folder), mutant.task, taken))
    return dict(zip(names, in_pool(grade_without, jobs), strict=True))


def test_every_edge_mutant_names_the_example_that_catches_it() -> None:
    assert sorted(CAUGHT_ONLY_BY) == sorted(BY_NAME)
    assert sorted(set(ALSO_CAUGHT_BY) - set(CAUGHT_ONLY_BY)) == []


@pytest.mark.parametrize("name", sorted(CAUGHT_ONLY_BY))
def test_without_its_example_the_mutant_gets_full_marks_on_its_task(
    name: str, graded_without: dict[str, Report]
) -> None:
    (result,) = graded_without[name].results
    assert (result.task_id, result.status) == (BY_NAME[name].task, Status.PASSED), result.failure
