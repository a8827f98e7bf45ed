"""Task reject_bad_input: bad appends raise ValueError and leave no trace; odd valid ones pass."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from grader import messages
from grader.callserver.codec import Ref
from grader.callserver.text import literal
from grader.failures import PropertyFailure
from grader.harness import LogVar, Raised, Trial
from grader.observing import Observation, compare_observations, log_reads, perform
from grader.programs import Append, Style, programs, tagged
from grader.properties import Property
from grader.properties.bad_input import (
    OPEN_CALL,
    STYLE,
    BadAppend,
    RefusalCase,
    bad_append_table,
    refusal_cases,
)
from grader.remote import Learner
from grader.script import Script
from grader.transcript import call_request

ODD_STYLE = Style(
    sessions=("a", "b", " ", "é"), max_appends=8, wrappers=("dict", "proxy", "mapping")
)


def check_refusal(learner: Learner, case: RefusalCase) -> None:
    """Each bad append raises ValueError and changes no read; together they cost no id."""
    trial = Trial(learner)
    log, _ = trial.append_all(trial.create(), case.prefix)
    refused = _refuse_all(trial, log, case.bad_appends)
    # ... except for the next id, which all of them together must leave alone.
    trial.lines.extend(refused)
    baseline = _baseline_id(learner, case)
    _, event = trial.append(log, case.next_append)
    got = trial.event(messages.REFUSED_APPENDS_NOTHING, event).event_id
    if baseline is not None and got != baseline:
        outcome = [
            messages.RETURNED.format(value=literal(got)),
            messages.EXPECTED_NEXT_ID.format(expected=literal(baseline)),
        ]
        trial.fail(messages.REFUSED_APPENDS_NOTHING, f"{event.name}.event_id", outcome)


def check_refusal_table(learner: Learner, _: object) -> None:
    """Every history-free bad append is refused; tool_result rows once a call is open."""
    trial = Trial(learner)
    log = trial.create()
    rows = bad_append_table()
    _refuse_all(trial, log, [row for row in rows if row.event_type != "tool_result"])
    log, _event = trial.append(log, OPEN_CALL)
    _refuse_all(trial, log, [row for row in rows if row.event_type == "tool_result"])


def _refuse_all(trial: Trial, log: LogVar, rows: list[BadAppend]) -> list[str]:
    """Make every bad append, reading the log after each; all in one request.

    Each must raise ValueError and leave every read as it was. Returns the lines of the bad
    appends, which the transcript leaves out (refused without trace, they no longer matter).
    """
    # "" too: the one bad session id that is a str, so a refused append could hide there.
    reads = log_reads(trial, log, [*STYLE.sessions, ""], replays=False)
    before = perform(trial, messages.REFUSED_APPENDS_NOTHING, reads)
    script = Script(trial, messages.REFUSED_APPENDS_NOTHING)
    lines: list[str] = []
    for bad in rows:
        code, request = _refusal_call(log, bad)
        script.call(code, request, _refusal_judge(trial, code, bad, lines))
        script.reads(reads, lambda after: _still(trial, before, after))
    script.run()
    return lines


def _refusal_judge(
    trial: Trial, code: str, bad: BadAppend, lines: list[str]
) -> Callable[[Any], None]:
    return lambda answer: lines.append(_judge_refusal(trial, code, bad, answer))


def _still(trial: Trial, before: Observation, after: Observation) -> None:
    """The log reads as before the refused append, which then leaves the transcript."""
    compare_observations(trial, messages.REFUSED_APPENDS_NOTHING, before, after)
    trial.lines.pop()


def _refusal_call(log: LogVar, case: BadAppend) -> tuple[str, dict[str, Any]]:
    code = (
        f"append_event({log.name}, {literal(case.session_id)}, {literal(case.event_type)}, "
        f"{literal(case.payload)})"
    )
    args = (Ref(log.name), case.session_id, case.event_type, case.payload)
    return code, call_request("append_event", code, args)


def _judge_refusal(trial: Trial, code: str, case: BadAppend, answer: Any) -> str:
    """Fail unless the answer is a ValueError; return the call's transcript line."""
    sentence = messages.REFUSE[case.reason.value]
    result = trial.interpret(sentence, "append_event", code, answer)
    if not isinstance(result, Raised):
        trial.fail(
            sentence, code, [messages.RETURNED_INSTEAD_OF_RAISING, messages.EXPECTED_VALUE_ERROR]
        )
    if not result.value_error:
        trial.fail(sentence, code, [result.describe(), messages.EXPECTED_VALUE_ERROR])
    line = f"{code}  # raises {result.kind}"
    trial.lines.append(line)
    return line


def _baseline_id(learner: Learner, case: RefusalCase) -> Any:
    """The id the follow-up append gets in a twin log where the bad call never happened."""
    twin = Trial(learner, prefix="twin_")
    try:
        log, _ = twin.append_all(twin.create(), case.prefix)
        _, event = twin.append(log, case.next_append)
        return twin.event(messages.REFUSED_APPENDS_NOTHING, event).event_id
    except PropertyFailure:
        return None


def check_acceptance(learner: Learner, program: list[Append]) -> None:
    """Every valid append, however unusual, is accepted."""
    trial = Trial(learner, on_refusal="fail")
    trial.append_all(trial.create(), program)


def _call(call_id: str, arguments: str = "{}") -> dict[str, Any]:
    return {"call_id": call_id, "name": "search", "arguments": arguments}


#: Small programs, each ending in one valid but unusual append, tried one by one so that a
#: refusal shows up with the shortest history that explains it.
ODD_PROGRAMS = (
    [("a", "user_message", {"content": ""})],
    [("a", "assistant_message", {"content": ""})],
    [(" ", "user_message", {"content": "hi"})],
    [("é", "user_message", {"content": "hi"})],
    [("a", "user_message", {"content": 'é中🙂\n"quoted"'})],
    [("a", "user_message", {"content": "hi", "meta": {"k": [1, 2]}, "lang": "en"})],
    [("a", "user_message", {"content": "hi", "meta": {"k": [1]}}, "proxy")],
    [("a", "tool_call", _call("call_1"), "mapping")],
    [("a", "tool_call", _call("call_1", ""))],
    [("a", "tool_call", _call("call_1", "not json"))],
    [("a", "tool_call", _call("call_1")), ("b", "tool_call", _call("call_1"))],
    [
        ("a", "tool_call", _call("call_1")),
        ("a", "user_message", {"content": "hi"}),
        ("a", "tool_result", {"call_id": "call_1", "content": "42"}),
    ],
    [
        ("b", "tool_call", _call("call_1")),
        ("b", "tool_result", {"call_id": "call_1", "content": "42"}),
        ("a", "tool_call", _call("call_1")),
        ("a", "tool_result", {"call_id": "call_1", "content": "42"}),
    ],
    [
        ("a", "tool_call", _call("call_1")),
        ("a", "tool_call", _call("call_2")),
        ("a", "tool_result", {"call_id": "call_2", "content": "2"}),
        ("a", "tool_result", {"call_id": "call_1", "content": "1"}),
    ],
)


def check_acceptance_table(learner: Learner, _: object) -> None:
    """Each of the small unusual programs is accepted from start to end."""
    for program in ODD_PROGRAMS:
        check_acceptance(learner, tagged(program))


REFUSALS = tuple(f"property.refuse.{reason}" for reason in messages.REFUSE_REASONS)
ACCEPTANCES = tuple(f"property.accept.{feature}" for feature in messages.ACCEPT_FEATURES)

PROPERTIES = (
    Property("acceptance_table", st.just(None), check_acceptance_table, 1, ACCEPTANCES),
    Property("acceptance", programs(ODD_STYLE, min_appends=1), check_acceptance, 40, ACCEPTANCES),
    Property("refusal_table", st.just(None), check_refusal_table, 1, REFUSALS),
    Property(
        "refusal",
        refusal_cases(),
        check_refusal,
        50,
        (*REFUSALS, "property.refused_appends_nothing"),
    ),
)
