"""Run a command, wait, and list the processes it left behind: ``python -m
tests.redteam.survivors REPORT SECONDS -- COMMAND...``.

This process becomes a *child subreaper* (Linux ``PR_SET_CHILD_SUBREAPER``): whatever the
command starts and then abandons (a daemon that called ``setsid``, a grandchild whose parent
died) is re-parented here instead of to init. So, ``SECONDS`` after the command exits, every
live process below this one is a survivor of this run, and of no one else's: other people's
gradings on the same machine, whatever their uids, are never counted. When the command exits,
``REPORT.exited`` is written; ``SECONDS`` later the report (JSON) holds the command's exit
status and the survivors (pid, uid, command line), and the survivors are killed.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

PR_SET_CHILD_SUBREAPER = 36


def _status(pid: int) -> dict[str, str]:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    return fields


def descendants(root: int) -> list[dict[str, object]]:
    """Every live (not zombie) process whose chain of parents reaches ``root``."""
    parents: dict[int, int] = {}
    info: dict[int, dict[str, object]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        pid = int(entry)
        try:
            status = _status(pid)
            command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        parents[pid] = int(status.get("PPid", "0"))
        info[pid] = {
            "pid": pid,
            "uid": int(status.get("Uid", "0").split()[0]),
            "state": status.get("State", "?"),
            "command": command[:200].decode("utf-8", "replace"),
        }
    found = []
    for pid in info:
        ancestor = parents.get(pid, 0)
        while ancestor not in (0, 1, root):
            ancestor = parents.get(ancestor, 0)
        if ancestor == root and pid != root and not str(info[pid]["state"]).startswith("Z"):
            found.append(info[pid])
    return found


def reap() -> None:
    """Collect the exit status of every dead child (re-parented orphans included)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def main(argv: list[str]) -> int:
    report, seconds, separator, *command = argv
    assert separator == "--" and command, __doc__
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")
    returncode = subprocess.run(command, check=False).returncode
    Path(report + ".exited").write_text(str(returncode))
    deadline = time.monotonic() + float(seconds)
    while time.monotonic() < deadline:
        reap()
        time.sleep(0.2)
    reap()
    left = descendants(os.getpid())
    Path(report).write_text(json.dumps({"returncode": returncode, "survivors": left}))
    for process in left:
        with contextlib.suppress(OSError):
            os.kill(int(str(process["pid"])), signal.SIGKILL)
    time.sleep(0.5)
    reap()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
