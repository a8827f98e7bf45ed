"""``python -m grader batch SUBMISSIONS_DIR --out OUT_DIR``: grade a class's submissions."""

from __future__ import annotations

import argparse
import os
import time
from collections import Counter
from pathlib import Path

from grader.frontends.batch import run_batch
from grader.frontends.batch.outputs import GRADEBOOK, RESULTS_DIR, SUMMARY, most_failed, sentence_of
from grader.frontends.batch.pool import Row
from grader.frontends.batch.stopping import Stopped, stopped_by_signals
from grader.frontends.results import FORMATS
from grader.i18n import LANGUAGES, text
from grader.i18n.arguments import Parser
from grader.settings import Settings, add_options, from_arguments
from grader.transport import isolation, protect, writable
from grader.transport.sandbox import Limits
from grader.transport.workspace import KIT_ROOT

MOST_FAILED_PRINTED = 3
#: The batch's defaults: one submission may take 30 s in all, however slow its code.
BATCH = Settings(submission_seconds=30.0)
BATCH_SETTINGS = ("example_seconds", "task_seconds", "submission_seconds", "load_seconds",
                  "isolation", "memory_mb", "cpu_seconds")  # fmt: skip


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="python -m grader batch", description=text("cli.batch.description"))
    parser.add_argument("submissions", type=Path, help=text("cli.batch.submissions"))
    parser.add_argument("--out", type=Path, required=True, help=text("cli.batch.out"))
    parser.add_argument("--workers", type=int, metavar="N", help=text("cli.batch.workers"))
    parser.add_argument("--format", choices=FORMATS, default=FORMATS[0], help=text("cli.format"))
    parser.add_argument("--no-sandbox", action="store_true", help=text("cli.batch.no_sandbox"))
    parser.add_argument("--no-progress", action="store_true", help=text("cli.batch.no_progress"))
    parser.add_argument("--lang", choices=LANGUAGES, help=text("cli.lang"))
    add_options(parser, BATCH_SETTINGS, BATCH)
    return parser


def choose_isolation(requested: str, no_sandbox: bool) -> isolation.Launcher | str:
    """The launcher the batch will use, or the sentence saying why it cannot grade safely."""
    if no_sandbox or requested == "none":
        return isolation.choose("none")
    try:
        launcher = isolation.choose(requested)
    except isolation.Unavailable as unavailable:
        return text(unavailable.reason, path=unavailable.detail)
    if launcher.isolation is isolation.Isolation.NONE:
        return text("cli.batch.no_sandbox_available")
    return launcher


def folders_sentence(chosen: isolation.Launcher) -> str:
    """How a uid batch keeps what learner code writes: private folders, or shared ones."""
    assert chosen.writable is not None
    budget = Limits().write_budget()
    key = "batch.folders.private" if chosen.private_folders else "batch.folders.shared"
    folders = ", ".join(chosen.writable.folders)
    return text(key, folders=folders, files=budget.files, mib=budget.size // 2**20)


def render_outcome(rows: list[Row], out_dir: Path, seconds: float) -> str:
    verdicts = Counter(row.verdict.value for row in rows)
    counts = ", ".join(f"{verdict} {count}" for verdict, count in sorted(verdicts.items()))
    lines = [text("cli.batch.done", count=len(rows), seconds=seconds, statuses=counts)]
    lines += [
        text("cli.batch.wrote", path=out_dir / name) for name in (GRADEBOOK, RESULTS_DIR, SUMMARY)
    ]
    for (task, promise), count in most_failed(rows)[:MOST_FAILED_PRINTED]:
        lines.append(
            text("cli.batch.often_broken", count=count, task=task, sentence=sentence_of(promise))
        )
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    """Run the batch; exit 0 when it ran (whatever the scores), 2 when it cannot run, 128 + N
    when signal N (SIGTERM, SIGINT) stopped it: nothing is then written, and nothing is left
    running (see :mod:`grader.frontends.batch.stopping`)."""
    arguments = build_parser().parse_args(argv)
    if not arguments.submissions.is_dir():
        print(text("cli.batch.not_a_folder", path=arguments.submissions))
        return 2
    chosen = choose_isolation(arguments.isolation, arguments.no_sandbox)
    if isinstance(chosen, str):
        print(chosen)
        return 2
    settings = from_arguments(arguments).replace(isolation=chosen.isolation.value)
    print(text(f"batch.isolation.{chosen.isolation.value}"), flush=True)
    if chosen.note:
        print(text(chosen.note, python=chosen.python), flush=True)
    if chosen.writable is not None:
        print(folders_sentence(chosen), flush=True)
        # Found once: every grading process takes this list instead of walking again.
        os.environ.update(writable.handed_down(chosen.writable))
    started = time.monotonic()
    # The whole kit (its tests hold correct implementations, its history the reference), the
    # class folder and the previous outputs (other learners' results).
    secrets = [*protect.kit_folders(KIT_ROOT), arguments.submissions, arguments.out]
    opened_for = [chosen.python, *isolation.stdlib_folders(chosen.python)]
    uid = chosen.isolation is isolation.Isolation.UID
    try:
        with (
            stopped_by_signals(),
            protect.closed_to_others(secrets if uid else [], opened_for) as closed,
        ):
            if closed:
                print(
                    text("cli.batch.closed", paths=", ".join(str(path) for path in closed)),
                    flush=True,
                )
            rows = run_batch(
                arguments.submissions,
                arguments.out,
                settings,
                arguments.workers,
                show_progress=not arguments.no_progress,
                results_format=arguments.format,
            )
    except Stopped as stopped:
        print(text("cli.batch.stopped", signal=str(stopped), out=arguments.out), flush=True)
        return stopped.exit_status
    print(render_outcome(rows, arguments.out, time.monotonic() - started))
    return 0


__all__ = ["sentence_of"]
