"""``python -m grader lang``: one choice for the whole kit, kept in one file every tool reads,
that also switches the stubs nobody has edited, and never a file the learner has."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from grader.frontends import language, stubs
from grader.i18n import choice, current_language, text

EXERCISES = stubs.STUB_FILES


@pytest.fixture
def clone(tmp_path: Path) -> Iterator[Path]:
    """A clone of the kit's last commit: its stubs in both languages, in git."""
    kit = Path(__file__).resolve().parents[2]
    root = tmp_path / "kit"
    subprocess.run(["git", "clone", "-q", str(kit), str(root)], check=True)
    yield root
    choice.stored_language.cache_clear()


def files(root: Path) -> dict[str, str]:
    return {name: (root / "exercises" / name).read_text("utf-8") for name in EXERCISES}


def test_choosing_chinese_keeps_the_choice_and_gives_the_stubs_chinese_docstrings(
    clone: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert language.main(["zh"], root=clone) == 0
    assert (clone / ".kit-language").read_text("utf-8") == "zh\n"
    assert choice.kit_language({}, root=clone) == "zh"  # whatever the locale says
    assert choice.kit_language({"LANG": "en_US.UTF-8"}, root=clone) == "zh"
    assert files(clone) == stubs.committed_stubs("zh", clone)
    assert "尚未实现" in files(clone)["replay.py"]
    assert (
        text("lang.set", "zh", name="中文", path=clone / ".kit-language") in capsys.readouterr().out
    )


def test_the_command_leaves_no_language_chosen_in_its_process(
    clone: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANGUAGE", "en")
    monkeypatch.delenv("KIT_LANGUAGE", raising=False)
    assert language.main(["zh"], root=clone) == 0
    assert current_language() == "en"  # this kit's own choice, not the clone's


def test_choosing_english_again_gives_back_the_english_stubs_exactly(clone: Path) -> None:
    english = files(clone)
    assert language.main(["zh"], root=clone) == 0
    assert language.main(["en"], root=clone) == 0
    assert files(clone) == english == stubs.committed_stubs("en", clone)
    assert choice.stored_language(clone) == "en"


def test_an_edited_stub_is_never_touched_and_nothing_changes(
    clone: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edited = clone / "exercises" / "replay.py"
    edited.write_text(edited.read_text("utf-8") + "\n# my work\n", encoding="utf-8")
    before = files(clone)
    assert language.main(["zh"], root=clone) == 1
    assert files(clone) == before  # not even the stubs nobody edited
    assert not (clone / ".kit-language").exists()
    said = capsys.readouterr().err
    assert "exercises/replay.py" in said and "--leave-exercises" in said


def test_the_tools_language_alone_can_be_chosen_beside_edited_work(clone: Path) -> None:
    edited = clone / "exercises" / "replay.py"
    edited.write_text("def replay_session(log, session_id):\n    return []\n", encoding="utf-8")
    before = files(clone)
    assert language.main(["zh", "--leave-exercises"], root=clone) == 0
    assert files(clone) == before
    assert choice.stored_language(clone) == "zh"


def test_auto_forgets_the_choice_and_the_locale_decides_again(clone: Path) -> None:
    assert language.main(["zh"], root=clone) == 0
    assert language.main(["auto"], root=clone) == 0
    assert not (clone / ".kit-language").exists()
    assert choice.kit_language({"LANG": "en_US.UTF-8"}, root=clone) == "en"


def test_a_run_s_language_comes_before_the_kit_s_and_the_kit_s_before_the_locale(
    clone: Path,
) -> None:
    choice.store_language("zh", clone)
    assert choice.kit_language({"KIT_LANGUAGE": "en", "LANG": "zh_CN.UTF-8"}, root=clone) == "en"
    assert choice.kit_language({"LANGUAGE": "en", "LC_ALL": "en_US.UTF-8"}, root=clone) == "zh"
    (clone / ".kit-language").write_text("klingon\n", encoding="utf-8")
    choice.stored_language.cache_clear()
    assert choice.kit_language({"LANG": "en_US.UTF-8"}, root=clone) == "en"  # ignored


def test_without_a_language_it_says_which_is_in_use_and_why(
    clone: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("KIT_LANGUAGE", raising=False)
    choice.store_language("zh", clone)
    assert language.main([], root=clone) == 0
    assert str(clone / ".kit-language") in capsys.readouterr().out


def test_the_english_stub_behind_a_learners_commit_is_found_in_the_history(clone: Path) -> None:
    stub = stubs.committed_stubs("en", clone)["replay.py"]
    solved = clone / "exercises" / "replay.py"
    solved.write_text("def replay_session(log, session_id):\n    return []\n", encoding="utf-8")
    git = ["git", "-C", str(clone), "-c", "user.name=l", "-c", "user.email=l@example.com"]
    subprocess.run([*git, "commit", "-qam", "my solution"], check=True)
    assert stubs.committed_stubs("en", clone)["replay.py"] == stub
    assert language.main(["zh"], root=clone) == 1  # the committed solution is still the learner's
    assert solved.read_text("utf-8").startswith("def replay_session(log, session_id):")


def test_a_copy_that_is_not_a_git_checkout_keeps_its_stubs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "exercises").mkdir()
    (tmp_path / "exercises" / "replay.py").write_text("# the copy's stub\n", encoding="utf-8")
    try:
        assert language.main(["zh"], root=tmp_path) == 0
        assert (tmp_path / "exercises" / "replay.py").read_text("utf-8") == "# the copy's stub\n"
        assert choice.stored_language(tmp_path) == "zh"
        assert text("lang.no_stubs", "zh") in capsys.readouterr().out
    finally:
        choice.stored_language.cache_clear()


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (
            'def f():\n    """Doc."""\n    raise NotImplementedError("f is not implemented yet")\n',
            True,
        ),
        ("def f():\n    raise NotImplementedError\n", True),
        ('def f():\n    """Doc."""\n    return 1\n', False),
        ("def f(:\n", False),
        ('"""Only a module."""\nfrom x import y\n', True),
    ],
)
def test_a_stub_is_a_file_whose_functions_only_raise_not_implemented(
    source: str, expected: bool
) -> None:
    assert stubs.is_stub(source) is expected
