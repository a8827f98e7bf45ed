"""The trusted end of the pipe: start the learner's interpreter, boot the kernel, ask it.

Every answer is read with a deadline and size caps and must carry a valid MAC, so a child
that hangs, floods the pipe, dies or lets learner code write into the pipe costs its own
request, never the grader. Nothing the child sends is executed: answers are JSON, checked for
shape by the caller. A child that misbehaves is killed; the next session starts a fresh one.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import marshal
import mmap
import os
import secrets
import select
import signal
import subprocess
import time
from dataclasses import dataclass, field
from hashlib import blake2b
from pathlib import Path
from typing import IO, Any

from grader import kernel
from grader.transport import isolation, writable
from grader.transport.isolation import Isolation, Launcher
from grader.transport.workspace import Workspace

#: The largest answer line read from a child; a longer one ends the child.
MAX_LINE_BYTES = 16 * 1024 * 1024
#: The most a child may send in answer to one request, every line together.
MAX_REQUEST_BYTES = 64 * 1024 * 1024
_READ_CHUNK = 1 << 16

#: The first code the child runs: read the kernel from the pipe, run it in a namespace of its
#: own (``exec`` into a fresh dict, so nothing of it lands in ``__main__``).
BOOT = """
def boot():
    import builtins, marshal, os, sys
    sys.path[:] = [entry for entry in sys.path if entry]  # no current folder (Python < 3.11)
    def take(size):
        data = b""
        while len(data) < size:
            chunk = os.read(0, size - len(data))
            if not chunk:
                raise SystemExit(3)
            data += chunk
        return data
    sources, config = marshal.loads(take(int.from_bytes(take(8), "big")))
    space = {"__builtins__": dict(builtins.__dict__), "__name__": "grading_kernel"}
    for name, text in sources:
        exec(compile(text, name, "exec"), space)
    serve = space["serve"]
    del sources, space, take, name, text, sys
    serve(config)
boot()
"""


@dataclass(frozen=True)
class Limits:
    """What one child may use: memory, processes, open files, file output and CPU time."""

    memory_mb: int = 1024
    processes: int = 1
    open_files: int = 64
    output_mb: int = 2
    cpu_seconds: int = 120

    def write_budget(self) -> writable.Budget:
        """What a child may leave in the folders it can write: the guard's count of files,
        each at most the file size limit."""
        return writable.Budget(writable.WRITE_FILES, writable.WRITE_FILES * self.output_mb * 2**20)

    def config(self, own_uid: bool) -> dict[str, int | None]:
        """The limits as the kernel's configuration keys (no process cap without a uid of
        its own: it would count every process of the grader's user)."""
        return {
            "memory_bytes": self.memory_mb * 2**20,
            "processes": self.processes if own_uid else None,
            "open_files": self.open_files,
            "file_bytes": self.output_mb * 2**20,
            "cpu_seconds": self.cpu_seconds,
        }


class ChildStopped(Exception):
    """The child did not answer a request properly; it has been killed.

    Attributes:
        kind: ``timed_out``, ``died`` (``code`` says how), ``broken`` (not the protocol), or
            ``forged`` (a message without a valid MAC: learner code wrote into the pipe).
        parts: the answers that came before it stopped.
        progress: ``(step, call)`` the kernel was at, as it last said.
        reports: what the guard reported before it stopped.
    """

    def __init__(self, kind: str, code: int | None = None) -> None:
        super().__init__(kind)
        self.kind, self.code = kind, code
        self.parts: list[Any] = []
        self.progress: tuple[int, int] = (0, 0)
        self.reports: list[Any] = []


#: How often a request's CPU time is looked at while its answer is awaited.
CPU_POLL_SECONDS = 0.1
#: How often, at most, what a uid child wrote is measured while a request runs (in shared
#: folders the only hold on a file in ``/dev/shm``; a folder listing or two each time).
WRITES_POLL_SECONDS = 0.1


class OverBudget(Exception):
    """The child's uid holds more than its write budget; ``report`` says how much."""

    def __init__(self, report: dict[str, str]) -> None:
        super().__init__(report["detail"])
        self.report = report


_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def process_tree_cpu(root: int) -> float | None:
    """CPU seconds used by process ``root`` and its descendants (waited-for children
    included), read from ``/proc``; None when ``/proc`` is not there (macOS)."""
    total, pending, seen = 0, [root], set()
    while pending:
        pid = pending.pop()
        if pid in seen:
            continue
        seen.add(pid)
        try:
            with open(f"/proc/{pid}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
            # utime, stime, cutime, cstime: fields 14-17 of proc(5), counted after the name.
            total += sum(int(value) for value in fields[11:15])
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/children", "rb") as children:
                    pending += [int(child) for child in children.read().split()]
        except (OSError, ValueError, IndexError):
            if pid == root and not os.path.isdir("/proc/self"):
                return None
            continue
    return total / _TICKS


@dataclass
class Child:
    """One learner interpreter running the kernel on a workspace."""

    launcher: Launcher
    workspace: Workspace
    limits: Limits
    functions: tuple[str, ...]
    log: Path | None = None
    hidden: tuple[Path, ...] = ()
    _process: subprocess.Popen[bytes] | None = field(default=None, init=False)
    _uid: int | None = field(default=None, init=False)
    _key: bytes = field(default=b"", init=False)
    _number: int = field(default=0, init=False)
    _buffer: bytearray = field(default_factory=bytearray, init=False)
    _progress: mmap.mmap | None = field(default=None, init=False)
    _ledger: writable.Ledger | None = field(default=None, init=False)
    _measured: float = field(default=0.0, init=False)

    @property
    def alive(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def start(self, deadline: float, cpu_limit: float | None = None) -> dict[str, Any]:
        """Start the child, boot the kernel and return its first answer (``ready`` or
        ``load_error``).

        Raises:
            ChildStopped: it did not finish importing before ``deadline``, or before it used
                ``cpu_limit`` seconds of CPU, or died trying.
        """
        self.stop()
        self._uid = isolation.child_uid(self.launcher)
        self._key = secrets.token_bytes(32)
        self._number = 0
        self._buffer = bytearray()
        if self._uid is not None and self.launcher.isolation is Isolation.UID:
            self.workspace.give_to(self._uid)
        progress_fd = os.memfd_create("grader-progress")
        os.ftruncate(progress_fd, 8)
        self._progress = mmap.mmap(progress_fd, 8)
        boot = f"exec({BOOT!r}, {{}})"
        argv = isolation.command(self.launcher, self.workspace, boot, self.hidden,
                                 self.limits.write_budget())  # fmt: skip
        home = str(self.workspace.scratch)
        try:
            with self._stderr() as stderr:
                self._process = subprocess.Popen(
                    argv,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=stderr,
                    cwd=home,
                    env=isolation.child_environment(home),
                    start_new_session=True,
                    pass_fds=(progress_fd,),
                )
        finally:
            os.close(progress_fd)
        self._send_boot(progress_fd)
        self._ledger = self._new_ledger()
        try:
            first = self._read_sized(deadline, 0, cpu_limit)[0]
        except OverBudget as over:
            # Stopped while importing: say so as a failed import, with the report.
            return {"load_error": {"kind": "memory"}, "reports": [over.report]}
        if "ready" not in first and "load_error" not in first:
            raise self._fail("broken")
        self._charge(first["ready"] if isinstance(first.get("ready"), dict) else first)
        return first

    def _send_boot(self, progress_fd: int) -> None:
        root, temporary = isolation.child_paths(self.launcher, self.workspace)
        source = self.workspace.source
        config: dict[str, Any] = {
            "key": self._key,
            "roots": [root],
            "stdlib": isolation.stdlib_folders(self.launcher.python),
            "temporary": temporary,
            "functions": list(self.functions),
            "module": source.module,
            "file": f"{root}/{source.path.name}" if source.module is None else None,
            "uid": self._uid,
            "progress_fd": progress_fd,
            **self.limits.config(own_uid=self._uid is not None),
        }
        payload = marshal.dumps((kernel.sources(), config))
        self._write(len(payload).to_bytes(8, "big") + payload)

    @contextlib.contextmanager
    def _stderr(self) -> Any:
        if self.log is None:
            yield subprocess.DEVNULL
            return
        with self.log.open("ab") as log:
            yield log

    def _write(self, data: bytes) -> None:
        process = self._process
        assert process is not None and process.stdin is not None
        try:
            process.stdin.write(data)
            process.stdin.flush()
        except OSError:
            raise self._fail("died") from None

    def request(
        self, request: dict[str, Any], deadline: float, cpu_limit: float | None = None
    ) -> tuple[list[Any], dict[str, Any]]:
        """Send one request; return its parts (one answer per step) and its closing word.

        The kernel sends the answers in lines of several (see :class:`grader.kernel.serve._Batch`),
        so a child that stops may have answered steps whose answers never came: the progress
        it shared says how far it got.

        Raises:
            ChildStopped: no proper answer before ``deadline`` (wall-clock), or the child's
                processes used ``cpu_limit`` seconds of CPU (as :meth:`cpu` counts) first;
                the child is stopped.
        """
        if not self.alive:
            raise self._fail("died")
        self._number += 1
        data = marshal.dumps(request)
        mac = self._mac(self._number.to_bytes(8, "big") + data)
        self._write(len(data).to_bytes(8, "big") + mac + data)
        parts: list[Any] = []
        received = 0
        while True:
            try:
                answer, size = self._read_sized(deadline, self._number, cpu_limit)
            except OverBudget as over:
                stopped = self._fail("broken")
                stopped.parts, stopped.reports = parts, [over.report]
                raise stopped from None
            except ChildStopped as stopped:
                stopped.parts = parts
                raise
            received += size
            if received > MAX_REQUEST_BYTES:
                raise self._fail("broken")
            if isinstance(answer.get("parts"), list) and len(parts) + len(answer["parts"]) <= len(
                request.get("steps", ())
            ):
                parts += answer["parts"]
            elif "done" in answer and isinstance(answer["done"], dict):
                return parts, self._charge(answer["done"])
            else:
                raise self._fail("broken")

    def _mac(self, data: bytes) -> bytes:
        return blake2b(data, key=self._key, digest_size=16).digest()

    def _read(self, deadline: float, number: int) -> dict[str, Any]:
        return self._read_sized(deadline, number)[0]

    def _read_sized(
        self, deadline: float, number: int, cpu_limit: float | None = None
    ) -> tuple[dict[str, Any], int]:
        """One authenticated answer line for request ``number``, and its size."""
        line = self._line(deadline, cpu_limit)
        mac, _, body = line.partition(b" ")
        try:
            valid = hmac.compare_digest(bytes.fromhex(mac.decode("ascii")), self._mac(body))
        except (ValueError, UnicodeDecodeError):
            valid = False
        if not valid:
            raise self._fail("forged")
        try:
            answer = json.loads(body)
        except (ValueError, RecursionError):
            raise self._fail("broken") from None
        if not isinstance(answer, dict) or answer.get("seq") != number:
            raise self._fail("broken")
        return answer, len(line)

    def _line(self, deadline: float, cpu_limit: float | None = None) -> bytes:
        process = self._process
        assert process is not None and process.stdout is not None
        stream: IO[bytes] = process.stdout
        searched = 0
        while (newline := self._buffer.find(b"\n", searched)) < 0:
            searched = len(self._buffer)
            if searched > MAX_LINE_BYTES:
                raise self._fail("broken")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise self._fail("timed_out")
            wait = remaining if cpu_limit is None else min(remaining, CPU_POLL_SECONDS)
            if not select.select([stream], [], [], wait)[0]:
                if cpu_limit is not None and (self.cpu() or 0.0) >= cpu_limit:
                    raise self._fail("timed_out")
                self._watch_writes()
                continue
            chunk = os.read(stream.fileno(), _READ_CHUNK)
            if not chunk:
                raise self._fail("died")
            self._buffer += chunk
        line = bytes(self._buffer[:newline])
        del self._buffer[: newline + 1]
        return line

    def _fail(self, kind: str) -> ChildStopped:
        progress = self.progress()
        # A child that died on its own gets a moment to be reaped, so its real exit code shows.
        code = self.stop(wait=kind == "died")
        stopped = ChildStopped(kind, code if kind == "died" else None)
        stopped.progress = progress
        return stopped

    def _new_ledger(self) -> writable.Ledger | None:
        """What will measure the writes of this child's uid (uid isolation only): in the
        shared folders, or, with private folders, in its own (seen through ``/proc``)."""
        found, process = self.launcher.writable, self._process
        if self._uid is None or found is None or process is None:
            return None
        roots = (*found.folders, str(self.workspace.scratch))
        through = f"/proc/{process.pid}/root" if self.launcher.private_folders else ""
        return writable.Ledger(self._uid, roots, isolation.UID_RANGE[0], through)

    def _charge(self, answer: dict[str, Any]) -> dict[str, Any]:
        """``answer``, with a report added when the child's uid holds more than its budget."""
        holding = self._holding()
        if holding is not None and holding.over(self.limits.write_budget()):
            report = writable.over_budget(holding, self.limits.write_budget())
            reports = answer.get("reports")
            answer["reports"] = [*(reports if isinstance(reports, list) else []), report]
        return answer

    def _holding(self) -> writable.Holding | None:
        if self._ledger is None:
            return None
        self._measured = time.monotonic()
        return self._ledger.measure()

    def _watch_writes(self) -> None:
        """While a request runs, stop a child that holds more than its budget (a file in
        ``/dev/shm`` is memory its memory limit does not count)."""
        if time.monotonic() - self._measured < WRITES_POLL_SECONDS:
            return
        holding = self._holding()
        if holding is not None and holding.over(self.limits.write_budget()):
            self.stop()
            raise OverBudget(writable.over_budget(holding, self.limits.write_budget()))

    def cpu(self) -> float | None:
        """CPU seconds (user and system) the child's processes have used, the sandbox's
        own included; None where ``/proc`` cannot tell (then only wall-clock limits hold).

        Limits in CPU time make a grade the same on a busy machine as on an idle one: a
        slow but correct submission is not cut short because other work shared the cores."""
        process = self._process
        return None if process is None else process_tree_cpu(process.pid)

    def progress(self) -> tuple[int, int]:
        """Where the kernel said it was: ``(step, call)``."""
        if self._progress is None:
            return (0, 0)
        view = memoryview(self._progress).cast("I")
        try:
            return (int(view[0]), int(view[1]))
        finally:
            view.release()

    def stop(self, wait: bool = False) -> int | None:
        """Kill the child and everything it started; return how it ended (None: not started).

        Under bubblewrap, killing the sandbox's monitor ends its PID namespace, and with it
        every process inside. Otherwise the child's process group is killed, and with a uid
        of its own, every process of that uid, and the files it left in shared folders.
        """
        process, self._process = self._process, None
        if process is None:
            return None
        if wait:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=1)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        process.kill()
        code = process.wait()
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        if self._uid is not None and self.launcher.isolation is Isolation.UID:
            isolation.kill_user(self._uid)
            found = self.launcher.writable
            folders = found.folders if found is not None else ()
            writable.remove_files_of(self._uid, (*folders, str(self.workspace.scratch)))
        self._ledger = None
        # bubblewrap reports a child killed by signal N as exit status 128 + N.
        if self.launcher.isolation is Isolation.BWRAP and code > 128:
            return -(code - 128)
        return code
