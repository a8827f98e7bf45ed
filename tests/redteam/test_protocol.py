"""A kernel that answers nonsense costs its own submission, as ``protocol_error``.

Learner code cannot make a MAC, so what an authenticated answer holds was written by the
kernel. But a kernel that learner code had taken over would say anything, so the trusted
side must never believe an answer's shape: each test starts a child whose kernel has been
altered to send one kind of nonsense, correctly authenticated, and grades a correct file.
The verdict must be ``protocol_error`` with no points for what the nonsense touched, and
never "the grader itself failed".
"""

from __future__ import annotations

from pathlib import Path

import pytest

import grader.kernel
from grader.engine.outcomes import Cause, Verdict
from grader.run import grade
from grader.settings import Settings
from grader.tasks import select
from tests.redteam.hostile import CORRECT

#: Kernel files run after the real ones (before ``serve`` starts), each replacing one of the
#: kernel's functions by one that sends nonsense.
NONSENSE = {
    # A tag the trusted side has never heard of, in every value.
    "unknown_tag": """
_real_observed = _observed
def _observed(value, kind):
    answer = yield from _real_observed(value, kind)
    return {"value": {"$bogus": [1, 2]}} if "value" in answer else answer
""",
    # A value nested 900 deep (deeper than the trusted side's recursion would like).
    "nested_900_deep": """
def _observed(value, kind):
    deep = "leaf"
    for _ in range(900):
        deep = [deep]
    return {"value": deep}
    yield
""",
    # An answer that is not a dict, and parts that are not what the step asked.
    "parts_of_the_wrong_shape": """
def _step(step):
    return [1, "two", None]
    yield
""",
    # Valid JSON, wrong fields: an observation of an event that is not four fields.
    "events_of_the_wrong_shape": """
_real_observed = _observed
def _observed(value, kind):
    if kind in ("event", "events"):
        return {"value": [[1, 2], "x", {"$dict": "not pairs"}]}
    return (yield from _real_observed(value, kind))
""",
    # An integer JSON can carry but Python will not parse (more than 4,300 digits).
    "an_integer_too_long_to_read": """
import sys
sys.set_int_max_str_digits(0)
_real_observed = _observed
def _observed(value, kind):
    if kind == "list":
        return {"value": 10**5000}
    return (yield from _real_observed(value, kind))
""",
    # Reports that are not lists of dicts of strings.
    "reports_of_the_wrong_shape": """
def _after_request():
    return {"reports": [[1], "x", {"event": ["not", "text"]}, {"a": {"b": 1}}]}
""",
    # Faults: the kernel's word that the grader failed, beside a wrong answer.
    "faults_claimed_by_the_kernel": """
_real_observed = _observed
def _observed(value, kind):
    if kind == "list":
        return {"value": ["not", "what", "was", "asked"]}
    return (yield from _real_observed(value, kind))

def _after_request():
    return {"reports": [], "faults": ["the guard failed: please regrade me by hand"]}
""",
    # Lines that are authenticated but not JSON at all (each step's answer, as it is sent).
    "garbage_lines": """
_real_encode = encode
def encode(answer):
    return b"\\x00\\xff garbage [[[{" * 10 if "value" in answer else _real_encode(answer)
""",
    # Parts for steps that were never asked, and a done that is not a dict.
    "too_many_parts": """
def run_request(request, emit):
    examples = request["examples"]
    if type(examples) is bytes:
        examples = _marshal_loads(examples)
    for _ in range(sum(map(len, examples)) + 5):
        emit({"value": []})
""",
}


@pytest.fixture
def correct_file(tmp_path: Path) -> Path:
    path = tmp_path / "correct.py"
    path.write_text(CORRECT)
    return path


#: Verdicts other than protocol_error that are right for a kind of nonsense: reports are the
#: kernel's own claim of tampering, and cost the submission everything too.
ALSO_RIGHT = {"reports_of_the_wrong_shape": {Verdict.TAMPERED}}
#: Open findings (none now: an answer nested 900 deep and a kernel's claimed faults are each a
#: broken protocol): each would be marked xfail(strict=True) until fixed.
OPEN: dict[str, str] = {}


@pytest.mark.parametrize(
    "nonsense",
    [
        pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=OPEN[name]))
        if name in OPEN
        else name
        for name in sorted(NONSENSE)
    ],
)
def test_a_kernel_that_answers_nonsense_is_a_protocol_error_never_a_grader_failure(
    nonsense: str, correct_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = grader.kernel.sources

    def hostile_sources(files: tuple[str, ...] = grader.kernel.FILES) -> list[tuple[str, str]]:
        # After every kernel file but serve's start: the replacement is what serve calls.
        return [*real(files), ("<kernel:hostile>", NONSENSE[nonsense])]

    monkeypatch.setattr(grader.kernel, "sources", hostile_sources)
    tasks = select(["append_and_ids", "list_sessions"])
    settings = Settings(isolation="none", example_seconds=10, task_seconds=60)
    # In full mode, so that each answer reaches the trusted side as the kernel built it (in
    # digest mode the kernel's own digest of a nonsense answer fails first, and it dies).
    report = grade(str(correct_file), tasks, settings, full=True)
    causes = {r.failure.promise for r in report.results if r.failure is not None}
    assert f"cause.{Cause.GRADER.value}" not in causes, report
    assert report.verdict in {Verdict.PROTOCOL_ERROR, *ALSO_RIGHT.get(nonsense, ())}, report
    assert report.score < report.max_score
