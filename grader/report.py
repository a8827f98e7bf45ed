"""The report of one grading run, and how it reads in a terminal."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TextIO

from grader import messages
from grader.grading import TaskResult
from grader.tasks import Task

_STYLES = {
    messages.STATUS_PASSED: "bold green",
    messages.STATUS_FAILED: "bold red",
    messages.STATUS_NOT_IMPLEMENTED: "bold yellow",
    messages.STATUS_TIMED_OUT: "bold magenta",
    messages.STATUS_ERROR: "bold magenta",
}


@dataclass(frozen=True)
class Report:
    """What grading a target found: one result per task, or why the target did not load.

    Attributes:
        target: what was graded, as the user named it.
        results: one per graded task, in task order.
        load_error: why the target did not load (then there are no results).
        max_score: the points the graded tasks are worth.
        load_status: for a load error, what kind of trouble: ``import_error``, ``timed_out``,
            ``crashed`` or ``memory_exceeded`` (batch statuses).
        isolation: how learner code ran: ``bwrap``, ``uid`` or ``none`` (see
            :mod:`grader.sandbox`).
        task_ids: the ids of the tasks asked for, so that a target that did not load can
            still be reported task by task (ids, not tasks: a report crosses processes).
    """

    target: str
    results: tuple[TaskResult, ...] = ()
    load_error: str | None = None
    max_score: int = 0
    load_status: str | None = None
    isolation: str | None = None
    task_ids: tuple[str, ...] = ()

    @property
    def score(self) -> int:
        return sum(result.earned for result in self.results)

    @property
    def full_marks(self) -> bool:
        """Every graded task passed (and the target loaded)."""
        return self.load_error is None and all(
            result.status == messages.STATUS_PASSED for result in self.results
        )

    @property
    def exit_code(self) -> int:
        """0 on full marks, 1 when a task did not pass, 2 when the target could not load."""
        if self.load_error is not None:
            return 2
        return 0 if self.full_marks else 1

    def text(self) -> str:
        """The whole report as plain text."""
        return "\n".join(line for line, _ in report_lines(self))


def report_lines(report: Report) -> Iterator[tuple[str, str]]:
    """Lines of the report, each with a rich style name ("" for none)."""
    yield messages.REPORT_TITLE.format(target=report.target), "bold"
    yield "", ""
    if report.load_error is not None:
        for line in report.load_error.splitlines():
            yield line, "red"
        return
    last = ""
    for result in report.results:
        for line, style in task_lines(result):
            yield line, style
            last = line
    if last:
        yield "", ""
    total = messages.REPORT_TOTAL.format(earned=report.score, possible=report.max_score)
    yield total, "bold"
    yield (messages.REPORT_ALL_PASSED if report.full_marks else messages.REPORT_NEXT), ""


def task_lines(result: TaskResult) -> Iterator[tuple[str, str]]:
    """The heading line of a task, then (unless it passed) what broke and the first hint."""
    heading = task_heading(result)
    points = messages.REPORT_POINTS.format(earned=result.earned, possible=result.points)
    status = messages.status_label(result.status)
    line = f"{pad(heading, 52)} {pad(points, 6, right=True)}  {status}"
    yield line, _STYLES.get(result.status, "")
    if result.failure is not None:
        for failure_line in result.failure.render().splitlines():
            yield f"    {failure_line}", ""
        if result.hint:
            yield "    " + messages.REPORT_HINT.format(hint=result.hint), "cyan"
        yield "", ""


def task_heading(task: Task | TaskResult) -> str:
    """How reports and results files name a task: its number and name."""
    return messages.REPORT_TASK.format(number=task.number, name=task.name)


def display_width(text: str) -> int:
    """Columns ``text`` takes in a terminal: two for each wide (CJK) character."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def pad(text: str, width: int, right: bool = False) -> str:
    """``text`` padded with spaces to ``width`` columns (on the left when ``right``)."""
    room = " " * max(0, width - display_width(text))
    return room + text if right else text + room


def print_report(report: Report, stream: TextIO) -> None:
    """Print with colours on a terminal (via rich), as plain text anywhere else."""
    if not stream.isatty():
        stream.write(report.text() + "\n")
        return
    from rich.console import Console
    from rich.text import Text

    console = Console(file=stream, highlight=False, soft_wrap=True)
    for line, style in report_lines(report):
        console.print(Text(line, style=style))
