"""Task append_and_ids: the pair append_event returns, ids, payload copies, old logs."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from grader import messages
from grader.harness import EventVar, LogVar, Trial
from grader.loading import Target
from grader.mutations import scribble
from grader.programs import Append, Style, programs
from grader.properties import Property
from grader.rendering import literal
from grader.views import EventView

STYLE = Style(max_appends=6)
# Changing things in place is checked after every single change, so short programs suffice.
SHORT = Style(max_appends=3)


def sessions_of(program: list[Append]) -> list[str]:
    """Session ids in order of first use."""
    return list(dict.fromkeys(append.session_id for append in program))


def check_events_and_old_logs(target: Target, example: tuple[list[Append], int]) -> None:
    """Ids, event fields, and every earlier log still reading as it did.

    Bit ``i`` of the mask puts a refused append (an unknown event type) before append ``i``:
    a refused append must not use up an id either.
    """
    program, refusal_mask = example
    trial = Trial(target)
    sessions = sessions_of(program)
    log = trial.create()
    seen = [(log, trial.observe(log, sessions))]
    for index, append in enumerate(program):
        previous, before = seen[-1]
        if refusal_mask >> index & 1:
            trial.refused_append(messages.EVENT_IDS, previous, "a")
        log, event = trial.append(previous, append)
        _check_event(trial, event, append)
        trial.compare_observations(
            messages.OLD_LOG_UNCHANGED, before, trial.observe(previous, sessions)
        )
        seen.append((log, trial.observe(log, sessions)))
    for old, before in seen:
        trial.compare_observations(messages.OLD_LOG_UNCHANGED, before, trial.observe(old, sessions))


def _check_event(trial: Trial, event: EventVar, append: Append) -> None:
    view = trial.event(messages.EVENT_IDS, event)
    expected_id = event.model.event_id
    if view.event_id != expected_id or isinstance(view.event_id, bool):
        trial.fail_mismatch(
            messages.EVENT_IDS, f"{event.name}.event_id", literal(view.event_id), expected_id
        )
    expected = EventView(expected_id, append.session_id, append.event_type, event.model.payload)
    if view != expected:
        trial.fail_mismatch(messages.EVENT_FIELDS, event.name, view, expected)


def check_caller_dict(target: Target, program: list[Append]) -> None:
    """Changing the dicts passed to append_event afterwards reaches nothing."""
    trial = Trial(target)
    log = trial.create()
    given: list[tuple[str, dict[str, Any]]] = []
    events: list[EventVar] = []
    for number, append in enumerate(program, start=1):
        name, payload = f"p{number}", copy.deepcopy(append.payload)
        trial.lines.append(f"{name} = {literal(payload)}")
        log, event = trial.append(log, append, payload=payload, payload_name=name)
        given.append((name, payload))
        events.append(event)
    watch = _Watch(trial, log, events, sessions_of(program), messages.CALLER_DICT_ISOLATED)
    trial.lines.append(messages.CHANGE_CALLER_DICT)
    for name, payload in given:
        for line in scribble(name, lambda payload=payload: payload, thorough=False):  # type: ignore[misc]
            trial.lines.append(line)
            watch.check()


def check_reader_changes(target: Target, program: list[Append]) -> None:
    """Changing payloads that were read reaches nothing later reads return."""
    trial = Trial(target)
    log = trial.create()
    events: list[EventVar] = []
    for append in program:
        log, event = trial.append(log, append)
        events.append(event)
    watch = _Watch(trial, log, [], sessions_of(program), messages.READER_CANNOT_CHANGE)
    trial.lines.append(messages.CHANGE_READ_PAYLOAD)
    for event in events:
        for line in scribble(f"{event.name}.payload", _payload_reader(event.value), True):
            trial.lines.append(line)
            watch.check()
    for session in sessions_of(program):
        read = trial.attempt(
            messages.READER_CANNOT_CHANGE, "get_events_for_session", "", log.value, session
        )
        try:
            items = list(read)
        except Exception:
            continue
        trial.lines.append(f"read = get_events_for_session({log.name}, {literal(session)})")
        for index, item in enumerate(items):
            for line in scribble(f"read[{index}].payload", _payload_reader(item), True):
                trial.lines.append(line)
                watch.check()


def _payload_reader(event: Any) -> Callable[[], Any]:
    """Read ``event.payload`` afresh each time, as each transcript line does."""

    def read() -> Any:
        return event.payload

    return read


class _Watch:
    """What the log (and, optionally, the events' payloads) read like before any change."""

    def __init__(
        self, trial: Trial, log: LogVar, events: list[EventVar], sessions: list[str], sentence: str
    ) -> None:
        self.trial, self.log, self.events = trial, log, events
        self.sessions, self.sentence = sessions, sentence
        self.before = trial.observe(log, sessions)
        self.payloads = [self._payload(event) for event in events]

    def _payload(self, event: EventVar) -> Any:
        return self.trial.event(messages.EVENT_READABLE, event).payload

    def check(self) -> None:
        """Fail with the watch's sentence if anything reads differently now."""
        for event, old in zip(self.events, self.payloads, strict=True):
            new = self._payload(event)
            if new != old:
                outcome = [
                    messages.READ_BEFORE.format(value=literal(old)),
                    messages.READ_AFTER_CHANGE.format(value=literal(new)),
                ]
                self.trial.fail(self.sentence, f"{event.name}.payload", outcome)
        after = self.trial.observe(self.log, self.sessions)
        self.trial.compare_observations(self.sentence, self.before, after)


PROPERTIES = (
    Property(
        "ids_fields_old_logs",
        st.tuples(programs(STYLE), st.integers(0, 2**STYLE.max_appends - 1)),
        check_events_and_old_logs,
        40,
    ),
    Property("caller_dict", programs(SHORT, min_appends=1), check_caller_dict, 20),
    Property("reader_changes", programs(SHORT, min_appends=1), check_reader_changes, 20),
)
