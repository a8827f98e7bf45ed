"""What a batch leaves in OUT_DIR: the gradebook, one results file each, and a class summary.

* ``gradebook.csv``: one row per submission: ``id``, ``score``, ``max_score``, ``status``,
  the points earned in each task (task order), then ``isolation`` (``bwrap``, or ``none``
  when the batch ran without a sandbox).
* ``results/<id>.json``: that submission's results in the ``--format`` chosen (exercism by
  default); a submission that could not be graded gets one too, with no points.
* ``summary.md``: how the batch ran, how many submissions ended in each status, and the
  properties the class broke most often.
* ``logs/<id>.log``: what the submission wrote to its standard output and error (capped),
  for the instructor's eyes only.

Everything here is written by the batch process after every grading has ended, from the
trusted reports alone. With the sandbox, no submission can write into OUT_DIR at all.
"""

from __future__ import annotations

import csv
import shutil
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from grader.batch.rows import STATUSES, Row
from grader.i18n import text
from grader.results_json import write_results
from grader.tasks import MAX_SCORE, TASK_IDS

GRADEBOOK = "gradebook.csv"
RESULTS_DIR = "results"
SUMMARY = "summary.md"
LOGS_DIR = "logs"
MOST_FAILED_SHOWN = 10


def gradebook_columns() -> list[str]:
    """The gradebook's header: the four fixed columns, one per task id, the isolation."""
    return ["id", "score", "max_score", "status", *TASK_IDS, "isolation"]


def gradebook_line(row: Row) -> dict[str, object]:
    """One gradebook row: the points of each task as the trusted grader judged them."""
    points = dict.fromkeys(TASK_IDS, 0)
    for result in row.report.results:
        points[result.task_id] = result.earned
    line: dict[str, object] = {
        "id": row.id,
        "score": sum(points.values()),
        "max_score": MAX_SCORE,
        "status": row.status,
    }
    return line | points | {"isolation": row.report.isolation}


def write_gradebook(path: Path, rows: Sequence[Row]) -> None:
    """Write ``gradebook.csv``, one line per row, in the rows' order."""
    with path.open("w", newline="", encoding="utf-8") as file:
        writer = csv.DictWriter(file, fieldnames=gradebook_columns())
        writer.writeheader()
        writer.writerows(gradebook_line(row) for row in rows)


def write_reports(folder: Path, rows: Sequence[Row], form: str) -> None:
    """Write ``<id>.json`` for every row in the format ``form``."""
    folder.mkdir(parents=True, exist_ok=True)
    for row in rows:
        write_results(row.report, folder / f"{row.id}.json", form)


def most_failed(rows: Sequence[Row]) -> list[tuple[tuple[str, str], int]]:
    """Count, per (task id, property sentence), the submissions that broke it; most first."""
    counts: Counter[tuple[str, str]] = Counter()
    for row in rows:
        counts.update(set(row.broken))
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))


def cell(sentence: str) -> str:
    """Make a sentence safe inside a Markdown table cell."""
    return sentence.replace("|", "\\|").replace("\n", " ")


def isolation_line(isolation: str) -> str:
    """One sentence saying how learner code ran."""
    return text(f"batch.isolation.{isolation}")


def render_summary(rows: Sequence[Row], isolation: str) -> str:
    """Return the Markdown summary: isolation, statuses, the most often broken properties."""
    statuses = Counter(row.status for row in rows)
    lines = [f"# {text('batch.summary.title')}", "", isolation_line(isolation), ""]
    lines += [text("batch.summary.count", count=len(rows))]
    lines += ["", f"| {text('batch.summary.status')} | {text('batch.summary.submissions')} |"]
    lines += ["|---|---:|"]
    lines += [f"| {status} | {statuses[status]} |" for status in STATUSES if statuses[status]]
    lines += ["", f"## {text('batch.summary.most_failed')}", ""]
    failed = most_failed(rows)[:MOST_FAILED_SHOWN]
    if not failed:
        return "\n".join([*lines, text("batch.summary.none_failed"), ""])
    lines += [f"| {text('batch.summary.failed_by')} | task | {text('batch.summary.property')} |"]
    lines += ["|---:|---|---|"]
    lines += [f"| {count} | {task} | {cell(sentence)} |" for (task, sentence), count in failed]
    return "\n".join([*lines, ""])


def write_outputs(
    out_dir: Path, rows: Sequence[Row], logs_dir: Path, isolation: str, form: str
) -> None:
    """Write the gradebook, the reports, the summary and the logs into ``out_dir``.

    The ``results`` and ``logs`` folders are replaced whole, so nothing left in them from an
    earlier batch (or slipped in while this one ran) survives.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    for folder in (out_dir / RESULTS_DIR, out_dir / LOGS_DIR):
        shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(logs_dir, out_dir / LOGS_DIR)
    write_gradebook(out_dir / GRADEBOOK, rows)
    write_reports(out_dir / RESULTS_DIR, rows, form)
    (out_dir / SUMMARY).write_text(render_summary(rows, isolation), encoding="utf-8")
