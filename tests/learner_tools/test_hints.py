"""``--hint``: what the state file remembers per promise, what it does when it cannot be read
or written, and hints in the learner's language. (Escalation from the report's hint to the
strongest, in English, is tests/grader/test_cli.py's.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grader.engine.outcomes import Failure, Report, Said, Status, TaskResult
from grader.frontends.hints import HINT_STATE_FILE, LEVELS, reveal_next_hint
from grader.i18n import text, using_language
from tests.grader.cli_in_process import RunCli
from tests.grader.golden_files import case_report


def report(*results: TaskResult, load_problem: Said | None = None) -> Report:
    asked = tuple(result.task_id for result in results)
    return Report("mine.py", results, asked, 20 * len(results), "none", load_problem)


def failing(promise: str, status: Status = Status.FAILED) -> Report:
    passed = TaskResult("append_and_ids", 1, 20, Status.PASSED)
    return report(passed, TaskResult("replay", 4, 20, status, Failure(promise, status)))


def hint_lines(key: str, language: str = "en") -> list[str]:
    return [f"  {level}. {text(f'{key}.{level}', language)}" for level in range(1, LEVELS + 1)]


def test_the_hints_of_the_broken_promise_are_shown_and_remembered(tmp_path: Path) -> None:
    state = tmp_path / HINT_STATE_FILE
    with using_language("en"):
        shown = reveal_next_hint(failing("replay.merge"), state).splitlines()
    heading = text("hint.heading", "en", task="4. " + text("task.replay.name", "en"),
                   sentence=text("promise.replay.merge", "en"))  # fmt: skip
    assert shown == [heading, *hint_lines("hint.replay.merge"), text("hint.last", "en")]
    assert json.loads(state.read_text(encoding="utf-8")) == {"replay.merge": LEVELS}


def test_asking_again_stays_at_the_strongest_and_keeps_other_promises(tmp_path: Path) -> None:
    state = tmp_path / HINT_STATE_FILE
    state.write_text(json.dumps({"read.after": 2, "replay.merge": LEVELS}), encoding="utf-8")
    with using_language("en"):
        again = reveal_next_hint(failing("replay.merge"), state)
    assert again.splitlines()[1:] == [*hint_lines("hint.replay.merge"), text("hint.last", "en")]
    assert json.loads(state.read_text(encoding="utf-8")) == {"read.after": 2, "replay.merge": 2}


@pytest.mark.parametrize("content", ["{not json", "[1, 2]", '{"replay.merge": "lots"}', ""])
def test_an_unreadable_state_file_counts_as_no_hint_shown_and_is_rewritten(
    tmp_path: Path, content: str
) -> None:
    state = tmp_path / HINT_STATE_FILE
    state.write_text(content, encoding="utf-8")
    with using_language("en"):
        shown = reveal_next_hint(failing("replay.merge"), state)
    assert hint_lines("hint.replay.merge")[0] in shown.splitlines()
    assert json.loads(state.read_text(encoding="utf-8")) == {"replay.merge": LEVELS}


def test_where_the_state_cannot_be_written_the_hint_is_still_shown(tmp_path: Path) -> None:
    state = tmp_path / HINT_STATE_FILE
    state.mkdir()  # a folder where the file should be: writing it fails
    with using_language("en"):
        shown = reveal_next_hint(failing("replay.merge"), state)
    assert hint_lines("hint.replay.merge")[-1] in shown.splitlines()


@pytest.mark.parametrize(
    ("promise", "status", "key"),
    [
        ("outcome.not_implemented", Status.NOT_IMPLEMENTED, "hint.not_implemented"),
        ("cause.timed_out", Status.TIMED_OUT, "hint.cause.timed_out"),
        ("cause.tampered", Status.TAMPERED, "hint.cause.tampered"),
    ],
)
def test_trouble_other_than_a_broken_promise_has_hints_of_its_own(
    tmp_path: Path, promise: str, status: Status, key: str
) -> None:
    state = tmp_path / HINT_STATE_FILE
    with using_language("en"):
        shown = reveal_next_hint(failing(promise, status), state).splitlines()
    assert shown[1:] == [*hint_lines(key), text("hint.last", "en")]
    assert json.loads(state.read_text(encoding="utf-8")) == {promise: LEVELS}


def test_nothing_to_hint_writes_no_state(tmp_path: Path) -> None:
    state = tmp_path / HINT_STATE_FILE
    done = report(TaskResult("append_and_ids", 1, 20, Status.PASSED))
    with using_language("en"):
        assert reveal_next_hint(done, state) == text("hint.none_needed", "en")
        assert reveal_next_hint(report(load_problem=Said("load.memory")), state) == ""
    assert not state.exists()


def test_hints_speak_chinese(tmp_path: Path) -> None:
    with using_language("zh"):
        shown = reveal_next_hint(failing("replay.merge"), tmp_path / HINT_STATE_FILE)
    assert shown.splitlines() == [
        text("hint.heading", "zh", task="4. " + text("task.replay.name", "zh"),
             sentence=text("promise.replay.merge", "zh")),
        *hint_lines("hint.replay.merge", "zh"),
        text("hint.last", "zh"),
    ]  # fmt: skip


def test_the_command_line_keeps_the_state_in_the_folder_it_runs_in(
    cli_in_process: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "learner"
    folder.mkdir()
    monkeypatch.chdir(folder)

    ran = cli_in_process(
        "--task", "4", "--hint", "--lang", "zh", report=case_report("broken_promise")
    )

    assert ran.status == 1
    printed = ran.out.splitlines()
    numbered = [line for line in printed if line.startswith(("  1. ", "  2. "))]
    assert numbered == hint_lines("hint.replay.merge", "zh")
    assert printed[-1] == text("hint.last", "zh")
    assert json.loads((folder / HINT_STATE_FILE).read_text(encoding="utf-8")) == {
        "replay.merge": LEVELS
    }
