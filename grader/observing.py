"""Observing a log without judging the reads themselves.

Used to check that something did *not* change a log: the answers of the reads are compared
with later answers of the same reads, never with the oracle, so a wrong read function does not
make an unrelated task fail.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from grader import messages
from grader.rendering import listing, literal, show
from grader.transcript import LogVar, Raised, events_code
from grader.views import EventView, Unreadable, event_view, plain, plain_sequence

if TYPE_CHECKING:
    from grader.harness import Trial

Observation = list[tuple[str, Any]]


def observe(
    trial: Trial, log: LogVar, sessions: Iterable[str], replays: bool = True
) -> Observation:
    """Every available read on ``log``, as (code, plain answer or raised error) pairs.

    Used to check that something did *not* change a log: the answers are compared with
    later answers of the same reads, never with the oracle, so a wrong read function
    does not make an unrelated task fail.
    """
    observations = []
    readers = trial.target.readers
    for session in sessions:
        if "get_events_for_session" in readers:
            code = events_code(log.name, session, None)
            observations.append(
                (code, _quiet(trial, code, "get_events_for_session", log.value, session))
            )
    if "list_sessions" in readers:
        code = f"list_sessions({log.name})"
        observations.append((code, _quiet(trial, code, "list_sessions", log.value)))
    for session in sessions:
        if replays and "replay_session" in readers:
            code = f"replay_session({log.name}, {literal(session)})"
            observations.append((code, _quiet(trial, code, "replay_session", log.value, session)))
    return observations


def _quiet(trial: Trial, code: str, function: str, *args: Any) -> Any:
    result = trial.attempt(messages.OLD_LOG_UNCHANGED, function, code, *args)
    if isinstance(result, Raised):
        return ("raised", result.describe())
    try:
        items = plain_sequence(result)
        return [
            event_view(item) if function == "get_events_for_session" else plain(item)
            for item in items
        ]
    except Unreadable:
        return ("unreadable", show(result))
    except Exception as error:
        return ("unreadable", type(error).__name__)


def compare_observations(
    trial: Trial, sentence: str, before: Observation, after: Observation
) -> None:
    """Fail with ``sentence`` at the first read whose answer changed."""
    for (code, old), (_, new) in zip(before, after, strict=True):
        if old != new:
            outcome = [
                messages.READ_BEFORE.format(value=_show_observation(old)),
                messages.READ_AFTER_CHANGE.format(value=_show_observation(new)),
            ]
            trial.fail(sentence, code, outcome)


def _show_observation(value: Any) -> str:
    if isinstance(value, tuple) and len(value) == 2 and value[0] in ("raised", "unreadable"):
        return str(value[1])
    if isinstance(value, list):
        return listing([str(v) if isinstance(v, EventView) else literal(v) for v in value])
    return literal(value)
