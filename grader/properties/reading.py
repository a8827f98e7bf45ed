"""Task read_and_resume: one session's events, oldest first, after any id."""

from __future__ import annotations

from typing import Any

from grader import messages
from grader.callserver.codec import Ref
from grader.harness import LogVar, Trial
from grader.observing import Root, log_reads, probe_changes
from grader.programs import Append, Style, programs
from grader.properties import Property, sessions_of
from grader.remote import Learner
from grader.transcript import call_request, events_code
from grader.views import EventView, show_views

# "ab" and "A" next to "a": ids that start with another one, or differ only in case, are
# different sessions.
STYLE = Style(sessions=("a", "b", "ab", "A"), max_appends=8)
UNKNOWN_SESSION = "z"


def check_reads(learner: Learner, program: list[Append]) -> None:
    """Compare every read with the events append_event itself returned."""
    trial = Trial(learner)
    log, events = trial.append_all(trial.create(), program)
    views = [trial.event(messages.READ_SESSION, event) for event in events]
    appended = list(zip(program, views, strict=True))
    ids = _ids(appended)
    queries = [
        (session, after)
        for session in [*STYLE.sessions, UNKNOWN_SESSION]
        for after in (None, *_interesting_afters(ids))
    ]
    codes = [events_code(log.name, session, after) for session, after in queries]
    requests = [
        _read_request(log, session, after, code)
        for (session, after), code in zip(queries, codes, strict=True)
    ]
    answers = trial.batch(messages.READ_SESSION, codes[0], requests)
    for (session, after), code, answer in zip(queries, codes, answers, strict=True):
        own = [
            (number, view)
            for (append, view), number in zip(appended, ids, strict=True)
            if append.session_id == session
        ]
        # The default after_event_id is 0: judged with the learner's ids, like every other read.
        sentence = messages.READ_SESSION if after is None else messages.READ_AFTER
        expected = [view for number, view in own if number > (after or 0)]
        got = trial.read_answer(sentence, "get_events_for_session", code, answer, "events")
        _compare(trial, sentence, code, got, expected)


def _read_request(log: LogVar, session: str, after: int | None, code: str) -> dict[str, Any]:
    kwargs = {} if after is None else {"after_event_id": after}
    return call_request(
        "get_events_for_session", code, (Ref(log.name), session), kwargs, view="events"
    )


def _ids(appended: list[tuple[Append, EventView]]) -> list[int]:
    """The ids the learner gave, when they are ints; else the contract's 1, 2, 3, ...

    Reads are judged against the learner's own ids so that an id bug (task append_and_ids)
    does not also cost the points of this task.
    """
    given = [view.event_id for _, view in appended]
    if all(type(number) is int for number in given):
        return given
    return list(range(1, len(given) + 1))


def _interesting_afters(ids: list[int]) -> list[int]:
    top = max(ids, default=0)
    return sorted({-1, 0, *ids, top + 1, top + 5})


def _compare(
    trial: Trial, sentence: str, code: str, got: list[EventView], expected: list[EventView]
) -> None:
    if got != expected:
        trial.fail_mismatch(sentence, code, show_views(got), show_views(expected))


def check_results_are_copies(learner: Learner, program: list[Append]) -> None:
    """Changing the sequence get_events_for_session returned (clear, append, ...) reaches
    nothing: not the log, not what the next read returns."""
    trial = Trial(learner)
    log, _ = trial.append_all(trial.create(), program)
    sessions = sessions_of(program)
    reads = log_reads(trial, log, sessions)
    for number, session in enumerate(sessions, start=1):
        name = f"read{number}"
        code, _ = trial.events(messages.READ_RESULT_IS_A_COPY, log, session, keep=name)
        trial.lines.append(f"{name} = {code}")
        root: Root = (name, [], name)
        probe_changes(trial, messages.READ_RESULT_IS_A_COPY, root, reads, True, ["shallow"])


PROPERTIES = (
    Property(
        "reads",
        programs(STYLE),
        check_reads,
        50,
        ("property.read_session", "property.read_after"),
    ),
    Property(
        "results_are_copies",
        programs(Style(max_appends=4), min_appends=1),
        check_results_are_copies,
        15,
        ("property.read_result_is_a_copy",),
    ),
)
