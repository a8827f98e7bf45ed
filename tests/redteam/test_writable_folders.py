"""Nothing a submission writes outlives it, or goes past its budget, in any isolation.

Three batches of the same class (:mod:`tests.redteam.writers`: files through SQLite, memory
files, FIFOs, semaphores, a folder's descriptor; into ``/run/lock``, ``/var/lock``,
``/dev/shm`` past the memory limit and every folder any user may write here; a message left
for the next submission, which looks for it; a stack dump to tell the grader's checks from
its calls), graded as an instructor grades it: with a uid of its own and private folders
(``unshare --mount``), with a uid of its own and shared folders (no ``unshare`` on the PATH,
as in a container that cannot mount), and under bubblewrap. After each: every attack is
``tampered`` with nothing, the honest files earn what they earn, nothing with the run's
marker is left in any folder any user may write, and no process survives.

Then the same writes with the guard switched off, one submission each: what the file system
and the grader's own bookkeeping do alone. Private folders keep every write off the machine
and cap it; shared folders are measured, the submission is stopped and reported past its
budget, and everything is removed.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import grader.kernel
from grader.engine.outcomes import Report, Verdict
from grader.run import grade
from grader.settings import Settings
from grader.tasks import select
from grader.transport import isolation, mounts, writable
from tests.redteam import batch, writers
from tests.redteam.conftest import need, need_bwrap, need_root, uid_usable
from tests.redteam.gradescope import run_autograder, tools_without
from tests.redteam.hostile import BASE

# Batches take minutes (more on a busy machine): past the suite's 300 s per test.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(2400)]

MODES = ("uid_private", "uid_shared", "bwrap")
#: Every attack's row, in every mode: it tried something no honest solution does.
ATTACKS = ("writes_through_sqlite", "writes_without_an_open_event",
           "writes_to_run_lock_and_var_lock", "fills_dev_shm_past_the_memory_limit",
           "writes_to_every_writable_folder", "leaves_a_message_for_the_next_one",
           "dumps_its_stack_to_tell_a_check")  # fmt: skip
LOOKS = "zz_looks_for_a_message"


def need_mode(mode: str) -> None:
    if mode == "bwrap":
        need_bwrap()
        return
    need_root()
    need(uid_usable(), "uid isolation has no interpreter other users can read here")
    if mode == "uid_private":
        need(mounts.private_mounts_work(), "unshare --mount cannot mount a tmpfs here")


def folders() -> tuple[str, ...]:
    """Every folder any user may write here (found as the grader finds them)."""
    return writable.find().folders


def left_behind(marker: str, where: tuple[str, ...]) -> list[str]:
    """Every entry holding ``marker`` in ``where`` (and ``/var/lock``), however deep; other
    people's folders come and go meanwhile (the machine is shared), and are passed over."""
    found, pending = [], [*where, "/var/lock"]
    while pending:
        try:
            with os.scandir(pending.pop()) as listing:
                entries = list(listing)
        except OSError:
            continue
        for entry in entries:
            if marker in entry.name:
                found.append(entry.path)
            try:
                if entry.is_dir(follow_symlinks=False):
                    pending.append(entry.path)
            except OSError:
                continue
    return found


@pytest.fixture(scope="module", params=MODES)
def writers_batch(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Any]]:
    mode = request.param
    need_mode(mode)
    marker = f"redteam-{secrets.token_hex(4)}"
    root = tmp_path_factory.mktemp(mode)
    submissions, out = root / "submissions", root / "out"
    submissions.mkdir()
    where = folders() if mode != "bwrap" else ("/tmp",)
    sources = {**writers.attacks(marker, where), **writers.controls(marker, where)}
    for name, source in sources.items():
        (submissions / name).write_text(source)
    env = {}
    if mode == "uid_shared":
        tools = tools_without(root / "bin", ("bwrap", "unshare"))
        env["PATH"] = str(tools)
    flags = ("--isolation", "bwrap" if mode == "bwrap" else "uid", *batch.PATIENT)
    run = batch.run(submissions, out, *flags, env=env)
    yield {"mode": mode, "run": run, "marker": marker, "folders": folders()}


def row(found: dict[str, Any], row_id: str) -> tuple[str, int]:
    cells = found["run"].rows[row_id]
    return cells["status"], int(cells["score"])


def test_the_batch_ran_as_asked_and_said_how_it_kept_the_folders(
    writers_batch: dict[str, Any],
) -> None:
    run, mode = writers_batch["run"], writers_batch["mode"]
    assert run.finished.returncode == 0, run.finished.stdout + run.finished.stderr
    expected = {"uid_private": "a tmpfs of its own", "uid_shared": "shared with the machine",
                "bwrap": "bubblewrap sandbox"}[mode]  # fmt: skip
    assert expected in run.finished.stdout, run.finished.stdout
    assert {cells["isolation"] for cells in run.rows.values()} == {mode.split("_")[0]}


@pytest.mark.parametrize("attack", ATTACKS)
def test_an_attack_that_writes_around_the_guard_earns_nothing_and_is_reported(
    writers_batch: dict[str, Any], attack: str
) -> None:
    assert row(writers_batch, attack) == ("tampered", 0)
    summary = (writers_batch["run"].out / "summary.md").read_text()
    assert f"- {attack}:" in summary  # with what it tried


def test_telling_a_check_by_a_stack_dump_earns_no_more_than_the_bug_alone(
    writers_batch: dict[str, Any],
) -> None:
    attack = row(writers_batch, "dumps_its_stack_to_tell_a_check")
    assert attack[1] <= row(writers_batch, f"control_{BASE}")[1] < 100


@pytest.mark.parametrize("honest", ["correct", LOOKS])
def test_the_honest_files_earn_what_they_earn(writers_batch: dict[str, Any], honest: str) -> None:
    said = writers_batch["run"].results(honest).read_text()[:3000]
    assert row(writers_batch, honest) == ("graded", 100), said


def test_the_next_submission_finds_nothing_the_others_left(writers_batch: dict[str, Any]) -> None:
    log = writers_batch["run"].log(LOOKS)
    assert "FOUND []" in log, log[-2000:]


def test_nothing_any_submission_wrote_is_left_in_any_folder_anyone_may_write(
    writers_batch: dict[str, Any],
) -> None:
    assert left_behind(writers_batch["marker"], writers_batch["folders"]) == []


def test_no_submission_went_past_its_write_budget(writers_batch: dict[str, Any]) -> None:
    # The guard refused every route before a byte was written: nothing to charge.
    run = writers_batch["run"]
    assert [rid for rid in run.rows if writable.OVER_BUDGET in run.results(rid).read_text()] == []


def test_nothing_the_batch_started_survives_it(writers_batch: dict[str, Any]) -> None:
    assert writers_batch["run"].survivors == []


# --- the Gradescope zip where bubblewrap cannot run ---------------------------------------
@pytest.mark.parametrize("tools", ["no_bwrap", "no_bwrap_no_unshare"])
@pytest.mark.parametrize("attack", ["writes_through_sqlite", "fills_dev_shm_past_the_memory_limit",
                                    "leaves_a_message_for_the_next_one"])  # fmt: skip
def test_in_the_gradescope_fallback_an_attack_that_writes_earns_nothing_and_leaves_nothing(
    autograder: dict[str, Any], tools: str, attack: str
) -> None:
    # no_bwrap: a uid of its own with private folders; without unshare too: shared folders.
    marker = f"redteam-{secrets.token_hex(4)}"
    graded = run_autograder(autograder, writers.attacks(marker, folders())[f"{attack}.py"], tools)
    results = graded["results"]
    assert (results["score"], results["extra_data"]["verdict"]) == (0, "tampered"), results
    assert left_behind(marker, folders()) == []
    assert graded["survivors"] == []


# --- with the guard off: the file system and the grader's bookkeeping alone ----------------
NO_GUARD = """
def install(*args, **kwargs):
    pass

def _close_the_back_doors():
    pass
"""


@pytest.fixture
def guard_off(monkeypatch: pytest.MonkeyPatch) -> None:
    real = grader.kernel.sources

    def without_the_guard(files: tuple[str, ...] = grader.kernel.FILES) -> list[tuple[str, str]]:
        return [*real(files), ("<kernel:off>", NO_GUARD)]

    monkeypatch.setattr(grader.kernel, "sources", without_the_guard)


@pytest.fixture(params=MODES)
def mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    need_mode(request.param)
    isolation._uid_launcher.cache_clear()
    if request.param == "uid_shared":
        monkeypatch.setattr(mounts, "private_mounts_work", lambda: False)
    yield request.param
    isolation._uid_launcher.cache_clear()


def graded(source: str, folder: Path, mode: str) -> tuple[Report, str]:
    target, log = folder / "writer.py", folder / "writer.log"
    target.write_text(source)
    settings = Settings(isolation="bwrap" if mode == "bwrap" else "uid")
    report = grade(str(target), select(["list_sessions"]), settings, log=log)
    return report, log.read_text()


@pytest.mark.usefixtures("guard_off")
def test_with_the_guard_off_writes_everywhere_are_charged_or_kept_private_and_all_removed(
    mode: str, tmp_path: Path
) -> None:
    marker = f"redteam-{secrets.token_hex(4)}"
    report, log = graded(writers.plain_writer(marker, folders()), tmp_path, mode)
    assert left_behind(marker, folders()) == []
    if mode == "bwrap":
        # Its one writable folder is a private tmpfs of 16 MiB, gone with the sandbox.
        assert report.verdict is Verdict.GRADED, report
        return
    # Its uid made more than 16 files: past what the guard would have let it.
    overruns = [found for found in report.reports if found["event"] == writable.OVER_BUDGET]
    assert overruns and report.verdict is Verdict.TAMPERED, log[-2000:]
    assert int(overruns[0]["files"]) > writable.WRITE_FILES


@pytest.mark.usefixtures("guard_off")
def test_with_the_guard_off_dev_shm_holds_no_more_than_the_budget_for_long(
    mode: str, tmp_path: Path
) -> None:
    if mode == "bwrap":
        pytest.skip("bubblewrap gives the child no /dev/shm at all")
    marker = f"redteam-{secrets.token_hex(4)}"
    report, log = graded(writers.shm_filler(marker), tmp_path, mode)
    assert left_behind(marker, ("/dev/shm",)) == []
    overruns = [found for found in report.reports if found["event"] == writable.OVER_BUDGET]
    assert overruns and report.verdict is Verdict.TAMPERED, log[-2000:]
    if mode == "uid_private":
        # The kernel refused the rest: the tmpfs is the budget and a little more.
        budget = writable.WRITE_FILES * 2 * 2**20 + mounts.SPARE_BYTES
        assert int(overruns[0]["size"]) <= budget
