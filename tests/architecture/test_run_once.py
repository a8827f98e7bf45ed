"""What the test run does once (tests/run_once.py) is done once, whichever workers ask, and
each gets its result."""

from __future__ import annotations

import multiprocessing
import time
from pathlib import Path

import pytest

from tests import run_once


def _slow_work(log: Path) -> list[int]:
    with log.open("a") as file:
        file.write("done\n")
    time.sleep(0.3)  # long enough that the other worker asks while this one works
    return [1, 2, 3]


def _ask(args: tuple[Path, Path]) -> list[int]:
    folder, log = args
    run_once._folder[:] = [folder]
    return run_once.once_per_run(("the same work",), lambda: _slow_work(log))


def test_two_workers_asking_at_once_get_one_piece_of_work_and_the_same_result(
    tmp_path: Path,
) -> None:
    log = tmp_path / "log"
    with multiprocessing.get_context("fork").Pool(2) as pool:
        results = pool.map(_ask, [(tmp_path, log)] * 2)
    assert results == [[1, 2, 3], [1, 2, 3]]
    assert log.read_text() == "done\n"


def test_without_a_shared_folder_the_work_is_simply_done(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(run_once, "_folder", [])
    log = tmp_path / "log"
    assert run_once.once_per_run(("k",), lambda: _slow_work(log)) == [1, 2, 3]
    assert run_once.once_per_run(("k",), lambda: _slow_work(log)) == [1, 2, 3]
    assert log.read_text() == "done\ndone\n"
