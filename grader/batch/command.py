"""``python -m grader batch SUBMISSIONS_DIR --out OUT_DIR``: grade a class's submissions."""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

from grader.batch import run_batch
from grader.batch.gradebook import GRADEBOOK, RESULTS_DIR, SUMMARY, most_failed
from grader.batch.runner import STATUSES, Row
from grader.batch.sandbox import Limits
from grader.i18n import LANGUAGES, text

MOST_FAILED_PRINTED = 3


def build_parser() -> argparse.ArgumentParser:
    """The ``batch`` command's options; the limits default to :class:`Limits`."""
    defaults = Limits()
    parser = argparse.ArgumentParser(
        prog="python -m grader batch", description=text("cli.batch.description")
    )
    parser.add_argument("submissions", type=Path, help=text("cli.batch.submissions"))
    parser.add_argument("--out", type=Path, required=True, help=text("cli.batch.out"))
    parser.add_argument("--workers", type=int, metavar="N", help=text("cli.batch.workers"))
    parser.add_argument(
        "--memory-mb",
        type=int,
        default=defaults.memory_mb,
        help=text("cli.batch.memory", default=defaults.memory_mb),
    )
    parser.add_argument(
        "--time-limit",
        type=float,
        default=defaults.task_seconds,
        metavar="SECONDS",
        help=text("cli.batch.task_seconds", default=defaults.task_seconds),
    )
    parser.add_argument(
        "--submission-time-limit",
        type=float,
        default=defaults.grading_seconds,
        metavar="SECONDS",
        help=text("cli.batch.grading_seconds", default=defaults.grading_seconds),
    )
    parser.add_argument("--no-progress", action="store_true", help=text("cli.batch.no_progress"))
    parser.add_argument("--lang", choices=LANGUAGES, help=text("cli.lang"))
    return parser


def limits_from(arguments: argparse.Namespace) -> Limits:
    """The limits the command line asked for."""
    return Limits(
        memory_mb=arguments.memory_mb,
        task_seconds=arguments.time_limit,
        grading_seconds=arguments.submission_time_limit,
    )


def render_outcome(rows: list[Row], out_dir: Path, seconds: float) -> str:
    """What the command prints when the batch is done: counts, files, top broken properties."""
    statuses = Counter(row.status for row in rows)
    counts = ", ".join(f"{status} {statuses[status]}" for status in STATUSES if statuses[status])
    lines = [text("cli.batch.done", count=len(rows), seconds=seconds, statuses=counts)]
    for name in (GRADEBOOK, RESULTS_DIR, SUMMARY):
        lines.append(text("cli.batch.wrote", path=out_dir / name))
    for (task, sentence), count in most_failed(rows)[:MOST_FAILED_PRINTED]:
        lines.append(text("cli.batch.often_broken", count=count, task=task, sentence=sentence))
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    """Run the batch; exit status 0 when it ran (whatever the scores), 2 on bad arguments."""
    arguments = build_parser().parse_args(argv)
    if not arguments.submissions.is_dir():
        print(text("cli.batch.not_a_folder", path=arguments.submissions))
        return 2
    started = time.monotonic()
    rows = run_batch(
        arguments.submissions,
        arguments.out,
        limits_from(arguments),
        arguments.workers,
        show_progress=not arguments.no_progress,
    )
    print(render_outcome(rows, arguments.out, time.monotonic() - started))
    return 0
