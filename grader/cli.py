"""``python -m grader``: grade a target and report; exit 0 on full marks, 1 otherwise, 2 when
the target cannot be loaded."""

from __future__ import annotations

import argparse
import os
import sys

from grader import messages
from grader.report import print_report
from grader.results_json import write_results
from grader.runner import DEFAULT_TIME_LIMIT, run
from grader.tasks import TASKS, select

TARGET_ENV = "GRADER_TARGET"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m grader",
        description=messages.CLI_DESCRIPTION,
    )
    parser.add_argument(
        "--target",
        default=os.environ.get(TARGET_ENV, "exercises"),
        help=messages.CLI_TARGET.format(env=TARGET_ENV),
    )
    parser.add_argument("--json", metavar="FILE", help=messages.CLI_JSON)
    parser.add_argument(
        "--time-limit",
        type=float,
        default=DEFAULT_TIME_LIMIT,
        metavar="SECONDS",
        help=messages.CLI_TIME_LIMIT.format(seconds=DEFAULT_TIME_LIMIT),
    )
    parser.add_argument(
        "--task",
        action="append",
        choices=[task.task_id for task in TASKS],
        help=messages.CLI_TASK,
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the grader; return the exit status."""
    args = build_parser().parse_args(argv)
    report = run(args.target, select(args.task), args.time_limit)
    # Counterexamples may hold non-ASCII text; never crash on a terminal that cannot show it.
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="backslashreplace")
    print_report(report, sys.stdout)
    if args.json:
        write_results(report, args.json)
    return report.exit_code
