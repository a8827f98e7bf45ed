"""The sizes every example meets, measured where a bug would be, and every example a grade
runs.

:func:`sizes_met` walks a plan's steps with the oracle's model beside it, the way the kernel
runs them, and notes each size a step meets: the log's length after an append, the events a
read returns, the sessions a list returns, the calls open when a result comes, the length of
every text in a payload... :func:`every_example` yields every example of every property,
the explicit ones first.

The examples are the banks' (``python -m maintainer.bank``): exactly what a grade runs.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping
from typing import Any

from grader.engine import bank
from grader.engine.oracle import ANSWERED, OPEN, TOOL_TYPES, ModelLog, depth_of
from grader.engine.plan import Plan
from grader.engine.properties import Property
from grader.engine.steps import AppendStep, BlockStep, Create, Mutate, Read, Refuse, Step
from grader.engine.wire import Ref
from grader.tasks import TASKS

Sizes = dict[str, set[int]]


def every_example() -> Iterator[tuple[str, Property, int | None, Any]]:
    """``(task id, property, index among the explicit ones or None, value)`` for every
    example a grade runs: the bank's, in its order (the explicit ones first)."""
    for task in TASKS:
        stored = bank.load(task.id)
        assert stored is not None, f"the bank of {task.id} is stale: python -m maintainer.bank"
        for prop in task.properties:
            for index, value in enumerate(stored[prop.name].values):
                yield task.id, prop, (index if index < len(prop.explicit) else None), value


def plan_of(task_strict: bool, prop: Property, value: Any) -> Plan:
    plan = Plan(task_strict)
    prop.build(plan, value)
    return plan


def sizes_met(plan: Plan) -> Sizes:
    """Every size the plan's steps meet, by dimension (see the table in test_dimensions)."""
    met: Sizes = defaultdict(set)
    logs: dict[str, ModelLog] = {}
    kept_lengths: dict[str, int] = {}
    for step in plan.steps:
        _walk(step, logs, kept_lengths, met)
    return met


def _walk(step: Step, logs: dict[str, ModelLog], kept: dict[str, int], met: Sizes) -> None:
    if isinstance(step, Create):
        logs[step.keep] = ModelLog()
    elif isinstance(step, AppendStep):
        model = _appended(step.log.model, step.append, met)
        if step.keep_log:
            logs[step.keep_log] = model
    elif isinstance(step, BlockStep):
        model = step.log.model
        for append in step.block.appends():
            model = _appended(model, append, met)
        logs[step.keep_log] = model
    elif isinstance(step, Refuse):
        _refused(step, met)
    elif isinstance(step, Read):
        length = _read(step, logs, met)
        if step.keep and length is not None:
            kept[step.keep] = length
    elif isinstance(step, Mutate):
        if step.name in kept:
            met["changed_result"].add(kept[step.name])
        for read in step.reads:
            _walk(read, logs, kept, met)


def _appended(model: ModelLog, append: Any, met: Sizes) -> ModelLog:
    session, kind, payload = append.session_id, append.event_type, append.payload
    _payload_sizes(payload, met)
    met["session_id_length"].add(len(session))
    if kind in TOOL_TYPES:
        call = payload["call_id"]
        met["call_id_length"].add(len(call))
        met["answered_calls"].add(len(model.calls_in(session, ANSWERED)))
        if kind == "tool_result":
            met["open_calls"].add(len(model.calls_in(session, OPEN)))
            met["gap"].add(_gap(model, session, call))
    model, event = model.append(session, kind, payload)
    met["log_events"].add(event.event_id)
    return model


def _gap(model: ModelLog, session: str, call: str) -> int:
    """How many events of the log came between the call ``call`` of ``session`` and now."""
    for back, event in enumerate(reversed(model.events)):
        if (event.session_id, event.type) == (session, "tool_call") and (
            event.payload["call_id"] == call
        ):
            return back
    raise AssertionError(f"no call {call!r} in {session!r}")


def _refused(step: Refuse, met: Sizes) -> None:
    session, payload = step.session_id, step.payload
    if step.reason in ("call_id_reused", "result_already_given") and isinstance(payload, Mapping):
        call = payload["call_id"]
        met["answered_calls"].add(len(step.log.model.calls_in(session, ANSWERED)))
        met["reuse_gap"].add(_gap(step.log.model, session, call))


def _read(step: Read, logs: dict[str, ModelLog], met: Sizes) -> int | None:
    target = step.args[0]
    if not isinstance(target, Ref) or target.name not in logs:
        return None
    model = logs[target.name]
    met["log_events_read"].add(len(model.events))
    if step.function == "get_events_for_session":
        found = len(model.events_for(step.args[1], step.kwargs.get("after_event_id", 0)))
        met["session_events"].add(found)
        return found
    if step.function == "list_sessions":
        met["sessions"].add(len(model.sessions()))
        return len(model.sessions())
    messages = model.replay(step.args[1])
    met["replay_messages"].add(len(messages))
    met["run_of_calls"] |= {len(m["tool_calls"]) for m in messages if "tool_calls" in m}
    return len(messages)


def _payload_sizes(payload: Mapping[str, Any], met: Sizes) -> None:
    met["depth"].add(depth_of(payload))
    stack: list[Any] = [payload]
    while stack:
        value = stack.pop()
        if isinstance(value, Mapping):
            met["mapping_keys"].add(len(value))
            stack += list(value.values())
        elif isinstance(value, list | tuple):
            met["list_items"].add(len(value))
            stack += list(value)
        elif isinstance(value, str):
            met["text_length"].add(len(value))
        elif isinstance(value, int) and not isinstance(value, bool):
            met["int_bits"].add(abs(value).bit_length())
