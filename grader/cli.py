"""``python -m grader``: grade a target and report; exit 0 on full marks, 1 otherwise, 2 when
the target cannot be loaded.

Learner tools: ``--task NAME`` grades one task, ``--watch`` grades again every time a file of
the target is saved, ``--hint`` shows one more hint for the first task not passing yet, and
``--lang en|zh`` picks the language (the locale decides otherwise). Instructor tools are
subcommands: ``python -m grader batch SUBMISSIONS_DIR --out OUT_DIR`` and
``python -m grader release OUT_DIR``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from pathlib import Path

from grader import messages
from grader.i18n import LANGUAGES, apply_language, language_option
from grader.report import Report, print_report
from grader.results_json import write_results
from grader.runner import DEFAULT_TIME_LIMIT, run
from grader.tasks import TASKS, select

TARGET_ENV = "GRADER_TARGET"
SUBCOMMANDS = {"batch": "grader.batch.command", "release": "grader.release.command"}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m grader",
        description=messages.CLI_DESCRIPTION,
        epilog=messages.CLI_SUBCOMMANDS,
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
    parser.add_argument("--watch", action="store_true", help=messages.CLI_WATCH)
    parser.add_argument("--hint", action="store_true", help=messages.CLI_HINT)
    parser.add_argument("--lang", choices=LANGUAGES, help=messages.CLI_LANG)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the grader (or the ``batch`` / ``release`` command); return the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    # The language comes first: the parsers' help texts are already translated.
    apply_language(language_option(argv))
    # Counterexamples may hold non-ASCII text; never crash on a terminal that cannot show it.
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="backslashreplace")
    if argv and argv[0] in SUBCOMMANDS:
        command = importlib.import_module(SUBCOMMANDS[argv[0]])
        return int(command.main(argv[1:]))
    args = build_parser().parse_args(argv)
    if args.watch:
        return watch(args)
    report = run(args.target, select(args.task), args.time_limit)
    print_report(report, sys.stdout)
    if args.hint:
        from grader.learner import HINT_STATE_FILE, reveal_next_hint

        print("\n" + reveal_next_hint(report, Path.cwd() / HINT_STATE_FILE))
    if args.json:
        write_results(report, args.json)
    return report.exit_code


def watch(args: argparse.Namespace) -> int:
    """Grade now and after every save of the target's files, until Ctrl+C."""
    from grader.watch import render_progress, watch_and_grade, watched_paths

    def grade_and_show() -> None:
        report: Report = run(args.target, select(args.task), args.time_limit)
        print_report(report, sys.stdout)
        if report.load_error is None:
            print(render_progress(report.results, messages.STATUS_PASSED))
        if args.json:
            write_results(report, args.json)

    watch_and_grade(watched_paths(args.target), grade_and_show)
    return 0
