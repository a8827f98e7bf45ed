"""The four proofs that a learner's copy works without anything the instructor keeps back.

Each proof returns a :class:`ProofResult`; a part of the kit that does not exist yet (no demo,
no notebooks) is reported as skipped, with the reason, rather than passed.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

from grader.i18n import text
from grader.release.isolation import run_python

PASSED = "passed"
FAILED = "failed"
SKIPPED = "skipped"

DEMO_SECONDS = 300.0
GRADER_SECONDS = 600.0
NOTEBOOK_CELL_SECONDS = 300

# Run inside the copy: prints one line per problem, nothing when the copy stands alone.
STANDS_ALONE_CHECK = """\
import importlib.util, pathlib, sys
copy = pathlib.Path(sys.argv[1]).resolve()
if importlib.util.find_spec("solutions") is not None:
    print("solutions is importable")
for name in ("eventlog", "exercises", "grader"):
    spec = importlib.util.find_spec(name)
    where = spec and (spec.origin or next(iter(spec.submodule_search_locations or []), None))
    if not where or not pathlib.Path(where).resolve().is_relative_to(copy):
        print(f"{name} is not imported from the copy: {where}")
"""

# Run inside the copy: prints the tasks whose status is not "not implemented yet".
STUB_STATUS_CHECK = """\
import grader
from grader import messages
report = grader.grade("exercises")
if report.load_error:
    print(report.load_error)
for result in report.results:
    if result.status != messages.STATUS_NOT_IMPLEMENTED:
        print(f"{result.task_id}: {result.status}")
"""


@dataclass(frozen=True, slots=True)
class ProofResult:
    """One proof's name (a message id), outcome (passed, failed, skipped) and details."""

    name: str
    outcome: str
    detail: str = ""


def prove_copy_stands_alone(copy_dir: Path, environment: dict[str, str]) -> ProofResult:
    """Check that ``solutions`` is missing in the copy and the kit's packages come from it."""
    name = "release.proof.stands_alone"
    done = run_python(["-c", STANDS_ALONE_CHECK, str(copy_dir)], environment, copy_dir, 60)
    problems = (done.stdout + done.stderr).strip()
    return ProofResult(name, FAILED, problems) if problems else ProofResult(name, PASSED)


def prove_grader_on_stubs(
    copy_dir: Path, environment: dict[str, str], scratch: Path
) -> ProofResult:
    """Grade the copy's stubs from the command line (exit status 1 and a results file
    expected), then through the API: every task must be "not implemented yet"."""
    name = "release.proof.grader"
    results_path = scratch / "stub-results.json"
    arguments = ["-m", "grader", "--json", str(results_path)]
    done = run_python(arguments, environment, scratch, GRADER_SECONDS)
    if done.returncode != 1 or not results_path.is_file():
        return ProofResult(name, FAILED, f"exit status {done.returncode}\n{done.stderr[-2000:]}")
    checked = run_python(["-c", STUB_STATUS_CHECK], environment, scratch, GRADER_SECONDS)
    problems = (checked.stdout + checked.stderr).strip()
    return ProofResult(name, FAILED, problems) if problems else ProofResult(name, PASSED)


def prove_demo_completes(copy_dir: Path, environment: dict[str, str], scratch: Path) -> ProofResult:
    """Run ``python -m sqlite_demo`` (in a scratch folder, so its database stays out of the
    copy) and expect exit status 0."""
    name = "release.proof.demo"
    if not (copy_dir / "sqlite_demo" / "__main__.py").is_file():
        return ProofResult(name, SKIPPED, text("release.skip.no_demo"))
    try:
        done = run_python(["-m", "sqlite_demo"], environment, scratch, DEMO_SECONDS)
    except subprocess.TimeoutExpired:
        return ProofResult(name, FAILED, text("release.fail.timeout", seconds=DEMO_SECONDS))
    if done.returncode != 0:
        return ProofResult(name, FAILED, f"exit status {done.returncode}\n{done.stderr[-2000:]}")
    return ProofResult(name, PASSED)


def prove_notebooks_execute(copy_dir: Path, environment: dict[str, str]) -> list[ProofResult]:
    """Execute every notebook of the copy in a fresh kernel that sees only the copy."""
    notebooks = sorted((copy_dir / "notebooks").glob("*.ipynb"))
    if not notebooks:
        return [ProofResult("release.proof.notebooks", SKIPPED, text("release.skip.no_notebooks"))]
    return [execute_notebook(path, environment) for path in notebooks]


def execute_notebook(path: Path, environment: dict[str, str]) -> ProofResult:
    """Run one notebook top to bottom; the stored file is not rewritten."""
    import nbformat
    from nbclient import NotebookClient

    name = "release.proof.notebook"
    notebook = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]
    client = NotebookClient(
        notebook,
        timeout=NOTEBOOK_CELL_SECONDS,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
    )
    try:
        # The kernel's own stderr holds only its start-up warnings; cell errors come back
        # through the notebook protocol and are reported below.
        client.execute(env=environment, stderr=subprocess.DEVNULL)
    except Exception as error:  # a failing cell, a timeout or a dead kernel: all fail the proof
        return ProofResult(name, FAILED, f"{path.name}: {str(error).strip()[-2000:]}")
    return ProofResult(name, PASSED, path.name)
