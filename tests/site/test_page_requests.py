"""What the engine worker refuses before grading anything: the page's and scripts' mistakes."""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from grader.frontends.gradescope import requirements
from grader.frontends.site.build import BuildError, build
from grader.frontends.site.command import main as site_command
from grader.frontends.site.page import browser_clock, run
from grader.frontends.site.texts import PAGE_WORDS
from grader.i18n import use_language
from grader.pins import HYPOTHESIS
from grader.settings import Settings
from grader.transport.workspace import KIT_ROOT
from tests.site.conftest import require_browser
from tests.site.submissions import stubs

NO_BRIDGE = None  # validation happens before any kernel is asked


@pytest.fixture(autouse=True)
def _language_given_back() -> Iterator[None]:
    """A request chooses the language for the page's whole worker (``use_language``): each
    test gives it back, or test_page_language, run next on the same xdist worker, served
    English where a Chinese copy must serve Chinese (which file follows which on a worker
    depends on timing)."""
    yield
    use_language(None)


@pytest.mark.parametrize(
    ("payload", "why"),
    [
        ({"files": {**stubs(), "evil.py": ""}}, "unknown files"),
        ({"files": {"event_log.py": ""}}, "missing files"),
        ({"files": {**stubs(), "replay.py": 3}}, "must be text"),
        ({"files": {**stubs(), "replay.py": "x" * 1_000_001}}, "at most"),
        ({"files": stubs(), "options": {"task": "nine"}}, "no task is called nine"),
        ({"files": stubs(), "options": {"lang": "fr"}}, "no catalog"),
        ({"files": stubs(), "options": {"colour": "red"}}, "unknown options"),
        ({"files": "event_log.py"}, "must map file names"),
    ],
)
def test_a_request_the_grader_cannot_take_gets_a_reason(payload: object, why: str) -> None:
    answer = json.loads(run(NO_BRIDGE, "grade", json.dumps(payload)))  # type: ignore[arg-type]
    assert why in answer["error"]


def test_an_unknown_operation_is_refused() -> None:
    answer = json.loads(run(NO_BRIDGE, "delete", "{}"))  # type: ignore[arg-type]
    assert "no operation" in answer["error"]


def test_every_place_a_grade_is_made_pins_the_same_hypothesis() -> None:
    project = tomllib.loads((KIT_ROOT / "pyproject.toml").read_text("utf-8"))
    assert f"hypothesis=={HYPOTHESIS}" in project["project"]["dependencies"]
    assert re.search(rf"^hypothesis=={re.escape(HYPOTHESIS)}$", requirements(), re.M)


def test_a_folder_that_holds_something_else_is_not_built_over(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(BuildError, match="not empty"):
        build(tmp_path)
    assert [path.name for path in tmp_path.iterdir()] == ["notes.txt"]


def test_the_page_shows_exactly_the_sentences_the_build_gives_it() -> None:
    static = KIT_ROOT / "grader" / "frontends" / "site" / "static"
    page = (static / "app.js").read_text("utf-8") + (static / "index.html").read_text("utf-8")
    used = set(re.findall(r'(?:words\(|data-text=)"([a-z_]+)"', page))
    used |= set(re.findall(r'\b\w+: "((?:loading|ready|grading)[a-z_]*)"', page))
    used |= set(re.findall(r'\["([a-z_]+)", \{', page))  # a status kept to be worded later
    assert {f"site.{word}" for word in used} == set(PAGE_WORDS)


@pytest.mark.parametrize(
    ("argv", "why"),
    [([], "give the folder"), (["--serve", "--port", "99999"], "not a port"),
     (["--serve", "--port", "80a"], "not a port")],
)  # fmt: skip
def test_the_site_command_refuses_what_it_cannot_do_and_builds_nothing(
    argv: list[str], why: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        site_command(argv)
    assert exited.value.code == 2
    assert why in capsys.readouterr().err


def test_the_pages_limits_are_the_command_lines() -> None:
    """A browser measures no CPU time: the page hands the command line's limits to the
    learner, which stretches them into wall-clock time (and the report says so)."""
    settings = Settings(example_seconds=1.5, task_seconds=11.0, load_seconds=4.0)
    clock = browser_clock(settings)
    assert (clock.example, clock.task, clock.submission, clock.load) == (
        1.5, 11.0, settings.submission_seconds, 4.0)  # fmt: skip


def test_a_site_built_at_a_relative_path_has_every_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """esbuild runs in the npm folder: a relative destination once put the editor there."""
    require_browser()  # the build needs npm
    monkeypatch.chdir(tmp_path)
    built = build(Path("out") / "site")
    names = {path.relative_to(built.folder).as_posix() for path in built.folder.rglob("*")}
    assert {"editor.js", "index.html", "app.js", "pyodide/pyodide.asm.wasm"} <= names
    assert built.folder == tmp_path / "out" / "site"
