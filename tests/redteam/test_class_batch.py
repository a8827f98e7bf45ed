"""One real batch under bubblewrap: every attack of a hostile class, the honest controls
beside them, and the files whose names and answers try to break the outputs.

The batch runs once, as an instructor runs it (``python -m grader batch``), over a folder
that mixes the attacks of :mod:`tests.redteam.classic` and :mod:`tests.redteam.hostile`
with correct, wrong and misbehaving submissions. Each test then reads one fact: a row, an
output file, or what is left on the machine ten seconds after the batch has exited.
"""

from __future__ import annotations

import csv
import json
import secrets
from collections.abc import Iterator
from typing import Any

import pytest

from tests.redteam import batch, classic
from tests.redteam.conftest import need_bwrap
from tests.redteam.hostile import ALIASING, REACHED, control_of, route_controls, with_every_route
from tests.redteam.hostile import mutant as mutant_source

# A batch takes minutes (more on a busy machine): past the suite's 300 s per test.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(2400)]

#: Every submission's row (status, score). Attacks earn nothing, or (the ones that attack
#: their own buggy code) no more than the same bug alone; controls earn what they deserve.
ATTACKS: dict[str, tuple[str, int]] = {
    "imports_solutions": ("import_error", 0),
    "imports_the_oracle": ("import_error", 0),
    "execs_the_solutions_source": ("tampered", 0),
    "execs_a_classmate": ("import_error", 0),  # not in the sandbox at all
    "prints_full_marks": ("graded", 0),
    "writes_results_files": ("graded", 0),
    "reads_the_grader_s_memory": ("tampered", 0),
    "kills_its_parent": ("tampered", 0),
    "shadows_the_grader": ("graded", 0),
    "overwrites_a_classmate": ("graded", 0),
    "outlives_the_batch": ("tampered", 0),
    "fork_bomb": ("tampered", 0),
    "takes_memory_in_threads_and_processes": ("tampered", 0),
    "floods_the_pipe": ("protocol_error", 0),
    "forges_answers": ("protocol_error", 0),
    "closes_the_pipes": ("crashed", 0),
    "answers_nothing_but_a_hundred_megabytes": ("protocol_error", 0),
    "calls_home": ("tampered", 0),
    "writes_to_tmp_and_shm": ("tampered", 0),
}
#: Attacks on their own buggy code: the id of the same bug alone, and the attack's status.
SELF_ATTACKS: dict[str, tuple[str, str]] = {
    # (A keys() that never ends is too large to read: graded. Read whole, it was stopped by
    # the memory limit or the CPU limit, whichever came first on the machine of the day.)
    "lies_with_values": ("control_payload_shared_mutable", "graded"),
    "restores_the_callers_dict": ("control_payload_by_reference", "graded"),
    "caches_every_read_on_events_are_mutable": ("control_events_are_mutable", "graded"),
    "caches_every_read_on_payload_shared_mutable": ("control_payload_shared_mutable", "graded"),
}
for _name in (*ALIASING, "aliasing_everywhere"):
    SELF_ATTACKS[f"every_route_on_{_name}"] = (control_of(f"every_route_on_{_name}"), "tampered")
CONTROLS: dict[str, tuple[str, int]] = {
    "correct": ("graded", 100),
    "victim": ("graded", 100),
    "correct_package": ("graded", 100),
    "exercise_files": ("graded", 100),
    "stub_package": ("graded", 0),
    "imports_fractions_decimal_dataclasses_typing": ("graded", 100),
    "wrong_replay": ("graded", 80),
    "loops_at_import": ("timed_out", 0),
    "loops_in_list_sessions": ("timed_out", 80),
    "allocates_10gb_at_import": ("memory_exceeded", 0),
    "allocates_10gb_in_replay": ("memory_exceeded", 80),
    "exits_at_import": ("crashed", 0),
    "exits_in_replay": ("crashed", 80),
    "syntax_error": ("import_error", 0),
    # Attacks on the pipes beside correct code: they cost the tasks they hit, no more. The
    # request pipe is empty while learner code runs, and a non-blocking flag is put back
    # (tests/redteam/test_pipe_flags.py): stealing costs nothing.
    "steals_requests": ("graded", 100),
    "puts_dev_null_over_the_pipes": ("graded", 80),
    "answers_a_hundred_megabytes": ("protocol_error", 60),
    # The bugs the self-attacks are measured against (their honest rows).
    "control_payload_by_reference": ("graded", 40),
    "control_payload_shared_mutable": ("graded", 60),
    "control_old_log_changed": ("graded", 0),
    "control_reads_hand_out_the_logs_list": ("graded", 80),
    "control_events_are_mutable": ("graded", 60),
    "control_replay_cached": ("graded", 80),
    "control_aliasing_everywhere": ("graded", 0),
    # Text that must not break the outputs (a lone surrogate; 40 MB of it).
    "surrogates": ("graded", 60),
    "forty_megabytes_of_text": ("crashed", 20),
}
#: The odd names: the id each gets, its row, and whether a spreadsheet would run it.
NAMES: dict[str, tuple[str, int]] = {
    "caf\\xe9": ("graded", 0),
    "twin": ("graded", 0),  # the folder twin/ (stubs) sorts before twin.py
    "twin~2": ("graded", 100),
    "Case": ("graded", 0),
    "case~2": ("graded", 0),
    "e\u0301te\u0301": ("graded", 0),  # the NFD spelling sorts first (its bytes do)
    "\u00e9t\u00e9~2": ("graded", 0),
    "deep": ("no_submission", 0),
    "hard_link": ("no_submission", 0),
    '=HYPERLINK("evil","click")': ("graded", 100),
    "@SUM(1+1)": ("graded", 0),
    "+cmd": ("graded", 0),
    "-2+3": ("graded", 0),
    "\tstarts_with_a_tab": ("graded", 0),
    "\\rstarts_with_a_return": ("graded", 0),
}
FORMULAS = ('=HYPERLINK("evil","click")', "@SUM(1+1)", "+cmd", "-2+3", "\tstarts_with_a_tab")
SECRET = "TOP-SECRET-"


@pytest.fixture(scope="module")
def class_batch(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """Run the batch once; fingerprint what it must not change; look for what it left."""
    need_bwrap()
    marker = f"redteam-{secrets.token_hex(4)}"
    root = tmp_path_factory.mktemp("class")
    submissions, out = root / "submissions", root / "out"
    submissions.mkdir()
    secret = root / "secret.txt"
    secret.write_text(SECRET + marker)
    secret.chmod(0o600)
    listener = batch.Listener()
    sources = {
        **classic.controls(),
        **classic.attacks(submissions, out, listener.port, marker),
        **route_controls(),
        **{f"every_route_on_{name}.py": with_every_route(mutant_source(name)) for name in ALIASING},
        "surrogates.py": classic.SURROGATES,
        "forty_megabytes_of_text.py": classic.FORTY_MEGABYTES,
    }
    sources["every_route_on_aliasing_everywhere.py"] = with_every_route(
        route_controls()["control_aliasing_everywhere.py"]
    )
    for name, source in sources.items():
        (submissions / name).write_text(source)
    classic.packages(submissions)
    classic.odd_names(submissions, secret)
    kit = {part: batch.KIT_ROOT / part for part in batch.KIT_PARTS}
    run = batch.run(submissions, out, *batch.PATIENT, watch={"out": out,
                    "submissions": submissions, **kit})  # fmt: skip
    listener.close()
    yield {"run": run, "marker": marker, "heard": list(listener.heard), "out": out}
    batch.remove(submissions)  # 1,200 deep: pytest's own clean-up would recurse past its limit


def row(class_batch: dict[str, Any], row_id: str) -> tuple[str, int]:
    found = class_batch["run"].rows[row_id]
    return found["status"], int(found["score"])


def test_the_batch_ran_in_the_sandbox_and_said_so(class_batch: dict[str, Any]) -> None:
    run = class_batch["run"]
    assert run.finished.returncode == 0, run.finished.stdout + run.finished.stderr
    assert run.finished.stdout.startswith("Learner code ran in a bubblewrap sandbox")
    assert {found["isolation"] for found in run.rows.values()} == {"bwrap"}


def test_every_submission_has_a_row_and_no_other_row_exists(class_batch: dict[str, Any]) -> None:
    expected = {*ATTACKS, *SELF_ATTACKS, *CONTROLS, *NAMES}
    assert set(class_batch["run"].rows) == expected


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_an_attack_earns_nothing_and_gets_its_own_status(
    class_batch: dict[str, Any], attack: str
) -> None:
    expected = ATTACKS[attack]
    if attack in UNDER_TMP and batch.KIT_ROOT.is_relative_to("/tmp"):
        expected = UNDER_TMP[attack]
    assert row(class_batch, attack) == expected


#: Where the kit itself lives under /tmp (a clone there), the sandbox's own private /tmp hides
#: it: the path the attack names is simply absent, so it fails to import, still with nothing.
UNDER_TMP = {"execs_the_solutions_source": ("import_error", 0)}


#: Open findings, for the engine's properties (not the red team's to change): each is marked
#: xfail(strict=True), so the test turns into a failure the day one is fixed and its marker goes.
#: (Reads answered from a per-(log, arguments) cache used to hide an aliased change from task 2;
#: since the engine reads a changed log back with arguments never used before, they do not.)
OPEN: dict[str, str] = {}


@pytest.mark.parametrize(
    "attack",
    [
        pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=OPEN[name]))
        if name in OPEN
        else name
        for name in sorted(SELF_ATTACKS)
    ],
)
def test_buggy_code_that_attacks_the_grader_earns_no_more_than_the_bug_alone(
    class_batch: dict[str, Any], attack: str
) -> None:
    control, status = SELF_ATTACKS[attack]
    assert row(class_batch, attack)[0] == status
    assert row(class_batch, attack)[1] <= row(class_batch, control)[1]
    assert REACHED not in class_batch["run"].log(attack)


@pytest.mark.parametrize("control", sorted(CONTROLS))
def test_a_control_gets_the_row_it_earned(class_batch: dict[str, Any], control: str) -> None:
    assert row(class_batch, control) == CONTROLS[control]


@pytest.mark.parametrize("name", sorted(NAMES))
def test_an_odd_name_gets_a_row_of_its_own(class_batch: dict[str, Any], name: str) -> None:
    assert row(class_batch, name) == NAMES[name]


def test_a_gradebook_cell_a_spreadsheet_would_run_starts_with_a_quote(
    class_batch: dict[str, Any],
) -> None:
    with (class_batch["out"] / "gradebook.csv").open(newline="", encoding="utf-8") as file:
        cells = [line["id"] for line in csv.DictReader(file)]
    for formula in FORMULAS:
        assert "'" + formula in cells
    assert not [cell for cell in cells if cell[:1] in ("=", "+", "-", "@", "\t", "\r")]


def test_every_row_has_its_results_file_and_each_is_small_and_valid_utf_8(
    class_batch: dict[str, Any],
) -> None:
    run = class_batch["run"]
    for row_id in run.rows:
        data = run.results(row_id).read_bytes()
        assert len(data) < 1_000_000, row_id
        json.loads(data.decode("utf-8"))  # strict: a lone surrogate would not decode


def test_text_sent_by_a_child_is_escaped_and_cut_in_every_output(
    class_batch: dict[str, Any],
) -> None:
    run, out = class_batch["run"], class_batch["out"]
    assert "\\ud800" in run.results("surrogates").read_text(encoding="utf-8")
    assert len(run.log("forty_megabytes_of_text")) < 300_000
    for name in ("gradebook.csv", "summary.md"):
        (out / name).read_text(encoding="utf-8")  # strict UTF-8


def test_the_hard_linked_secret_is_in_no_output(class_batch: dict[str, Any]) -> None:
    leaked = [path for path in batch.walk(class_batch["out"])
              if path.is_file() and SECRET.encode() in path.read_bytes()]  # fmt: skip
    assert leaked == []


def test_no_log_says_it_reached_the_kernel(class_batch: dict[str, Any]) -> None:
    logs = batch.walk(class_batch["out"] / "logs")
    assert [path.name for path in logs if REACHED.encode() in path.read_bytes()] == []


def test_the_summary_names_the_submissions_caught_tampering(class_batch: dict[str, Any]) -> None:
    summary = (class_batch["out"] / "summary.md").read_text()
    tampered = [
        rid for rid, found in class_batch["run"].rows.items() if found["status"] == "tampered"
    ]
    assert tampered and all(f"- {rid}:" in summary for rid in tampered)


def test_nothing_changes_after_the_batch_has_exited(class_batch: dict[str, Any]) -> None:
    run = class_batch["run"]
    assert run.later == run.at_exit


def test_the_class_folder_and_the_kit_are_as_they_were_before_the_batch(
    class_batch: dict[str, Any],
) -> None:
    run = class_batch["run"]
    assert {k: v for k, v in run.at_exit.items() if k != "out"} == {
        k: v for k, v in run.before.items() if k != "out"
    }


def test_no_process_a_submission_started_is_alive_ten_seconds_later(
    class_batch: dict[str, Any],
) -> None:
    assert class_batch["run"].survivors == []
    assert batch.marked_processes(class_batch["marker"]) == []


def test_nothing_a_submission_wrote_is_left_in_the_shared_temporary_folders(
    class_batch: dict[str, Any],
) -> None:
    assert batch.marked_files(class_batch["marker"]) == []


def test_no_submission_reached_the_host_s_network(class_batch: dict[str, Any]) -> None:
    assert class_batch["heard"] == []


def test_the_forged_scores_are_nowhere_in_the_results(class_batch: dict[str, Any]) -> None:
    run = class_batch["run"]
    for row_id in ("writes_results_files", "outlives_the_batch", "prints_full_marks"):
        assert '"score": 500' not in run.results(row_id).read_text()
        assert row(class_batch, row_id)[1] == 0


def test_the_buggy_code_behind_the_attacks_shows_its_bug(class_batch: dict[str, Any]) -> None:
    # The controls are the measure: a control with full marks would prove nothing.
    for control in {control for control, _ in SELF_ATTACKS.values()}:
        assert row(class_batch, control)[1] < 100, control
