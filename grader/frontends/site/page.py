"""What the page asks of the engine worker: grade three files, render a report, give a hint.

This module runs in the browser, in the engine's Web Worker (Pyodide), and is the browser's
front end of the one engine: it builds a :class:`~grader.engine.learner.Learner` on the
worker transport (:mod:`grader.transport.worker`) with the same clocks as the command line
and calls :func:`grader.engine.grading.grade`, so the properties, their seeds and settings,
the verdicts and the report are those of ``python -m grader``. What it returns is plain
JSON, rendered in the page's language at the last moment; the last report is kept as data,
so switching the language renders it again without grading again.
"""

from __future__ import annotations

import json
from typing import Any

from grader.engine import grading
from grader.engine.contract import FUNCTIONS
from grader.engine.learner import Clock, Learner
from grader.engine.outcomes import Report
from grader.frontends.hints import LEVELS, first_unfinished
from grader.frontends.report import heading, hint, report_lines, sentence
from grader.frontends.results import encode
from grader.i18n import LANGUAGES, text, use_language
from grader.settings import Settings
from grader.tasks import select
from grader.transport.worker import Bridge, WorkerTransport
from grader.transport.workspace import EXERCISE_MODULES, EXERCISES_INIT

#: How the report names what the page grades, and what it says about how learner code ran
#: (the sentence :data:`NOTE`; the word ``browser`` is the results files' ``isolation``).
TARGET = "exercises"
NOTE = "report.isolation.browser"
ISOLATION = NOTE.rsplit(".", 1)[1]
#: The largest exercise file the page grades (the command line's whole-submission cap / 3).
MAX_FILE_CHARS = 1_000_000

_last: dict[str, Report] = {}


class BadRequest(ValueError):
    """What the page (or a script calling ``window.kit.grade``) sent cannot be graded."""


def run(bridge: Bridge, operation: str, payload_json: str) -> str:
    """Do what the page asked; ``{"value": ...}`` or ``{"error": why}`` as JSON, never raises
    for what the page (or a script calling ``window.kit``) sent.

    Operations: ``grade`` (``files``, ``options``), ``render`` (``lang``), ``hint``
    (``shown``, ``lang``)."""
    try:
        payload = json.loads(payload_json)
        if not isinstance(payload, dict):
            raise BadRequest("the payload must be an object")
        if operation == "grade":
            value = grade(bridge, payload.get("files"), payload.get("options"))
        elif operation == "render":
            value = answer(str(payload.get("lang") or "en"))
        elif operation == "hint":
            value = next_hint(payload.get("shown"), str(payload.get("lang") or "en"))
        else:
            raise BadRequest(f"no operation {operation!r}: grade, render or hint")
    except (BadRequest, ValueError) as error:
        return json.dumps({"error": str(error)})
    return json.dumps({"value": value})


def grade(bridge: Bridge, files: Any, options: Any) -> dict[str, Any]:
    """Grade the files; the page's answer (see :func:`answer`).

    Args:
        bridge: the engine worker's JavaScript (:class:`grader.transport.worker.JsBridge`).
        files: ``{"event_log.py": source, "sessions.py": ..., "replay.py": ...}``.
        options: ``{"task": id or number or null, "lang": "en" or "zh"}``.

    Raises:
        BadRequest: unknown file names, a file that is not text or too long, an unknown
            task or language. Nothing is graded then.
    """
    files, options = _files(files), _options(options)
    use_language(options["lang"])
    try:
        tasks = select([options["task"]] if options["task"] else None)
    except KeyError:
        raise BadRequest(text("cli.unknown_task", task=options["task"])) from None
    clock = browser_clock(Settings())
    # The stubs' __init__ imports the three files as the ``exercises`` package, as the
    # command line grades a folder of exercise files.
    sources = {**files, "__init__.py": EXERCISES_INIT.read_text(encoding="utf-8")}
    names = tuple(function.name for function in FUNCTIONS)

    def learner() -> Learner:
        return Learner(WorkerTransport(bridge, sources, names), clock)

    _last["report"] = grading.grade(TARGET, tasks, learner, ISOLATION)
    return answer(options["lang"])


def browser_clock(settings: Settings) -> Clock:
    """The command line's limits. A browser cannot count a worker's CPU time, so there the
    learner (:class:`~grader.engine.learner.Learner`) enforces them as wall-clock time,
    :data:`~grader.engine.learner.WALL_ONLY_FACTOR` times as long, and the report says so."""
    return Clock(settings.example_seconds, settings.task_seconds, settings.submission_seconds,
                 settings.load_seconds)  # fmt: skip


def answer(language: str) -> dict[str, Any]:
    """The last report in ``language``: ``{"results": the Gradescope results.json object,
    "lines": [[text, style], ...], "tasks": [{id, number, status, points, earned}]}``.

    Raises:
        BadRequest: nothing has been graded yet, or an unknown language.
    """
    if language not in LANGUAGES:
        raise BadRequest(f"no catalog for language {language!r}; choose one of {LANGUAGES}")
    report = _last.get("report")
    if report is None:
        raise BadRequest("nothing has been graded yet")
    use_language(language)
    tasks = [
        {"id": r.task_id, "number": r.number, "status": r.status.value, "points": r.points,
         "earned": r.earned}
        for r in report.results
    ]  # fmt: skip
    return {
        "results": json.loads(encode(report, "gradescope")),
        "lines": [list(line) for line in report_lines(report)],
        "tasks": tasks,
    }


def next_hint(shown: Any, language: str) -> dict[str, Any]:
    """One more hint for the last report's first unfinished task, as ``--hint`` gives it.

    Args:
        shown: how many hints each promise has shown (kept by the page).

    Returns:
        ``{"text": ..., "shown": the updated counts}``.
    """
    if language not in LANGUAGES:
        raise BadRequest(f"no catalog for language {language!r}; choose one of {LANGUAGES}")
    use_language(language)
    report = _last.get("report")
    result = None if report is None else first_unfinished(report)
    shown = _counts(shown)
    if report is None or report.load_problem is not None or result is None:
        return {"text": text("hint.none_needed"), "shown": shown}
    failure = result.failure
    if failure is None:
        return {"text": text("hint.none_needed"), "shown": shown}
    level = min(max(shown.get(failure.promise, 1), 1) + 1, LEVELS)
    shown[failure.promise] = level
    hints = [found for number in range(1, level + 1) if (found := hint(failure, number))]
    lines = [text("hint.heading", task=heading(result), sentence=sentence(failure))]
    lines += [f"  {number}. {each}" for number, each in enumerate(hints, start=1)]
    lines.append(text("hint.last" if level >= LEVELS else "site.hint_more"))
    return {"text": "\n".join(lines), "shown": shown}


def _files(files: Any) -> dict[str, str]:
    if not isinstance(files, dict):
        raise BadRequest("files must map file names to source text")
    unknown = sorted(set(files) - set(EXERCISE_MODULES))
    if unknown:
        raise BadRequest(f"unknown files {unknown}: give {', '.join(EXERCISE_MODULES)}")
    for name, source in files.items():
        if not isinstance(source, str):
            raise BadRequest(f"{name}: the source must be text")
        if len(source) > MAX_FILE_CHARS:
            raise BadRequest(f"{name}: at most {MAX_FILE_CHARS} characters are graded")
    missing = [name for name in EXERCISE_MODULES if name not in files]
    if missing:
        raise BadRequest(f"missing files {missing}: give {', '.join(EXERCISE_MODULES)}")
    return files


def _options(options: Any) -> dict[str, Any]:
    options = {} if options is None else options
    if not isinstance(options, dict):
        raise BadRequest("options must be an object: {task, lang}")
    unknown = sorted(set(options) - {"task", "lang"})
    if unknown:
        raise BadRequest(f"unknown options {unknown}: give task and lang")
    task = options.get("task")
    if task is not None and not isinstance(task, str | int):
        raise BadRequest("task must be a task's id or number")
    language = options.get("lang") or "en"
    if language not in LANGUAGES:
        raise BadRequest(f"no catalog for language {language!r}; choose one of {LANGUAGES}")
    return {"task": None if task is None else str(task), "lang": language}


def _counts(shown: Any) -> dict[str, int]:
    if not isinstance(shown, dict):
        return {}
    return {str(key): value for key, value in shown.items() if isinstance(value, int)}
