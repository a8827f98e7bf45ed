"""The golden cases of the grader's outputs: one folder per case in ``goldens/``, holding the
input report as data (``report.json``, see :mod:`tests.grader.report_data`) and what each
output of the grader must be for it, byte for byte:

* ``exercism.json`` and ``gradescope.json``: the results files (``--json`` with ``--format``);
* ``report.en.txt`` and ``report.zh.txt``: the report as printed, in English and in Chinese.

After a deliberate change to what the grader writes, rewrite the expected files and read
the diff before committing it::

    python -m tests.grader.golden_files

A new case is a new folder holding a ``report.json``; the same command writes its outputs.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Final

from grader.engine.outcomes import Report
from grader.frontends.report import report_text
from grader.frontends.results import encode
from grader.i18n import using_language
from tests.grader.report_data import report_from_data

GOLDENS: Final = Path(__file__).parent / "goldens"
INPUT: Final = "report.json"


def _results(form: str) -> Callable[[Report], bytes]:
    def render(report: Report) -> bytes:
        with using_language("en"):
            return encode(report, form) + b"\n"  # as --json writes it

    return render


def _printed(language: str) -> Callable[[Report], bytes]:
    def render(report: Report) -> bytes:
        with using_language(language):
            return (report_text(report) + "\n").encode("utf-8")  # as a pipe receives it

    return render


#: Each output file of a case, and how it is made from the case's report.
OUTPUTS: Final[dict[str, Callable[[Report], bytes]]] = {
    "exercism.json": _results("exercism"),
    "gradescope.json": _results("gradescope"),
    "report.en.txt": _printed("en"),
    "report.zh.txt": _printed("zh"),
}


def cases() -> list[str]:
    """The golden cases, by folder name."""
    return sorted(path.parent.name for path in GOLDENS.glob(f"*/{INPUT}"))


def case_report(case: str) -> Report:
    """The input report of ``case``."""
    return report_from_data(json.loads((GOLDENS / case / INPUT).read_text(encoding="utf-8")))


def rewrite() -> list[Path]:
    """Write every case's expected outputs from its report; return the files that changed."""
    changed = []
    for case in cases():
        report = case_report(case)
        for name, render in OUTPUTS.items():
            path = GOLDENS / case / name
            rendered = render(report)
            if not path.exists() or path.read_bytes() != rendered:
                path.write_bytes(rendered)
                changed.append(path)
    return changed


if __name__ == "__main__":
    for path in rewrite():
        print(f"rewrote {path.relative_to(GOLDENS.parent)}")
