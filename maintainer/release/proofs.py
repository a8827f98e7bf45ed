"""The proofs that a learner's copy works without anything the instructor keeps back.

Each proof returns a :class:`ProofResult`. A failed one says what ran, what was expected, what
happened instead and, where the cause is known, what to change; a part of the kit that does
not exist yet (no demo, no notebooks) is reported as skipped, with the reason. The grader is
used only through its command line and its results file, as a learner would use it.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
from dataclasses import dataclass
from pathlib import Path

from grader.engine.outcomes import Status
from grader.i18n import text
from maintainer.release.isolation import run_python
from maintainer.release.notebook_runs import execute_notebooks

PASSED = "passed"
FAILED = "failed"
SKIPPED = "skipped"

STANDS_ALONE_SECONDS = 60.0
DEMO_SECONDS = 300.0
GRADER_SECONDS = 600.0
TAIL_LINES = 15

# Run inside the copy: prints one line per problem, nothing when the copy stands alone.
STANDS_ALONE_CHECK = """\
import importlib.util, pathlib, sys
copy = pathlib.Path(sys.argv[1]).resolve()
if importlib.util.find_spec("solutions") is not None:
    print("the reference package solutions is importable")
for name in ("eventlog", "exercises", "grader", "sqlite_demo"):
    spec = importlib.util.find_spec(name)
    where = spec and (spec.origin or next(iter(spec.submodule_search_locations or []), None))
    if not where or not pathlib.Path(where).resolve().is_relative_to(copy):
        print(f"{name} is not imported from the copy but from {where}")
"""


@dataclass(frozen=True, slots=True)
class ProofResult:
    """One proof's name (a message id), outcome (passed, failed, skipped) and details."""

    name: str
    outcome: str
    detail: str = ""


def tail(output: str) -> str:
    """The last lines of a program's output, indented under the proof's line."""
    lines = output.strip().splitlines()[-TAIL_LINES:]
    return "".join(f"\n    {line}" for line in lines)


def prove_copy_stands_alone(copy_dir: Path, environment: dict[str, str]) -> ProofResult:
    """Check that ``solutions`` is missing in the copy and the kit's packages come from it."""
    name = "release.proof.stands_alone"
    command = ["-c", STANDS_ALONE_CHECK, str(copy_dir)]
    try:
        done = run_python(command, environment, copy_dir, STANDS_ALONE_SECONDS)
    except subprocess.TimeoutExpired:
        return ProofResult(name, FAILED, text("release.fail.timeout", seconds=STANDS_ALONE_SECONDS))
    problems = (done.stdout + done.stderr).strip()
    return ProofResult(name, FAILED, problems) if problems else ProofResult(name, PASSED)


def prove_grader_on_stubs(
    copy_dir: Path, environment: dict[str, str], scratch: Path
) -> ProofResult:
    """Grade the copy's stubs with ``python -m grader --json FILE``: exit status 1 (not full
    marks) and every task "not implemented yet" are expected."""
    name = "release.proof.grader"
    results_path = scratch / "stub-results.json"
    command = ["-m", "grader", "--json", str(results_path), "--format", "gradescope"]
    try:
        done = run_python(command, environment, scratch, GRADER_SECONDS)
    except subprocess.TimeoutExpired:
        return ProofResult(name, FAILED, text("release.fail.timeout", seconds=GRADER_SECONDS))
    exit_problem = grader_exit_problem(done.returncode, results_path)
    if exit_problem:
        return ProofResult(name, FAILED, exit_problem + tail(done.stdout + done.stderr))
    problems = unfinished_task_problems(results_path)
    return ProofResult(name, FAILED, problems) if problems else ProofResult(name, PASSED)


def grader_exit_problem(exit_status: int, results_path: Path) -> str:
    """Why the grader's exit status or missing results file is wrong for stubs, or ``""``."""
    if exit_status == 1:
        return "" if results_path.is_file() else text("release.fail.grader_no_results")
    why = text(
        "release.fail.grader_full_marks"
        if exit_status == 0
        else "release.fail.grader_could_not_grade"
    )
    return text("release.fail.grader_exit", status=exit_status, why=why)


def unfinished_task_problems(results_path: Path) -> str:
    """Read the grader's results file; describe every task that is not "not implemented yet"
    (or the file's own defect), or return an empty string when there is none."""
    try:
        tests = json.loads(results_path.read_text(encoding="utf-8"))["tests"]
        extras = [test["extra_data"] for test in tests]
        statuses = {extra["task"]: extra["grader_status"] for extra in extras}
    except (ValueError, KeyError, TypeError) as error:
        return text("release.fail.results_unreadable", error=repr(error))
    if not statuses:
        return text("release.fail.results_empty")
    wrong = [
        f"{task}: {got}" for task, got in statuses.items() if got != Status.NOT_IMPLEMENTED.value
    ]
    if not wrong:
        return ""
    found = "; ".join(wrong)
    return text("release.fail.stubs_solved", expected=Status.NOT_IMPLEMENTED.value, found=found)


def prove_demo_completes(copy_dir: Path, environment: dict[str, str], scratch: Path) -> ProofResult:
    """Run ``python -m sqlite_demo`` (in a scratch folder, so its database stays out of the
    copy) and expect exit status 0, which it gives only when every check it prints holds."""
    name = "release.proof.demo"
    if not (copy_dir / "sqlite_demo" / "__main__.py").is_file():
        return ProofResult(name, SKIPPED, text("release.skip.no_demo"))
    try:
        done = run_python(["-m", "sqlite_demo"], environment, scratch, DEMO_SECONDS)
    except subprocess.TimeoutExpired:
        return ProofResult(name, FAILED, text("release.fail.timeout", seconds=DEMO_SECONDS))
    if done.returncode != 0:
        detail = text("release.fail.demo_exit", status=done.returncode)
        return ProofResult(name, FAILED, detail + tail(done.stdout + done.stderr))
    return ProofResult(name, PASSED)


def prove_notebooks_execute(copy_dir: Path, environment: dict[str, str]) -> list[ProofResult]:
    """Execute every notebook of the copy in a fresh kernel that sees only the copy."""
    notebooks = sorted((copy_dir / "notebooks").glob("*.ipynb"))
    if not notebooks:
        return [ProofResult("release.proof.notebooks", SKIPPED, text("release.skip.no_notebooks"))]
    failures = asyncio.run(execute_notebooks(notebooks, environment))
    name = "release.proof.notebook"
    return [
        ProofResult(name, FAILED, f"{path.name}: {failures[path]}")
        if path in failures
        else ProofResult(name, PASSED, path.name)
        for path in notebooks
    ]
