"""``python -m grader``: grade a target and report; exit 0 on full marks, 1 otherwise, 2 when
the target cannot be loaded.

Learner tools: ``--task NAME`` grades one task, ``--watch`` grades again every time a file of
the target is saved, ``--hint`` shows one more hint for the first task not passing yet, and
``--lang en|zh`` picks the language (the locale decides otherwise). Instructor tools are
subcommands: ``batch`` grades a class, ``gradescope`` writes a Gradescope autograder, and
``release`` writes the learner's copy.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from pathlib import Path

from grader import messages
from grader.i18n import LANGUAGES, apply_language, language_option
from grader.remote import DEFAULT_TASK_SECONDS
from grader.report import Report, print_report
from grader.results_json import FORMATS, write_results
from grader.runner import DEFAULT_TIME_LIMIT, run
from grader.sandbox import backends
from grader.tasks import TASKS, select

TARGET_ENV = "GRADER_TARGET"
SUBCOMMANDS = {
    "batch": "grader.batch.command",
    "gradescope": "grader.gradescope.command",
    "release": "grader.release.command",
}


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
    parser.add_argument("--format", choices=FORMATS, default=FORMATS[0], help=messages.CLI_FORMAT)
    parser.add_argument(
        "--time-limit",
        type=float,
        default=DEFAULT_TIME_LIMIT,
        metavar="SECONDS",
        help=messages.CLI_TIME_LIMIT.format(seconds=DEFAULT_TIME_LIMIT),
    )
    parser.add_argument(
        "--task-time-limit",
        type=float,
        default=DEFAULT_TASK_SECONDS,
        metavar="SECONDS",
        help=messages.CLI_TASK_TIME_LIMIT.format(seconds=DEFAULT_TASK_SECONDS),
    )
    names = ", ".join(f"{task.number} {task.task_id}" for task in TASKS)
    parser.add_argument(
        "--task", action="append", metavar="TASK", help=messages.CLI_TASK.format(tasks=names)
    )
    parser.add_argument("--watch", action="store_true", help=messages.CLI_WATCH)
    parser.add_argument("--hint", action="store_true", help=messages.CLI_HINT)
    parser.add_argument("--lang", choices=LANGUAGES, help=messages.CLI_LANG)
    parser.add_argument("--no-sandbox", action="store_true", help=messages.CLI_NO_SANDBOX)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the grader (or a subcommand); return the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    # The language comes first: the parsers' help texts are already translated.
    apply_language(language_option(argv))
    # Counterexamples may hold non-ASCII text; never crash on a terminal that cannot show it.
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="backslashreplace")
    if argv and argv[0] in SUBCOMMANDS:
        command = importlib.import_module(SUBCOMMANDS[argv[0]])
        return int(command.main(argv[1:]))
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        args.tasks = select(args.task)
    except KeyError as unknown:
        parser.error(messages.CLI_UNKNOWN_TASK.format(task=unknown.args[0]))
    if args.watch:
        return watch(args)
    report = grade(args)
    print_report(report, sys.stdout)
    if args.hint:
        from grader.learner import HINT_STATE_FILE, reveal_next_hint

        print("\n" + reveal_next_hint(report, Path.cwd() / HINT_STATE_FILE))
    return report.exit_code


def grade(args: argparse.Namespace) -> Report:
    """Grade as the command line asked, and write the results file if one was asked for."""
    report = run(
        args.target,
        args.tasks,
        args.time_limit,
        task_time_limit=args.task_time_limit,
        isolation=backends.NONE if args.no_sandbox else "auto",
    )
    if args.json:
        write_results(report, args.json, args.format)
    return report


def watch(args: argparse.Namespace) -> int:
    """Grade now and after every save of the target's files, until Ctrl+C."""
    from grader.watch import render_progress, watch_and_grade, watched_paths

    def grade_and_show() -> None:
        report = grade(args)
        print_report(report, sys.stdout)
        if report.load_error is None:
            print(render_progress(report.results, messages.STATUS_PASSED))

    watch_and_grade(watched_paths(args.target), grade_and_show)
    return 0
