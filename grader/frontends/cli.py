"""``python -m grader``: grade a target and report; exit 0 on full marks, 1 otherwise, 2 when
the target cannot be loaded, 130 when Ctrl+C stops the grading (a line says so, no traceback).

Learner tools: ``--task`` grades one task, ``--watch`` grades again every time a file of the
target is saved, ``--hint`` shows one more hint for the first task not passing yet, ``--lang``
picks the language for one run, and ``lang`` for the whole kit (see
:mod:`grader.frontends.language`; the locale decides otherwise). Instructor tools are
subcommands, each importing only what it uses: ``batch`` grades a class, ``gradescope``
writes a Gradescope autograder, ``site`` builds and serves the browser page. The learner's
copy is written by a maintainer's tool the grader does not import: ``python -m maintainer
release``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from grader.i18n import LANGUAGES, apply_language, language_option, text
from grader.i18n.arguments import Parser

if TYPE_CHECKING:
    from grader.engine.outcomes import Report

TARGET_ENV = "GRADER_TARGET"
SUBCOMMANDS = {
    "lang": "grader.frontends.language",
    "batch": "grader.frontends.batch.command",
    "gradescope": "grader.frontends.gradescope.command",
    "site": "grader.frontends.site.command",
}
#: Commands that moved out of the grader, answered with where they are now (exit 2).
MOVED = {"release": "cli.release_missing"}
#: The exit status of a grading stopped with Ctrl+C: 128 + SIGINT, as shells report it.
INTERRUPTED = 130
#: The settings a learner may change from the command line.
LEARNER_SETTINGS = ("example_seconds", "task_seconds", "isolation")


def build_parser() -> argparse.ArgumentParser:
    from grader.frontends.results import FORMATS
    from grader.settings import add_options
    from grader.tasks import TASKS

    epilog = text("cli.learner_commands") + "\n\n" + text("cli.subcommands")
    parser = Parser(prog="python -m grader", description=text("cli.description"), epilog=epilog)
    parser.add_argument(
        "--target",
        default=os.environ.get(TARGET_ENV, "exercises"),
        help=text("cli.target", env=TARGET_ENV),
    )
    names = text("lang.separator").join(f"{task.number} {task.id}" for task in TASKS)
    parser.add_argument(
        "--task", action="append", metavar="TASK", help=text("cli.task", tasks=names)
    )
    parser.add_argument("--watch", action="store_true", help=text("cli.watch"))
    parser.add_argument("--hint", action="store_true", help=text("cli.hint"))
    parser.add_argument("--lang", choices=LANGUAGES, help=text("cli.lang"))
    parser.add_argument("--json", metavar="FILE", help=text("cli.json"))
    parser.add_argument("--format", choices=FORMATS, default=FORMATS[0], help=text("cli.format"))
    parser.add_argument("--no-sandbox", action="store_true", help=text("cli.no_sandbox"))
    add_options(parser, LEARNER_SETTINGS)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the grader (or a subcommand); return the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    # The language comes first: the parsers' help texts are already translated.
    apply_language(language_option(argv))
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="backslashreplace")
    if argv and argv[0] in SUBCOMMANDS:
        return run_subcommand(argv[0], argv[1:])
    if argv and argv[0] in MOVED:
        print(text(MOVED[argv[0]]), file=sys.stderr)
        return 2
    parser = build_parser()
    args = parser.parse_args(argv)
    from grader.tasks import select

    try:
        args.tasks = select(args.task)
    except KeyError as unknown:
        parser.error(text("cli.unknown_task", task=unknown.args[0]))
    if args.no_sandbox:
        args.isolation = "none"
    if args.watch:
        from grader.frontends.watch import watch

        return watch(lambda: grade_and_show(args), args.target)
    try:
        report = grade_and_show(args)
    except KeyboardInterrupt:
        print("\n" + text("cli.interrupted"), file=sys.stderr)
        return INTERRUPTED
    if args.hint:
        from grader.frontends.hints import HINT_STATE_FILE, reveal_next_hint

        print("\n" + reveal_next_hint(report, Path.cwd() / HINT_STATE_FILE))
    return report.exit_code


def run_subcommand(name: str, argv: list[str]) -> int:
    command = importlib.import_module(SUBCOMMANDS[name])
    return int(command.main(argv))


def grade_and_show(args: argparse.Namespace) -> Report:
    """Grade as the command line asked, print the report, write the results file if asked."""
    from grader.frontends.report import print_report
    from grader.frontends.results import write_results
    from grader.run import grade
    from grader.settings import from_arguments

    report = grade(args.target, args.tasks, from_arguments(args))
    print_report(report, sys.stdout)
    if args.json:
        write_results(report, args.json, args.format)
    return report
