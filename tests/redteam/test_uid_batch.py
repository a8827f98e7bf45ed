"""A class graded with uid isolation (no bubblewrap, the grader root): what the file system
itself refuses, below the guard.

Learner code then runs as a uid of its own on the machine's own file system, its own
network only where ``unshare`` works. The guard refuses it every file outside its copy,
the standard library and its temporary folder; these tests check that the file system
refuses it too while the batch runs (the whole kit with its tests' correct files and its
git history, the class folder, the previous outputs), that a correct file using the
standard library gets full marks with an interpreter under a private home, and that
nothing a submission starts or writes outlives its grading.
"""

from __future__ import annotations

import secrets
import threading
import time
from typing import Any

import pytest

from grader.transport import protect
from tests.redteam import batch, classic
from tests.redteam.conftest import need, need_root, uid_usable
from tests.redteam.hostile import KIT_ROOT, mutant, with_every_route
from tests.redteam.probe_as_a_user import readable

#: What a learner must never read, kit-side (the rest is made per run).
KIT_SECRETS = (
    "solutions/event_log.py",
    "tests/implementations/correct/c01_namedtuple_events.py",
    "grader/engine/oracle.py",
    "eventlog",
)
STDLIB_USER = "imports_fractions_decimal_dataclasses_typing.py"


# A batch takes minutes (more on a busy machine): past the suite's 300 s per test.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200)]


@pytest.fixture(scope="module")
def uid_batch(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    need_root()
    need(uid_usable(), "uid isolation has no interpreter other users can read here")
    marker = f"redteam-{secrets.token_hex(4)}"
    root = tmp_path_factory.mktemp("uid")
    submissions, out = root / "submissions", root / "out"
    submissions.mkdir()
    # The previous run's outputs: another learner's results, readable to nobody but root
    # while this batch runs.
    (out / "results").mkdir(parents=True)
    (out / "results" / "someone_else.json").write_text('{"score": 100}')
    listener = batch.Listener()
    hostile = classic.attacks(submissions, out, listener.port, marker)
    chosen = ("writes_to_tmp_and_shm.py", "outlives_the_batch.py", "fork_bomb.py",
              "calls_home.py", "reads_the_grader_s_memory.py")  # fmt: skip
    sources = {name: hostile[name] for name in chosen}
    sources["correct_with_the_stdlib.py"] = classic.controls()[STDLIB_USER]
    sources["loops_at_import.py"] = "while True:\n    pass\n"  # keeps the batch running a while
    sources["control_payload_shared_mutable.py"] = mutant("payload_shared_mutable")
    sources["every_route.py"] = with_every_route(mutant("payload_shared_mutable"))
    for name, source in sources.items():
        (submissions / name).write_text(source)
    secrets_paths = [str(KIT_ROOT / part) for part in KIT_SECRETS]
    secrets_paths += [str(folder) for folder in protect.kit_folders(KIT_ROOT)[1:]]
    secrets_paths += [str(submissions / "every_route.py"), str(out / "results")]
    seen: dict[str, dict[str, str]] = {}

    def probe_while_it_runs() -> None:
        # Once the batch says it closed the folders, look as a user of the sandbox's range.
        stdout = out.parent / f".{out.name}.stdout"
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline:
            if stdout.exists() and "Closed to other users" in stdout.read_text(errors="replace"):
                seen["during"] = readable(secrets_paths)
                return
            time.sleep(0.2)

    prober = threading.Thread(target=probe_while_it_runs, daemon=True)
    prober.start()
    run = batch.run(submissions, out, "--isolation", "uid", *batch.PATIENT)
    prober.join(timeout=5)
    seen["after"] = readable(secrets_paths)
    listener.close()
    return {"run": run, "seen": seen, "marker": marker, "heard": listener.heard,
            "secrets": secrets_paths}  # fmt: skip


def test_the_batch_ran_with_a_uid_of_its_own_and_said_so(uid_batch: dict[str, Any]) -> None:
    run = uid_batch["run"]
    assert run.finished.returncode == 0, run.finished.stdout + run.finished.stderr
    assert "as a user of its own" in run.finished.stdout
    assert {row["isolation"] for row in run.rows.values()} == {"uid"}


def test_while_it_runs_the_file_system_refuses_the_kit_its_history_the_class_and_the_outputs(
    uid_batch: dict[str, Any],
) -> None:
    during = uid_batch["seen"].get("during")
    assert during is not None, "the batch never said it closed anything"
    assert {path: found for path, found in during.items() if found == "readable"} == {}


def test_afterwards_the_folders_are_open_again(uid_batch: dict[str, Any]) -> None:
    after = uid_batch["seen"]["after"]
    kit_file = str(KIT_ROOT / "solutions" / "event_log.py")
    assert after[kit_file] == "readable"


def test_a_correct_file_that_uses_the_standard_library_gets_full_marks(
    uid_batch: dict[str, Any],
) -> None:
    row = uid_batch["run"].rows["correct_with_the_stdlib"]
    assert (row["status"], int(row["score"])) == ("graded", 100)


@pytest.mark.parametrize(
    "attack",
    ["writes_to_tmp_and_shm", "outlives_the_batch", "fork_bomb", "calls_home",
     "reads_the_grader_s_memory", "every_route"],
)  # fmt: skip
def test_an_attack_earns_nothing_and_is_reported(uid_batch: dict[str, Any], attack: str) -> None:
    row = uid_batch["run"].rows[attack]
    assert (row["status"], int(row["score"])) == ("tampered", 0)


def test_every_route_reaches_nothing_of_the_kernel(uid_batch: dict[str, Any]) -> None:
    from tests.redteam.hostile import REACHED

    assert REACHED not in uid_batch["run"].log("every_route")


def test_nothing_a_submission_started_outlives_the_batch(uid_batch: dict[str, Any]) -> None:
    assert uid_batch["run"].survivors == []


def test_nothing_a_submission_wrote_is_left_in_the_shared_temporary_folders(
    uid_batch: dict[str, Any],
) -> None:
    assert batch.marked_files(uid_batch["marker"]) == []


def test_no_submission_reached_the_host_s_network(uid_batch: dict[str, Any]) -> None:
    assert uid_batch["heard"] == []
