"""Running ``python -m grader batch`` as an instructor does, and reading what it left.

:func:`run` starts the batch under :mod:`tests.redteam.survivors`, so that what the
submissions left running is counted for this batch alone; it fingerprints the folders a
submission must not change before, at exit and ten seconds later; and it listens on a TCP
port of the host that no submission may reach.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from grader.transport.isolation import UID_RANGE

KIT_ROOT = Path(__file__).resolve().parents[2]
#: Generous clocks, so that a busy machine (other engineers' tests share its 2 cores) never
#: turns a control's honest row into a time-out; the time limits have tests of their own.
PATIENT = ("--time-limit", "8", "--task-time-limit", "150", "--submission-time-limit", "600")
KIT_PARTS = ("grader", "solutions", "exercises", "eventlog")


def fingerprint(folder: Path) -> str:
    """Every file's path, mode and bytes under ``folder``, as one hash."""
    digest = hashlib.sha256()
    if not folder.exists():
        return "absent"
    for path in sorted(walk(folder)):
        if {"__pycache__", ".venv", ".git"} & set(path.parts):
            continue
        info = path.lstat()
        line = f"{path.relative_to(folder)}:{info.st_mode}\n"
        digest.update(line.encode(errors="surrogateescape"))
        if path.is_file() and not path.is_symlink():
            digest.update(path.read_bytes())
    return digest.hexdigest()


def walk(folder: Path) -> list[Path]:
    """Every entry under ``folder``, by a loop: a class folder may nest 1,200 deep, past
    what a recursive walk (``rglob``, ``os.walk``, ``shutil.rmtree``) survives."""
    found, pending = [], [folder]
    while pending:
        with os.scandir(pending.pop()) as entries:
            for entry in entries:
                found.append(Path(entry.path))
                if entry.is_dir(follow_symlinks=False):
                    pending.append(Path(entry.path))
    return found


def remove(folder: Path) -> None:
    """Remove ``folder`` however deep it nests (``rm`` walks by a loop)."""
    subprocess.run(["rm", "-rf", "--", str(folder)], check=True)


def fingerprints(folders: dict[str, Path]) -> dict[str, str]:
    return {name: fingerprint(folder) for name, folder in folders.items()}


class Listener:
    """A TCP listener on the host: a submission that reaches it has network access."""

    def __init__(self) -> None:
        self.socket = socket.create_server(("127.0.0.1", 0))
        self.port = self.socket.getsockname()[1]
        self.heard: list[bytes] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                connection, _ = self.socket.accept()
            except OSError:
                return
            with connection:
                self.heard.append(connection.recv(100))

    def close(self) -> None:
        self.socket.close()


SHARED_TEMP = ("/tmp", "/dev/shm", "/var/tmp")


def marked_files(marker: str, folders: Iterable[str] = SHARED_TEMP) -> list[str]:
    """Entries of the shared temporary folders whose name holds ``marker``."""
    found = []
    for folder in folders:
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        found += [f"{folder}/{name}" for name in names if marker in name]
    return found


def marked_processes(marker: str, uids: tuple[int, int] = UID_RANGE) -> list[str]:
    """Live processes of a sandbox uid whose command line holds ``marker`` (the attacks
    write it into whatever they start): a second look, beside the subreaper's."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            status = Path(f"/proc/{entry}/status").read_text()
            command = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        uid = int(status.split("Uid:")[1].split()[0])
        alive = "State:\tZ" not in status
        if alive and marker.encode() in command and (uids[0] <= uid < uids[1] or uid == 0):
            found.append(f"{entry} (uid {uid}): {command[:100]!r}")
    return found


@dataclass
class BatchRun:
    """What one batch did: its output, its rows, and what it left behind."""

    finished: subprocess.CompletedProcess[str]
    out: Path
    rows: dict[str, dict[str, str]]
    survivors: list[dict[str, Any]]
    seconds: float
    before: dict[str, str] = field(default_factory=dict)
    at_exit: dict[str, str] = field(default_factory=dict)
    later: dict[str, str] = field(default_factory=dict)

    def log(self, row_id: str) -> str:
        """What the submission wrote to its standard streams (the batch's copy)."""
        slug = self.slug(row_id)
        return (self.out / "logs" / f"{slug}.log").read_text(errors="replace")

    def results(self, row_id: str) -> Path:
        return self.out / "results" / f"{self.slug(row_id)}.json"

    def slug(self, row_id: str) -> str:
        from grader.frontends.batch.discovery import slug

        return slug(row_id)


def read_gradebook(out: Path) -> dict[str, dict[str, str]]:
    """The gradebook's rows by id (a leading ``'`` that escapes a formula removed)."""
    with (out / "gradebook.csv").open(newline="", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    return {row["id"].removeprefix("'") if row["id"][:2] in _ESCAPED else row["id"]: row
            for row in rows}  # fmt: skip


_ESCAPED = {"'" + start for start in ("=", "+", "-", "@", "\t", "\r")}


def run(
    submissions: Path,
    out: Path,
    *flags: str,
    watch: dict[str, Path] | None = None,
    settle: float = 10.0,
    timeout: float = 3000,
    env: dict[str, str] | None = None,
) -> BatchRun:
    """``python -m grader batch SUBMISSIONS --out OUT FLAGS``, under the survivors' watch.

    Args:
        watch: folders to fingerprint before, at exit and ``settle`` seconds later.
        settle: how long after the batch exits to look for survivors.
    """
    watch = watch or {}
    before = fingerprints(watch)
    report = out.parent / f".{out.name}-survivors.json"
    exited = Path(f"{report}.exited")
    exited.unlink(missing_ok=True)
    command = [sys.executable, "-m", "grader", "batch", str(submissions), "--out", str(out),
               "--no-progress", *flags]  # fmt: skip
    stdout, stderr = out.parent / f".{out.name}.stdout", out.parent / f".{out.name}.stderr"
    started = time.monotonic()
    with stdout.open("w") as out_file, stderr.open("w") as err_file:
        watcher = subprocess.Popen(
            [sys.executable, "-m", "tests.redteam.survivors", str(report), str(settle), "--",
             *command],
            cwd=KIT_ROOT, stdout=out_file, stderr=err_file, env={**os.environ, **(env or {})},
            start_new_session=True,
        )  # fmt: skip
        try:
            while not exited.exists() and watcher.poll() is None:
                if time.monotonic() - started > timeout:
                    raise TimeoutError(f"the batch took more than {timeout} s")
                time.sleep(0.2)
            seconds = time.monotonic() - started
            at_exit = fingerprints(watch)
            watcher.wait(timeout=settle + 120)
        finally:
            if watcher.poll() is None:  # a test that gave up: the batch goes with it
                os.killpg(watcher.pid, signal.SIGKILL)
                watcher.wait()
    later = fingerprints(watch)
    left = json.loads(report.read_text())
    finished = subprocess.CompletedProcess(
        command, left["returncode"], stdout.read_text(errors="replace"),
        stderr.read_text(errors="replace"),
    )  # fmt: skip
    rows = read_gradebook(out) if (out / "gradebook.csv").exists() else {}
    return BatchRun(finished, out, rows, left["survivors"], seconds, before, at_exit, later)
