"""Task replay: events become chat messages, tool-call runs merge, replays are fresh."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from grader import messages
from grader.callserver.codec import Ref
from grader.callserver.text import literal
from grader.harness import LogVar, Trial
from grader.observing import Read, probe_changes
from grader.oracle import ModelLog, message_for, replay_events
from grader.programs import Append, Style, programs
from grader.properties import Property, sessions_of
from grader.remote import Learner
from grader.script import Script
from grader.transcript import call_request

# Tool calls drawn three times as often as in plain programs, so runs are common.
KINDS = ("user_message", "assistant_message", "tool_call", "tool_result", "tool_call", "tool_call")
STYLE = Style(kinds=KINDS, max_appends=8)
UNKNOWN_SESSION = "z"


def check_messages(learner: Learner, example: tuple[list[Append], int]) -> None:
    """Every session (and an unknown one) replays to the oracle's messages.

    Bit ``i`` of the mask puts a refused append before append ``i``, in the session nobody
    uses: replaying that session must still give nothing.
    """
    program, refusal_mask = example
    trial = Trial(learner)
    script = Script(trial, messages.REPLAY_MAPPING)
    log = trial.create()
    _check_session(script, log, "a")
    for index, append in enumerate(program):
        if refusal_mask >> index & 1:
            script.refusal(messages.REPLAY_ISOLATED, log, UNKNOWN_SESSION)
        log = script.append(log, append)
    for session in [*STYLE.sessions, UNKNOWN_SESSION]:
        _check_session(script, log, session)
    script.run()


def _check_session(script: Script, log: LogVar, session: str) -> None:
    code = f"replay_session({log.name}, {literal(session)})"

    def judge(answer: Any) -> None:
        trial = script.trial
        got = trial.read_answer(messages.REPLAY_MAPPING, "replay_session", code, answer, "list")
        expected = log.model.replay(session)
        if got != expected:
            sentence = diagnose(log.model, session, got)
            shown = [[literal(message) for message in values] for values in (got, expected)]
            trial.fail_mismatch(sentence, code, *shown)

    script.call(code, _replay_request(log, session, code), judge)


def diagnose(model: ModelLog, session: str, got: list[Any]) -> str:
    """Pick the sentence of the rule a wrong replay most plausibly broke."""
    own_events = model.events_for(session)
    if not own_events:
        return messages.REPLAY_ISOLATED
    own = [message_for(e) for e in own_events] + model.replay(session)
    others = [message_for(e) for e in model.events if e.session_id != session]
    if any(message not in own and message in others for message in got):
        return messages.REPLAY_ISOLATED
    expected = model.replay(session)
    if got == replay_events(own_events, merge_runs=False):
        return messages.REPLAY_MERGE
    for mine, theirs in zip(got, expected, strict=False):
        if mine != theirs:
            return (
                messages.REPLAY_MERGE
                if _is_run(mine) or _is_run(theirs)
                else messages.REPLAY_MAPPING
            )
    return messages.REPLAY_MERGE if any(_is_run(m) for m in expected) else messages.REPLAY_MAPPING


def _is_run(message: Any) -> bool:
    calls = message.get("tool_calls") if isinstance(message, dict) else None
    return isinstance(calls, list) and len(calls) > 1


def check_fresh(learner: Learner, program: list[Append]) -> None:
    """Changing a replay's result in place never shows up in the next replay."""
    trial = Trial(learner)
    log, _ = trial.append_all(trial.create(), program)
    for number, session in enumerate(sessions_of(program), start=1):
        name = f"messages{number}"
        code, _ = trial.replay(messages.REPLAY_FRESH, log, session, keep=name)
        trial.lines.append(f"{name} = {code}")
        trial.lines.append(messages.CHANGE_REPLAY)
        again = Read(code, _replay_request(log, session, code), "list")
        probe_changes(trial, messages.REPLAY_FRESH, (name, [], name), [again], True)


def _replay_request(log: LogVar, session: str, code: str) -> dict[str, Any]:
    return call_request("replay_session", code, (Ref(log.name), session), view="list")


PROPERTIES = (
    Property(
        "messages",
        st.tuples(programs(STYLE), st.integers(0, 2**STYLE.max_appends - 1)),
        check_messages,
        60,
        ("property.replay_mapping", "property.replay_merge", "property.replay_isolated"),
    ),
    Property("fresh", programs(STYLE, min_appends=1), check_fresh, 20, ("property.replay_fresh",)),
)
