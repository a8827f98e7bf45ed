"""The learner's command line: languages, one task, hints one step at a time, watching."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import grader
from grader import cli, messages, watch
from grader.i18n import using_language

KIT_ROOT = Path(__file__).resolve().parents[2]
CORRECT = KIT_ROOT / "tests" / "implementations" / "correct" / "c01_namedtuple_events.py"


def run_grader(*args: str, cwd: Path = KIT_ROOT, **env: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -m grader ARGS`` with the locale variables replaced by ``env``."""
    clean = {key: value for key, value in os.environ.items() if not key.startswith(("LC_", "LANG"))}
    return subprocess.run(
        [sys.executable, "-m", "grader", *args],
        cwd=cwd,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_lang_zh_translates_task_names_statuses_hints_and_report_lines():
    finished = run_grader("--task", "replay", "--lang", "zh", LANG="en_US.UTF-8")
    assert finished.returncode == 1
    with using_language("zh"):
        expected = [
            messages.REPORT_TITLE.format(target="exercises"),
            messages.TASK_NAMES["replay"],
            messages.status_label(messages.STATUS_NOT_IMPLEMENTED),
            messages.HINTS["replay"][0],
        ]
    assert all(line in finished.stdout for line in expected)


def test_a_chinese_locale_makes_the_grader_speak_chinese():
    finished = run_grader("--task", "list_sessions", "--target", "solutions", LANG="zh_CN.UTF-8")
    assert "列出会话" in finished.stdout
    assert "Listing sessions" not in finished.stdout


def test_without_a_chinese_locale_the_grader_speaks_english():
    finished = run_grader("--task", "list_sessions", "--target", "solutions", LANG="C.UTF-8")
    assert "3. Listing sessions" in finished.stdout


def test_the_json_results_keep_their_codes_in_every_language(tmp_path):
    results = tmp_path / "results.json"
    run_grader("--task", "replay", "--json", str(results), "--lang", "zh")
    (test,) = json.loads(results.read_text(encoding="utf-8"))["tests"]
    assert test["status"] == "fail"
    run_grader("--task", "4", "--json", str(results), "--lang", "zh", "--format", "gradescope")
    (test,) = json.loads(results.read_text(encoding="utf-8"))["tests"]
    assert (test["status"], test["extra_data"]["grader_status"]) == (
        "failed",
        "not implemented yet",
    )


def test_each_hint_request_reveals_one_more_hint_up_to_the_strongest(tmp_path):
    shown = []
    for _ in range(4):
        finished = run_grader("--hint", "--task", "replay", "--lang", "en", cwd=tmp_path)
        shown.append(sum(hint in finished.stdout for hint in messages.HINTS["replay"]))
    assert shown == [1, 2, 3, 3]
    assert json.loads((tmp_path / ".grader-hints.json").read_text()) == {"replay": 3}


def test_a_hint_is_not_needed_when_every_task_passes(tmp_path):
    finished = run_grader(
        "--hint", "--task", "list_sessions", "--target", "solutions", "--lang", "en", cwd=tmp_path
    )
    assert "no hint needed" in finished.stdout


def test_check_prints_the_feedback_of_one_task_and_says_whether_it_passes(capsys):
    with using_language("en"):
        assert grader.check("list_sessions", target=str(CORRECT)) is True
        assert grader.check("replay", target="exercises") is False
    printed = capsys.readouterr().out
    assert "3. Listing sessions" in printed
    assert "4. Replaying a session into chat messages" in printed


def test_watch_mode_grades_once_and_after_every_save_with_progress(monkeypatch, capsys):
    monkeypatch.setattr(watch, "save_events", lambda paths: [{"saved"}])
    with using_language("en"):
        status = cli.main(["--watch", "--task", "list_sessions", "--target", "solutions"])
    printed = capsys.readouterr().out
    assert status == 0
    assert printed.count("Progress: 1 of 1 tasks done.") == 2


def test_watch_mode_watches_the_folder_of_the_target():
    assert watch.watched_paths("exercises") == [KIT_ROOT / "exercises"]
    assert watch.watched_paths(str(CORRECT)) == [CORRECT.parent]


@pytest.mark.parametrize("command", [["batch", "--help"], ["release", "--help"], ["--help"]])
def test_every_command_explains_itself_in_chinese(command):
    finished = run_grader(*command, "--lang", "zh")
    assert finished.returncode == 0
    assert any("\u4e00" <= character <= "\u9fff" for character in finished.stdout)


def test_release_refuses_a_folder_that_is_not_empty(tmp_path):
    (tmp_path / "old.txt").write_text("")
    finished = run_grader("release", str(tmp_path), "--lang", "en")
    assert finished.returncode == 2
    assert "No release written" in finished.stdout


def test_the_batch_command_writes_a_gradebook(tmp_path):
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    (submissions / "alice.py").write_text(CORRECT.read_text())
    finished = run_grader("batch", str(submissions), "--out", str(tmp_path / "out"), "--lang", "en")
    assert finished.returncode == 0
    assert "Graded 1 submissions" in finished.stdout
    lines = (tmp_path / "out" / "gradebook.csv").read_text().splitlines()
    assert lines[1].startswith("alice,100,100,graded,")
