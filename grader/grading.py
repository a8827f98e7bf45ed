"""Grading one task: find out what is implemented, then run its properties in order."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from grader import messages
from grader.callserver.codec import Ref
from grader.contract import FUNCTION_NAMES, READERS
from grader.failures import Failure
from grader.properties import run_property
from grader.remote import Learner, TaskOverrun
from grader.sandbox.child import ChildFailure
from grader.tasks import OWNER, Task
from grader.transcript import call_request


@dataclass(frozen=True)
class TaskResult:
    """How one task went. ``failure`` is set for every status except passed; ``output`` is
    what learner code printed while the task was graded."""

    task_id: str
    number: int
    name: str
    points: int
    status: str
    failure: Failure | None = None
    hints: tuple[str, ...] = field(default=())
    output: str = ""

    @property
    def earned(self) -> int:
        return self.points if self.status == messages.STATUS_PASSED else 0

    @property
    def hint(self) -> str | None:
        """The hint to show under this result: the broken property's own, else the task's."""
        if self.failure is not None and self.failure.hint:
            return self.failure.hint
        return self.hints[0] if self.hints else None


def result_for(task: Task, status: str, failure: Failure | None = None) -> TaskResult:
    """A result for ``task`` with the given status."""
    return TaskResult(
        task.task_id, task.number, task.name, task.points, status, failure, task.hints
    )


def grade_task(task: Task, learner: Learner) -> TaskResult:
    """Run a task's properties in order; the first broken one decides the result."""
    learner.start_task()
    missing = probe(learner, (*task.needs, *task.observes))
    needed = [name for name in missing if name in task.needs]
    if needed:
        return result_for(task, messages.STATUS_NOT_IMPLEMENTED, _not_implemented(task, needed))
    # A task calls only the readers it needs (or may observe with, once written), so a read
    # function that hangs or is not written yet costs its own task, not every other one.
    usable = (set(task.needs) | set(task.observes)) - set(missing)
    learner.readers = READERS & frozenset(usable)
    for prop in task.properties:
        try:
            failure = run_property(prop, learner)
        except Exception as error:  # a bug in the grader: say so instead of crashing
            text = messages.GRADER_BUG.format(kind=type(error).__name__, message=error)
            return result_for(
                task, messages.STATUS_ERROR, Failure(text, status=messages.STATUS_ERROR)
            )
        if failure is not None:
            return result_for(task, failure.status, failure)
    return result_for(task, messages.STATUS_PASSED)


def _not_implemented(task: Task, missing: list[str]) -> Failure:
    functions = ", ".join(missing)
    plural = messages.NEEDS_IT if len(missing) == 1 else messages.NEEDS_THEM
    text = messages.NOT_IMPLEMENTED_TASK.format(functions=functions, plural=plural)
    # One note per earlier task, naming the functions that task introduces.
    earlier = sorted(
        {OWNER[name] for name in missing if OWNER[name].number < task.number},
        key=lambda owner: owner.number,
    )
    for owner in earlier:
        written = ", ".join(name for name in missing if OWNER[name] is owner)
        text += " " + messages.WRITTEN_IN_EARLIER_TASK.format(
            functions=written, number=owner.number, name=owner.name
        )
    return Failure(text, status=messages.STATUS_NOT_IMPLEMENTED)


def probe(learner: Learner, functions: tuple[str, ...]) -> list[str]:
    """Which of ``functions`` raise NotImplementedError on the simplest possible calls.

    The two functions that build a log are always tried first, so the readers get a log (or
    None, which still tells a stub from an implementation).
    """
    learner.start_example()
    log: Ref | None = None
    missing = []
    for name in FUNCTION_NAMES:
        builds = name in _BUILDERS
        if not builds and name not in functions:
            continue
        answer = _simplest_call(learner, name, log)
        if answer.get("not_implemented"):
            missing.append(name)
        elif builds and not _ERRORS & set(answer):
            log = Ref(_BUILDERS[name])
    return [name for name in missing if name in functions]


#: The functions that build a log, and the name the probe keeps their log under.
_BUILDERS = {"create_event_log": "probe_log0", "append_event": "probe_log1"}
_ERRORS = {"raised", "not_implemented", "exit", "control", "missing", "not_pair", "error"}


def _simplest_call(learner: Learner, name: str, log: Ref | None) -> dict[str, Any]:
    args: list[Any] = [log, "a"] if name != "list_sessions" else [log]
    keep: Any = None
    if name == "create_event_log":
        args, keep = [], _BUILDERS[name]
    elif name == "append_event":
        args = [log, "a", "user_message", {"content": "hi"}]
        keep = [_BUILDERS[name], "probe_event"]
    view = "pair" if name == "append_event" else "none"
    try:
        return learner.ask(call_request(name, name, args, keep=keep, view=view))
    except (ChildFailure, TaskOverrun):
        return {}  # it hangs or crashes: it is written; the properties will say what is wrong
