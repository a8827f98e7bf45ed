"""A batch mixing correct, wrong and hostile submissions gives each the row it earned.

The batch runs once for the whole module (it takes a while: every submission is graded in
its own processes). Each test then reads one row, or one output file, of that batch.
"""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

from grader.batch import Limits, run_batch

KIT_ROOT = Path(__file__).resolve().parents[2]
CORRECT = KIT_ROOT / "tests" / "implementations" / "correct" / "c01_namedtuple_events.py"
WRONG_REPLAY = KIT_ROOT / "tests" / "implementations" / "wrong" / "w18_replay_no_merge.py"
TASKS = ["append_and_ids", "read_and_resume", "list_sessions", "replay", "reject_bad_input"]

# Short limits keep the batch quick; the hostile submissions hit them on purpose.
LIMITS = Limits(memory_mb=1024, import_seconds=5, task_seconds=2, grading_seconds=60)

STUBS = """\
def create_event_log():
    raise NotImplementedError
def append_event(log, session_id, event_type, payload):
    raise NotImplementedError
def get_events_for_session(log, session_id, after_event_id=0):
    raise NotImplementedError
def list_sessions(log):
    raise NotImplementedError
def replay_session(log, session_id):
    raise NotImplementedError
"""

FULL_MARKS = {"version": 3, "status": "pass", "score": 100, "max_score": 100, "tests": []}


def correct_with(override: str) -> str:
    """The correct implementation with one function redefined at the end."""
    return CORRECT.read_text() + "\n\n" + override


def writes_fake_results(out_dir: Path) -> str:
    """Stubs that, at import, write full-marks results where the batch might look."""
    fake = json.dumps(FULL_MARKS)
    row = "id,score,max_score,status\\nwrites_fake_results,100,100,graded\\n"
    return (
        f"""
import pathlib
for folder in (pathlib.Path.cwd(), pathlib.Path({str(out_dir)!r})):
    (folder / "results").mkdir(parents=True, exist_ok=True)
    (folder / "results.json").write_text({fake!r})
    (folder / "results" / "writes_fake_results.json").write_text({fake!r})
    (folder / "gradebook.csv").write_text({row!r})
"""
        + STUBS
    )


PRINTS_FAKE_RESULTS = f"""
import json
print("0" * 64)
print(json.dumps({{"status": "graded", "broken": [], "report": {FULL_MARKS!r}}}))
""" + STUBS.replace("raise NotImplementedError", "print('{{\\\"score\\\": 100}}'); return ()")

# In the grading step the submission runs in a child of the signing worker: it writes a
# forged message straight into the worker's result pipe through /proc.
FORGES_THE_CHANNEL = (
    """
import os
parent = os.getppid()
with open(f"/proc/{parent}/cmdline", "rb") as cmdline:
    grading = b"grade" in cmdline.read()
if grading:
    with open(f"/proc/{parent}/fd/1", "wb") as channel:
        channel.write(b"0" * 64 + b'\\n{"status": "graded", "broken": [], "report": {}}\\n')
"""
    + STUBS
)

SUBMISSIONS = {
    "correct.py": CORRECT.read_text(),
    "wrong_replay.py": WRONG_REPLAY.read_text(),
    "folder_with_one_file/work.py": CORRECT.read_text(),
    "loops_at_import.py": "while True:\n    pass\n",
    "loops_in_list_sessions.py": correct_with(
        "def list_sessions(log):\n    while True:\n        pass\n"
    ),
    "allocates_10gb_at_import.py": "hog = bytearray(10 * 1024**3)\n",
    "allocates_10gb_in_replay.py": correct_with(
        "def replay_session(log, session_id):\n    return bytearray(10 * 1024**3)\n"
    ),
    "exits_at_import.py": "import os\nos._exit(0)\n",
    "exits_in_replay.py": correct_with(
        "def replay_session(log, session_id):\n    import os\n    os._exit(0)\n"
    ),
    "syntax_error.py": "def create_event_log(:\n",
    "prints_fake_results.py": PRINTS_FAKE_RESULTS,
    "forges_the_channel.py": FORGES_THE_CHANNEL,
}


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    """Run the batch once; return the output folder."""
    submissions = tmp_path_factory.mktemp("submissions")
    out_dir = tmp_path_factory.mktemp("out")
    for relative_path, source in SUBMISSIONS.items():
        path = submissions / relative_path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)
    (submissions / "writes_fake_results.py").write_text(writes_fake_results(out_dir))
    shutil.copytree(
        KIT_ROOT / "exercises",
        submissions / "stub_package",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    run_batch(submissions, out_dir, LIMITS, show_progress=False)
    return out_dir


@pytest.fixture(scope="module")
def gradebook(batch):
    """The gradebook's rows by submission id."""
    with (batch / "gradebook.csv").open(newline="") as file:
        return {row["id"]: row for row in csv.DictReader(file)}


def points(row: dict[str, str]) -> dict[str, int]:
    return {task: int(row[task]) for task in TASKS}


def test_every_submission_gets_exactly_one_row(gradebook):
    expected = {Path(name).parts[0].removesuffix(".py") for name in SUBMISSIONS}
    assert set(gradebook) == expected | {"writes_fake_results", "stub_package"}


@pytest.mark.parametrize("submission", ["correct", "folder_with_one_file"])
def test_a_correct_submission_gets_full_marks(gradebook, submission):
    row = gradebook[submission]
    assert (row["status"], row["score"], row["max_score"]) == ("graded", "100", "100")


def test_a_wrong_submission_loses_only_the_task_it_breaks(gradebook):
    row = gradebook["wrong_replay"]
    assert row["status"] == "graded"
    assert points(row) == {task: 0 if task == "replay" else 20 for task in TASKS}


def test_a_package_of_stubs_is_graded_with_no_points(gradebook):
    assert (gradebook["stub_package"]["status"], gradebook["stub_package"]["score"]) == (
        "graded",
        "0",
    )


@pytest.mark.parametrize(
    ("submission", "status"),
    [
        ("loops_at_import", "timed_out"),
        ("allocates_10gb_at_import", "memory_exceeded"),
        ("exits_at_import", "crashed"),
        ("syntax_error", "import_error"),
    ],
)
def test_a_submission_that_cannot_load_gets_its_status_and_no_points(gradebook, submission, status):
    row = gradebook[submission]
    assert (row["status"], row["score"]) == (status, "0")


@pytest.mark.parametrize(
    ("submission", "status", "task"),
    [
        ("loops_in_list_sessions", "timed_out", "list_sessions"),
        ("allocates_10gb_in_replay", "memory_exceeded", "replay"),
        ("exits_in_replay", "crashed", "replay"),
    ],
)
def test_a_function_that_misbehaves_loses_its_task_and_names_the_status(
    gradebook, submission, status, task
):
    row = gradebook[submission]
    assert row["status"] == status
    assert points(row)[task] == 0


@pytest.mark.parametrize("submission", ["writes_fake_results", "prints_fake_results"])
def test_faked_results_earn_nothing(gradebook, submission):
    row = gradebook[submission]
    assert (row["status"], row["score"]) == ("graded", "0")


def test_a_forged_message_on_the_result_pipe_is_detected(gradebook):
    row = gradebook["forges_the_channel"]
    assert (row["status"], row["score"]) == ("invalid_results", "0")


def test_files_a_submission_wrote_into_the_output_folder_are_replaced(batch):
    report = json.loads((batch / "results" / "writes_fake_results.json").read_text())
    assert report["score"] == 0


def test_each_submission_has_a_report_in_the_grader_json_format(batch, gradebook):
    for submission_id, row in gradebook.items():
        report = json.loads((batch / "results" / f"{submission_id}.json").read_text())
        assert (report["version"], report["score"]) == (3, int(row["score"]))


def test_the_summary_names_the_property_the_wrong_submission_broke(batch):
    summary = (batch / "summary.md").read_text()
    assert "| replay |" in summary
