"""The trusted end of the pipe: a kernel per task, forked in the grade's one sandbox.

Limits that can blame the learner's code are CPU time, counted where that code runs (see
:mod:`grader.kernel.calls` and :mod:`grader.kernel.serve`): a call that uses its share ends
its kernel with SIGPROF, a task that uses its share with SIGXCPU, and the zygote says so.
The wall clock is only a backstop for code that blocks: when the kernel makes no new call
for :data:`STALL_FACTOR` times a call's CPU share, the sandbox's scheduling statistics say
whether it was waiting for a CPU (the machine is too busy: ``busy``, the grader's own
problem) or not asking for one (it blocks: ``blocked``, the learner's), and the sandbox is
stopped. Nothing here reads the wall clock to blame the learner's code for being slow.

With a uid of its own, what the learner's uid holds where it may write is charged after
every answer and while each request runs (:mod:`.budget`): past the write budget the answer
carries a report, or the sandbox is stopped with one.
"""

from __future__ import annotations

import signal
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from grader.engine.learner import KernelStopped, StopKind, TaskLimits
from grader.transport.budget import charged
from grader.transport.isolation import Launcher
from grader.transport.sandbox import Limits, Sandbox, SandboxStopped
from grader.transport.workspace import Workspace

#: The most a child may send in answer to one request, every line together.
MAX_REQUEST_BYTES = 64 * 1024 * 1024
#: A kernel that starts no new call for this many times a call's CPU share (wall-clock) is
#: looked at: blocked, or starved of CPU by a busy machine.
STALL_FACTOR = 10.0
#: Waiting that long while runnable (share of the stalled time) means the machine was busy.
BUSY_SHARE = 0.5
#: How a kernel's death by signal reads: its call's CPU share, its task's CPU share.
_SIGNALS: dict[int, StopKind] = {
    signal.SIGPROF: StopKind.TIMED_OUT,
    signal.SIGXCPU: StopKind.OVERRUN,
}
_SANDBOX_KINDS = {
    "died": StopKind.DIED, "broken": StopKind.BROKEN, "forged": StopKind.FORGED,
    "stuck": StopKind.BUSY,
}  # fmt: skip


@dataclass
class ChildTransport:
    """Kernels for one grade, forked in one sandbox (booted when the first is asked for)."""

    launcher: Launcher
    workspace: Workspace
    limits: Limits
    functions: tuple[str, ...]
    log: Path | None = None
    hidden: tuple[Path, ...] = ()
    _sandbox: Sandbox | None = field(default=None, init=False)

    measures_cpu = True
    cheap_kernels = True  # a fork of the sandbox's zygote

    def kernel(self) -> ChildKernel:
        if self._sandbox is None:
            self._sandbox = Sandbox(self.launcher, self.workspace, self.limits, self.functions,
                                    self.log, self.hidden)  # fmt: skip
        return ChildKernel(self._sandbox)

    def close(self) -> None:
        if self._sandbox is not None:
            self._sandbox.stop()


@dataclass
class ChildKernel:
    """One task's kernel in the sandbox."""

    sandbox: Sandbox
    _live: bool = field(default=False, init=False)
    _call_seconds: float = field(default=5.0, init=False)

    @property
    def alive(self) -> bool:
        return self._live and self.sandbox.alive

    def start(self, limits: TaskLimits, deadline: float) -> dict[str, Any]:
        """Fork a kernel and import the submission; its first answer (``ready`` or
        ``load_error``).

        Raises:
            KernelStopped: the import used its CPU share, died, or the sandbox failed.
        """
        try:
            if not self.sandbox.alive:
                self.sandbox.boot(deadline)
            self.sandbox.fork({"cpu_seconds": limits.cpu_seconds,
                               "load_seconds": limits.load_seconds})  # fmt: skip
            self._live = True
            self._call_seconds = limits.load_seconds
            _, first = self._answers(deadline, expect_parts=0, first_only=True)
        except SandboxStopped as stopped:
            self._live = False
            raise KernelStopped(_SANDBOX_KINDS[stopped.kind]) from None
        except KernelStopped as stopped:
            if not stopped.reports:
                raise
            # Stopped while importing, past the write budget: a failed import, reported.
            return {"load_error": {"kind": "memory"}, "reports": stopped.reports}
        return first

    def request(self, request: dict[str, Any], deadline: float) -> tuple[list[Any], dict[str, Any]]:
        """Send one request; its parts and its closing word.

        Raises:
            KernelStopped: the kernel ended before answering whole (see the module
                docstring for how each end reads).
        """
        if not self.alive:
            raise KernelStopped(StopKind.DIED)
        self._call_seconds = float(request.get("seconds") or self._call_seconds)
        try:
            self.sandbox.send(b"k", request)
            return self._answers(deadline, expect_parts=int(request.get("count") or 0))
        except SandboxStopped as stopped:
            self._live = False
            raise KernelStopped(_SANDBOX_KINDS[stopped.kind]) from None

    def _answers(
        self, deadline: float, expect_parts: int, first_only: bool = False
    ) -> tuple[list[Any], dict[str, Any]]:
        parts: list[Any] = []
        received = 0
        watch = _Stall(self.sandbox, self._call_seconds)
        while True:
            try:
                zygote, answer, size = self.sandbox.line(deadline, watch)
                watch.writes()  # a kernel that answers without pause is measured too
            except KernelStopped as stopped:
                stopped.parts, stopped.progress = parts, self.sandbox.progress()
                raise
            received += size
            if zygote:
                raise self._ended(answer, parts)
            if first_only:
                return parts, self._charged_first(answer)
            if received > MAX_REQUEST_BYTES:
                raise self.sandbox.fail("broken")
            if isinstance(answer.get("parts"), list) and len(parts) + len(answer["parts"]) <= max(
                expect_parts, 1
            ):
                parts += answer["parts"]
            elif "done" in answer and isinstance(answer["done"], dict):
                return parts, {**answer, "done": self._charged(answer["done"])}
            else:
                raise self.sandbox.fail("broken")

    def _charged(self, answer: dict[str, Any]) -> dict[str, Any]:
        """``answer`` with a report when the uid now holds more than its write budget."""
        writes = self.sandbox.writes
        return answer if writes is None else charged(answer, writes.overrun())

    def _charged_first(self, first: dict[str, Any]) -> dict[str, Any]:
        ready = first.get("ready")
        if isinstance(ready, dict) and ready:
            return {**first, "ready": self._charged(ready)}
        return self._charged(first)

    def _ended(self, answer: dict[str, Any], parts: list[Any]) -> KernelStopped:
        """The kernel ended before answering: how, as the zygote tells it."""
        self._live = False
        ended = answer.get("ended")
        if not isinstance(ended, dict) or ended.get("forged"):
            self.sandbox.stop()
            kind = StopKind.FORGED if isinstance(ended, dict) else StopKind.BROKEN
            return _stopped(kind, parts, self.sandbox.progress())
        number = ended.get("signal")
        kind = _SIGNALS.get(number, StopKind.DIED) if isinstance(number, int) else StopKind.DIED
        code = -number if isinstance(number, int) else ended.get("code")
        stopped = _stopped(kind, parts, self.sandbox.progress())
        stopped.code = code if isinstance(code, int) else None
        stopped.cpu = float(ended.get("cpu") or 0.0)
        return stopped

    def stop(self) -> float:
        """End this kernel (the sandbox stays, for the next task's kernel); the CPU seconds
        it used, as the zygote counted them."""
        if not self._live or not self.sandbox.alive:
            self._live = False
            return 0.0
        self._live = False
        try:
            self.sandbox.send(b"k", {"end": True})
            zygote, answer, _ = self.sandbox.line(time.monotonic() + 5)
        except SandboxStopped:
            return 0.0
        ended = answer.get("ended") if zygote else None
        if not isinstance(ended, dict):
            self.sandbox.stop()
            return 0.0
        return float(ended.get("cpu") or 0.0)

    def output(self) -> str:
        """What learner code printed since it was last asked."""
        if not self.alive:
            return ""
        try:
            self.sandbox.send(b"k", {"output": True})
            zygote, answer, _ = self.sandbox.line(time.monotonic() + 5)
        except SandboxStopped:
            self._live = False
            return ""
        if zygote:
            self._live = False
            return ""
        return str(answer.get("output", ""))


def _stopped(kind: StopKind, parts: list[Any], progress: tuple[int, ...]) -> KernelStopped:
    stopped = KernelStopped(kind)
    stopped.parts, stopped.progress = parts, progress
    return stopped


class _Stall:
    """Watches a kernel that is asked something: stopped when it makes no new call for
    :data:`STALL_FACTOR` times a call's CPU share, as ``busy`` or ``blocked``; and, with a
    uid of its own, stopped with a report when its uid holds more than its write budget."""

    def __init__(self, sandbox: Sandbox, call_seconds: float) -> None:
        self.sandbox = sandbox
        self.allowed = STALL_FACTOR * call_seconds
        self.calls = sandbox.progress()[3]
        self.since = time.monotonic()
        self.scheduled = sandbox.scheduled()

    def __call__(self) -> None:
        self.writes()
        calls = self.sandbox.progress()[3]
        now = time.monotonic()
        if calls != self.calls:
            self.calls, self.since, self.scheduled = calls, now, self.sandbox.scheduled()
            return
        if now - self.since < self.allowed:
            return
        kind = self._verdict(now - self.since)
        progress = self.sandbox.progress()
        self.sandbox.stop()
        raise _stopped(kind, [], progress)

    def writes(self) -> None:
        """Stop the sandbox, with a report, when its uid holds more than its write budget
        (measured at most every :data:`.budget.POLL_SECONDS`)."""
        writes = self.sandbox.writes
        report = None if writes is None else writes.overrun_due()
        if report is None:
            return
        progress = self.sandbox.progress()
        self.sandbox.stop()
        stopped = _stopped(StopKind.BROKEN, [], progress)
        stopped.reports = [report]
        raise stopped

    def _verdict(self, stalled: float) -> StopKind:
        """Busy when the kernel was runnable most of the time (on a CPU, or waiting for
        one), blocked when it was not asking for a CPU at all."""
        now = self.sandbox.scheduled()
        if now is None or self.scheduled is None:
            return StopKind.BUSY
        ran, waited = (after - before for after, before in zip(now, self.scheduled, strict=True))
        return StopKind.BUSY if (ran + waited) >= BUSY_SHARE * stalled else StopKind.BLOCKED
