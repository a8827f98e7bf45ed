"""The instructor's reference tables, written from the code: a batch's statuses from
:class:`~grader.engine.outcomes.Verdict` and its limits from :class:`~grader.settings.Settings`.

Each table sits in ``docs/instructor.md`` between two marker comments::

    <!-- generated: verdicts (python -m maintainer.reference) -->
    ...
    <!-- end generated: verdicts -->

``python -m maintainer.reference`` rewrites them; ``tests/docs/test_reference.py`` fails when
the document and the code disagree (a new verdict, a changed default), so the page an
instructor reads cannot drift from what the grader does.
"""

from __future__ import annotations

import dataclasses
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Final

from grader.engine.outcomes import Verdict
from grader.frontends.batch.command import BATCH, BATCH_SETTINGS
from grader.i18n import text, using_language
from grader.settings import Settings

KIT_ROOT: Final = Path(__file__).resolve().parents[1]
INSTRUCTOR_DOC: Final = KIT_ROOT / "docs" / "instructor.md"

#: What each verdict of a gradebook row means to an instructor. A verdict missing here fails
#: :func:`verdicts_table`, so a new one cannot reach the gradebook undocumented.
VERDICT_MEANINGS: Final = {
    Verdict.GRADED: "every task was graded; the points are the submission's",
    Verdict.TIMED_OUT: "the submission used up a time limit (see the limits below)",
    Verdict.MEMORY_EXCEEDED: "the submission's process ran out of memory",
    Verdict.CRASHED: "the learner's process died or exited",
    Verdict.PROTOCOL_ERROR: (
        "what came back over the pipe was not the protocol: a forged, malformed or oversized "
        'answer, never "the grader failed"'
    ),
    Verdict.IMPORT_ERROR: (
        "the submission could not be imported (a syntax error, a missing function)"
    ),
    Verdict.TAMPERED: (
        "the guard refused something an honest solution never does: 0 points, and the log and "
        "summary say what and on which line"
    ),
    Verdict.NO_SUBMISSION: (
        "nothing to grade (an empty folder, a hard link, a folder nested too deep)"
    ),
    Verdict.MACHINE_BUSY: (
        "the grader's trouble, not the submission's: the machine was too busy to grade it; "
        "grade it again on a quieter one"
    ),
}


def verdicts_table() -> str:
    """The ``status`` column's values of ``gradebook.csv``, best news first."""
    missing = [verdict.value for verdict in Verdict if verdict not in VERDICT_MEANINGS]
    if missing:
        raise ValueError(f"verdicts without a meaning in VERDICT_MEANINGS: {missing}")
    rows = [f"| `{verdict.value}` | {VERDICT_MEANINGS[verdict]} |" for verdict in Verdict]
    return "\n".join(["| status | what it means |", "|---|---|", *rows])


def limits_table() -> str:
    """Each limit ``batch`` takes: its flag, the batch's default and what it limits, in the
    words of the flag's own ``--help``."""
    rows = []
    for item in dataclasses.fields(Settings):
        if item.name not in BATCH_SETTINGS:
            continue
        default = getattr(BATCH, item.name)
        with using_language("en"):
            meaning = text(item.metadata["help"], default=default)
        meaning = re.sub(r" \(default [^)]*\)$", "", meaning)
        shown = f"{default:g}" if isinstance(default, float) else str(default)
        rows.append(f"| `{item.metadata['flag']}` | {shown} | {meaning} |")
    return "\n".join(["| flag | default | what it limits |", "|---|---|---|", *rows])


#: The generated blocks: name -> what writes it.
TABLES: Final[dict[str, Callable[[], str]]] = {"verdicts": verdicts_table, "limits": limits_table}


def _block(name: str) -> re.Pattern[str]:
    return re.compile(
        rf"(<!-- generated: {name} \(python -m maintainer\.reference\) -->\n)"
        rf"(.*?)"
        rf"(<!-- end generated: {name} -->)",
        re.DOTALL,
    )


def _filled(table: str) -> Callable[[re.Match[str]], str]:
    return lambda found: found[1] + table + found[3]


def rendered(document: str) -> str:
    """``document`` with every generated block written afresh; a block missing is an error."""
    for name, make in TABLES.items():
        pattern = _block(name)
        if not pattern.search(document):
            raise ValueError(f"no generated block {name!r} in the document")
        document = pattern.sub(_filled(make() + "\n"), document)
    return document


def main() -> int:
    """Rewrite the generated blocks of ``docs/instructor.md``; say whether it changed."""
    before = INSTRUCTOR_DOC.read_text(encoding="utf-8")
    after = rendered(before)
    if after != before:
        INSTRUCTOR_DOC.write_text(after, encoding="utf-8")
    state = "rewritten" if after != before else "up to date"
    print(f"{INSTRUCTOR_DOC.relative_to(KIT_ROOT)}: {state}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
