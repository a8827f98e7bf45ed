"""What grading produces, as data: statuses, failures, results and reports.

Nothing here is a sentence. A failure names the broken promise by its id and carries its
details as :class:`Said` items (a message id and its arguments); the front ends render them
in the learner's language at the last moment (see :mod:`grader.i18n`). The transcript's
lines are Python, the same in every language, except for :class:`Said` notes and the
comments of :class:`Commented` lines.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import Any


class Status(enum.Enum):
    """How one task went."""

    PASSED = "passed"
    FAILED = "failed"
    NOT_IMPLEMENTED = "not_implemented"
    TIMED_OUT = "timed_out"
    ERROR = "error"
    TAMPERED = "tampered"


class Verdict(enum.Enum):
    """How one submission went, as a batch's gradebook says it (best news first)."""

    GRADED = "graded"
    TIMED_OUT = "timed_out"
    MEMORY_EXCEEDED = "memory_exceeded"
    CRASHED = "crashed"
    PROTOCOL_ERROR = "protocol_error"
    IMPORT_ERROR = "import_error"
    TAMPERED = "tampered"
    NO_SUBMISSION = "no_submission"
    #: The grader's own trouble, not the submission's: the machine was too busy to grade it
    #: (a request stalled twice while waiting for a CPU). Grade it again on a quieter one.
    MACHINE_BUSY = "machine_busy"


class Cause(enum.Enum):
    """Why a task ended in trouble rather than a broken promise (the failure's ``promise``
    is then ``cause.<value>``)."""

    TIMED_OUT = "timed_out"  # one call used its share of CPU time
    TASK_TIMED_OUT = "task_timed_out"  # the task, or the submission, used its CPU time
    BLOCKED = "blocked"  # one call waited (blocked, asking for no CPU) far past its share
    MACHINE_BUSY = "machine_busy"  # the machine was too busy to finish grading it
    DIED = "died"  # the learner's process ended
    EXITED = "exited"  # learner code called exit()
    CONTROL = "control"  # learner code raised KeyboardInterrupt or the like
    MEMORY = "memory"  # learner code ran out of memory
    TOO_LARGE = "too_large"  # an answer too large to read
    BROKEN = "broken"  # the pipe carried something that is not the protocol
    FORGED = "forged"  # a message without a valid MAC: learner code wrote into the pipe
    TAMPERED = "tampered"  # the guard denied and reported something
    RELOAD = "reload"  # a fresh process could not load the submission again
    GRADER = "grader"  # a bug in the grader itself


@dataclass(frozen=True)
class Said:
    """Something to say: a message id and its arguments (code, values, numbers: never words
    of another language)."""

    message: str
    args: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Commented:
    """A line of Python with a comment after it: the code is the same in every language, the
    comment is prose (``# raises ValueError``, ``# 抛出 ValueError``), said in the reader's."""

    code: str
    comment: Said


#: One line of a transcript: Python, a note of its own, or Python with a comment.
Line = str | Said | Commented


@dataclass(frozen=True)
class Example:
    """The example a failure was shown with, as the engine built it (never shown itself):
    its property's name, the value, the attempts shrinking it took, and whether no smaller
    example of it fails (False: shrinking was cut short)."""

    prop: str
    value: Any
    attempts: int = 0
    minimal: bool = True


@dataclass(frozen=True)
class Failure:
    """A broken promise (or the trouble that stopped a task), with the calls that show it.

    Attributes:
        promise: ``append.event_ids``, ``refuse.missing_key``, ``cause.timed_out``, ...
        status: what it costs the task.
        lines: the transcript: Python lines (``str``), notes (:class:`Said`) and Python
            lines with a comment (:class:`Commented`).
        outcome: what the last call did and what it should have done.
        function: the graded function whose call went wrong (None: not one call's fault).
        notes: more to say (a flaky failure, a function that belongs to another task).
        example: the (shrunk) example that shows it, when one does.
    """

    promise: str
    status: Status = Status.FAILED
    lines: tuple[Line, ...] = ()
    outcome: tuple[Said, ...] = ()
    function: str | None = None
    notes: tuple[Said, ...] = ()
    example: Example | None = field(default=None, compare=False, repr=False)

    def noting(self, note: Said) -> Failure:
        return replace(self, notes=(*self.notes, note))


@dataclass(frozen=True)
class TaskResult:
    """How one task went: its points are earned only when it passed."""

    task_id: str
    number: int
    points: int
    status: Status
    failure: Failure | None = None
    output: str = ""

    @property
    def earned(self) -> int:
        return self.points if self.status is Status.PASSED else 0


@dataclass(frozen=True)
class Report:
    """One grading of one target.

    Attributes:
        target: how the target is named (a path, ``exercises``, a submission id).
        results: one per task asked for, in task order (empty when it did not load).
        asked: the task ids asked for, in order.
        max_score: what the tasks asked for are worth.
        isolation: how learner code ran (``bwrap``, ``uid``, ``none``).
        load_problem: why the target did not load (None: it did).
        verdict: the submission's verdict (a batch's status column).
        reports: what the guard reported (tampering), with where.
        notes: what the person reading should know about how it ran.
    """

    target: str
    results: tuple[TaskResult, ...]
    asked: tuple[str, ...]
    max_score: int
    isolation: str
    load_problem: Said | None = None
    verdict: Verdict = Verdict.GRADED
    reports: tuple[dict[str, str], ...] = ()
    notes: tuple[Said, ...] = ()

    @property
    def score(self) -> int:
        return sum(result.earned for result in self.results)

    @property
    def exit_code(self) -> int:
        """0 on full marks, 1 otherwise, 2 when the target cannot be loaded."""
        if self.load_problem is not None:
            return 2
        return 0 if self.score == self.max_score else 1
