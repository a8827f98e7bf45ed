"""``python -m grader batch SUBMISSIONS_DIR --out OUT_DIR``: grade a class's submissions."""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

from grader.batch import run_batch
from grader.batch.gradebook import GRADEBOOK, RESULTS_DIR, SUMMARY, isolation_line, most_failed
from grader.batch.pool import Settings
from grader.batch.rows import STATUSES, Row
from grader.i18n import LANGUAGES, text
from grader.results_json import FORMATS
from grader.sandbox import backends

MOST_FAILED_PRINTED = 3


def build_parser() -> argparse.ArgumentParser:
    """The ``batch`` command's options; the limits default to :class:`Settings`."""
    defaults = Settings()
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
        default=defaults.example_seconds,
        metavar="SECONDS",
        help=text("cli.time_limit", seconds=defaults.example_seconds),
    )
    parser.add_argument(
        "--submission-time-limit",
        type=float,
        default=defaults.grading_seconds,
        metavar="SECONDS",
        help=text("cli.batch.grading_seconds", default=defaults.grading_seconds),
    )
    parser.add_argument("--format", choices=FORMATS, default=FORMATS[0], help=text("cli.format"))
    parser.add_argument("--no-sandbox", action="store_true", help=text("cli.batch.no_sandbox"))
    parser.add_argument("--no-progress", action="store_true", help=text("cli.batch.no_progress"))
    parser.add_argument("--lang", choices=LANGUAGES, help=text("cli.lang"))
    return parser


def settings_from(arguments: argparse.Namespace, isolation: str) -> Settings:
    """The settings the command line asked for."""
    return Settings(
        isolation=isolation,
        memory_mb=arguments.memory_mb,
        example_seconds=arguments.time_limit,
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
    """Run the batch; exit 0 when it ran (whatever the scores), 2 when it cannot run."""
    arguments = build_parser().parse_args(argv)
    if not arguments.submissions.is_dir():
        print(text("cli.batch.not_a_folder", path=arguments.submissions))
        return 2
    if arguments.no_sandbox:
        isolation = backends.NONE
    elif backends.bwrap_works():
        isolation = backends.BWRAP
    else:
        print(text("cli.batch.no_sandbox_available"))
        return 2
    print(isolation_line(isolation), flush=True)
    started = time.monotonic()
    rows = run_batch(
        arguments.submissions,
        arguments.out,
        settings_from(arguments, isolation),
        arguments.workers,
        show_progress=not arguments.no_progress,
        results_format=arguments.format,
    )
    print(render_outcome(rows, arguments.out, time.monotonic() - started))
    return 0
