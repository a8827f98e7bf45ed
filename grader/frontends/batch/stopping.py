"""Stopping a batch half-way: SIGTERM (``kill``, a CI's timeout) or SIGINT (Ctrl+C) ends it
cleanly, leaving no grading process, no sandbox and no temporary folder.

Left to their defaults, SIGTERM would end the batch's own process at once, skipping every
``finally``: its grading processes would grade on, orphaned, keeping the resource tracker
alive, and the staged copies of the class would stay in the temporary folder. So:

* while a batch runs, either signal raises :class:`Stopped` in its main thread
  (:func:`stopped_by_signals`), and the pool ends its grading processes
  (:func:`end_workers`) before the exception unwinds and removes the temporary folders;
* a grading process ignores SIGINT (Ctrl+C reaches the whole terminal's process group, but
  only the batch decides), and on SIGTERM kills the sandboxes it started and exits at once
  (:func:`worker_started`). It does not unwind: an exception raised by a signal handler is
  dropped when the signal lands in a garbage collector's callback (hypothesis installs one),
  and the grading would go on;
* a grading process keeps its workspaces in a folder of the batch's own
  (:func:`private_folder`), which the batch removes whatever its grading processes left.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import shutil
import signal
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Final

from grader.transport import isolation, writable

#: The signals that stop a batch.
STOPPING: Final = (signal.SIGTERM, signal.SIGINT)
#: How long the grading processes get to stop their sandboxes before they are killed.
GRACE_SECONDS: Final = 10.0


class Stopped(BaseException):
    """A signal stopped the batch (a ``BaseException``, like ``KeyboardInterrupt``, so that no
    ``except Exception`` on the way takes it for a failure to recover from)."""

    def __init__(self, signal_number: int) -> None:
        super().__init__(signal.Signals(signal_number).name)
        self.signal_number = signal_number

    @property
    def exit_status(self) -> int:
        """128 + the signal's number, as a shell reports a process a signal ended."""
        return 128 + self.signal_number


def _raise_stopped(signal_number: int, frame: FrameType | None) -> None:
    raise Stopped(signal_number)


@contextmanager
def stopped_by_signals() -> Iterator[None]:
    """Inside the block, SIGTERM and SIGINT raise :class:`Stopped`; the handlers before are
    put back after it."""
    previous = {number: signal.signal(number, _raise_stopped) for number in STOPPING}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


@contextmanager
def private_folder() -> Iterator[Path]:
    """A folder for the grading processes' workspaces, removed with all it holds at the end.

    Others may pass through it (a sandbox under a uid of its own reaches its workspace), never
    list it.
    """
    folder = Path(tempfile.mkdtemp(prefix="grader-batch-work-"))
    try:
        folder.chmod(0o711)
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def worker_started(folder: Path) -> None:
    """Set up a grading process (the pool's initializer): workspaces in ``folder``, Ctrl+C
    left to the batch, SIGTERM ends the sandboxes and the process."""
    tempfile.tempdir = str(folder)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stop_worker)


def _stop_worker(signal_number: int, frame: FrameType | None) -> None:
    """Kill every process this grading process started (its sandboxes, each in a session of
    its own, and under uid isolation all of that uid's), then exit without unwinding."""
    for pid, uid in _children():
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)
        if uid != os.getuid():
            isolation.kill_user(uid)
            writable.remove_files_of(uid, writable.found().folders)
    os._exit(128 + signal_number)


def _children() -> list[tuple[int, int]]:
    """This process's children, as (pid, uid), read from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            # The Uid: line, not the file's owner: /proc gives root the files of a process
            # that changed its uid.
            uid = int((entry / "status").read_text().split("\nUid:")[1].split()[0])
        except (OSError, ValueError, IndexError):
            continue
        if parent == os.getpid():
            found.append((int(entry.name), uid))
    return found


def end_workers(grace: float = GRACE_SECONDS) -> None:
    """End every grading process this process started: SIGTERM, then SIGKILL for any still
    running ``grace`` seconds later (one ``grace`` for all of them)."""
    workers = multiprocessing.active_children()
    for worker in workers:
        worker.terminate()
    deadline = time.monotonic() + grace
    for worker in workers:
        worker.join(max(0.0, deadline - time.monotonic()))
    for worker in workers:
        if worker.is_alive():
            worker.kill()
            worker.join()
