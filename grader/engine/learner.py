"""The learner's code as the engine sees it: a kernel it asks, through some transport, with
clocks.

:class:`Learner` keeps the deadlines (one per example, one per task, one for the whole
submission), starts a fresh kernel for every task (so a grade never depends on which tasks
ran before in the same process), restarts it when one hangs or dies, and collects what the
guard reports. Verdicts are not its business.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from grader.engine.outcomes import Said, Verdict


class Kernel(Protocol):
    """One kernel with the submission loaded (a sandboxed child, or a worker).

    ``deadline`` is wall-clock (``time.monotonic``); ``cpu_limit`` is a reading of
    :meth:`cpu` at which the kernel is stopped as timed out."""

    @property
    def alive(self) -> bool: ...

    def start(self, deadline: float, cpu_limit: float | None = None) -> dict[str, Any]: ...

    def request(
        self, request: dict[str, Any], deadline: float, cpu_limit: float | None = None
    ) -> tuple[list[Any], dict[str, Any]]: ...

    def cpu(self) -> float | None: ...

    def stop(self, wait: bool = False) -> int | None: ...


class KernelStopped(Protocol):
    """What a transport raises when its kernel stops answering (see ``ChildStopped``)."""

    kind: str
    code: int | None
    parts: list[Any]
    progress: tuple[int, int]


@dataclass(frozen=True)
class Stop:
    """Where a plan stopped: the step that did not answer, the call inside it, and why."""

    kind: str  # timed_out, died, broken, forged, overrun
    step: int
    call: int
    code: int | None = None


class LoadFailure(Exception):
    """The submission did not load: what to say, the verdict it amounts to, and what the
    guard reported while it loaded."""

    def __init__(
        self, said: Said, verdict: Verdict, reports: tuple[dict[str, str], ...] = ()
    ) -> None:
        super().__init__(said.message)
        self.said, self.verdict, self.reports = said, verdict, reports


@dataclass
class Clock:
    """Seconds allowed: one example, one task, the whole submission, the import.

    Examples, tasks and the import are limited in CPU time where the transport can measure
    it, so that a grade does not depend on what else the machine was doing; wall-clock time
    is then only a backstop (:data:`WALL_FACTOR` times as long), for code that sleeps. The
    whole submission's limit (a class's batch) is wall-clock time, always."""

    example: float = 5.0
    task: float = 30.0
    submission: float | None = None
    load: float = 7.0


#: Where CPU time is measured, how much longer than a CPU limit the wall clock may run.
WALL_FACTOR = 4.0


class Learner:
    """One submission behind a transport, with the clocks of one grading.

    Args:
        kernel: makes a fresh kernel (not started).
        clock: the time limits.
        stopped: the exception type the transport raises when its kernel stops answering.
        on_close: what to do when grading is over (remove the submission's private copy).
    """

    def __init__(
        self,
        kernel: Callable[[], Kernel],
        clock: Clock,
        stopped: type[Exception],
        on_close: Callable[[], object] = lambda: None,
    ) -> None:
        self._make = kernel
        self._on_close = on_close
        self.clock = clock
        self._stopped = stopped
        self._kernel: Kernel | None = None
        self._started = time.monotonic()
        self._task_deadline = float("inf")
        self._task_cpu_left = float("inf")
        self.example_seconds = clock.example
        self.reports: list[dict[str, str]] = []
        self.faults: list[str] = []

    # --- lifecycle ---------------------------------------------------------------------------
    def load(self) -> None:
        """Start a fresh kernel and import the submission.

        Raises:
            LoadFailure: it did not load.
        """
        if self._kernel is not None:
            self._kernel.stop()
        self._kernel = self._make()
        measured = self._kernel.cpu() is not None
        wall = self.clock.load * (WALL_FACTOR if measured else 1.0)
        deadline = self._bounded(time.monotonic() + wall)
        try:
            first = self._kernel.start(deadline, self.clock.load if measured else None)
        except self._stopped as stopped:
            raise _load_failure(stopped, self.clock.load) from None
        self._note(first.get("ready") or first)
        if "load_error" in first:
            raise _load_error(first["load_error"])

    def close(self) -> None:
        if self._kernel is not None:
            self._kernel.stop()
            self._kernel = None
        self._on_close()

    def begin_task(self) -> None:
        """A fresh kernel and a fresh task clock."""
        self.load()
        measured = self._kernel is not None and self._kernel.cpu() is not None
        wall = self.clock.task * (WALL_FACTOR if measured else 1.0)
        self._task_deadline = self._bounded(time.monotonic() + wall)
        self._task_cpu_left = self.clock.task

    def begin_example(self, seconds: float | None = None) -> None:
        self.example_seconds = self.clock.example if seconds is None else seconds

    def _bounded(self, deadline: float) -> float:
        if self.clock.submission is None:
            return deadline
        return min(deadline, self._started + self.clock.submission)

    @property
    def out_of_time(self) -> bool:
        """The task (or the submission) has no time left."""
        return time.monotonic() >= self._task_deadline or self._task_cpu_left <= 0

    # --- asking --------------------------------------------------------------------------------
    def run(self, steps: list[tuple[Any, ...]]) -> tuple[list[Any], Stop | None]:
        """Run an example's steps; the answers that came, and where it stopped if it did."""
        if self._kernel is None or not self._kernel.alive:
            self.load()
        assert self._kernel is not None
        kernel = self._kernel
        started = kernel.cpu()
        seconds = self.example_seconds
        wall = time.monotonic() + seconds * (WALL_FACTOR if started is not None else 1.0)
        deadline = min(wall, self._task_deadline)
        cpu_limit = None if started is None else started + min(seconds, self._task_cpu_left)
        try:
            parts, done = kernel.request({"reset": True, "steps": steps}, deadline, cpu_limit)
        except self._stopped as error:
            stopped: Any = error
            self.reports += [r for r in getattr(stopped, "reports", []) if r not in self.reports]
            kind = stopped.kind
            if started is not None:
                self._task_cpu_left -= seconds  # stopped: it used the example's whole share
            if kind == "timed_out" and (
                time.monotonic() >= self._task_deadline or self._task_cpu_left <= 0
            ):
                kind = "overrun"
            step, call = stopped.progress
            parts = list(stopped.parts)
            if kind != "forged" and len(parts) < step < len(steps):
                parts = self._answers_before(steps[:step], parts)
            return parts, Stop(kind, len(parts) if kind != "forged" else step, call, stopped.code)
        self._note(done)
        ended = kernel.cpu()
        if started is not None and ended is not None:
            self._task_cpu_left -= ended - started
        if done.get("forged"):
            return parts, Stop("forged", len(parts), 0)
        return parts, None

    def _answers_before(self, steps: list[tuple[Any, ...]], parts: list[Any]) -> list[Any]:
        """The answers to ``steps``, which a stopped kernel finished but had not yet sent:
        asked again of a fresh kernel (they finished once, so they finish again), else the
        ones that came."""
        try:
            self.load()
            assert self._kernel is not None
            deadline = min(time.monotonic() + self.example_seconds * WALL_FACTOR,
                           self._task_deadline)  # fmt: skip
            again, done = self._kernel.request({"reset": True, "steps": steps}, deadline)
        except (self._stopped, LoadFailure):
            return parts
        self._note(done)
        return again if len(again) > len(parts) else parts

    def output(self) -> str:
        """What learner code printed since it was last asked."""
        if self._kernel is None or not self._kernel.alive:
            return ""
        try:
            parts, done = self._kernel.request({"steps": [("output",)]}, time.monotonic() + 2)
        except self._stopped:
            return ""
        self._note(done)
        return str(parts[0].get("output", "")) if parts and isinstance(parts[0], dict) else ""

    def _note(self, done: dict[str, Any]) -> None:
        for report in done.get("reports", []) or []:
            if isinstance(report, dict) and report not in self.reports:
                self.reports.append({str(k): str(v)[:300] for k, v in report.items()})
        for fault in done.get("faults", []) or []:
            if str(fault) not in self.faults:
                self.faults.append(str(fault)[:300])


def _load_failure(stopped: Any, seconds: float) -> LoadFailure:
    if stopped.kind == "timed_out":
        return LoadFailure(Said("load.timed_out", {"seconds": seconds}), Verdict.TIMED_OUT)
    if stopped.kind in ("broken", "forged"):
        return LoadFailure(Said("load.broke"), Verdict.PROTOCOL_ERROR)
    return LoadFailure(Said("load.died", {"code": stopped.code}), Verdict.CRASHED)


def _load_error(details: dict[str, Any]) -> LoadFailure:
    """The learner's sentence for a load error, and the verdict it amounts to."""
    kind = details.get("kind")
    if kind == "syntax":
        args = {key: str(details.get(key, ""))[:300] for key in ("where", "message", "text")}
        return LoadFailure(Said("load.syntax", args), Verdict.IMPORT_ERROR)
    if kind == "exit":
        return LoadFailure(
            Said("load.exit", {"code": str(details.get("code"))[:200]}), Verdict.CRASHED
        )
    if kind == "memory":
        return LoadFailure(Said("load.memory"), Verdict.MEMORY_EXCEEDED)
    if kind == "missing":
        names = ", ".join(str(name) for name in details.get("names", []))
        return LoadFailure(Said("load.missing", {"names": names}), Verdict.IMPORT_ERROR)
    module = str(details.get("module") or "")
    if module and module.split(".")[0] not in sys.stdlib_module_names:
        return LoadFailure(Said("load.not_stdlib", {"module": module[:200]}), Verdict.IMPORT_ERROR)
    args = {
        "kind": str(details.get("type"))[:100],
        "message": str(details.get("message", ""))[:500],
        "where": str(details.get("where", "?"))[:200],
    }
    return LoadFailure(Said("load.raised", args), Verdict.IMPORT_ERROR)
