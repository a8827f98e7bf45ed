"""Task append_and_ids: the pair append_event returns, ids, copies, old logs and branches.

This task needs only ``create_event_log`` and ``append_event``. It observes logs through
``get_events_for_session`` once that is written, and otherwise through what appending to a
log answers (the next event's id), so a learner can pass it before writing the readers.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from hypothesis import strategies as st

from grader import messages
from grader.callserver.text import literal
from grader.harness import EventVar, LogVar, Trial
from grader.observing import (
    Observation,
    Read,
    Root,
    compare_observations,
    event_reads,
    log_reads,
    probe_changes,
)
from grader.programs import Append, Style, intents, materialise, programs
from grader.properties import Property, sessions_of
from grader.remote import Learner
from grader.script import Script
from grader.views import EventView, show_views

STYLE = Style(max_appends=6)
# Changing things in place is checked after every single change, so short programs suffice.
SHORT = Style(max_appends=3)


def watch(trial: Trial, log: LogVar, sessions: list[str]) -> list[Read]:
    """What task 1 reads to see whether a log changed: every read it may use, and the next
    append (its id and fields show a change even before any reader is written)."""
    return log_reads(trial, log, sessions, replays=False, probe=True)


def check_events_and_old_logs(learner: Learner, example: tuple[list[Append], int]) -> None:
    """Ids, event fields, and every earlier log still reading as it did.

    Bit ``i`` of the mask puts a refused append (an unknown event type) before append ``i``:
    a refused append must not use up an id either.
    """
    program, refusal_mask = example
    trial = Trial(learner)
    sessions = sessions_of(program)
    script = Script(trial, messages.OLD_LOG_UNCHANGED)
    first: Observation = []
    seen = [(trial.create(), first)]
    script.reads(watch(trial, seen[0][0], sessions), first.extend)
    for index, append in enumerate(program):
        previous, before = seen[-1]
        if refusal_mask >> index & 1:
            script.refusal(messages.EVENT_IDS, previous, "a")
        log = script.append(previous, append, _event_check(trial, append))
        script.reads(watch(trial, previous, sessions), _unchanged(trial, before))
        now: Observation = []
        script.reads(watch(trial, log, sessions), now.extend)
        seen.append((log, now))
    for old, before in seen:
        script.reads(watch(trial, old, sessions), _unchanged(trial, before))
    script.run()


def _unchanged(
    trial: Trial, before: Observation, sentence: str = ""
) -> Callable[[Observation], None]:
    """Judge a later observation against ``before`` (filled in by the time it runs)."""
    failing = sentence or messages.OLD_LOG_UNCHANGED
    return lambda after: compare_observations(trial, failing, before, after)


def _event_check(trial: Trial, append: Append) -> Callable[[EventVar], None]:
    return lambda event: _check_event(trial, event, append)


def _check_event(trial: Trial, event: EventVar, append: Append) -> None:
    view = trial.event(messages.EVENT_IDS, event)
    expected_id = event.model.event_id
    if view.event_id != expected_id or isinstance(view.event_id, bool):
        trial.fail_mismatch(
            messages.EVENT_IDS, f"{event.name}.event_id", literal(view.event_id), expected_id
        )
    expected = EventView(expected_id, append.session_id, append.event_type, event.model.payload)
    if view != expected:
        trial.fail_mismatch(messages.EVENT_FIELDS, event.name, str(view), str(expected))


def check_branches(
    learner: Learner, example: tuple[list[Append], list[tuple[int, Append]]]
) -> None:
    """Appending to an older log starts a branch; no log is changed by it.

    Each branch appends to one of the logs the program made (``log0`` included). The branch's
    event gets the next id *of that log*, every log made before reads as it did, and the
    branch reads exactly like the same appends made on a fresh log (judged with the learner's
    own reader, so a reader bug is task 2's business, not this one's).
    """
    program, branches = example
    trial = Trial(learner)
    sessions = sessions_of(program + [append for _, append in branches])
    script = Script(trial, messages.BRANCHES)
    logs = [trial.create()]
    for append in program:
        logs.append(script.append(logs[-1], append))
    before: list[Observation] = [[] for _ in logs]
    for log, observation in zip(logs, before, strict=True):
        script.reads(watch(trial, log, sessions), observation.extend)
    grown = []
    for base, append in branches:
        grown.append(script.append(logs[base], append, _event_check(trial, append)))
        for log, observation in zip(logs, before, strict=True):
            script.reads(
                watch(trial, log, sessions), _unchanged(trial, observation, messages.BRANCHES)
            )
    script.run()
    for (base, append), branch in zip(branches, grown, strict=True):
        _check_like_fresh(trial, branch, [*program[:base], append], sessions)


def _check_like_fresh(
    trial: Trial, branch: LogVar, appends: list[Append], sessions: list[str]
) -> None:
    if "get_events_for_session" not in trial.learner.readers:
        return
    twin, _ = trial.append_all(trial.create(), appends)
    for session in sessions:
        code, got = trial.events(messages.BRANCHES, branch, session)
        _, expected = trial.events(messages.BRANCHES, twin, session)
        if got != expected:
            trial.fail_mismatch(messages.BRANCHES, code, show_views(got), show_views(expected))


@st.composite
def branching_programs(draw: st.DrawFn) -> tuple[list[Append], list[tuple[int, Append]]]:
    """A program, then one to three appends, each made to one of the logs the program made."""
    items = draw(st.lists(intents(SHORT), min_size=1, max_size=SHORT.max_appends))
    branches = []
    for _ in range(draw(st.integers(1, 3))):
        base = draw(st.integers(0, len(items)))
        # Made after the base's own appends, so each branch is valid on the log it extends.
        branch = materialise([*items[:base], draw(intents(SHORT))], SHORT)[-1]
        branches.append((base, branch))
    return materialise(items, SHORT), branches


def check_caller_dict(learner: Learner, program: list[Append]) -> None:
    """Changing the dicts passed to append_event afterwards reaches nothing."""
    trial = Trial(learner)
    log = trial.create()
    names: list[str] = []
    events: list[EventVar] = []
    for number, append in enumerate(program, start=1):
        name = f"p{number}"
        payload = trial.make(name, copy.deepcopy(append.payload))
        log, event = trial.append(log, append, payload=payload, payload_code=name)
        names.append(name)
        events.append(event)
    reads = event_reads(events) + watch(trial, log, sessions_of(program))
    trial.lines.append(messages.CHANGE_CALLER_DICT)
    for name in names:
        probe_changes(trial, messages.CALLER_DICT_ISOLATED, (name, [], name), reads, False)


def check_payload_changes(learner: Learner, program: list[Append]) -> None:
    """Changing payloads that were read (from append_event or from a read) reaches nothing."""
    trial = Trial(learner)
    log, events = _appended(trial, program)
    reads = watch(trial, log, sessions_of(program))
    trial.lines.append(messages.CHANGE_READ_PAYLOAD)
    for event in events:
        root: Root = (event.name, [["a", "payload"]], f"{event.name}.payload")
        probe_changes(trial, messages.READER_CANNOT_CHANGE, root, reads, True)
    for name, count in _kept_reads(trial, log, program):
        for index in range(count):
            read_root: Root = (name, [["i", index], ["a", "payload"]], f"{name}[{index}].payload")
            probe_changes(trial, messages.READER_CANNOT_CHANGE, read_root, reads, True)


def check_event_attributes(learner: Learner, program: list[Append]) -> None:
    """Assigning to an event's attributes (where the class allows it) reaches nothing."""
    trial = Trial(learner)
    log, events = _appended(trial, program)
    reads = watch(trial, log, sessions_of(program))
    trial.lines.append(messages.CHANGE_EVENT)
    for event in events:
        root: Root = (event.name, [], event.name)
        probe_changes(trial, messages.EVENTS_ARE_FACTS, root, reads, False, ["attributes"])
    for name, _ in _kept_reads(trial, log, program):
        probe_changes(
            trial, messages.EVENTS_ARE_FACTS, (name, [], name), reads, False, ["attributes"]
        )


def _appended(trial: Trial, program: list[Append]) -> tuple[LogVar, list[EventVar]]:
    return trial.append_all(trial.create(), program)


def _kept_reads(trial: Trial, log: LogVar, program: list[Append]) -> list[tuple[str, int]]:
    """Read each session once (when the reader is written), keeping the result in the child."""
    if "get_events_for_session" not in trial.learner.readers:
        return []
    kept = []
    for number, session in enumerate(sessions_of(program), start=1):
        name = f"read{number}"
        code, views = trial.events(messages.READER_CANNOT_CHANGE, log, session, keep=name)
        trial.lines.append(f"{name} = {code}")
        kept.append((name, len(views)))
    return kept


PROPERTIES = (
    Property(
        "ids_fields_old_logs",
        st.tuples(programs(STYLE), st.integers(0, 2**STYLE.max_appends - 1)),
        check_events_and_old_logs,
        40,
        checks=(
            "property.append_returns_pair",
            "property.event_readable",
            "property.event_ids",
            "property.event_fields",
            "property.old_log_unchanged",
        ),
    ),
    Property("branches", branching_programs(), check_branches, 25, ("property.branches",)),
    Property(
        "caller_dict",
        programs(SHORT, min_appends=1),
        check_caller_dict,
        20,
        ("property.caller_dict_isolated",),
    ),
    Property(
        "payload_changes",
        programs(SHORT, min_appends=1),
        check_payload_changes,
        20,
        ("property.reader_cannot_change",),
    ),
    Property(
        "event_attributes",
        programs(SHORT, min_appends=1),
        check_event_attributes,
        15,
        ("property.events_are_facts",),
    ),
)
