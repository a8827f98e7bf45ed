"""Grading one task in this process: probe what is implemented, then run its properties."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from grader import harness, messages
from grader.failures import Failure
from grader.loading import READERS, Target
from grader.properties import run_property
from grader.tasks import Task


@dataclass(frozen=True)
class TaskResult:
    """How one task went. ``failure`` is set for every status except passed."""

    task_id: str
    number: int
    name: str
    points: int
    status: str
    failure: Failure | None = None
    hints: tuple[str, ...] = field(default=())

    @property
    def earned(self) -> int:
        return self.points if self.status == messages.STATUS_PASSED else 0

    def to_dict(self) -> dict[str, Any]:
        """Plain data, to cross a process boundary."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TaskResult:
        failure = data.get("failure")
        fields = {**data, "hints": tuple(data["hints"])}
        if failure is not None:
            fields["failure"] = Failure(
                failure["sentence"],
                tuple(failure["lines"]),
                tuple(failure["outcome"]),
                failure["status"],
                failure["note"],
            )
        return cls(**fields)


def result_for(task: Task, status: str, failure: Failure | None = None) -> TaskResult:
    """A result for ``task`` with the given status."""
    return TaskResult(
        task.task_id, task.number, task.name, task.points, status, failure, task.hints
    )


def grade_task(task: Task, target: Target) -> TaskResult:
    """Run a task's properties in order; the first broken one decides the result."""
    missing = probe(target, task.needs)
    if missing:
        return result_for(task, messages.STATUS_NOT_IMPLEMENTED, _not_implemented(missing))
    # A task only ever calls the functions it needs, so a read function that hangs or is not
    # written yet costs its own task, not every task that might have used it to observe.
    target = dataclasses.replace(target, readers=READERS & set(task.needs))
    for prop in task.properties:
        try:
            failure = run_property(prop, target)
        except Exception as error:  # a bug in the grader: say so instead of crashing
            text = messages.GRADER_BUG.format(kind=type(error).__name__, message=error)
            failure = Failure(text, status=messages.STATUS_ERROR)
            return result_for(task, messages.STATUS_ERROR, failure)
        if failure is not None:
            return result_for(task, failure.status, failure)
    return result_for(task, messages.STATUS_PASSED)


def _not_implemented(missing: list[str]) -> Failure:
    functions = ", ".join(missing)
    plural = messages.NEEDS_IT if len(missing) == 1 else messages.NEEDS_THEM
    text = messages.NOT_IMPLEMENTED_TASK.format(functions=functions, plural=plural)
    return Failure(text, status=messages.STATUS_NOT_IMPLEMENTED)


def probe(target: Target, functions: tuple[str, ...]) -> list[str]:
    """Which of ``functions`` raise NotImplementedError on the simplest possible calls."""
    calls = _probe_calls(target)
    missing = []
    for name in sorted(functions, key=list(calls).index):
        harness.progress(name)
        try:
            calls[name]()
        except NotImplementedError:
            missing.append(name)
        except BaseException:
            continue
    return missing


def _probe_calls(target: Target) -> dict[str, Any]:
    functions = target.functions
    state: dict[str, Any] = {}

    def create() -> None:
        state["log"] = functions["create_event_log"]()

    def append() -> None:
        # With no log from create_event_log, None still tells a stub from an implementation.
        pair = functions["append_event"](state.get("log"), "a", "user_message", {"content": "hi"})
        state["log"] = pair[0]

    def log() -> Any:
        return state.get("log")

    return {
        "create_event_log": create,
        "append_event": append,
        "get_events_for_session": lambda: functions["get_events_for_session"](log(), "a"),
        "list_sessions": lambda: functions["list_sessions"](log()),
        "replay_session": lambda: functions["replay_session"](log(), "a"),
    }
