"""The learner's side of the grader: progressive hints and the notebook helper ``check``.

``python -m grader --hint`` shows the hints of the first task that is not passing yet, one
more each time it is asked, gentle first. How many a learner has seen is kept per task in
``.grader-hints.json`` in the current folder, so the next ``--hint`` goes one step further.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

from grader import messages
from grader.grading import TaskResult
from grader.i18n import text
from grader.report import Report
from grader.watch import first_unfinished

HINT_STATE_FILE = ".grader-hints.json"


def load_hint_state(path: Path) -> dict[str, int]:
    """Read how many hints each task has shown; a missing or unreadable file means none."""
    try:
        state = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(state, dict):
        return {}
    return {key: value for key, value in state.items() if isinstance(value, int)}


def reveal_next_hint(report: Report, state_path: Path) -> str:
    """Show one more hint for the first unfinished task and remember that it was shown.

    Args:
        report: a grading of the learner's code.
        state_path: the file that remembers how many hints each task has shown.

    Returns:
        The text to print: the task, then every hint shown so far, strongest last.
    """
    if report.load_error is not None:
        return report.load_error
    task = first_unfinished(report.results, messages.STATUS_PASSED)
    if task is None:
        return text("hint.none_needed")
    state = load_hint_state(state_path)
    shown = min(state.get(task.task_id, 0) + 1, len(task.hints))
    state[task.task_id] = shown
    # In a folder the learner cannot write to, the hint is still shown, just not remembered.
    with contextlib.suppress(OSError):
        state_path.write_text(json.dumps(state, indent=2, sort_keys=True) + "\n", "utf-8")
    return render_hints(task, shown)


def render_hints(task: TaskResult, shown: int) -> str:
    """The heading and the first ``shown`` hints of ``task``, numbered."""
    heading = text(
        "hint.heading", number=task.number, name=task.name, shown=shown, total=len(task.hints)
    )
    lines = [heading, *(f"  {index}. {hint}" for index, hint in enumerate(task.hints[:shown], 1))]
    lines.append(text("hint.last" if shown == len(task.hints) else "hint.more"))
    return "\n".join(lines)


def check(task: str, target: str = "exercises") -> bool:
    """Grade one task and print its feedback: the helper notebooks call after each exercise.

    It uses the same grading as ``python -m grader --task TASK``: learner code runs in a
    separate process, so it sees the files as last saved, and nothing it does is raised here.

    Args:
        task: a task id, such as ``"append_and_ids"``.
        target: what to grade; the ``exercises`` package by default.

    Returns:
        True when the task passes.

    Raises:
        KeyError: when no task has that id.
    """
    from grader import grade

    report = grade(target, tasks=[task])
    print(report.text())
    return report.full_marks
