"""The case a report shows for each mutant, examined: how big it is, how much shrinking it
cost, and what each of its one-step reductions does when the mutant's code runs it.

Graded without a sandbox (in process), through the same path as a grade (:class:`Trial`), one
mutant per worker process. ``python -m tests.grader.smallest [NAME ...]`` prints the figures
as a table.
"""

from __future__ import annotations

import multiprocessing
import os
import re
import resource
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from grader.engine.answers import Skip
from grader.engine.learner import Clock, Learner
from grader.engine.outcomes import Failure, Report, Said
from grader.engine.shrink import reductions
from grader.engine.sizes import measure
from grader.engine.smallest import same_way
from grader.engine.trial import Trial
from grader.i18n import using_language
from grader.run import grade_in_process
from grader.tasks import TASKS_BY_ID
from grader.transport.inprocess import InProcessTransport
from tests.implementations.corpus import write_mutant
from tests.implementations.mutants import MUTANTS

BY_NAME = {mutant.name: mutant for mutant in MUTANTS}
#: The five functions, as a transcript calls them.
CALL = re.compile(
    r"\b(create_event_log|append_event|get_events_for_session|list_sessions|replay_session)\("
)
LOOP = re.compile(r"^(\s*)for i in (?:reversed\()?range\((\d+)\)")


@dataclass(frozen=True)
class Shown:
    """One mutant's shown case (its value, written out): its promise, its size (calls the
    transcript makes, loops counted round by round; its loops; the characters of its texts),
    the attempts and CPU seconds (every process) its grade took, whether shrinking finished,
    whether the report notes that the case passes on its own, whether it fails again (on a
    fresh process), and its reductions that still fail: the same way, or another way (each
    with the promise it breaks)."""

    name: str
    case: str
    promise: str
    calls: int
    loops: tuple[int, ...]
    characters: int
    attempts: int
    minimal: bool
    flaky: bool
    again: bool
    same_way: tuple[str, ...]
    other_way: tuple[str, ...]
    reductions: int
    cpu: float | None


def calls_shown(lines: tuple[str | Said, ...]) -> tuple[int, tuple[int, ...]]:
    """The calls of the five functions a transcript makes (a loop's body once per round),
    and the rounds of each loop."""
    calls, loops = 0, []
    open_loops: list[tuple[int, int]] = []  # (indent, rounds) of the loops around a line
    for line in (line for line in lines if isinstance(line, str)):
        indent = len(line) - len(line.lstrip())
        open_loops = [(at, rounds) for at, rounds in open_loops if at < indent]
        loop = LOOP.match(line)
        if loop:
            open_loops.append((len(loop.group(1)), int(loop.group(2))))
            loops.append(int(loop.group(2)))
            continue
        factor = 1
        for _, rounds in open_loops:
            factor *= rounds
        calls += factor * len(CALL.findall(line))
    return calls, tuple(loops)


def examine(name: str, graded: tuple[Path, Report] | None = None) -> Shown:
    """Run one mutant's shown case and each reduction of it: the case from ``graded`` (the
    mutant's file and its report, graded on its task), else from a grade of its own (its
    CPU time measured)."""
    with tempfile.TemporaryDirectory() as folder:
        if graded is None:
            path = write_mutant(BY_NAME[name], Path(folder))
            started = _cpu()
            report = _grade(path, name)
            cpu: float | None = _cpu() - started
        else:
            (path, report), cpu = graded, None
        return _examined(name, path, report, cpu)


def _grade(path: Path, name: str) -> Report:
    with using_language("en"):
        return grade_in_process(str(path), (TASKS_BY_ID[BY_NAME[name].task],))


def _examined(name: str, path: Path, report: Report, cpu: float | None) -> Shown:
    task = TASKS_BY_ID[BY_NAME[name].task]
    failure = report.results[0].failure
    assert failure is not None and failure.example is not None, (name, failure)
    example = failure.example
    prop = next(prop for prop in task.properties if prop.name == example.prop)
    learner = Learner(InProcessTransport(str(path)), Clock())
    try:
        learner.begin_task()
        trial = Trial(prop, learner, task.strict)
        again = _run(trial, example.value)
        tried = []
        for candidate in reductions(example.value):
            learner.load()  # each on a fresh kernel, as the case shown is run
            tried.append((candidate, _run(trial, candidate)))
    finally:
        learner.close()
    calls, loops = calls_shown(failure.lines)
    return Shown(
        name,
        repr(example.value),
        failure.promise,
        calls,
        loops,
        measure(example.value)[3],
        example.attempts,
        example.minimal,
        Said("note.flaky") in failure.notes,
        again is not None and same_way(failure, again),
        tuple(repr(c)[:300] for c, found in tried if found and same_way(failure, found)),
        tuple(
            f"{found.promise}: {c!r}"[:300]
            for c, found in tried
            if found and not same_way(failure, found)
        ),
        len(tried),
        cpu,
    )


def _run(trial: Trial, value: Any) -> Failure | None:
    try:
        return trial.attempt(value)
    except Skip:
        return None


def _cpu() -> float:
    """CPU seconds of this process and its children so far."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def _examine(job: tuple[str, tuple[Path, Report] | None]) -> Shown:
    return examine(*job)


def examine_all(
    names: list[str], graded: dict[str, tuple[Path, Report]] | None = None
) -> list[Shown]:
    """:func:`examine` for each mutant, one per core: each in a fresh process of its own
    (spawned) when it is graded here, so that its CPU time is its own; with the grades given
    (``graded``: name -> file and report), in forked processes that run one after another
    (every load of a file is a fresh module: nothing of one mutant reaches the next)."""
    workers = max(2, len(os.sched_getaffinity(0)))
    if graded is None:
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(workers, mp_context=context, max_tasks_per_child=1) as pool:
            return list(pool.map(examine, names))
    jobs = [(name, graded[name]) for name in names]
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
        return list(pool.map(_examine, jobs, chunksize=4))


def main(names: list[str]) -> None:
    print("load:", open("/proc/loadavg").read().strip())  # noqa: SIM115 - one read
    print("| mutant | promise | calls | loops | characters | attempts | CPU s | reductions "
          "| still fail | fail otherwise |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|")
    for shown in examine_all(names or list(BY_NAME)):
        loops = ", ".join(map(str, shown.loops)) or "-"
        cells = (shown.name, shown.promise, shown.calls, loops, shown.characters,
                 shown.attempts, f"{shown.cpu or 0:.2f}", shown.reductions, len(shown.same_way),
                 len(shown.other_way))  # fmt: skip
        print("| " + " | ".join(map(str, cells)) + " |")
        for case in (*shown.same_way, *shown.other_way):
            print(f"<!-- {shown.name}: {case} -->")
    print("load:", open("/proc/loadavg").read().strip())  # noqa: SIM115 - one read


if __name__ == "__main__":
    main(sys.argv[1:])
