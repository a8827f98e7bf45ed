"""Limits in CPU time, counted where the learner's code runs: a grade is the same on a busy
machine as on an idle one. Code that spins is stopped by its own CPU time; code that blocks
by a stall watch that can tell blocking from a busy machine; a busy machine is never the
learner's fault."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from grader.engine.learner import (
    Clock,
    KernelStopped,
    Learner,
    StopKind,
    TaskLimits,
)
from grader.transport import child
from tests.grader.conftest import run_grader
from tests.implementations.corpus import CORRECT_DIR

CORRECT = CORRECT_DIR / "c01_namedtuple_events.py"
NAMES = ("create_event_log", "append_event", "get_events_for_session", "list_sessions",
         "replay_session")  # fmt: skip


def _with(function: str, body: str) -> str:
    """The correct file with ``function`` replaced by one whose body is ``body``."""
    return CORRECT.read_text() + f"\n\ndef {function}(*args, **kwargs):\n    {body}\n"


def test_a_call_that_spins_is_stopped_by_its_own_cpu_time(
    write_target: Callable[[str, str], Path],
) -> None:
    spinning = write_target("spins.py", _with("list_sessions", "while True: pass"))
    finished = run_grader("--target", str(spinning), "--task", "list_sessions",
                          "--time-limit", "0.3", "--isolation", "none")  # fmt: skip
    assert finished.returncode == 1
    assert "timed out" in finished.stdout and "list_sessions(log" in finished.stdout


def test_sleeping_takes_no_time_on_the_kernel_s_clock(
    write_target: Callable[[str, str], Path],
) -> None:
    """time.sleep moves the kernel's clock on without waiting: a minute of sleep in every
    call costs nothing, and the grade is the same as without it."""
    source = CORRECT.read_text() + (
        "\n\n_list = list_sessions\n\n"
        "def list_sessions(log):\n"
        "    import time\n    before = time.time()\n    time.sleep(60)\n"
        "    assert time.time() - before >= 60\n    return _list(log)\n"
    )
    sleepy = write_target("sleepy.py", source)
    started = time.monotonic()
    finished = run_grader("--target", str(sleepy), "--task", "list_sessions", "--isolation", "none")
    assert finished.returncode == 0, finished.stdout
    assert time.monotonic() - started < 60


def _real_learner(target: Path, example: float = 2.0) -> Learner:
    """A learner on real kernels in a child process, as :func:`grader.run.grade` makes one."""
    from grader.transport import isolation, workspace
    from grader.transport.sandbox import Limits

    launcher = isolation.choose("none")
    copy = workspace.create(workspace.resolve(str(target)))
    transport = child.ChildTransport(launcher, copy, Limits(), NAMES)
    learner = Learner(transport, Clock(example=example, task=20), on_close=copy.remove)
    learner.begin_task()
    learner.begin_example()
    return learner


def _appends(count: int, last: str) -> list[tuple[Any, ...]]:
    steps: list[tuple[Any, ...]] = [("create", "log0")]
    for number in range(count):
        steps.append(("append", ("$ref", f"log{number}"), "s", "user_message",
                      {"content": f"m{number}"}, f"log{number + 1}", f"e{number}"))  # fmt: skip
    steps.append(("append", ("$ref", f"log{count}"), last, "user_message", {"content": "x"},
                  "", ""))  # fmt: skip
    steps.append(("append", ("$ref", f"log{count}"), "s", "user_message", {"content": "y"}, "", ""))
    return steps


@pytest.mark.parametrize(
    ("stops", "kind"),
    [
        ("while True: pass", StopKind.TIMED_OUT),
        ("import os; os._exit(3)", StopKind.DIED),
        ("import threading; lock = threading.Lock(); lock.acquire(); lock.acquire()",
         StopKind.BLOCKED),
    ],
)  # fmt: skip
def test_a_kernel_that_stops_midway_is_credited_with_every_step_it_finished(
    write_target: Callable[[str, str], Path],
    stops: str,
    kind: StopKind,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Answers leave the kernel several to a line, so a stop is placed at the step that
    stopped, never earlier; a call that waits on a lock is blocked, not timed out by a busy
    machine."""
    if kind is StopKind.BLOCKED:  # only a blocked call waits for the stall watch: sooner
        monkeypatch.setattr(child, "STALL_FACTOR", 4.0)
    source = CORRECT.read_text() + (
        "\n\n_append = append_event\n\n"
        "def append_event(log, session_id, event_type, payload):\n"
        f"    if session_id == 'stop':\n        {stops}\n"
        "    return _append(log, session_id, event_type, payload)\n"
    )
    learner = _real_learner(write_target("stops.py", source), example=0.5)
    try:
        _, stop = learner.run([_appends(40, "stop")])
    finally:
        learner.close()
    assert stop is not None and (stop.kind, stop.example, stop.step) == (kind, 0, 41)


def test_a_stall_waiting_for_a_cpu_is_a_busy_machine_and_one_waiting_for_nothing_is_not() -> None:
    class Watched:
        def __init__(self, scheduled: list[tuple[float, float]]) -> None:
            self.readings = scheduled

        def progress(self) -> tuple[int, ...]:
            return (0, 0, 0, 7)

        def scheduled(self) -> tuple[float, float]:
            return self.readings.pop(0)

        def stop(self) -> None:
            pass

    starved = child._Stall(Watched([(1.0, 0.0), (1.5, 9.0)]), 1.0)  # type: ignore[arg-type]
    assert starved._verdict(10.0) is StopKind.BUSY
    asleep = child._Stall(Watched([(1.0, 0.0), (1.01, 0.02)]), 1.0)  # type: ignore[arg-type]
    assert asleep._verdict(10.0) is StopKind.BLOCKED


class BusyOnce:
    """A transport whose first kernel stalls as a busy machine's would, then works."""

    measures_cpu = True
    cheap_kernels = True

    def __init__(self) -> None:
        self.kernels = 0

    def kernel(self) -> Any:
        self.kernels += 1
        number = self.kernels

        class Kernel:
            alive = True

            def start(self, limits: TaskLimits, deadline: float) -> dict[str, Any]:
                return {"ready": {}}

            def request(self, request: dict[str, Any], deadline: float) -> Any:
                if number == 1:
                    raise KernelStopped(StopKind.BUSY)
                return [{"value": None}], {"done": {}}

            def output(self) -> str:
                return ""

            def stop(self) -> float:
                return 0.0

        return Kernel()

    def close(self) -> None:
        pass


def test_a_request_that_stalled_on_a_busy_machine_is_asked_again_of_a_fresh_kernel() -> None:
    transport = BusyOnce()
    learner = Learner(transport, Clock())
    learner.begin_task()
    parts, stop = learner.run([[("create", "log0")]])
    assert stop is None and parts == [{"value": None}] and transport.kernels == 2


def test_a_submission_whose_time_ran_out_is_timed_out_and_told_why_never_a_grader_failure(
    tmp_path: Path,
) -> None:
    """Tasks left when a submission's grading time is used up are timed out, saying so: a
    fresh kernel that cannot import in the few seconds left is not the import's fault, and
    not the grader's ("The grader itself failed (LoadFailure: load.timed_out)" it said)."""
    from grader.i18n import text

    folder, out = tmp_path / "class", tmp_path / "out"
    folder.mkdir()
    (folder / "spins.py").write_text(_with("list_sessions", "while True: pass"))
    finished = run_grader("batch", str(folder), "--out", str(out), "--isolation", "none",
                          "--submission-time-limit", "4")  # fmt: skip
    assert finished.returncode == 0, finished.stdout + finished.stderr
    row = (out / "gradebook.csv").read_text().splitlines()[1].split(",")
    assert row[1:4] == ["40", "100", "timed_out"], row  # tasks 1 and 2 passed, then time ran out
    messages = [
        test["message"] for test in json.loads((out / "results/spins.json").read_text())["tests"]
    ]
    left = text("load.no_time_left", language="en")
    assert [left in message for message in messages[-3:]] == [True] * 3
    assert not any(text("cause.grader", language="en") in message for message in messages)
