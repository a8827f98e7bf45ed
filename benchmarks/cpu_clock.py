"""The CPU time of a command and every process it starts, as the machine can count it.

A grade under bubblewrap is several processes: the grader, bubblewrap, and the learner's
interpreters (one per kernel), some of them not the grader's own children. Their CPU is
counted best by a cgroup of their own: the command is put in a new cgroup v1 ``cpuacct``
group before it runs (as ``/work/tools/cgcpu`` does in a shell), and the group's
``cpuacct.usage`` is read when it is done. Where no such group can be made (no cgroup v1,
or no right to make one), the figure is ``getrusage(RUSAGE_CHILDREN)``: the CPU of the
descendants that were waited for, which misses any a sandbox did not reap. Each figure says
which clock it was read on.
"""

from __future__ import annotations

import itertools
import os
import resource
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

#: Where cgroup v1 keeps its CPU accounting.
CPUACCT = Path("/sys/fs/cgroup/cpuacct")
CGROUP = "cgroup (cpuacct)"
RUSAGE = "getrusage (children)"

_groups = itertools.count(1)


@dataclass(frozen=True, slots=True)
class Measured:
    """One run of a command.

    Attributes:
        cpu_seconds: CPU time of the command and its processes, user and system.
        wall_seconds: elapsed time.
        clock: how ``cpu_seconds`` was counted: :data:`CGROUP` or :data:`RUSAGE`.
        load: the 1-minute load average before and after.
        returncode: the command's exit status.
        stdout: what it printed.
    """

    cpu_seconds: float
    wall_seconds: float
    clock: str
    load: tuple[float, float]
    returncode: int
    stdout: str


def cgroup_available() -> bool:
    """Whether a cpuacct group can be made here (cgroup v1, and the right to write it)."""
    return (CPUACCT / "cpuacct.usage").exists() and os.access(CPUACCT, os.W_OK)


def run_measured(command: Sequence[str], cwd: Path, timeout: float) -> Measured:
    """Run ``command`` in ``cwd`` and return its CPU (all its processes), wall time and load."""
    group = _make_group()
    load_before = os.getloadavg()[0]
    children_before = _children_cpu()
    started = time.perf_counter()
    finished = subprocess.run(
        list(command),
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        preexec_fn=None if group is None else _joiner(group),
    )
    wall = time.perf_counter() - started
    load = (load_before, os.getloadavg()[0])
    if group is None:
        cpu, clock = _children_cpu() - children_before, RUSAGE
    else:
        cpu, clock = int((group / "cpuacct.usage").read_text()) / 1e9, CGROUP
        _remove(group)
    return Measured(cpu, wall, clock, load, finished.returncode, finished.stdout)


def _make_group() -> Path | None:
    if not cgroup_available():
        return None
    group = CPUACCT / f"benchmarks.{os.getpid()}.{next(_groups)}"
    try:
        group.mkdir()
    except OSError:
        return None
    return group


def _joiner(group: Path) -> Callable[[], None]:
    tasks = group / "tasks"

    def join() -> None:  # in the child, before it runs the command
        tasks.write_text(str(os.getpid()))

    return join


def _remove(group: Path) -> None:
    # A group is removed once it holds no process; a straggler of a sandbox may still be
    # leaving, so try for a moment, then leave the empty group to the machine.
    for _ in range(50):
        try:
            group.rmdir()
            return
        except OSError:
            time.sleep(0.1)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime
