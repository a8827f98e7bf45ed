"""A submission cannot tell a check from an ordinary call, in any mode that claims isolation.

Each attack of :mod:`tests.redteam.channels` is one buggy file that answers honestly only once
a channel tells it the grader is checking. Against the kernel before issue 29, the stack-depth
and traceback-dump attacks scored 100 where their control scored 60 (the checks' reads ran
deeper, under the check's own functions). Here each must score exactly what the control
scores; every other channel must earn nothing more than the control (a channel the guard
refuses makes its attack tampered, with 0).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from grader.engine.outcomes import Report
from grader.run import grade
from grader.settings import Settings
from tests.redteam import batch, channels
from tests.redteam.conftest import need_bwrap, need_root, uid_usable

pytestmark = [pytest.mark.slow, pytest.mark.timeout(3600)]

#: The attacks the issue names: they must score exactly what the control scores.
EXACT = ("channel_stack_depth", "channel_traceback_dump")
CONTROL = "control"


@pytest.fixture(scope="module")
def class_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("channels") / "class"
    folder.mkdir()
    for name, source in channels.submissions().items():
        (folder / name).write_text(source, encoding="utf-8")
    return folder


def _judge(scores: dict[str, int]) -> None:
    control = scores[CONTROL]
    assert 0 < control < 100, scores  # the bug loses points, and is graded
    for name, score in scores.items():
        if name in EXACT:
            assert score == control, (name, scores)
        else:
            assert score <= control, (name, scores)


def test_on_the_command_line_no_channel_tells_a_check_from_a_call(class_folder: Path) -> None:
    need_bwrap()
    reports: dict[str, Report] = {
        path.stem: grade(str(path), settings=Settings(isolation="bwrap"))
        for path in sorted(class_folder.glob("*.py"))
    }
    _judge({name: report.score for name, report in reports.items()})


@pytest.mark.parametrize("mode", ["bwrap", "uid"])
def test_in_a_batch_no_channel_tells_a_check_from_a_call(class_folder: Path, mode: str) -> None:
    if mode == "bwrap":
        need_bwrap()
    else:
        need_root()
        if not uid_usable():
            pytest.skip("uid isolation has no interpreter other users can read here")
    run = batch.run(class_folder, class_folder.parent / f"out-{mode}", "--isolation", mode,
                    *batch.PATIENT, settle=1)  # fmt: skip
    _judge({row_id: int(row["score"]) for row_id, row in run.rows.items()})


@pytest.fixture(scope="module")
def gradescope(autograder: dict[str, Any]) -> Iterator[dict[str, Any]]:
    autograder["everything"] = "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"
    yield autograder


@pytest.mark.parametrize("tools", ["everything", "no_bwrap"])
def test_in_the_gradescope_zip_the_named_attacks_score_what_their_control_does(
    gradescope: dict[str, Any], tools: str
) -> None:
    from tests.redteam.gradescope import run_autograder

    if tools == "everything":
        need_bwrap()
    sources = channels.submissions()
    scores = {}
    for name in (CONTROL, *EXACT):
        graded = run_autograder(gradescope, sources[f"{name}.py"], tools=tools)
        scores[name] = int(graded["results"]["score"])
    _judge(scores)
