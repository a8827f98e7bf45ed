"""``python -m grader --watch``: grade again every time a file of the target is saved.

After each grading the learner sees how far they are (tasks done out of all) and the next
task that is not passing yet, with its hint. The file watching is watchfiles' job: it groups
the bursts of events an editor makes on one save into one batch, so one save means one
grading. Ctrl+C stops it, at any moment, with a line that says so and no traceback.
"""

from __future__ import annotations

import importlib.util
import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

from grader.engine.outcomes import Report, Status
from grader.frontends.hints import first_unfinished
from grader.frontends.report import heading, hint
from grader.i18n import text

# Editors touch a file several times per save; changes this close together are one save.
DEBOUNCE_MS = 400
# How long the watcher first waits for a change before it reports "none yet"; it is watching
# from then on.
READY_MS = 200


def render_progress(report: Report) -> str:
    """Tasks done out of all, then the next task and its hint."""
    if report.load_problem is not None:
        return ""
    done = sum(result.status is Status.PASSED for result in report.results)
    lines = [text("watch.progress", done=done, total=len(report.results))]
    unfinished = first_unfinished(report)
    if unfinished is None:
        lines.append(text("watch.all_done"))
        return "\n".join(lines)
    lines.append(text("watch.next_task", task=heading(unfinished)))
    first = hint(unfinished.failure) if unfinished.failure is not None else None
    if first:
        lines.append(text("report.hint", hint=first))
    return "\n".join(lines)


def show_progress(report: Report) -> None:
    progress = render_progress(report)
    if progress:
        print(progress)


def watched_paths(target: str) -> list[Path]:
    """The folder holding the target's code: a package's folder, a file's folder (found
    without importing anything)."""
    if target.endswith(".py") or "/" in target or "\\" in target:
        path = Path(target).resolve()
        return [path if path.is_dir() else path.parent]
    spec = importlib.util.find_spec(target.split(".")[0])
    if spec is None:
        return [Path.cwd()]
    if spec.submodule_search_locations:
        return [Path(location) for location in spec.submodule_search_locations]
    return [Path(spec.origin).parent] if spec.origin else [Path.cwd()]


def save_events(paths: Sequence[Path]) -> Iterator[object]:
    """Once per save of a ``.py`` file under ``paths``; the watching has begun when this
    returns, so a save made while a grading runs is not lost (it starts the next one)."""
    from watchfiles import PythonFilter, watch

    batches = watch(*paths, watch_filter=PythonFilter(), debounce=DEBOUNCE_MS,
                    raise_interrupt=True, rust_timeout=READY_MS, yield_on_timeout=True)  # fmt: skip
    # watchfiles starts watching when its generator first runs, and yields an empty batch
    # when nothing changed within READY_MS.
    first = next(batches)
    return (batch for batch in itertools.chain([first], batches) if batch)


def watch(
    grade_and_show: Callable[[], Report], target: str, saves: Iterable[object] | None = None
) -> int:
    """Grade once, then again after every save, until Ctrl+C (or ``saves`` runs out).

    Returns:
        0: watching ends only when the learner stops it.
    """
    paths = watched_paths(target)
    listed = ", ".join(str(path) for path in paths)
    try:
        # Watching starts before the first grading: a save made during it grades again.
        changes = iter(save_events(paths) if saves is None else saves)
        show_progress(grade_and_show())
        print(text("watch.waiting", paths=listed), flush=True)
        for _ in changes:
            print(text("watch.regrading"), flush=True)
            show_progress(grade_and_show())
            print(text("watch.waiting", paths=listed), flush=True)
    except KeyboardInterrupt:
        print("\n" + text("watch.stopped"), flush=True)
    return 0


__all__ = ["Status", "watch"]
