"""Task list_sessions: each session once, in the order of its first event."""

from __future__ import annotations

from grader import messages
from grader.harness import LogVar, Trial
from grader.loading import Target
from grader.programs import Append, Style, programs
from grader.properties import Property
from grader.rendering import literal

STYLE = Style(sessions=("a", "b", "c", "d"), max_appends=8, extras=False)


def check_listing(target: Target, program: list[Append]) -> None:
    """list_sessions on the empty log and after every append."""
    trial = Trial(target)
    log = trial.create()
    _check(trial, log)
    for append in program:
        log, _ = trial.append(log, append)
        _check(trial, log)


def _check(trial: Trial, log: LogVar) -> None:
    code, got = trial.sessions(messages.LIST_SESSIONS, log)
    expected = log.model.sessions()
    if got != expected:
        outcome = [
            messages.RETURNED.format(value=literal(got)),
            messages.EXPECTED.format(value=literal(expected)),
        ]
        trial.fail(messages.LIST_SESSIONS, code, outcome)


PROPERTIES = (Property("listing", programs(STYLE), check_listing, 40),)
