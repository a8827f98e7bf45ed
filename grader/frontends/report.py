"""A report as a learner reads it: rendered to words here, at the edge, in their language."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from typing import TextIO

from grader.engine.contract import function_of
from grader.engine.difference import MESSAGES
from grader.engine.outcomes import Cause, Commented, Failure, Line, Report, Said, Status, TaskResult
from grader.i18n import has, text

_STYLES = {
    Status.PASSED: "bold green",
    Status.FAILED: "bold red",
    Status.NOT_IMPLEMENTED: "bold yellow",
    Status.TIMED_OUT: "bold magenta",
    Status.ERROR: "bold magenta",
    Status.TAMPERED: "bold red",
}
#: The outcome lines that say where an answer first differs from the expected one.
DIFFERENCES = frozenset(MESSAGES.values())
#: The longest output of learner code a report shows.
OUTPUT_SHOWN = 2000


def said(item: Said) -> str:
    """One :class:`Said` in the current language (a task named by its id gets its number and
    name)."""
    args = dict(item.args)
    if "task" in args:
        from grader.tasks import TASKS_BY_ID

        task = TASKS_BY_ID.get(str(args["task"]))
        args.setdefault("number", task.number if task else "?")
        args.setdefault("name", task_name(task.id) if task else str(args["task"]))
    return text(item.message, **args)


def task_name(task_id: str) -> str:
    return text(f"task.{task_id}.name")


def heading(result: TaskResult) -> str:
    return text("report.task", number=result.number, name=task_name(result.task_id))


def sentence(failure: Failure) -> str:
    """The broken promise (or the trouble) in one sentence."""
    promise = failure.promise
    if promise.startswith("cause.") or promise.startswith("outcome."):
        return text(promise)
    return text(f"promise.{promise}")


#: Causes with hints of their own: a call that waits is not a call that loops, and a machine
#: too busy to grade is nothing the learner did.
OWN_HINTS = (f"cause.{Cause.BLOCKED.value}", f"cause.{Cause.MACHINE_BUSY.value}")


def hint_id(failure: Failure, level: int = 1) -> str:
    """The message id of a failure's hint at ``level`` (1 gentle, 2 strong)."""
    if failure.status is Status.NOT_IMPLEMENTED:
        return f"hint.not_implemented.{level}"
    if failure.promise in OWN_HINTS:  # a cause whose advice differs from its status's
        return f"hint.{failure.promise}.{level}"
    if failure.status is Status.TIMED_OUT:
        return f"hint.cause.timed_out.{level}"
    if failure.status is Status.TAMPERED:
        return f"hint.cause.tampered.{level}"
    if failure.status is Status.ERROR:
        return f"hint.cause.error.{level}"
    return f"hint.{failure.promise}.{level}"


def hint(failure: Failure, level: int = 1) -> str | None:
    key = hint_id(failure, level)
    return text(key) if has(key) else None


def failure_lines(failure: Failure) -> Iterator[str]:
    """What broke, the calls that show it, what happened, and what else to know."""
    return (line for line, _ in styled_failure_lines(failure))


def styled_failure_lines(failure: Failure) -> Iterator[tuple[str, str]]:
    """:func:`failure_lines`, each with its style: where the answer first differs from the
    expected one stands out (in bold) below the two whole values."""
    if failure.status is Status.FAILED:
        yield text("report.broken", sentence=sentence(failure)), ""
        function = function_of(failure.promise)
        if function and failure.function and function != failure.function:
            yield text("report.of_function", function=function), ""
    elif failure.promise != "outcome.not_implemented":
        yield sentence(failure), ""
    if failure.lines:
        yield text("report.case"), ""
        for line in failure.lines:
            yield "    " + case_line(line), ""
    for item in failure.outcome:
        style = "bold" if item.message in DIFFERENCES else ""
        yield "  -> " + said(item).replace("\n", "\n     "), style
    for note in failure.notes:
        yield said(note), ""


def case_line(line: Line) -> str:
    """One line of a shown case: Python as it is, its prose (a note, a comment) said in the
    current language."""
    if isinstance(line, Commented):
        return f"{line.code}  # {said(line.comment)}"
    return line if isinstance(line, str) else "# " + said(line)


def task_lines(result: TaskResult) -> Iterator[tuple[str, str]]:
    """The heading line of a task, then (unless it passed) what broke and its first hint."""
    points = f"{result.earned}/{result.points}"
    status = text(f"status.{result.status.value}")
    yield (
        f"{pad(heading(result), 52)} {pad(points, 6, right=True)}  {status}",
        _STYLES[result.status],
    )
    if result.failure is not None:
        for line, style in styled_failure_lines(result.failure):
            yield f"    {line}", style
        first = hint(result.failure)
        if first:
            yield "    " + text("report.hint", hint=first), "cyan"
    if result.output and result.status is not Status.PASSED:
        yield "    " + text("report.output"), "dim"
        shown = result.output[:OUTPUT_SHOWN] + (" ..." if len(result.output) > OUTPUT_SHOWN else "")
        for line in shown.splitlines()[:20]:
            yield "      " + printable(line), "dim"
    if result.status is not Status.PASSED:
        yield "", ""


def report_lines(report: Report) -> Iterator[tuple[str, str]]:
    """Every line of the report, each with a rich style name ("" for none), printable: what
    learner code sent shows its control characters as escapes, never obeyed."""
    return _printable_lines(_report_lines(report))


def _report_lines(report: Report) -> Iterator[tuple[str, str]]:
    yield text("report.title", target=printable(report.target)), "bold"
    yield "", ""
    if report.load_problem is not None:
        yield text("load.heading", target=printable(report.target)), "red"
        for line in said(report.load_problem).splitlines():
            yield line, "red"
        for item in report.reports[:5]:
            yield "  -> " + said(Said("outcome.tampered", dict(item))), "red"
        return
    for result in report.results:
        yield from task_lines(result)
    yield "", ""
    yield text("report.total", earned=report.score, possible=report.max_score), "bold"
    yield closing(report), ""
    for note in (*_isolation_note(report), *report.notes):
        yield said(note), "dim"


def closing(report: Report) -> str:
    if report.score < report.max_score:
        return text("report.next")
    total = len(report_tasks())
    if len(report.asked) < total:
        return text("report.asked_passed", graded=len(report.asked), total=total)
    return text("report.all_passed")


def report_tasks() -> tuple[str, ...]:
    from grader.tasks import TASK_IDS

    return TASK_IDS


def _isolation_note(report: Report) -> tuple[Said, ...]:
    key = f"report.isolation.{report.isolation}"
    return (Said(key),) if has(key) and text(key) else ()


def report_text(report: Report) -> str:
    """The whole report as plain text."""
    return "\n".join(line for line, _ in report_lines(report))


def _printable_lines(lines: Iterator[tuple[str, str]]) -> Iterator[tuple[str, str]]:
    for line, style in lines:
        for part in line.split("\n"):
            yield printable(part), style


def display_width(value: str) -> int:
    """Columns ``value`` takes in a terminal: two for each wide (CJK) character."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in value)


def pad(value: str, width: int, right: bool = False) -> str:
    room = " " * max(0, width - display_width(value))
    return room + value if right else value + room


def printable(value: str) -> str:
    """``value`` with control characters and lone surrogates written as escapes."""
    return "".join(
        char
        if char.isprintable() or char == "\t"
        else char.encode("unicode_escape").decode("ascii")
        for char in value
    )


def print_report(report: Report, stream: TextIO) -> None:
    """Print with colours on a terminal (via rich), as plain text anywhere else."""
    if not stream.isatty():
        stream.write(report_text(report) + "\n")
        return
    from rich.console import Console
    from rich.text import Text

    console = Console(file=stream, highlight=False, soft_wrap=True)
    for line, style in report_lines(report):
        console.print(Text(line, style=style))
