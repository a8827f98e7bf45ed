"""``python -m sqlite_demo serve --crashable``: kill and restart on Enter, nothing lost."""

from __future__ import annotations

import queue
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.live.conftest import READ_TIMEOUT_SECONDS, client_of, event_ids, new_session, say

# serve --crashable starts (and kills) real server processes.
pytestmark = pytest.mark.server


class CrashLoop:
    """The command as a child process, its output read line by line on a thread."""

    def __init__(self, db_path: Path, *flags: str, stdin: int | None = subprocess.PIPE) -> None:
        command = [sys.executable, "-m", "sqlite_demo", "serve", "--db", str(db_path), *flags]
        self.process = subprocess.Popen(
            command, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))

    def line_matching(self, pattern: str) -> re.Match[str]:
        """Return the next output line matching ``pattern`` (earlier lines are skipped)."""
        while True:
            try:
                line = self.lines.get(timeout=READ_TIMEOUT_SECONDS)
            except queue.Empty:
                raise AssertionError(f"no line matching {pattern!r} came") from None
            match = re.fullmatch(pattern, line)
            if match:
                return match

    def press_enter(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write("\n")
        self.process.stdin.flush()

    def stop(self) -> int:
        """SIGTERM, as a service manager would; return the exit status."""
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=READ_TIMEOUT_SECONDS)


@pytest.fixture
def crash_loops() -> Iterator[list[CrashLoop]]:
    started: list[CrashLoop] = []
    try:
        yield started
    finally:
        for loop in started:
            if loop.process.poll() is None:
                loop.process.kill()
                loop.process.wait()


def test_enter_kills_the_server_and_restarts_it_on_the_same_port_with_nothing_lost(
    db_path: Path, crash_loops: list[CrashLoop]
) -> None:
    loop = CrashLoop(db_path, "--crashable")
    crash_loops.append(loop)
    url = loop.line_matching(r"listening on (http://127\.0\.0\.1:\d+)").group(1)
    token = loop.line_matching(rf"live page: {re.escape(url)}/\?token=(\S+) \(Ctrl-C stops\)")[1]
    loop.line_matching(r"press Enter to SIGKILL the server and restart it")
    with client_of(url, {"Authorization": f"Bearer {token}"}) as http:
        session = new_session(http)
        say(http, session, "how many orders do I have?")

        loop.press_enter()
        killed = loop.line_matching(r"crash 1: SIGKILL sent to pid (\d+) \(exit status -9\)")
        restarted = loop.line_matching(r"crash 1: restarted as pid (\d+) on (\S+)")

        assert restarted.group(1) != killed.group(1)
        assert restarted.group(2) == url
        assert event_ids(http, session) == [1, 2, 3, 4]
        say(http, session, "hello")
        assert event_ids(http, session) == [1, 2, 3, 4, 5, 6]

    assert loop.stop() == 0
    loop.line_matching("stopped")
    with pytest.raises(httpx.ConnectError):  # the child went with it: nothing is left serving
        httpx.get(f"{url}/health", timeout=2)


def test_kill_every_crashes_on_a_timer_even_with_no_keyboard(
    db_path: Path, crash_loops: list[CrashLoop]
) -> None:
    loop = CrashLoop(db_path, "--kill-every", "0.5", stdin=subprocess.DEVNULL)
    crash_loops.append(loop)
    url = loop.line_matching(r"listening on (http://127\.0\.0\.1:\d+)").group(1)

    loop.line_matching(r"crash 1: restarted as pid \d+ on .*")
    loop.line_matching(r"crash 2: restarted as pid \d+ on .*")

    assert httpx.get(f"{url}/health", timeout=READ_TIMEOUT_SECONDS).status_code == 200
    assert loop.stop() == 0


@pytest.mark.parametrize(
    ("flags", "complaint"),
    [
        (["--crashable", "--host", "0.0.0.0"], "127.0.0.1 only"),
        (["--kill-every", "0"], "between 0.5 and 86400 seconds"),
        (["--kill-every", "soon"], "not a number of seconds"),
    ],
)
def test_bad_crash_loop_flags_are_refused_before_anything_starts(
    tmp_path: Path, flags: list[str], complaint: str
) -> None:
    db = tmp_path / "never.db"
    command = [sys.executable, "-m", "sqlite_demo", "serve", "--db", str(db), *flags]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)

    assert result.returncode == 2
    assert complaint in result.stderr
    assert not db.exists()
