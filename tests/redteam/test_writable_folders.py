"""Nothing a submission writes outlives it, or goes past its budget, in any isolation.

Three batches of the same class (:mod:`tests.redteam.writers`: files through SQLite, memory
files, FIFOs, semaphores, a folder's descriptor; into ``/run/lock``, ``/var/lock``,
``/dev/shm`` past the memory limit and every folder any user may write here; a message left
for the next submission, which looks for it; a stack dump to tell the grader's checks from
its calls), graded as an instructor grades it: with a uid of its own and private folders
(``unshare --mount``), with a uid of its own and shared folders (no ``unshare`` on the PATH,
as in a container that cannot mount), and under bubblewrap. After each: every attack that
asked for something refused is ``tampered`` with nothing, and its row lists what it tried;
an attack whose every route is missing (SQLite) or refused unreported (``open`` outside its
folder) wrote nothing and is graded as the file it otherwise is, as is the stack dump
(``faulthandler`` is missing) against its honest twin; the honest files earn what they earn;
no submission went past its write budget; nothing with the run's marker is left in any
folder any user may write; and no process survives.

Then the same writes with the guard switched off (SQLite there again), one submission each:
what the file system and the grader's own bookkeeping do alone. Private folders keep every
write off the machine and cap it; shared folders are measured, the submission is stopped
and reported past its budget, and everything is removed: every byte and file its uid
wrote is charged, by ``open`` or through SQLite alike.
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
#: The attacks that ask for something refused and reported (``mkfifo``, ``readline``, ...).
ATTACKS = ("writes_without_an_open_event", "writes_to_run_lock_and_var_lock",
           "writes_to_every_writable_folder", "leaves_a_message_for_the_next_one")  # fmt: skip
#: The attacks whose every route is missing or refused without a report: each one's code is
#: otherwise the correct file.
QUIET = ("writes_through_sqlite", "fills_dev_shm_past_the_memory_limit")
STACK_DUMP = "dumps_its_stack_to_tell_a_check"
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


@pytest.mark.parametrize("attack", QUIET)
def test_an_attack_whose_every_route_is_missing_wrote_nothing_and_earns_what_its_code_does(
    writers_batch: dict[str, Any], attack: str
) -> None:
    log = writers_batch["run"].log(attack)
    tried = eval(log.split("TRIED ", 1)[1].splitlines()[0])  # the attack's own repr of a list
    assert tried and [route for route in tried if route.endswith(": done")] == [], tried
    assert row(writers_batch, attack) == ("graded", 100)


def test_telling_a_check_by_a_stack_dump_earns_exactly_what_the_bug_alone_earns(
    writers_batch: dict[str, Any],
) -> None:
    assert "ModuleNotFoundError" in writers_batch["run"].log(STACK_DUMP)
    control = row(writers_batch, f"control_{BASE}")
    assert row(writers_batch, STACK_DUMP) == control and control[1] < 100


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
    # The guard refused (or took away) every route before a byte was written: nothing to
    # charge.
    run = writers_batch["run"]
    assert [rid for rid in run.rows if writable.OVER_BUDGET in run.results(rid).read_text()] == []


def test_nothing_the_batch_started_survives_it(writers_batch: dict[str, Any]) -> None:
    assert writers_batch["run"].survivors == []


# --- the Gradescope zip where bubblewrap cannot run ---------------------------------------
@pytest.mark.parametrize("tools", ["no_bwrap", "no_bwrap_no_unshare"])
@pytest.mark.parametrize("attack", ["writes_through_sqlite", "fills_dev_shm_past_the_memory_limit",
                                    "leaves_a_message_for_the_next_one"])  # fmt: skip
def test_in_the_gradescope_fallback_an_attack_that_writes_gains_nothing_and_leaves_nothing(
    autograder: dict[str, Any], tools: str, attack: str
) -> None:
    # no_bwrap: a uid of its own with private folders; without unshare too: shared folders.
    marker = f"redteam-{secrets.token_hex(4)}"
    graded = run_autograder(autograder, writers.attacks(marker, folders())[f"{attack}.py"], tools)
    results = graded["results"]
    expected = (100, "graded") if attack in QUIET else (0, "tampered")
    assert (results["score"], results["extra_data"]["verdict"]) == expected, results
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
@pytest.mark.parametrize("route", ["plain", "sqlite"])
def test_with_the_guard_off_writes_everywhere_are_charged_or_kept_private_and_all_removed(
    mode: str, route: str, tmp_path: Path
) -> None:
    marker = f"redteam-{secrets.token_hex(4)}"
    report, log = graded(writers.writer(route, marker, folders()), tmp_path, mode)
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
