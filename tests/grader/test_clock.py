"""Time limits in CPU time: a grade is the same on a busy machine as on an idle one, and code
that sleeps instead of computing is still stopped, by the wall-clock backstop."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from grader.engine.learner import WALL_FACTOR, Clock, Learner
from grader.transport.child import process_tree_cpu
from tests.grader.conftest import run_grader
from tests.implementations.corpus import CORRECT_DIR

CORRECT = CORRECT_DIR / "c01_namedtuple_events.py"
needs_proc = pytest.mark.skipif(
    not os.path.isdir("/proc/self"), reason="CPU time is read from /proc"
)


@needs_proc
def test_the_cpu_of_a_process_tree_counts_its_children_and_not_its_sleep() -> None:
    loop = (
        "import time\\nend = time.process_time() + 0.6\\n"
        "while time.process_time() < end: pass\\ntime.sleep(30)"
    )
    busy = (
        "import subprocess, sys, time\n"
        f"subprocess.Popen([sys.executable, '-c', '{loop}'])\ntime.sleep(30)\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", busy])
    try:
        deadline = time.monotonic() + 60
        used = 0.0
        while used < 0.6 and time.monotonic() < deadline:
            time.sleep(0.2)
            used = process_tree_cpu(parent.pid) or 0.0
        assert 0.6 <= used < 3.0  # the grandchild's loop, and little else: sleeping is free
    finally:
        subprocess.run(["pkill", "-KILL", "-P", str(parent.pid)], check=False)
        parent.kill()
        parent.wait()


@pytest.fixture
def sleepy(write_target: Callable[[str, str], Path]) -> Path:
    """A submission whose list_sessions sleeps for a minute: it uses no CPU at all."""
    source = (
        CORRECT.read_text()
        + "\n\ndef list_sessions(log):\n    import time\n    time.sleep(60)\n    return []\n"
    )
    return write_target("sleepy.py", source)


def test_code_that_sleeps_is_stopped_by_the_wall_clock_backstop(sleepy: Path) -> None:
    finished = run_grader("--target", str(sleepy), "--task", "list_sessions", "--time-limit", "0.5",
                          "--task-time-limit", "2", "--isolation", "none")  # fmt: skip
    assert finished.returncode == 1
    assert "timed out" in finished.stdout and "list_sessions(log" in finished.stdout


class FakeKernel:
    """A kernel whose every request takes ``wall`` seconds and ``cpu`` seconds of CPU (None:
    a transport that cannot measure CPU time); it records the limits it was given."""

    def __init__(self, wall: float, cpu: float | None) -> None:
        self.wall, self.cpu_each, self.used = wall, cpu, 0.0
        self.limits: list[tuple[float, float | None]] = []

    @property
    def alive(self) -> bool:
        return True

    def start(self, deadline: float, cpu_limit: float | None = None) -> dict[str, Any]:
        return {"ready": {}}

    def cpu(self) -> float | None:
        return None if self.cpu_each is None else self.used

    def request(
        self, request: dict[str, Any], deadline: float, cpu_limit: float | None = None
    ) -> tuple[list[Any], dict[str, Any]]:
        self.limits.append((deadline - time.monotonic(), cpu_limit))
        time.sleep(self.wall)
        self.used += self.cpu_each or 0.0
        return [{"value": None} for _ in request["steps"]], {}

    def stop(self, wait: bool = False) -> int | None:
        return 0


def _learner(kernel: FakeKernel, example: float) -> Learner:
    learner = Learner(lambda: kernel, Clock(example=example, task=10), Exception)
    learner.begin_task()
    learner.begin_example()
    return learner


def test_an_example_slowed_by_a_busy_machine_is_limited_by_its_cpu_time() -> None:
    kernel = FakeKernel(wall=0.3, cpu=0.05)  # three times the limit on the wall clock
    learner = _learner(kernel, example=0.1)
    _, stop = learner.run([("create", "log0")])
    assert stop is None
    wall_left, cpu_limit = kernel.limits[0]
    assert wall_left == pytest.approx(0.1 * WALL_FACTOR, abs=0.05) and cpu_limit == pytest.approx(
        0.1
    )
    learner.run([("create", "log0")])
    assert kernel.limits[1][1] == pytest.approx(0.15)  # the next example starts from what was used


def test_where_cpu_time_cannot_be_measured_the_wall_clock_is_the_limit() -> None:
    kernel = FakeKernel(wall=0.0, cpu=None)
    _learner(kernel, example=0.1).run([("create", "log0")])
    wall_left, cpu_limit = kernel.limits[0]
    assert cpu_limit is None and wall_left == pytest.approx(0.1, abs=0.05)


def _real_learner(target: Path) -> Learner:
    """A learner on a real kernel in a child process, as :func:`grader.run.grade` makes one."""
    from grader.transport import isolation, workspace
    from grader.transport.child import Child, ChildStopped, Limits

    launcher = isolation.choose("none")
    copy = workspace.create(workspace.resolve(str(target)))
    names = ("create_event_log", "append_event", "get_events_for_session", "list_sessions",
             "replay_session")  # fmt: skip
    learner = Learner(
        lambda: Child(launcher, copy, Limits(), names, None, ()),
        Clock(example=2, task=20),
        ChildStopped,
        on_close=copy.remove,
    )
    learner.begin_task()
    learner.begin_example()
    return learner


@pytest.mark.parametrize("stops", ["while True: pass", "import os; os._exit(3)"])
def test_a_kernel_that_stops_midway_is_credited_with_every_step_it_finished(
    write_target: Callable[[str, str], Path], stops: str
) -> None:
    """Answers leave the kernel several to a line, so the ones a hung or dead kernel had not
    sent yet are asked again: the stop is placed at the step that stopped, never earlier."""
    source = CORRECT.read_text() + (
        "\n\n_append = append_event\n\n"
        "def append_event(log, session_id, event_type, payload):\n"
        f"    if session_id == 'stop':\n        {stops}\n"
        "    return _append(log, session_id, event_type, payload)\n"
    )
    learner = _real_learner(write_target("stops.py", source))
    steps: list[tuple[Any, ...]] = [("create", "log0")]
    for number in range(40):
        steps.append(("append", ("$ref", f"log{number}"), "s", "user_message",
                      {"content": f"m{number}"}, f"log{number + 1}", f"e{number}"))  # fmt: skip
    steps.append(("append", ("$ref", "log40"), "stop", "user_message", {"content": "x"}, "", ""))
    steps.append(("append", ("$ref", "log40"), "s", "user_message", {"content": "y"}, "", ""))
    try:
        parts, stop = learner.run(steps)
    finally:
        learner.close()
    assert stop is not None and stop.step == 41
    assert len(parts) == 41 and all("raised" not in part for part in parts)
    assert stop.kind == ("timed_out" if "while" in stops else "died")
