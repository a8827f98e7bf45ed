"""The sandboxed import probe names what went wrong when a submission cannot even load."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from grader.batch import runner
from grader.batch.discovery import install_submission
from grader.batch.sandbox import Limits

PROBE_LIMITS = Limits(memory_mb=512, output_mb=1, import_seconds=5.0)


def probe_source(tmp_path, source: str) -> str | None:
    """Install ``source`` as a submission in a fresh sandbox and return the probe's status."""
    submission = tmp_path / "submission.py"
    submission.write_text(source)
    sandbox = tmp_path / "sandbox"
    sandbox.mkdir()
    install_submission(submission, sandbox)
    outcome = runner.probe(sandbox, tmp_path / "probe.log", PROBE_LIMITS)
    return runner.probe_status(outcome)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("def create_event_log():\n    return ()\n", None),
        ("while True:\n    pass\n", runner.TIMED_OUT),
        ("hog = bytearray(10 * 1024**3)\n", runner.MEMORY_EXCEEDED),
        ("import os\nos._exit(0)\n", runner.CRASHED),
        ("import sys\nsys.exit(0)\n", runner.CRASHED),
        ("def broken(:\n", runner.IMPORT_ERROR),
        ("import a_module_nobody_wrote\n", runner.IMPORT_ERROR),
        ("print('imported')\nimport os\nos._exit(0)\n", runner.CRASHED),
        ("print('x' * 5_000_000)\n", runner.CRASHED),
    ],
    ids=[
        "fine",
        "loops at import",
        "allocates 10 GB",
        "os._exit at import",
        "sys.exit at import",
        "syntax error",
        "missing import",
        "prints the probe's word then exits",
        "floods its output",
    ],
)
def test_probe_status_names_the_import_problem(tmp_path, source, expected):
    assert probe_source(tmp_path, source) == expected


def signed(key: bytes, payload: bytes) -> bytes:
    """A message as the grading worker sends it: ``<hmac>\\n<payload>``."""
    return hmac.new(key, payload, hashlib.sha256).hexdigest().encode() + b"\n" + payload


ENVELOPE = b'{"status": "graded", "broken": [], "report": {"score": 3}}'


def test_an_envelope_with_a_wrong_signature_is_not_trusted():
    assert runner.verified_envelope(signed(b"k" * 32, ENVELOPE), b"x" * 32) is None


def test_a_signed_envelope_that_is_malformed_is_not_trusted():
    key = b"k" * 32
    assert runner.verified_envelope(signed(key, b'{"status": "excellent"}'), key) is None


def test_a_signed_well_formed_envelope_is_read():
    key = b"k" * 32
    envelope = runner.verified_envelope(signed(key, ENVELOPE), key)
    assert envelope == {"status": "graded", "broken": [], "report": {"score": 3}}
