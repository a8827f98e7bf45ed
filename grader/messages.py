"""Every sentence the grader shows, by message id; the sentences live in the catalogs.

The English and Chinese texts are in ``grader/i18n/en.po`` and ``zh.po`` (see
:mod:`grader.i18n`). This module only names them, so the code reads as before:
``messages.EVENT_IDS`` is that property's sentence in the current language, looked up at the
moment it is read, and ``messages.TASK_NAMES["replay"]`` that task's name. Placeholders use
``str.format`` names. Code identifiers (function names, ``ValueError``) are never translated.

Statuses are the exception: ``STATUS_PASSED`` and its siblings are codes that results and
JSON files carry, the same in every language; :func:`status_label` is what a learner reads.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from typing import Final

from grader.contract import TASK_IDS
from grader.i18n import current_language, text

# --- statuses: codes, not sentences ---------------------------------------------------------
STATUS_PASSED: Final = "passed"
STATUS_FAILED: Final = "failed"
STATUS_NOT_IMPLEMENTED: Final = "not implemented yet"
STATUS_TIMED_OUT: Final = "timed out"
STATUS_ERROR: Final = "error"
STATUS_IDS: Final = {
    STATUS_PASSED: "status.passed",
    STATUS_FAILED: "status.failed",
    STATUS_NOT_IMPLEMENTED: "status.not_implemented",
    STATUS_TIMED_OUT: "status.timed_out",
    STATUS_ERROR: "status.error",
}

HINTS_PER_TASK: Final = 3
REFUSE_REASONS: Final = (
    "unknown_type",
    "bad_session_id",
    "payload_not_mapping",
    "missing_key",
    "wrong_value_type",
    "empty_value",
    "call_id_reused",
    "result_without_call",
    "result_already_given",
)
ACCEPT_FEATURES: Final = (
    "plain",
    "empty_content",
    "arguments_not_json",
    "extra_keys",
    "shared_call_id",
    "result_after_gap",
    "unusual_session_id",
    "unusual_text",
    "mapping_payload",
)

# --- single sentences: attribute name -> message id -------------------------------------------
SENTENCE_IDS: Final = {
    "APPEND_RETURNS_PAIR": "property.append_returns_pair",
    "EVENT_READABLE": "property.event_readable",
    "EVENT_IDS": "property.event_ids",
    "EVENT_FIELDS": "property.event_fields",
    "OLD_LOG_UNCHANGED": "property.old_log_unchanged",
    "BRANCHES": "property.branches",
    "EVENTS_ARE_FACTS": "property.events_are_facts",
    "READ_RESULT_IS_A_COPY": "property.read_result_is_a_copy",
    "SESSIONS_RESULT_IS_A_COPY": "property.sessions_result_is_a_copy",
    "CALLER_DICT_ISOLATED": "property.caller_dict_isolated",
    "READER_CANNOT_CHANGE": "property.reader_cannot_change",
    "READ_SESSION": "property.read_session",
    "READ_AFTER": "property.read_after",
    "LIST_SESSIONS": "property.list_sessions",
    "REPLAY_MAPPING": "property.replay_mapping",
    "REPLAY_MERGE": "property.replay_merge",
    "REPLAY_ISOLATED": "property.replay_isolated",
    "REPLAY_FRESH": "property.replay_fresh",
    "REFUSED_APPENDS_NOTHING": "property.refused_appends_nothing",
    "RETURNED": "failure.returned",
    "EXPECTED": "failure.expected",
    "RAISED": "failure.raised",
    "RAISED_AT": "failure.raised_at",
    "EXPECTED_VALUE_ERROR": "failure.expected_value_error",
    "RETURNED_INSTEAD_OF_RAISING": "failure.returned_instead_of_raising",
    "REFUSED_VALID": "failure.refused_valid",
    "NOT_A_PAIR": "failure.not_a_pair",
    "UNREADABLE": "failure.unreadable",
    "EXPECTED_NEXT_ID": "failure.expected_next_id",
    "READ_BEFORE": "failure.read_before",
    "READ_AFTER_CHANGE": "failure.read_after_change",
    "NOT_IMPLEMENTED_CALL": "failure.not_implemented_call",
    "NOT_IMPLEMENTED_TASK": "failure.not_implemented_task",
    "CALLED_EXIT": "failure.called_exit",
    "RAISED_CONTROL": "failure.raised_control",
    "TIMED_OUT": "failure.timed_out",
    "WORKER_DIED": "failure.worker_died",
    "REFUSED_EVERY_APPEND": "failure.refused_every_append",
    "FLAKY": "failure.flaky",
    "GRADER_BUG": "failure.grader_bug",
    "CHILD_BROKE": "failure.child_broke",
    "ANSWER_TOO_LARGE": "failure.answer_too_large",
    "TASK_TIMED_OUT": "failure.task_timed_out",
    "WRITTEN_IN_EARLIER_TASK": "failure.written_in_earlier_task",
    "CHANGE_CALLER_DICT": "transcript.change_caller_dict",
    "CHANGE_READ_PAYLOAD": "transcript.change_read_payload",
    "CHANGE_REPLAY": "transcript.change_replay",
    "CHANGE_EVENT": "transcript.change_event",
    "NEEDS_ATTRIBUTE": "failure.needs_attribute",
    "NEEDS_MAPPING": "failure.needs_mapping",
    "NEEDS_SEQUENCE": "failure.needs_sequence",
    "READING_RAISED": "failure.reading_raised",
    "REPR_RAISED": "failure.repr_raised",
    "CLI_DESCRIPTION": "cli.description",
    "CLI_TARGET": "cli.target",
    "CLI_JSON": "cli.json",
    "CLI_TIME_LIMIT": "cli.time_limit",
    "CLI_TASK": "cli.task",
    "CLI_FORMAT": "cli.format",
    "CLI_TASK_TIME_LIMIT": "cli.task_time_limit",
    "CLI_UNKNOWN_TASK": "cli.unknown_task",
    "CLI_NO_SANDBOX": "cli.no_sandbox",
    "PYTEST_TARGET": "cli.pytest_target",
    "LOAD_HEADING": "load.heading",
    "LOAD_SYNTAX": "load.syntax",
    "LOAD_RAISED": "load.raised",
    "LOAD_NOT_FOUND": "load.not_found",
    "LOAD_MISSING": "load.missing",
    "LOAD_EXIT": "load.exit",
    "LOAD_TIMED_OUT": "load.timed_out",
    "LOAD_DIED": "load.died",
    "LOAD_BROKE": "load.broke",
    "LOAD_TOO_LARGE": "load.too_large",
    "LOAD_MEMORY": "load.memory",
    "LOAD_NOT_STDLIB": "load.not_stdlib",
    "REPORT_TITLE": "report.title",
    "REPORT_TASK": "report.task",
    "REPORT_POINTS": "report.points",
    "REPORT_BROKEN": "report.broken",
    "REPORT_CASE": "report.case",
    "REPORT_HINT": "report.hint",
    "REPORT_TOTAL": "report.total",
    "REPORT_ALL_PASSED": "report.all_passed",
    "REPORT_NEXT": "report.next",
    "OUTPUT_TRUNCATED": "report.output_truncated",
    "NO_SANDBOX_NOTE": "report.no_sandbox",
    "NO_SANDBOX_UID_NOTE": "report.no_sandbox_uid",
    "NEEDS_IT": "failure.needs_it",
    "NEEDS_THEM": "failure.needs_them",
    "YOUR_CODE": "failure.your_code",
    "CLI_WATCH": "cli.watch",
    "CLI_HINT": "cli.hint",
    "CLI_LANG": "cli.lang",
    "CLI_SUBCOMMANDS": "cli.subcommands",
}


class CatalogTable(Mapping[str, str]):
    """A read-only table whose values are catalog sentences, looked up when read."""

    def __init__(self, message_ids: Mapping[str, str]) -> None:
        self._message_ids = dict(message_ids)

    def __getitem__(self, key: str) -> str:
        return text(self._message_ids[key])

    def __iter__(self) -> Iterator[str]:
        return iter(self._message_ids)

    def __len__(self) -> int:
        return len(self._message_ids)

    def message_ids(self) -> list[str]:
        """The ids behind the table, for the catalog tests."""
        return list(self._message_ids.values())


class CatalogHints(Mapping[str, tuple[str, ...]]):
    """Each task's hints, gentle first, looked up when read."""

    def __getitem__(self, task_id: str) -> tuple[str, ...]:
        if task_id not in TASK_IDS:
            raise KeyError(task_id)
        return tuple(text(message_id) for message_id in hint_ids(task_id))

    def __iter__(self) -> Iterator[str]:
        return iter(TASK_IDS)

    def __len__(self) -> int:
        return len(TASK_IDS)


def hint_ids(task_id: str) -> list[str]:
    """The message ids of a task's hints, gentle first."""
    return [f"task.{task_id}.hint.{number}" for number in range(1, HINTS_PER_TASK + 1)]


TASK_NAMES: Final = CatalogTable({task: f"task.{task}.name" for task in TASK_IDS})
HINTS: Final = CatalogHints()
REFUSE: Final = CatalogTable({reason: f"property.refuse.{reason}" for reason in REFUSE_REASONS})
ACCEPT: Final = CatalogTable({feature: f"property.accept.{feature}" for feature in ACCEPT_FEATURES})


def status_label(status: str) -> str:
    """What a learner reads for a status code, in the current language."""
    return text(STATUS_IDS[status])


def property_ids() -> list[str]:
    """The message id of every property sentence: each has a hint of its own."""
    single = [
        message_id for message_id in SENTENCE_IDS.values() if message_id.startswith("property.")
    ]
    return single + REFUSE.message_ids() + ACCEPT.message_ids()


def property_hint_id(property_id: str) -> str:
    """``property.event_ids`` -> ``hint.property.event_ids``."""
    return "hint." + property_id


def hint_for(sentence: str, status: str) -> str | None:
    """The hint for a failure: the broken property's own, or one for a hang or a crash.

    Args:
        sentence: the failure's sentence, in the current language.
        status: the failure's status code.
    """
    if status == STATUS_TIMED_OUT:
        return text("hint.timed_out")
    if status == STATUS_ERROR:
        return text("hint.error")
    property_id = _sentences_in(current_language()).get(sentence)
    return text(property_hint_id(property_id)) if property_id else None


@functools.cache
def _sentences_in(language: str) -> dict[str, str]:
    # Failures carry their sentence as text; the language is part of the key because the
    # same process may grade in English and then in Chinese.
    return {text(message_id): message_id for message_id in property_ids()}


def all_message_ids() -> set[str]:
    """Every message id this module names; the catalog tests demand each in every language."""
    tables = (TASK_NAMES, REFUSE, ACCEPT)
    return (
        set(SENTENCE_IDS.values())
        | set(STATUS_IDS.values())
        | {message_id for table in tables for message_id in table.message_ids()}
        | {message_id for task in TASK_IDS for message_id in hint_ids(task)}
        | {property_hint_id(message_id) for message_id in property_ids()}
    )


def __getattr__(name: str) -> str:
    """Look up a sentence named in :data:`SENTENCE_IDS`, in the current language."""
    try:
        return text(SENTENCE_IDS[name])
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
