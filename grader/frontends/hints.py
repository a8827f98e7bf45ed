"""``python -m grader --hint``: one more hint, each time stronger, for the first task that
is not passing yet.

The report already shows the broken promise's first hint; each ``--hint`` shows the next one
for that same promise (never a weaker one, never another rule's), until there are no more.
How far a learner got is kept per promise in ``.grader-hints.json`` in the current folder.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

from grader.engine.outcomes import Report, Status, TaskResult
from grader.frontends.report import heading, hint, sentence
from grader.i18n import text

HINT_STATE_FILE = ".grader-hints.json"
#: Hints per promise: the report shows the first, --hint the others.
LEVELS = 2


def first_unfinished(report: Report) -> TaskResult | None:
    """The first task that is not passing (in task order)."""
    return next((result for result in report.results if result.status is not Status.PASSED), None)


def load_state(path: Path) -> dict[str, int]:
    """How many hints each promise has shown; a missing or unreadable file means none."""
    try:
        state = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(state, dict):
        return {}
    return {key: value for key, value in state.items() if isinstance(value, int)}


def reveal_next_hint(report: Report, state_path: Path) -> str:
    """The hints of the first unfinished task's broken promise, one more than last time."""
    result = first_unfinished(report)
    if report.load_problem is not None or result is None or result.failure is None:
        return text("hint.none_needed") if report.load_problem is None else ""
    failure = result.failure
    state = load_state(state_path)
    shown = min(max(state.get(failure.promise, 1), 1) + 1, LEVELS)
    state[failure.promise] = shown
    # In a folder the learner cannot write to, the hint is still shown, just not remembered.
    with contextlib.suppress(OSError):
        state_path.write_text(json.dumps(state, indent=2, sort_keys=True) + "\n", "utf-8")
    hints = [found for level in range(1, shown + 1) if (found := hint(failure, level))]
    lines = [text("hint.heading", task=heading(result), sentence=sentence(failure))]
    lines += [f"  {number}. {each}" for number, each in enumerate(hints, start=1)]
    lines.append(text("hint.last" if shown >= LEVELS else "hint.more"))
    return "\n".join(lines)
