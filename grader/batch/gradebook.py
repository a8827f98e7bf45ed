"""What a batch leaves in OUT_DIR: the gradebook, one results file each, and a class summary.

* ``gradebook.csv``: one row per submission: ``id``, ``score``, ``max_score``, ``status``,
  then the points earned in each task, in task order.
* ``results/<id>.json``: the grader's ``--json`` report for that submission; a submission
  that could not be graded gets a report in the same format with no points.
* ``summary.md``: how many submissions ended in each status, and the properties the class
  broke most often.
* ``logs/<id>.log``: what the submission printed (capped), for the instructor's eyes only.

Everything here is written after every submission's processes have ended, from the rows
alone, so nothing a submission wrote into OUT_DIR survives.
"""

from __future__ import annotations

import csv
import json
import shutil
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from grader.batch import results as results_format
from grader.batch.runner import STATUSES, Row
from grader.i18n import text

GRADEBOOK = "gradebook.csv"
RESULTS_DIR = "results"
SUMMARY = "summary.md"
LOGS_DIR = "logs"
MOST_FAILED_SHOWN = 10


def gradebook_columns() -> list[str]:
    """The gradebook's header: the four fixed columns, then one per task id."""
    return ["id", "score", "max_score", "status", *results_format.task_ids()]


def report_of(row: Row) -> dict[str, object]:
    """The row's results, or a pointless report saying why it could not be graded."""
    return row.report if row.report is not None else results_format.ungraded_report(row.status)


def gradebook_line(row: Row) -> dict[str, object]:
    """One gradebook row: scores computed from the task results, never taken on trust."""
    points = results_format.task_points(report_of(row))
    line: dict[str, object] = {
        "id": row.id,
        "score": sum(points.values()),
        "max_score": results_format.max_score(),
        "status": row.status,
    }
    return line | points


def write_gradebook(path: Path, rows: Sequence[Row]) -> None:
    """Write ``gradebook.csv``, one line per row, in the rows' order."""
    with path.open("w", newline="", encoding="utf-8") as file:
        writer = csv.DictWriter(file, fieldnames=gradebook_columns())
        writer.writeheader()
        writer.writerows(gradebook_line(row) for row in rows)


def write_reports(folder: Path, rows: Sequence[Row]) -> None:
    """Write ``<id>.json`` for every row, replacing whatever a submission put there."""
    folder.mkdir(parents=True, exist_ok=True)
    for row in rows:
        document = json.dumps(report_of(row), indent=2, ensure_ascii=False)
        (folder / f"{row.id}.json").write_text(document + "\n", encoding="utf-8")


def most_failed(rows: Sequence[Row]) -> list[tuple[tuple[str, str], int]]:
    """Count, per (task id, property sentence), the submissions that broke it; most first."""
    counts: Counter[tuple[str, str]] = Counter()
    for row in rows:
        counts.update(set(row.broken))
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))


def cell(sentence: str) -> str:
    """Make a sentence safe inside a Markdown table cell."""
    return sentence.replace("|", "\\|").replace("\n", " ")


def render_summary(rows: Sequence[Row]) -> str:
    """Return the Markdown summary: statuses, then the most often broken properties."""
    statuses = Counter(row.status for row in rows)
    lines = [f"# {text('batch.summary.title')}", "", text("batch.summary.count", count=len(rows))]
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


def write_outputs(out_dir: Path, rows: Sequence[Row], logs_dir: Path) -> None:
    """Write the gradebook, the reports, the summary and the logs into ``out_dir``.

    The ``results`` and ``logs`` folders are replaced whole, so a file a submission slipped
    into them while it ran does not survive.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    for folder in (out_dir / RESULTS_DIR, out_dir / LOGS_DIR):
        shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(logs_dir, out_dir / LOGS_DIR)
    write_gradebook(out_dir / GRADEBOOK, rows)
    write_reports(out_dir / RESULTS_DIR, rows)
    (out_dir / SUMMARY).write_text(render_summary(rows), encoding="utf-8")
