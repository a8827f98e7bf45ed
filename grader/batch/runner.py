"""Grade one submission in two sandboxed steps and turn what the batch saw into a row.

Step one, the probe, only imports the submission: a submission that loops, eats memory, exits
or fails at import is recorded at once instead of timing out once per task. Step two grades it
and sends the results on a private channel, signed with a key that exists only in the batch
and in the grading child (read from stdin before the submission loads). Results count only
when the signature checks out; what a submission prints or writes is never read.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from grader.batch import results as results_format
from grader.batch import worker
from grader.batch.discovery import Submission, install_submission
from grader.batch.sandbox import Limits, StepOutcome, limit_arguments, run_step

# The row statuses, from best to worst news.
GRADED = results_format.GRADED
TIMED_OUT = results_format.TIMED_OUT
MEMORY_EXCEEDED = results_format.MEMORY_EXCEEDED
CRASHED = results_format.CRASHED
IMPORT_ERROR = results_format.IMPORT_ERROR
INVALID_RESULTS = "invalid_results"
NO_SUBMISSION = "no_submission"
STATUSES = (
    GRADED,
    TIMED_OUT,
    MEMORY_EXCEEDED,
    CRASHED,
    IMPORT_ERROR,
    INVALID_RESULTS,
    NO_SUBMISSION,
)

KIT_ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True, slots=True)
class Row:
    """What the batch knows about one submission: its status and, when it was graded, the
    report (the grader's ``--json`` format) and the properties it broke, as ``(task id,
    sentence)`` pairs, all received over the signed channel."""

    id: str
    status: str
    report: dict[str, Any] | None = None
    broken: tuple[tuple[str, str], ...] = ()


def grade_submission(submission: Submission, limits: Limits, logs_dir: Path) -> Row:
    """Probe, then grade, one submission in a fresh sandbox that is deleted afterwards.

    Args:
        submission: the submission to grade.
        limits: memory, output and time limits for each step.
        logs_dir: where ``<id>.log`` collects what the submission printed.

    Returns:
        The submission's row.
    """
    if submission.source is None:
        return Row(submission.id, NO_SUBMISSION)
    sandbox = Path(tempfile.mkdtemp(prefix="grader-sandbox-"))
    try:
        install_submission(submission.source, sandbox)
        log_path = logs_dir / f"{submission.id}.log"
        status = probe_status(probe(sandbox, log_path, limits))
        if status is not None:
            return Row(submission.id, status)
        key = secrets.token_bytes(32)
        return row_from_grading(submission.id, grade(sandbox, log_path, limits, key), key)
    finally:
        shutil.rmtree(sandbox, ignore_errors=True)


def probe(sandbox: Path, log_path: Path, limits: Limits) -> StepOutcome:
    """Run the import-only step within the import time limit."""
    return run_step(
        ["probe", *limit_arguments(limits)],
        sandbox=sandbox,
        kit_root=KIT_ROOT,
        log_path=log_path,
        stdin=b"",
        seconds=limits.import_seconds,
    )


def grade(sandbox: Path, log_path: Path, limits: Limits, key: bytes) -> StepOutcome:
    """Run the grading step within the grading time limit, handing it the signing key."""
    return run_step(
        ["grade", *limit_arguments(limits)],
        sandbox=sandbox,
        kit_root=KIT_ROOT,
        log_path=log_path,
        stdin=key.hex().encode("ascii") + b"\n",
        seconds=limits.grading_seconds,
    )


def probe_status(outcome: StepOutcome) -> str | None:
    """Return the row status an import problem earns, or None when the import went fine."""
    if outcome.timed_out:
        return TIMED_OUT
    if outcome.returncode == 0 and outcome.channel == worker.IMPORTED:
        return None
    if outcome.channel == worker.MEMORY_EXCEEDED:
        return MEMORY_EXCEEDED
    if outcome.channel == worker.IMPORT_ERROR:
        return IMPORT_ERROR
    # It exited (or was killed) during import without finishing it.
    return CRASHED


def row_from_grading(submission_id: str, outcome: StepOutcome, key: bytes) -> Row:
    """Turn the grading step's outcome into a row, trusting only correctly signed results."""
    if outcome.timed_out:
        return Row(submission_id, TIMED_OUT)
    if not outcome.channel:
        return Row(submission_id, CRASHED)
    envelope = verified_envelope(outcome.channel, key)
    if envelope is None:
        return Row(submission_id, INVALID_RESULTS)
    broken = tuple((str(task), str(sentence)) for task, sentence in envelope["broken"])
    return Row(submission_id, envelope["status"], envelope["report"], broken)


def verified_envelope(message: bytes, key: bytes) -> dict[str, Any] | None:
    """Return the envelope in ``<hmac>\\n<json>``, or None unless it is signed and well formed."""
    signature, _, payload = message.partition(b"\n")
    expected = hmac.new(key, payload, hashlib.sha256).hexdigest().encode("ascii")
    if not hmac.compare_digest(signature, expected):
        return None
    try:
        envelope = json.loads(payload)
    except ValueError:
        return None
    well_formed = (
        isinstance(envelope, dict)
        and envelope.get("status") in STATUSES
        and isinstance(envelope.get("report"), dict)
        and isinstance(envelope.get("broken"), list)
    )
    return envelope if well_formed else None
