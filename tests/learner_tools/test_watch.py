"""Watch mode: progress and the next hint after each grading, a grading after every save
(also a save made while grading), and Ctrl+C ending it at any moment without a traceback;
and Ctrl+C during a plain grading."""

from __future__ import annotations

import _thread
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from grader.engine.outcomes import Failure, Report, Said, Status, TaskResult
from grader.frontends import cli, watch
from grader.i18n import LOCALE_VARIABLES, text, using_language
from tests.implementations.corpus import CORRECT_DIR
from tests.learner_tools.conftest import KIT_ROOT, environment

CORRECT = CORRECT_DIR / "c01_namedtuple_events.py"
LOOPING_LIST_SESSIONS = "\n\ndef list_sessions(log):\n    while True:\n        pass\n"
# Only guards against a hung process: the tests never assert how long anything took.
DEADLINE = 240.0


def report(*results: TaskResult, load_problem: Said | None = None) -> Report:
    asked = tuple(result.task_id for result in results)
    return Report("mine.py", results, asked, 20 * len(results), "none", load_problem)


PASSED_1 = TaskResult("append_and_ids", 1, 20, Status.PASSED)
FAILED_2 = TaskResult("read_and_resume", 2, 20, Status.FAILED, Failure("read.after"))
STUB_3 = TaskResult(
    "list_sessions",
    3,
    20,
    Status.NOT_IMPLEMENTED,
    Failure("outcome.not_implemented", Status.NOT_IMPLEMENTED),
)


def test_progress_counts_the_tasks_done_and_names_the_next_with_its_first_hint() -> None:
    with using_language("en"):
        shown = watch.render_progress(report(PASSED_1, FAILED_2, STUB_3))
    assert shown.splitlines() == [
        "Progress: 1 of 3 tasks done.",
        "Next: 2. Reading a session and resuming after an id.",
        "Hint: " + text("hint.read.after.1", "en"),
    ]


def test_progress_speaks_chinese_when_asked() -> None:
    with using_language("zh"):
        shown = watch.render_progress(report(PASSED_1, STUB_3)).splitlines()
    assert shown == [
        text("watch.progress", "zh", done=1, total=2),
        text("watch.next_task", "zh", task="3. " + text("task.list_sessions.name", "zh")),
        text("report.hint", "zh", hint=text("hint.not_implemented.1", "zh")),
    ]


def test_progress_congratulates_when_every_task_passes_and_is_silent_when_nothing_loaded() -> None:
    with using_language("en"):
        assert watch.render_progress(report(PASSED_1)).splitlines()[-1] == (
            "Every task is done. Well done!"
        )
        assert watch.render_progress(report(load_problem=Said("load.memory"))) == ""


def test_the_folder_of_the_target_is_watched(tmp_path: Path) -> None:
    assert watch.watched_paths("exercises") == [KIT_ROOT / "exercises"]
    assert watch.watched_paths(str(CORRECT)) == [CORRECT.parent]
    assert watch.watched_paths(str(tmp_path)) == [tmp_path.resolve()]


def test_it_grades_once_then_once_per_save(capsys: pytest.CaptureFixture[str]) -> None:
    gradings: list[int] = []

    def grade() -> Report:
        gradings.append(len(gradings))
        return report(PASSED_1)

    with using_language("en"):
        assert watch.watch(grade, str(CORRECT), saves=[{"first save"}, {"second save"}]) == 0
    assert gradings == [0, 1, 2]
    assert capsys.readouterr().out.count("A file was saved: grading again.") == 2


def test_a_save_made_while_grading_starts_another_grading(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "mine.py"
    target.write_text("x = 1\n", encoding="utf-8")
    gradings: list[int] = []

    def grade() -> Report:
        gradings.append(len(gradings))
        if len(gradings) > 1:
            raise KeyboardInterrupt  # the learner stops it once the second grading starts
        target.write_text("x = 2\n", encoding="utf-8")  # saved while the first one runs
        return report(PASSED_1)

    # A missed save would leave the watch waiting for ever: stop it, and fail below.
    guard = threading.Timer(DEADLINE, _thread.interrupt_main)
    guard.start()
    try:
        with using_language("en"):
            assert watch.watch(grade, str(target)) == 0
    finally:
        guard.cancel()
    assert gradings == [0, 1]
    printed = capsys.readouterr().out
    assert "A file was saved: grading again." in printed and "Stopped watching." in printed


def ctrl_c_at_its_default() -> None:
    """In the child, before exec: SIGINT at its default, as in a terminal's foreground job.

    A process inherits an ignored SIGINT, and Python keeps it ignored; a shell without job
    control ignores SIGINT in every command it starts with ``&`` (``nohup .ci/run &``, a CI
    runner's background step). The watcher would then never see Ctrl+C, and these tests would
    wait out their deadline: how the suite was started, not the grader, would decide them.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def ignored_signals(pid: int) -> int:
    """The mask of the signals process ``pid`` ignores, from ``/proc``."""
    status = Path(f"/proc/{pid}/status").read_text(encoding="utf-8")
    line = next(line for line in status.splitlines() if line.startswith("SigIgn:"))
    return int(line.split()[1], 16)


class Watching:
    """``python -m grader --watch`` on a copy of a correct file, read line by line."""

    def __init__(self, folder: Path, *args: str, language: str, group: bool = False) -> None:
        self.target = folder / "mine.py"
        shutil.copyfile(CORRECT, self.target)
        self.group = group
        self.process = subprocess.Popen(
            [sys.executable, "-m", "grader", "--watch", "--target", str(self.target), *args],
            cwd=KIT_ROOT,
            env=environment(LANGUAGE=language),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            start_new_session=True,  # a group of its own, as a terminal's job is
            preexec_fn=ctrl_c_at_its_default,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, wanted: Callable[[str], bool]) -> str:
        """The first line from now on that is ``wanted``."""
        while True:
            try:
                line = self.lines.get(timeout=DEADLINE)
            except queue.Empty:
                self.stop()
                pytest.fail(f"no such line; it printed:\n{chr(10).join(self.seen)}")
            self.seen.append(line)
            if wanted(line):
                return line

    def save_a_loop(self) -> None:
        """Save the target again, with a list_sessions that never returns: grading it lasts."""
        source = self.target.read_text(encoding="utf-8") + LOOPING_LIST_SESSIONS
        self.target.write_text(source, encoding="utf-8")

    def interrupt(self) -> tuple[int, str, str]:
        """Ctrl+C: SIGINT to the process (or, as a terminal sends it, to its whole group)."""
        if self.group:
            os.killpg(self.process.pid, signal.SIGINT)
        else:
            self.process.send_signal(signal.SIGINT)
        self.process.wait(timeout=DEADLINE)
        self.reader.join(timeout=DEADLINE)
        assert self.process.stderr is not None
        errors = self.process.stderr.read()
        while not self.lines.empty():
            self.seen.append(self.lines.get_nowait())
        return self.process.returncode, "\n".join(self.seen), errors

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()


@pytest.fixture
def watching(tmp_path: Path) -> Iterator[Callable[..., Watching]]:
    started: list[Watching] = []

    def start(*args: str, language: str, group: bool = False) -> Watching:
        started.append(Watching(tmp_path, *args, language=language, group=group))
        return started[-1]

    yield start
    for each in started:
        each.stop()


@pytest.mark.sandbox
def test_the_watcher_starts_with_ctrl_c_at_its_default_though_the_suite_ignores_it(
    watching: Callable[..., Watching],
) -> None:
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)  # as a background job's suite
    try:
        run = watching(language="en")
    finally:
        signal.signal(signal.SIGINT, before)
    run.wait_for(lambda line: line.startswith("Watching "))
    assert not ignored_signals(run.process.pid) & 1 << (signal.SIGINT - 1)
    status, printed, errors = run.interrupt()
    assert status == 0 and printed.splitlines()[-1] == "Stopped watching." and errors == ""


@pytest.mark.sandbox
def test_ctrl_c_while_grading_stops_without_a_traceback_in_chinese(
    watching: Callable[..., Watching],
) -> None:
    run = watching("--task", "3", "--lang", "zh", language="en")
    idle = text("watch.waiting", "zh", paths=run.target.parent.resolve())
    run.wait_for(lambda line: line == idle)
    run.save_a_loop()
    run.wait_for(lambda line: line == text("watch.regrading", "zh"))
    status, printed, errors = run.interrupt()  # the looping list_sessions is being graded
    assert status == 0
    assert printed.splitlines()[-1] == text("watch.stopped", "zh")
    assert "Traceback" not in printed + errors and errors == ""


@pytest.mark.sandbox
def test_ctrl_c_from_a_terminal_stops_every_lane_without_a_traceback(
    watching: Callable[..., Watching],
) -> None:
    run = watching("--task", "3", "--task", "4", language="en", group=True)
    run.wait_for(lambda line: line.startswith("Watching "))
    run.save_a_loop()
    run.wait_for(lambda line: line == "A file was saved: grading again.")
    status, printed, errors = run.interrupt()
    assert status == 0
    assert printed.splitlines()[-1] == "Stopped watching."
    assert "Traceback" not in printed + errors and errors == ""


def test_ctrl_c_during_a_plain_grading_says_so_and_exits_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(args: object) -> Report:
        raise KeyboardInterrupt

    for variable in LOCALE_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANGUAGE", "zh")
    monkeypatch.setattr(cli, "grade_and_show", interrupted)
    assert cli.main(["--task", "1"]) == cli.INTERRUPTED == 130
    assert capsys.readouterr().err == "\n" + text("cli.interrupted", "zh") + "\n"
