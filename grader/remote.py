"""The learner's code as the trusted side sees it: a child process it asks, never objects.

:class:`Learner` owns the private copy of the submission and the child interpreter that runs
it (see :mod:`grader.sandbox`), keeps the clocks (one deadline per example, one per task, one
for the whole grading) and restarts the child when one dies or overruns. The harness asks it
questions with :meth:`Learner.ask`; verdicts are never its business.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from grader import messages
from grader.contract import FUNCTION_NAMES
from grader.sandbox import workspace
from grader.sandbox.child import Child, ChildFailure, Limits

#: Seconds one example (every call a property makes for it) may take, by default.
DEFAULT_EXAMPLE_SECONDS = 5.0
#: Seconds one whole task may take, by default: far above what any fair implementation needs.
DEFAULT_TASK_SECONDS = 30.0
#: Seconds the import of the submission may take, unless the runner says otherwise.
IMPORT_SECONDS = 7.0


class LoadFailure(Exception):
    """The submission did not load; ``str()`` is the message, ``kind`` says why for batches:
    ``import_error``, ``timed_out``, ``crashed``, ``memory_exceeded`` or ``protocol_error``."""

    def __init__(self, text: str, kind: str) -> None:
        super().__init__(text)
        self.kind = kind


class TaskOverrun(Exception):
    """The task (or the whole grading) used up its time; no more examples are run."""


@dataclass
class Clock:
    """The time limits of one grading, in seconds (``overall`` None: no overall limit)."""

    example: float = DEFAULT_EXAMPLE_SECONDS
    task: float = DEFAULT_TASK_SECONDS
    overall: float | None = None
    load: float = IMPORT_SECONDS


@dataclass
class Learner:
    """One submission, copied privately and run in a sandboxed child, asked over a pipe.

    Args:
        source: the code to grade (see :func:`grader.sandbox.workspace.resolve`).
        isolation: ``bwrap``, ``uid`` or ``none`` (see :mod:`grader.sandbox.backends`).
        clock: the time limits.
        limits: the child's resource limits.
        log: where whatever learner code writes to fd 1 or 2 goes (None: nowhere).
        hidden: folders the sandbox must hide (besides every site-packages).
        readers: the read functions the current task may call (set per task by the grading).
    """

    source: workspace.Source
    isolation: str
    clock: Clock = field(default_factory=Clock)
    limits: Limits = field(default_factory=Limits)
    log: Path | None = None
    hidden: tuple[Path, ...] = ()
    readers: frozenset[str] = frozenset()
    _workspace: workspace.Workspace | None = field(default=None, init=False)
    _child: Child | None = field(default=None, init=False)
    _started: float = field(default_factory=time.monotonic, init=False)
    _example_deadline: float = field(default=0.0, init=False)
    _task_deadline: float = field(default=0.0, init=False)
    _reset_pending: bool = field(default=False, init=False)
    example_seconds: float = field(default=DEFAULT_EXAMPLE_SECONDS, init=False)

    def open(self) -> None:
        """Copy the submission and start its child.

        Raises:
            workspace.TargetError: the submission cannot be copied (too large).
            LoadFailure: it does not import.
        """
        self._workspace = workspace.create(self.source)
        self._child = Child(
            self._workspace, self.isolation, self.limits, self._config(), self.log, self.hidden
        )
        self._load()

    def close(self) -> None:
        """Stop the child and delete the private copy."""
        if self._child is not None:
            self._child.stop()
        if self._workspace is not None:
            self._workspace.remove()

    def _config(self) -> dict[str, Any]:
        fallbacks = {
            "reading_raised": messages.READING_RAISED,
            "repr_raised": messages.REPR_RAISED,
        }
        return {"functions": list(FUNCTION_NAMES), "fallbacks": fallbacks}

    def _load(self) -> None:
        assert self._child is not None
        deadline = self._bounded(time.monotonic() + self.clock.load)
        try:
            first = self._child.start(deadline)
        except ChildFailure as failure:
            raise self._load_failure(failure) from None
        if "load_error" in first:
            raise LoadFailure(*_load_error_text(first["load_error"]))

    def _load_failure(self, failure: ChildFailure) -> LoadFailure:
        if failure.kind == "timed_out":
            text = messages.LOAD_TIMED_OUT.format(seconds=self.clock.load)
            return LoadFailure(text, "timed_out")
        if failure.kind == "broken":
            return LoadFailure(messages.LOAD_BROKE, "protocol_error")
        return LoadFailure(messages.LOAD_DIED.format(code=failure.code), "crashed")

    def start_task(self) -> None:
        """Start the clock of a new task."""
        self._task_deadline = self._bounded(time.monotonic() + self.clock.task)

    def start_example(self, seconds: float | None = None) -> None:
        """Start the clock of a new example (``seconds``, else the clock's default) and
        forget the previous example's values."""
        self.example_seconds = self.clock.example if seconds is None else seconds
        self._example_deadline = time.monotonic() + self.example_seconds
        self._reset_pending = True

    def _bounded(self, deadline: float) -> float:
        if self.clock.overall is None:
            return deadline
        return min(deadline, self._started + self.clock.overall)

    def ask(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send a request to the child (starting a fresh one first if the last one ended).

        Raises:
            ChildFailure: no proper answer in time; the child is stopped.
            TaskOverrun: the task's or the grading's time is up.
            LoadFailure: a fresh child could not import the submission again.
        """
        assert self._child is not None
        deadline = min(self._example_deadline, self._task_deadline)
        if deadline - time.monotonic() <= 0 and self._task_deadline <= self._example_deadline:
            raise TaskOverrun()
        if not self._child.alive:
            self._load()
        if self._reset_pending:
            message = {**message, "reset": True}
            self._reset_pending = False
        try:
            return self._child.request(message, deadline)
        except ChildFailure as failure:
            if failure.kind == "timed_out" and self._task_deadline <= self._example_deadline:
                raise TaskOverrun() from None
            raise

    def output(self) -> str:
        """What learner code printed since the last call (the child keeps the first 10,000
        characters)."""
        if self._child is None or not self._child.alive:
            return ""
        try:
            answer = self._child.request({"op": "output"}, time.monotonic() + 2)
        except ChildFailure:
            return ""
        return str(answer.get("output", ""))


def _load_error_text(details: dict[str, Any]) -> tuple[str, str]:
    """The learner's sentence for a load error, and the batch status it amounts to."""
    kind = details.get("kind")
    if kind == "syntax":
        text = messages.LOAD_SYNTAX.format(where=details["where"], message=details["message"])
        if details.get("text"):
            text += "\n    " + str(details["text"])
        return text, "import_error"
    if kind == "exit":
        return messages.LOAD_EXIT.format(code=details["code"]), "crashed"
    if kind == "memory":
        return messages.LOAD_MEMORY, "memory_exceeded"
    if kind == "missing":
        return messages.LOAD_MISSING.format(names=", ".join(details["names"])), "import_error"
    module = str(details.get("module") or "")
    if module and module.split(".")[0] not in sys.stdlib_module_names:
        return messages.LOAD_NOT_STDLIB.format(module=module), "import_error"
    text = messages.LOAD_RAISED.format(kind=details.get("type"), message=details.get("message"))
    if details.get("where"):
        text += f" ({details['where']})"
    return text, "import_error"
