"""Observing a log without judging the reads themselves, and changing things to see if it moves.

Used to check that something did *not* change a log: the answers of the reads are compared
with later answers of the same reads, never with the oracle, so a wrong read function does not
make an unrelated task fail. Only the read functions the task may use are called (see
:attr:`grader.remote.Learner.readers`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from grader import messages
from grader.callserver.codec import Ref
from grader.callserver.text import literal
from grader.transcript import EventVar, LogVar, Raised, append_code, call_request, events_code
from grader.views import Malformed, shown, value_of

if TYPE_CHECKING:
    from grader.harness import Trial

Observation = list[tuple[str, Any]]
#: A value kept in the child to change in place: its name, a path into it (see
#: :mod:`grader.callserver.probing`), and how it is written (``e1.payload``).
Root = tuple[str, list[list[Any]], str]


@dataclass(frozen=True)
class Read:
    """One read to repeat: its code, the request that makes it, and how to view its answer."""

    code: str
    request: dict[str, Any]
    kind: str


def _call(function: str, code: str, args: Sequence[Any], kind: str) -> Read:
    return Read(code, call_request(function, code, args, view=kind), kind)


#: The append that shows what a log holds before any reader is written: the id it gets.
PROBE_PAYLOAD = {"content": "probe"}


def log_reads(
    trial: Trial, log: LogVar, sessions: Iterable[str], replays: bool = True, probe: bool = False
) -> list[Read]:
    """Every read available to this task on ``log``; with ``probe``, also the next append.

    A correct log is a value, so appending to it changes nothing and gives the same event
    every time; an append that answers differently later shows that the log was changed.
    """
    readers, sessions = trial.learner.readers, list(sessions)
    reads = []
    if probe:
        code = append_code(log.name, "probe", "user_message", literal(PROBE_PAYLOAD))
        probe_args = (Ref(log.name), "probe", "user_message", PROBE_PAYLOAD)
        reads.append(_call("append_event", code, probe_args, "pair"))
    if "get_events_for_session" in readers:
        for session in sessions:
            code = events_code(log.name, session, None)
            args = (Ref(log.name), session)
            reads.append(_call("get_events_for_session", code, args, "events"))
    if "list_sessions" in readers:
        reads.append(_call("list_sessions", f"list_sessions({log.name})", [Ref(log.name)], "list"))
    if replays and "replay_session" in readers:
        for session in sessions:
            code = f"replay_session({log.name}, {literal(session)})"
            reads.append(_call("replay_session", code, (Ref(log.name), session), "list"))
    return reads


def event_reads(events: Iterable[EventVar]) -> list[Read]:
    """Reading each event (as ``append_event`` returned it) again."""
    return [
        Read(event.name, {"op": "view", "ref": event.name, "view": "event"}, "event")
        for event in events
    ]


def answer_value(answer: Any, kind: str) -> Any:
    """What one read answered, as a value to compare: the view, or what went wrong."""
    if not isinstance(answer, dict):
        raise Malformed()
    if "raised" in answer:
        return ("raised", Raised.from_answer(answer["raised"]).describe())
    for problem in ("not_implemented", "exit", "control", "missing", "too_large", "not_pair"):
        if problem in answer:
            return (problem, str(answer[problem]))
    if "unreadable" in answer:
        return ("unreadable", str(answer.get("shown", "")))
    return value_of(answer, "event" if kind == "pair" else kind)


def perform(trial: Trial, sentence: str, reads: list[Read]) -> Observation:
    """Make every read in one request; return (code, value) pairs."""
    if not reads:
        return []
    answers = trial.batch(sentence, reads[0].code, [read.request for read in reads])
    return judge_reads(trial, sentence, reads, answers)


def judge_reads(trial: Trial, sentence: str, reads: list[Read], answers: list[Any]) -> Observation:
    """The observation the answers to ``reads`` make (failing where the batch stopped)."""
    for read, answer in zip(reads, answers, strict=True):
        trial.stopped(sentence, read.code, answer)
    return trial.guard(lambda: answer_values(reads, answers))


def answer_values(reads: list[Read], answers: Any) -> Observation:
    """The (code, value) pairs of the answers to ``reads``."""
    if not isinstance(answers, list) or len(answers) != len(reads):
        raise Malformed()
    return [(read.code, answer_value(a, read.kind)) for read, a in zip(reads, answers, strict=True)]


def observe(
    trial: Trial, log: LogVar, sessions: Iterable[str], replays: bool = True, probe: bool = False
) -> Observation:
    """Every available read on ``log`` (see :func:`log_reads`), as (code, answer) pairs."""
    reads = log_reads(trial, log, sessions, replays, probe)
    return perform(trial, messages.OLD_LOG_UNCHANGED, reads)


def compare_observations(
    trial: Trial, sentence: str, before: Observation, after: Observation
) -> None:
    """Fail with ``sentence`` at the first read whose answer changed."""
    for (code, old), (_, new) in zip(before, after, strict=True):
        if old != new:
            outcome = [
                messages.READ_BEFORE.format(value=_show(old)),
                messages.READ_AFTER_CHANGE.format(value=_show(new)),
            ]
            trial.fail(sentence, code, outcome)


def _show(value: Any) -> str:
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], str):
        return str(value[1])
    return shown(value)


def probe_changes(
    trial: Trial,
    sentence: str,
    root: Root,
    reads: list[Read],
    thorough: bool,
    modes: Sequence[str] = ("deep",),
) -> None:
    """Change the value at ``root`` every way a caller could, checking ``reads`` after each.

    Args:
        trial: the trial (its transcript gets every change that worked, up to the damage).
        sentence: the property a change that shows up in a read breaks.
        root: the kept value's name, a path into it and how it is written (``e1.payload``).
        reads: what must read the same after every change.
        thorough: also the methods a read-only subclass may have forgotten to block.
        modes: what to change (see :func:`grader.callserver.probing.scribble`).
    """
    before = perform(trial, sentence, reads)
    name, path, code = root
    request = {
        "op": "scribble",
        "ref": name,
        "path": path,
        "code": code,
        "thorough": thorough,
        "modes": list(modes),
        "then": [read.request for read in reads],
    }
    steps = trial.ask(sentence, code, request).get("steps")
    if not isinstance(steps, list):
        trial.fail(messages.CHILD_BROKE, None, [], messages.STATUS_ERROR)
    for step in steps:
        trial.lines.append(str(step.get("line")) if isinstance(step, dict) else "?")
        if isinstance(step, dict) and "then" in step:
            after = trial.guard(lambda step=step: answer_values(reads, step["then"]))  # type: ignore[misc]
            compare_observations(trial, sentence, before, after)
