"""The learner's code as the engine sees it: kernels it asks, through some transport, with
limits.

:class:`Learner` starts a fresh kernel for every task (so a grade never depends on which
tasks ran before), keeps each task's CPU share and the submission's, restarts a kernel that
stopped, asks a stalled request once more of a fresh kernel before calling the machine too
busy, and collects what the guard reports. Verdicts are not its business.

It also remembers each call that used up its time on a fresh kernel, with the calls before
it (:class:`_Hang`). A fresh kernel is the submission just imported, the same every time,
so the same calls from a fresh kernel, with no more time per call, use it up again: a
later request that begins with them gets the same stop at once, charged the CPU time the
first one used, and the kernel stays fresh. A ``while True:`` in ``create_event_log`` is
met once per grade rather than in every task and every shrinking step (in a browser each
of those cost 15 s of wall-clock time).

Every limit that can blame the learner's code is CPU time, counted by the kernel where that
code runs, whatever else the machine is doing: a call's share, a task's, the submission's,
the import's. The wall clock only stops code that blocks (see the transports). Where CPU
time cannot be counted (a browser) every limit is wall-clock time, and the report says so.
"""

from __future__ import annotations

import enum
import marshal
import sys
import time
from dataclasses import dataclass
from typing import Any, Protocol

from grader.engine.outcomes import Said, Verdict


class StopKind(enum.Enum):
    """Why a kernel stopped answering."""

    TIMED_OUT = "timed_out"  # a call used its CPU share
    OVERRUN = "overrun"  # the task (or the submission) used its CPU share
    DIED = "died"  # the learner's process ended
    BROKEN = "broken"  # what came back is not the protocol
    FORGED = "forged"  # a message without a valid MAC: learner code wrote into the pipe
    BLOCKED = "blocked"  # no new call for a long while, and not asking for a CPU
    BUSY = "busy"  # no new call for a long while, waiting for a CPU: the machine is busy


class KernelStopped(Exception):
    """What a transport raises when its kernel stops answering.

    Attributes:
        kind: why.
        parts: the answers that came before it stopped.
        progress: ``(example, step, call, calls made)`` the kernel was at.
        reports: what the guard reported before it stopped.
        code: the exit code (negative: the signal), where known.
        cpu: CPU seconds the kernel had used, where known.
    """

    def __init__(self, kind: StopKind, code: int | None = None) -> None:
        super().__init__(kind.value)
        self.kind, self.code = kind, code
        self.parts: list[Any] = []
        self.progress: tuple[int, ...] = (0, 0, 0, 0)
        self.reports: list[Any] = []
        self.cpu = 0.0


@dataclass(frozen=True)
class TaskLimits:
    """What one task's kernel may use: CPU seconds for the whole task, and for the import."""

    cpu_seconds: float
    load_seconds: float


class Kernel(Protocol):
    """One task's kernel with the submission loaded (a fork in the sandbox, or a worker)."""

    @property
    def alive(self) -> bool: ...

    def start(self, limits: TaskLimits, deadline: float) -> dict[str, Any]: ...

    def request(
        self, request: dict[str, Any], deadline: float
    ) -> tuple[list[Any], dict[str, Any]]: ...

    def output(self) -> str: ...

    def stop(self) -> float:
        """End this kernel; the CPU seconds it used (0 where unknown)."""
        ...


class Transport(Protocol):
    """Where kernels come from; ``measures_cpu`` is False where limits are wall-clock time;
    ``cheap_kernels`` is True where a fresh kernel costs milliseconds (a fork, an import),
    not seconds (a browser's worker loads its Python)."""

    measures_cpu: bool
    cheap_kernels: bool

    def kernel(self) -> Kernel: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class Stop:
    """Where a request stopped: the example, the step and the call inside it, and why."""

    kind: StopKind
    example: int
    step: int
    call: int
    code: int | None = None


@dataclass(frozen=True)
class _Hang:
    """A request that used up a call's time on a fresh kernel: its mode and the examples up
    to the stop (the stopped one cut after its stopped step), the time each call had, and
    what the stop was (the answers sent before it, where, the exit code, the CPU used)."""

    digest: bool
    prefix: tuple[Any, ...]
    seconds: float
    parts: tuple[Any, ...]
    progress: tuple[int, ...]
    code: int | None
    cpu: float

    def begins(self, request: dict[str, Any], examples: list[Any]) -> bool:
        """Whether ``request`` (its examples decoded) asks these calls first, in this mode,
        with no more time per call."""
        if bool(request.get("digest")) != self.digest:
            return False
        if float(request.get("seconds") or 0.0) > self.seconds:
            return False
        *whole, last = self.prefix
        if len(examples) < len(self.prefix):
            return False
        if any(list(examples[i]) != list(whole[i]) for i in range(len(whole))):
            return False
        return list(examples[len(whole)][: len(last)]) == list(last)


def _examples(request: dict[str, Any]) -> list[Any]:
    """A request's examples, decoded where a bank sent them marshalled."""
    examples = request["examples"]
    return list(marshal.loads(examples) if isinstance(examples, bytes) else examples)


def _hang(request: dict[str, Any], stopped: KernelStopped) -> _Hang | None:
    """What to remember of a request that used up a call's time on a fresh kernel (None when
    the stop's place is not in the request)."""
    examples = _examples(request)
    example, step = (*stopped.progress, 0, 0)[:2]
    if example >= len(examples) or step >= len(examples[example]):
        return None
    prefix = (*examples[:example], list(examples[example])[: step + 1])
    seconds = float(request.get("seconds") or 0.0)
    return _Hang(bool(request.get("digest")), prefix, seconds, tuple(stopped.parts),
                 tuple(stopped.progress), stopped.code, stopped.cpu)  # fmt: skip


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
    """Seconds allowed: one call, one task, the whole submission, the import (CPU time where
    the transport counts it, else wall-clock time)."""

    example: float = 5.0
    task: float = 30.0
    submission: float | None = None
    load: float = 7.0


#: Where limits are wall-clock time (a browser), how much longer than the CPU limits they
#: are: WebAssembly runs Python slower, and a busy machine must not time out a correct file.
WALL_ONLY_FACTOR = 3.0
#: The longest a single request may take, wall-clock, before the sandbox counts as stuck
#: (every stall is caught long before: this only ends a transport that stopped watching).
REQUEST_BACKSTOP = 3600.0


class Learner:
    """One submission behind a transport, with the limits of one grading.

    Args:
        transport: where kernels come from.
        clock: the limits.
        on_close: what to do when grading is over (remove the submission's private copy).
    """

    def __init__(self, transport: Transport, clock: Clock, on_close: Any = lambda: None) -> None:
        self.transport = transport
        self.clock = clock
        self._on_close = on_close
        self._kernel: Kernel | None = None
        self._task_cpu_left = clock.task
        #: Where limits are wall-clock time, when the task's time is up.
        self._task_deadline = float("inf")
        self._submission_cpu_left = float("inf") if clock.submission is None else clock.submission
        self.call_seconds = clock.example
        #: The time the last kernel was given for its task (its import included).
        self._share = float("inf")
        self.reports: list[dict[str, str]] = []
        self.faults: list[str] = []
        self.cpu_used = 0.0
        #: Whether the kernel has run no learner call since it imported the submission.
        self._fresh = False
        self._hangs: list[_Hang] = []

    @property
    def measures_cpu(self) -> bool:
        return self.transport.measures_cpu

    @property
    def cheap_kernels(self) -> bool:
        """Whether a fresh kernel is cheap enough to run every candidate of a shrinking on
        one of its own."""
        return self.transport.cheap_kernels

    def _scaled(self, seconds: float) -> float:
        return seconds if self.measures_cpu else seconds * WALL_ONLY_FACTOR

    # --- lifecycle ---------------------------------------------------------------------------
    def load(self) -> None:
        """Start a fresh kernel and import the submission (asked twice of a fresh sandbox
        when the first stalled on a busy machine).

        Raises:
            LoadFailure: it did not load.
        """
        if min(self._task_cpu_left, self._submission_cpu_left) <= 0:
            # Nothing left to give a kernel: said so, never left to a timer racing the import
            # (which an import quicker than the timer's first tick would win).
            raise LoadFailure(Said("load.no_time_left"), Verdict.TIMED_OUT)
        for attempt in range(2):
            try:
                self._load_once()
                return
            except KernelStopped as stopped:
                if stopped.kind is StopKind.BUSY and attempt == 0:
                    continue
                if stopped.kind in _OUT_OF_TIME and self._share < self._scaled(self.clock.load):
                    # Less time was left than an import may take: the submission's grading
                    # time is what ran out, not the import's.
                    raise LoadFailure(Said("load.no_time_left"), Verdict.TIMED_OUT) from None
                raise _load_failure(stopped, self.clock.load) from None

    def _load_once(self) -> None:
        if self._kernel is not None:
            self._spend(self._kernel.stop())
        self._kernel = self.transport.kernel()
        self._fresh = False
        share = min(self._task_cpu_left, self._submission_cpu_left)
        self._share = self._scaled(share)
        limits = TaskLimits(self._share, self._scaled(self.clock.load))
        first = self._kernel.start(limits, self._deadline())
        self._note(first.get("ready") or first)
        if "load_error" in first:
            raise _load_error(first["load_error"])
        self._fresh = True

    def close(self) -> None:
        if self._kernel is not None:
            self._spend(self._kernel.stop())
            self._kernel = None
        self.transport.close()
        self._on_close()

    def begin_task(self) -> None:
        """A fresh kernel and a fresh task share."""
        self._task_cpu_left = self.clock.task
        if not self.measures_cpu:
            self._task_deadline = time.monotonic() + self._scaled(self.clock.task)
        self.load()

    def fresh_for_examples(self) -> None:
        """Start the task's examples on a fresh kernel when a hang is on record and this one
        has run calls (the not-written probe's): they then begin as the remembered hang
        began, and meet it at once. Without a hang on record the probed kernel is kept.

        Raises:
            LoadFailure: it did not load again.
        """
        if self._hangs and not self._fresh:
            self.load()

    def begin_example(self, seconds: float | None = None) -> None:
        """From now on, each call gets ``seconds`` (default: the clock's)."""
        self.call_seconds = self.clock.example if seconds is None else seconds

    @property
    def out_of_time(self) -> bool:
        """The task (or the submission) has no time left."""
        if time.monotonic() >= self._task_deadline:
            return True
        return self._task_cpu_left <= 0 or self._submission_cpu_left <= 0

    # --- asking --------------------------------------------------------------------------------
    def run(
        self,
        examples: list[list[tuple[Any, ...]]] | bytes,
        digest: bool = False,
        count: int | None = None,
    ) -> tuple[list[Any], Stop | None]:
        """Run ``examples`` (steps, or a bank's marshalled ``count`` examples); the answers
        that came (one per step in full mode, one per example in digest mode), and where it
        stopped if it did. A request that stalled on a busy machine is asked again of a fresh
        kernel once."""
        if count is None:
            assert not isinstance(examples, bytes)
            count = len(examples) if digest else sum(len(steps) for steps in examples)
        request = {"examples": examples, "digest": digest, "count": count,
                   "seconds": self._scaled(self.call_seconds)}  # fmt: skip
        for attempt in range(2):
            parts, stop = self._ask(request)
            if stop is None or stop.kind is not StopKind.BUSY or attempt == 1:
                return parts, stop
            try:
                self.load()
            except LoadFailure:
                return parts, stop
        raise AssertionError("unreachable")

    def _ask(self, request: dict[str, Any]) -> tuple[list[Any], Stop | None]:
        if self._kernel is None or not self._kernel.alive:
            self.load()
        assert self._kernel is not None
        fresh = self._fresh
        if fresh and self._hangs:
            examples = _examples(request)
            for known in self._hangs:
                if known.begins(request, examples):
                    return self._stopped_as(known)
        if isinstance(request["examples"], bytes) or any(request["examples"]):
            self._fresh = False  # an empty example runs no learner call
        try:
            parts, done = self._kernel.request(request, self._deadline())
        except KernelStopped as stopped:
            self.reports += [r for r in stopped.reports if r not in self.reports]
            self._spend(stopped.cpu)
            stop = self._stop(stopped.kind, stopped.progress, stopped.code)
            if fresh and stop.kind is StopKind.TIMED_OUT and not stopped.reports:
                hang = _hang(request, stopped)
                if hang is not None:
                    self._hangs.append(hang)
            return list(stopped.parts), stop
        self._note(done.get("done", {}))
        self._spend(float(done.get("done", {}).get("cpu", 0.0) or 0.0))
        if done.get("done", {}).get("forged"):
            return parts, Stop(StopKind.FORGED, len(parts), 0, 0)
        return parts, None

    def _stopped_as(self, hang: _Hang) -> tuple[list[Any], Stop]:
        """The stop a remembered hang comes to again, charged as it was the first time; the
        kernel, which was not asked, stays fresh."""
        self._spend(hang.cpu)
        return list(hang.parts), self._stop(StopKind.TIMED_OUT, hang.progress, hang.code)

    def _stop(self, kind: StopKind, progress: tuple[int, ...], code: int | None) -> Stop:
        """Where a kernel stopped and why, once its CPU is spent: a call's time used up when
        the task's (or the submission's) is gone too is the task's overrun."""
        if kind is StopKind.TIMED_OUT and self.out_of_time:
            kind = StopKind.OVERRUN
        example, step, call = (*progress, 0, 0, 0)[:3]
        return Stop(kind, example, step, call, code)

    def _deadline(self) -> float:
        """The wall clock's deadline for a request: the task's, where limits are wall-clock
        time; else only the backstop (CPU limits and the stall watch stop a kernel first)."""
        return min(time.monotonic() + REQUEST_BACKSTOP, self._task_deadline)

    def _spend(self, seconds: float) -> None:
        self.cpu_used += seconds
        self._task_cpu_left -= seconds
        self._submission_cpu_left -= seconds

    def output(self) -> str:
        """What learner code printed since it was last asked."""
        if self._kernel is None or not self._kernel.alive:
            return ""
        return self._kernel.output()

    def _note(self, done: dict[str, Any]) -> None:
        for report in done.get("reports", []) or []:
            if isinstance(report, dict) and report not in self.reports:
                self.reports.append({str(k): str(v)[:300] for k, v in report.items()})
        for fault in done.get("faults", []) or []:
            if str(fault) not in self.faults:
                self.faults.append(str(fault)[:300])


#: How a kernel stops when its time is up.
_OUT_OF_TIME = (StopKind.TIMED_OUT, StopKind.OVERRUN, StopKind.BLOCKED)


def _load_failure(stopped: KernelStopped, seconds: float) -> LoadFailure:
    if stopped.kind in _OUT_OF_TIME:
        return LoadFailure(Said("load.timed_out", {"seconds": seconds}), Verdict.TIMED_OUT)
    if stopped.kind is StopKind.BUSY:
        return LoadFailure(Said("load.machine_busy"), Verdict.MACHINE_BUSY)
    if stopped.kind in (StopKind.BROKEN, StopKind.FORGED):
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
    absent = details.get("not_in_sandbox")  # a module the guard takes away, as imported
    if type(absent) is str:
        said = Said("load.not_in_sandbox", {"module": absent[:200]})
        return LoadFailure(said, Verdict.IMPORT_ERROR)
    if module and module.split(".")[0] not in sys.stdlib_module_names:
        return LoadFailure(Said("load.not_stdlib", {"module": module[:200]}), Verdict.IMPORT_ERROR)
    args = {
        "kind": str(details.get("type"))[:100],
        "message": str(details.get("message", ""))[:500],
        "where": str(details.get("where", "?"))[:200],
    }
    return LoadFailure(Said("load.raised", args), Verdict.IMPORT_ERROR)
