"""Task list_sessions: each session once, in the order of its first event."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from grader import messages
from grader.callserver.codec import Ref
from grader.callserver.text import literal
from grader.harness import LogVar, Trial
from grader.observing import Root, log_reads, probe_changes
from grader.programs import Append, Style, programs
from grader.properties import Property
from grader.remote import Learner
from grader.script import Script
from grader.transcript import call_request

# Ids that differ only in case or by a prefix are different sessions.
STYLE = Style(sessions=("a", "b", "A", "ab"), max_appends=8, extras=False)
REFUSED_SESSION = "z"


def check_listing(learner: Learner, example: tuple[list[Append], int]) -> None:
    """list_sessions on the empty log and after every append.

    Bit ``i`` of the mask puts a refused append in a new session before append ``i``: a
    session whose only append was refused has no events, so it is not listed.
    """
    program, refusal_mask = example
    trial = Trial(learner)
    script = Script(trial, messages.LIST_SESSIONS)
    log = trial.create()
    _check(script, log)
    for index, append in enumerate(program):
        if refusal_mask >> index & 1:
            script.refusal(messages.LIST_SESSIONS, log, REFUSED_SESSION)
            _check(script, log)
        log = script.append(log, append)
        _check(script, log)
    script.run()


def _check(script: Script, log: LogVar) -> None:
    code = f"list_sessions({log.name})"
    request = call_request("list_sessions", code, [Ref(log.name)], view="list")

    def judge(answer: Any) -> None:
        trial = script.trial
        got = trial.read_answer(messages.LIST_SESSIONS, "list_sessions", code, answer, "list")
        expected = log.model.sessions()
        if got != expected:
            shown = [[literal(value) for value in values] for values in (got, expected)]
            trial.fail_mismatch(messages.LIST_SESSIONS, code, *shown)

    script.call(code, request, judge)


def check_result_is_a_copy(learner: Learner, program: list[Append]) -> None:
    """Changing the sequence list_sessions returned reaches nothing the next call returns."""
    trial = Trial(learner)
    log, _ = trial.append_all(trial.create(), program)
    code, _ = trial.sessions(messages.SESSIONS_RESULT_IS_A_COPY, log, keep="sessions")
    trial.lines.append(f"sessions = {code}")
    reads = log_reads(trial, log, [])
    root: Root = ("sessions", [], "sessions")
    probe_changes(trial, messages.SESSIONS_RESULT_IS_A_COPY, root, reads, True, ["shallow"])


PROPERTIES = (
    Property(
        "listing",
        st.tuples(programs(STYLE), st.integers(0, 2**STYLE.max_appends - 1)),
        check_listing,
        40,
        ("property.list_sessions",),
    ),
    Property(
        "result_is_a_copy",
        programs(STYLE, min_appends=1),
        check_result_is_a_copy,
        15,
        ("property.sessions_result_is_a_copy",),
    ),
)
