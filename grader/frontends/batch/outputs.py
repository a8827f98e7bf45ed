"""What a batch leaves in OUT_DIR: the gradebook, one results file each, logs and a summary.

* ``gradebook.csv``: one row per submission: ``id``, ``score``, ``max_score``, ``status``,
  the points of each task (task order), ``isolation``, then ``notes``. A cell a spreadsheet
  would evaluate (one starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return) is
  escaped with a leading ``'``, as OWASP recommends against CSV injection.
* ``results/<file>.json``: that submission's results in the ``--format`` chosen.
* ``logs/<file>.log``: what the submission wrote to its standard streams (capped).
* ``summary.md``: how the batch ran, how many submissions ended in each status, the
  submissions caught tampering (with what they tried), and the promises the class broke
  most often.

Everything is written into a new folder beside OUT_DIR, from the trusted reports alone, and
moved into place at the end: a batch that fails midway leaves the previous outputs whole.
"""

from __future__ import annotations

import csv
import io
import os
import secrets
import shutil
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from grader.engine.outcomes import Said, Status, Verdict
from grader.frontends.batch.pool import Row
from grader.frontends.report import printable, said, sentence
from grader.frontends.results import write_results
from grader.i18n import text
from grader.tasks import MAX_SCORE, TASK_IDS

GRADEBOOK = "gradebook.csv"
RESULTS_DIR = "results"
SUMMARY = "summary.md"
LOGS_DIR = "logs"
MOST_FAILED_SHOWN = 10
#: The most of one submission's log kept.
MAX_LOG_BYTES = 256 * 1024
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> str:
    """A cell no spreadsheet evaluates: printable, and quoted with ``'`` when it starts like a
    formula."""
    cell = printable(str(value))
    return "'" + cell if cell.startswith(_FORMULA_STARTS) else cell


def gradebook_columns() -> list[str]:
    return ["id", "score", "max_score", "status", *TASK_IDS, "isolation", "notes"]


def gradebook_line(row: Row) -> list[str]:
    """One gradebook row: the points of each task as the trusted grader judged them."""
    points = dict.fromkeys(TASK_IDS, 0)
    for result in row.report.results:
        points[result.task_id] = result.earned
    notes = "; ".join(said(note) for note in (*row.notes, *_load(row)))
    cells = [row.id, row.report.score, MAX_SCORE, row.verdict.value, *points.values(),
             row.report.isolation, notes]  # fmt: skip
    return [safe_cell(cell) for cell in cells]


def _load(row: Row) -> list:  # type: ignore[type-arg]
    return [row.report.load_problem] if row.report.load_problem is not None else []


def gradebook(rows: Sequence[Row]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(gradebook_columns())
    writer.writerows(gradebook_line(row) for row in rows)
    return buffer.getvalue()


def most_failed(rows: Sequence[Row]) -> list[tuple[tuple[str, str], int]]:
    """How many submissions broke each (task id, promise); most first."""
    counts: Counter[tuple[str, str]] = Counter()
    for row in rows:
        broken = {(r.task_id, r.failure.promise) for r in row.report.results
                  if r.failure is not None and r.status is Status.FAILED}  # fmt: skip
        counts.update(broken)
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))


def cell(value: str) -> str:
    """Text safe inside a Markdown table cell."""
    return printable(value).replace("|", "\\|")


def summary(rows: Sequence[Row], isolation: str, seconds: float) -> str:
    """The Markdown summary: how it ran, statuses, tampering, the most often broken promises."""
    verdicts = Counter(row.verdict for row in rows)
    lines = [f"# {text('batch.summary.title')}", "", text(f"batch.isolation.{isolation}"), ""]
    lines += [text("batch.summary.count", count=len(rows), seconds=seconds), ""]
    lines += [
        f"| {text('batch.summary.status')} | {text('batch.summary.submissions')} |",
        "|---|---:|",
    ]
    lines += [
        f"| {verdict.value} | {verdicts[verdict]} |" for verdict in Verdict if verdicts[verdict]
    ]
    tampered = [row for row in rows if row.verdict is Verdict.TAMPERED]
    if tampered:
        lines += ["", f"## {text('batch.summary.tampered')}", ""]
        for row in tampered:
            tried = "; ".join(tried_sentence(report) for report in row.report.reports[:3])
            lines.append(f"- {cell(row.id)}: {cell(tried)}")
    lines += ["", f"## {text('batch.summary.most_failed')}", ""]
    failed = most_failed(rows)[:MOST_FAILED_SHOWN]
    if not failed:
        return "\n".join([*lines, text("batch.summary.none_failed"), ""])
    lines += [
        f"| {text('batch.summary.failed_by')} | {text('batch.summary.task')} | "
        f"{text('batch.summary.promise')} |",
        "|---:|---|---|",
    ]
    for (task, promise), count in failed:
        lines.append(f"| {count} | {task} | {cell(sentence_of(promise))} |")
    return "\n".join([*lines, ""])


def tried_sentence(report: dict[str, str]) -> str:
    """What the guard reported a submission tried, as a sentence."""
    fields = {key: report.get(key, "?") for key in ("detail", "event", "where")}
    return said(Said("outcome.tampered", fields))


def sentence_of(promise: str) -> str:
    from grader.engine.outcomes import Failure

    return sentence(Failure(promise))


def write_outputs(out_dir: Path, rows: Sequence[Row], logs_dir: Path, isolation: str, form: str,
                  seconds: float) -> None:  # fmt: skip
    """Write everything into a new folder beside ``out_dir``, then move it into place."""
    out_dir = out_dir.resolve()
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    fresh = out_dir.parent / f".{out_dir.name}.new-{secrets.token_hex(4)}"
    fresh.mkdir(mode=0o700)
    try:
        (fresh / RESULTS_DIR).mkdir()
        (fresh / LOGS_DIR).mkdir()
        for row in rows:
            write_results(row.report, fresh / RESULTS_DIR / f"{row.slug}.json", form)
            _copy_log(logs_dir / f"{row.slug}.log", fresh / LOGS_DIR / f"{row.slug}.log")
        (fresh / GRADEBOOK).write_text(gradebook(rows), encoding="utf-8")
        (fresh / SUMMARY).write_text(summary(rows, isolation, seconds), encoding="utf-8")
        fresh.chmod(0o755)
        _swap(fresh, out_dir)
    finally:
        shutil.rmtree(fresh, ignore_errors=True)


def _copy_log(source: Path, destination: Path) -> None:
    data = b""
    if source.is_file():
        with source.open("rb") as log:
            data = log.read(MAX_LOG_BYTES + 1)
    if len(data) > MAX_LOG_BYTES:
        data = data[:MAX_LOG_BYTES] + b"\n[cut]\n"
    destination.write_bytes(data)


def _swap(fresh: Path, out_dir: Path) -> None:
    """Put ``fresh`` where ``out_dir`` is; the old outputs go only once the new are in place."""
    if not out_dir.exists():
        os.rename(fresh, out_dir)
        return
    old = out_dir.parent / f".{out_dir.name}.old-{secrets.token_hex(4)}"
    os.rename(out_dir, old)
    os.rename(fresh, out_dir)
    shutil.rmtree(old, ignore_errors=True)
