"""A server to crash on purpose while a browser watches: ``serve --db chat.db --crashable``.

The service runs as a child process (:class:`~sqlite_demo.server.ServerProcess`). Each press
of Enter, or every ``--kill-every`` seconds, sends the child ``SIGKILL`` (no ``finally``, no
close: exactly a crash) and starts a new one on the same database file and port. The live
page at the printed address shows the connection dropping, then "reconnected: resumed after
event N, nothing missing", and the conversation carries on where it stood.
"""

from __future__ import annotations

import queue
import signal
import sys
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn, TextIO

from sqlite_demo.server import ServerProcess
from sqlite_demo.store.opening import describe_db
from sqlite_demo.texts import say


def run_crash_loop(
    db_path: str | Path,
    port: int = 0,
    kill_every: float | None = None,
    commands: TextIO | None = None,
    *,
    token: str | None,
    allowed_hosts: Sequence[str] = (),
) -> int:
    """Serve ``db_path`` from a child process, and kill and restart it on each command.

    Args:
        db_path: the database file (created if missing), or a ``postgresql://`` URL.
        port: the port to serve on; 0 picks a free one, kept across restarts.
        kill_every: also crash every this many seconds; None crashes on Enter only.
        commands: where lines (Enter presses) come from; standard input by default.
        token: the token, kept across restarts so an open page stays in; None for none.
        allowed_hosts: Host names accepted besides loopback's.

    Returns:
        0 when stopped with Ctrl-C or SIGTERM; 1 when the server could not start.
    """
    # SIGTERM would end this process without its ``finally``, leaving the child serving.
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    with tempfile.TemporaryDirectory(prefix="sqlite_demo_crash_loop_") as folder:
        server = ServerProcess(
            db_path,
            Path(folder) / "server.log",
            port=port,
            token=token,
            no_token=token is None,
            allowed_hosts=allowed_hosts,
        )
        try:
            server.start()
            _announce(server, kill_every)
            _crash_on_command(server, _lines(commands or sys.stdin), kill_every)
        except RuntimeError as error:
            shown = say("cli.cannot_serve_db", database=describe_db(db_path), error=error)
            print(shown, file=sys.stderr, flush=True)
            return 1
        except (KeyboardInterrupt, SystemExit):
            print(say("crash.stopped"), flush=True)
        finally:
            server.stop()
    return 0


def _announce(server: ServerProcess, kill_every: float | None) -> None:
    print(say("serve.listening", url=server.url), flush=True)
    print(say("crash.live_page", url=server.page_url), flush=True)
    if server.token is None:
        print(say("crash.no_token"), flush=True)
    if kill_every:
        print(say("crash.press_enter_every", seconds=kill_every), flush=True)
    else:
        print(say("crash.press_enter"), flush=True)


def _crash_on_command(
    server: ServerProcess, lines: queue.Queue[str | None], kill_every: float | None
) -> None:
    crashes = 0
    while True:
        _wait_for_command(lines, kill_every)
        crashes += 1
        old_pid = server.pid
        status = server.kill()
        print(say("crash.killed", number=crashes, pid=old_pid, status=status), flush=True)
        server.start()
        print(say("crash.restarted", number=crashes, pid=server.pid, url=server.url), flush=True)


def _wait_for_command(lines: queue.Queue[str | None], kill_every: float | None) -> None:
    """Return on the next Enter, or when ``kill_every`` seconds pass without one."""
    while True:
        try:
            line = lines.get(timeout=kill_every)
        except queue.Empty:
            return
        # None means standard input is closed: no Enter will come, only the timer (if any).
        if line is not None:
            return


def _lines(source: TextIO) -> queue.Queue[str | None]:
    """Read ``source`` on a daemon thread, so that waiting for Enter can also time out."""
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        for line in source:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, name="crash-loop-stdin", daemon=True).start()
    return lines


def _exit_on_sigterm(signum: int, frame: object) -> NoReturn:
    raise SystemExit(0)
