"""Grading in a worker process, watched by a supervisor with a time limit per task.

Learner code may loop forever, call ``sys.exit()`` or ``os._exit()``, or crash the
interpreter. None of that may take the grader down, so the tasks run in a child process that
streams one result per task back over a pipe. When a task overruns its time limit or the
child dies, the supervisor kills it, records "timed out" or "error" for that task, and starts
a fresh child for the tasks still to grade. Usually one child grades everything.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import Connection
from typing import Any

from grader import harness, messages
from grader.failures import Failure
from grader.grading import TaskResult, grade_task, result_for
from grader.loading import TargetError, load_target
from grader.report import Report
from grader.tasks import TASKS_BY_ID, Task

DEFAULT_TIME_LIMIT = 5.0
_PROGRESS_SIZE = 64


def run(spec: str, tasks: Sequence[Task], time_limit: float = DEFAULT_TIME_LIMIT) -> Report:
    """Grade ``tasks`` of the target ``spec`` in worker processes; never raises for learner code.

    The tasks are split into one fixed lane per core, each graded by its own worker, so a full
    grade takes about half the time on two cores. The split depends only on the task list, so
    every run grades the same tasks in the same worker, in the same order.
    """
    results: dict[str, TaskResult] = {}
    max_score = sum(task.points for task in tasks)
    lanes = _lanes(tasks)
    with ThreadPoolExecutor(max_workers=max(1, len(lanes))) as pool:
        load_errors = list(
            pool.map(lambda lane: _grade_lane(spec, lane, time_limit, results), lanes)
        )
    load_error = next((error for error in load_errors if error is not None), None)
    if load_error is not None:
        heading = messages.LOAD_HEADING.format(target=spec)
        if not load_error.startswith(heading):  # the supervisor's own words: timed out, died
            load_error = f"{heading}\n{load_error}"
        return Report(spec, load_error=load_error, max_score=max_score)
    ordered = tuple(results[task.task_id] for task in tasks)
    return Report(spec, ordered, max_score=max_score)


def _lanes(tasks: Sequence[Task]) -> list[list[Task]]:
    """Split the tasks, in order, into one contiguous lane per available core."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    size = -(-len(tasks) // max(1, min(len(tasks), cores or 1)))  # ceiling division
    return [list(tasks[start : start + size]) for start in range(0, len(tasks), size)]


def _grade_lane(
    spec: str, lane: list[Task], time_limit: float, results: dict[str, TaskResult]
) -> str | None:
    """Grade one lane, starting a fresh worker after each overrun or death; return a load error."""
    while pending := [task for task in lane if task.task_id not in results]:
        load_error = _run_worker(spec, pending, time_limit, results)
        if load_error is not None:
            return load_error
    return None


def _context() -> Any:
    # fork starts a worker in milliseconds with hypothesis already imported; spawn is the
    # fallback where fork does not exist.
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    return multiprocessing.get_context(method)


def _run_worker(
    spec: str, pending: list[Task], time_limit: float, results: dict[str, TaskResult]
) -> str | None:
    """Run one worker until it finishes, overruns or dies; return a load error, if any."""
    context = _context()
    receiver, sender = context.Pipe(duplex=False)
    progress = context.RawArray("c", _PROGRESS_SIZE)
    task_ids = [task.task_id for task in pending]
    worker = context.Process(target=_worker_main, args=(sender, spec, task_ids, progress))
    worker.daemon = True
    worker.start()
    sender.close()
    try:
        return _supervise(worker, receiver, progress, time_limit, results)
    finally:
        if worker.is_alive():
            worker.kill()
        worker.join()
        receiver.close()


def _supervise(
    worker: Any,
    receiver: Connection,
    progress: Any,
    time_limit: float,
    results: dict[str, TaskResult],
) -> str | None:
    current: str | None = None
    deadline = time.monotonic() + time_limit
    while True:
        if not receiver.poll(max(0.0, deadline - time.monotonic())):
            return _overran(current, progress, time_limit, results)
        try:
            message = receiver.recv()
        except EOFError:
            worker.join()
            return _died(current, progress, worker.exitcode, results)
        kind = message[0]
        if kind == "load_error":
            return str(message[1])
        if kind == "start":
            current, deadline = message[1], time.monotonic() + time_limit
        elif kind == "result":
            results[message[1]] = TaskResult.from_dict(message[2])
            current = None
        elif kind == "done":
            return None


def _overran(
    current: str | None, progress: Any, seconds: float, results: dict[str, TaskResult]
) -> str | None:
    if current is None:
        return messages.LOAD_TIMED_OUT.format(seconds=seconds)
    function = progress.value.decode(errors="replace")
    text = (
        messages.TIMED_OUT.format(function=function, seconds=seconds)
        if function
        else messages.TIMED_OUT_NO_CALL.format(seconds=seconds)
    )
    task = TASKS_BY_ID[current]
    results[current] = result_for(
        task, messages.STATUS_TIMED_OUT, Failure(text, status=messages.STATUS_TIMED_OUT)
    )
    return None


def _died(
    current: str | None, progress: Any, code: int | None, results: dict[str, TaskResult]
) -> str | None:
    if current is None:
        return messages.LOAD_DIED.format(code=code)
    function = progress.value.decode(errors="replace") or messages.YOUR_CODE
    text = messages.WORKER_DIED.format(function=function, code=code)
    results[current] = result_for(
        TASKS_BY_ID[current], messages.STATUS_ERROR, Failure(text, status=messages.STATUS_ERROR)
    )
    return None


def _worker_main(sender: Connection, spec: str, task_ids: list[str], progress: Any) -> None:
    """The child: load the target, grade each task, send each result as soon as it is known."""
    _silence_output()

    def report_progress(function: str) -> None:
        progress.value = function.encode()[: _PROGRESS_SIZE - 1]

    harness.progress = report_progress
    try:
        target = load_target(spec)
    except TargetError as error:
        sender.send(("load_error", str(error)))
        return
    for task_id in task_ids:
        sender.send(("start", task_id))
        progress.value = b""
        result = grade_task(TASKS_BY_ID[task_id], target)
        sender.send(("result", task_id, result.to_dict()))
    sender.send(("done",))


def _silence_output() -> None:
    # Whatever learner code prints (perhaps thousands of lines from a loop) must not mix
    # into the report, which the supervisor alone writes.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the child
