"""The write budget of one sandbox whose learner code runs as a uid of its own.

Under bubblewrap the only folder the learner may write is a private ``/tmp`` that dies with
the sandbox. With a uid of its own (a Gradescope container), it may write every folder
:mod:`.writable` found, by any route: ``open``, SQLite's ``ATTACH`` or ``VACUUM INTO``, a FIFO,
a file in ``/dev/shm``, which is memory no memory limit counts. So every file and byte its
uid holds there is charged to its grade, however it got there:

* after every answer of every kernel the sandbox forks (:meth:`WriteWatch.overrun`), and
  every :data:`POLL_SECONDS` while a request runs (a file in ``/dev/shm`` grows while the
  kernel computes: this holds ``/dev/shm`` well under the memory limit);
* past the budget, the grade carries a report (``tampered``: the guard's own count is the
  budget, so only a route around the guard gets past it);
* when the sandbox stops, everything its uid owns in those folders is removed
  (:meth:`WriteWatch.clean`), so nothing outlives the submission or reaches the next one.

With private folders (:mod:`.mounts`), the folders are a tmpfs of the budget's size seen
through ``/proc/PID/root``; the kernel refuses writes a little past the budget, and the
tmpfs goes with the sandbox's mount namespace.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from grader.transport import isolation, writable
from grader.transport.isolation import Isolation, Launcher
from grader.transport.workspace import Workspace

#: How often, at most, what the uid holds is measured while a request runs (a folder
#: listing or two each time).
POLL_SECONDS = 0.1


@dataclass
class WriteWatch:
    """What one sandbox's uid holds where it may write, against ``budget``."""

    uid: int
    roots: tuple[str, ...]
    budget: writable.Budget
    ledger: writable.Ledger
    _measured: float = field(default=0.0, init=False)

    @classmethod
    def of(
        cls, launcher: Launcher, workspace: Workspace, uid: int | None, pid: int,
        budget: writable.Budget,
    ) -> WriteWatch | None:  # fmt: skip
        """The watch of the sandbox ``pid`` running as ``uid``; None without a uid of its own
        (bubblewrap's ``/tmp`` is private and small already)."""
        if uid is None or launcher.isolation is not Isolation.UID:
            return None
        found = launcher.writable or writable.found()
        roots = (*found.folders, str(workspace.scratch))
        through = f"/proc/{pid}/root" if launcher.private_folders else ""
        ledger = writable.Ledger(uid, roots, isolation.UID_RANGE[0], through)
        return cls(uid, roots, budget, ledger)

    def overrun(self) -> dict[str, str] | None:
        """Measure now: the report of the overrun when the uid holds more than the budget."""
        self._measured = time.monotonic()
        holding = self.ledger.measure()
        return writable.over_budget(holding, self.budget) if holding.over(self.budget) else None

    def overrun_due(self) -> dict[str, str] | None:
        """:meth:`overrun`, at most every :data:`POLL_SECONDS` (None in between)."""
        if time.monotonic() - self._measured < POLL_SECONDS:
            return None
        return self.overrun()

    def clean(self) -> None:
        """Remove everything the uid owns in the folders it could write (its processes are
        dead by now: nothing writes behind the removal)."""
        writable.remove_files_of(self.uid, self.roots)


def charged(answer: dict[str, object], report: dict[str, str] | None) -> dict[str, object]:
    """``answer`` (a kernel's ``ready`` or ``done`` payload) with ``report`` added, if any."""
    if report is None:
        return answer
    reports = answer.get("reports")
    return {**answer, "reports": [*(reports if isinstance(reports, list) else []), report]}
