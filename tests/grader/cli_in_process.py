"""``python -m grader`` in this process: its ``main(argv)``, with the grading replaced by a
report given as data, so a test of what the command line parses, prints, writes and exits
with takes milliseconds. The fixture is registered by ``tests/grader/conftest.py`` and
``tests/learner_tools/conftest.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

import grader.run
from grader.engine.contract import Task
from grader.engine.outcomes import Report
from grader.frontends import cli
from grader.i18n import LOCALE_VARIABLES, use_language
from grader.i18n.choice import LANGUAGE_VARIABLE
from grader.settings import Settings


@dataclass
class Ran:
    """One in-process run of ``python -m grader``: its exit status, what it printed, and each
    grading it asked for (target, task ids, settings)."""

    status: int
    out: str
    err: str
    graded: list[tuple[str, tuple[str, ...], Settings]] = field(default_factory=list)


#: Run ``python -m grader ARGV`` in this process; ``report`` is what its grading returns (or
#: the exception it raises).
RunCli = Callable[..., Ran]


@pytest.fixture
def cli_in_process(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Iterator[RunCli]:
    """The command line's ``main(argv)`` in this process, its grading replaced by a report
    given as data: what it parses, prints, writes and exits with, in milliseconds.

    The locale is English unless a test sets it (with ``monkeypatch.setenv``, after asking
    for this fixture); the language a run chose is forgotten after the test (``main`` sets it
    for the whole process, as a command line does, and passes it on in ``KIT_LANGUAGE``).
    """
    for variable in LOCALE_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    # A run given --lang passes its language on to the processes it starts, in os.environ:
    # set first, so that monkeypatch records KIT_LANGUAGE (even absent) and restores it.
    monkeypatch.setenv(LANGUAGE_VARIABLE, "")
    monkeypatch.delenv(LANGUAGE_VARIABLE)
    monkeypatch.setenv("LANGUAGE", "en")

    def run(*argv: str, report: Report | BaseException | None = None) -> Ran:
        ran = Ran(0, "", "")

        def graded(target: str, tasks: Sequence[Task], settings: Settings, **_: Any) -> Report:
            ran.graded.append((target, tuple(task.id for task in tasks), settings))
            if report is None:
                raise AssertionError(f"python -m grader {' '.join(argv)} graded: none expected")
            if isinstance(report, BaseException):
                raise report
            return report

        monkeypatch.setattr(grader.run, "grade", graded)
        try:
            ran.status = cli.main(list(argv))
        except SystemExit as exited:
            ran.status = exited.code if isinstance(exited.code, int) else 1
        ran.out, ran.err = capsys.readouterr()
        return ran

    yield run
    use_language(None)
