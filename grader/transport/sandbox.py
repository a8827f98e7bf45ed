"""One sandbox per grade: the learner's interpreter, booted once, forking a kernel per task.

The child process is a *zygote* (see :mod:`grader.kernel.serve`): started in the sandbox,
it boots the kernel, sets its limits, drops to its uid, then waits. For each task the
trusted side asks it for a kernel; it forks one, which installs the guard and the clocks,
imports the submission and answers requests; when the kernel ends (the trusted side said
so, or it died: a CPU limit, a crash) the zygote says how, and how much CPU time it used.
Starting the interpreter and the kernel once per grade, not once per task, is most of why a
grade costs about a second of CPU.

On the wire (see :mod:`grader.kernel.serve`): a request is a frame ``size, party, MAC,
marshal data`` (party ``z`` for the zygote, ``k`` for the kernel), each party with a key of
its own and a count of its own; an answer is a line ``<MAC hex> <JSON>``, prefixed ``Z ``
when the zygote says it. Nothing the child sends is executed: answers are JSON, checked for
shape by the caller, read with deadlines and size caps.
"""

from __future__ import annotations

import contextlib
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
from hmac import compare_digest
from pathlib import Path
from typing import IO, Any

from grader import kernel
from grader.transport import isolation, writable
from grader.transport.budget import WriteWatch
from grader.transport.isolation import Isolation, Launcher
from grader.transport.workspace import Workspace

#: The largest answer line read from a child; a longer one ends the child.
MAX_LINE_BYTES = 16 * 1024 * 1024
_READ_CHUNK = 1 << 16
#: Slots of the progress the kernel shares: example, step, call in the step, calls made.
PROGRESS_SLOTS = 4

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
        exec(compile(text, name, "exec") if type(text) is str else text, space)
    serve = space["serve"]
    del sources, space, take, name, text, sys
    serve(config)
boot()
"""


@dataclass(frozen=True)
class Limits:
    """What the learner's process may use: memory, processes, open files, file output, and
    CPU time for the whole grade (a backstop: tasks have limits of their own)."""

    memory_mb: int = 1024
    #: The zygote and the one kernel it runs at a time.
    processes: int = 2
    open_files: int = 64
    output_mb: int = 2
    cpu_seconds: int = 120

    def write_budget(self) -> writable.Budget:
        """What learner code may leave where it can write: the guard's count of files, each
        at most the file size limit."""
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


class SandboxStopped(Exception):
    """The sandbox did not answer properly; ``kind`` says how (``died``, ``broken``,
    ``forged``, ``stuck``: no answer by the wall-clock deadline)."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


@dataclass
class Sandbox:
    """The zygote of one grade: one learner interpreter, started on demand."""

    launcher: Launcher
    workspace: Workspace
    limits: Limits
    functions: tuple[str, ...]
    log: Path | None = None
    hidden: tuple[Path, ...] = ()
    _process: subprocess.Popen[bytes] | None = field(default=None, init=False)
    _uid: int | None = field(default=None, init=False)
    _key: bytes = field(default=b"", init=False)
    _counts: dict[bytes, int] = field(default_factory=dict, init=False)
    _kernel_key: bytes = field(default=b"", init=False)
    _kernels: int = field(default=0, init=False)
    _buffer: bytearray = field(default_factory=bytearray, init=False)
    _progress: mmap.mmap | None = field(default=None, init=False)
    #: What its uid holds where it may write (uid isolation only).
    writes: WriteWatch | None = field(default=None, init=False)

    @property
    def alive(self) -> bool:
        return self._process is not None and self._process.poll() is None

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    # --- the zygote -----------------------------------------------------------------------
    def boot(self, deadline: float) -> None:
        """Start the child and boot the kernel's zygote in it.

        Raises:
            SandboxStopped: it did not come up by ``deadline``.
        """
        self.stop()
        self._uid = isolation.child_uid(self.launcher)
        self._key = secrets.token_bytes(32)
        self._counts = {b"z": 0, b"k": 0}
        self._kernels = 0
        self._buffer = bytearray()
        if self._uid is not None and self.launcher.isolation is Isolation.UID:
            self.workspace.give_to(self._uid)
        progress_fd = os.memfd_create("grader-progress")
        os.ftruncate(progress_fd, 4 * PROGRESS_SLOTS)
        self._progress = mmap.mmap(progress_fd, 4 * PROGRESS_SLOTS)
        boot = f"exec({BOOT!r}, {{}})"
        argv = isolation.command(self.launcher, self.workspace, boot, self.hidden,
                                 self.limits.write_budget())  # fmt: skip
        home = str(self.workspace.scratch)
        try:
            with self._stderr() as stderr:
                self._process = subprocess.Popen(
                    argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
                    cwd=home, env=isolation.child_environment(home), start_new_session=True,
                    pass_fds=(progress_fd,),
                )  # fmt: skip
        finally:
            os.close(progress_fd)
        self.writes = WriteWatch.of(self.launcher, self.workspace, self._uid, self._process.pid,
                                    self.limits.write_budget())  # fmt: skip
        self._send_boot(progress_fd)
        first = self.zygote_line(deadline)
        if first.get("zygote") is not True:
            raise self.fail("broken")

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
        payload = marshal.dumps((kernel_files(self.launcher.python), config))
        self._write(len(payload).to_bytes(8, "big") + payload)

    def fork(self, task: dict[str, Any]) -> None:
        """Ask the zygote for a fresh kernel with ``task``'s limits (CPU seconds for the
        task and for the import); its first answer is read by :meth:`kernel_line`."""
        self._kernels += 1
        number = self._kernels
        self._kernel_key = blake2b(
            f"kernel {number}".encode(), key=self._key, digest_size=32
        ).digest()
        self._counts[b"k"] = 0
        for slot in range(PROGRESS_SLOTS):
            self._set_progress(slot, 0)
        self.send(b"z", {"kernel": {**task, "number": number}})

    # --- frames out, lines in -------------------------------------------------------------
    def send(self, party: bytes, request: dict[str, Any]) -> None:
        """Send ``request`` to the zygote (``z``) or to its kernel (``k``)."""
        self._counts[party] += 1
        key = self._key if party == b"z" else self._kernel_key
        data = marshal.dumps(request)
        mac = blake2b(self._counts[party].to_bytes(8, "big") + data, key=key, digest_size=16)
        self._write(len(data).to_bytes(8, "big") + party + mac.digest() + data)

    def line(self, deadline: float, watch: Any = None) -> tuple[bool, dict[str, Any], int]:
        """The next answer line: whether the zygote said it, what it says, and its size.

        ``watch()`` is called while waiting (about every 0.25 s); it may raise.

        Raises:
            SandboxStopped: nothing whole by ``deadline``, a line that is not the protocol,
                or a MAC that does not hold.
        """
        raw = self._raw_line(deadline, watch)
        zygote = raw.startswith(b"Z ")
        body = raw[2:] if zygote else raw
        mac, _, text = body.partition(b" ")
        key = self._key if zygote else self._kernel_key
        try:
            valid = compare_digest(
                bytes.fromhex(mac.decode("ascii")), blake2b(text, key=key, digest_size=16).digest()
            )
        except (ValueError, UnicodeDecodeError):
            valid = False
        if not valid:
            raise self.fail("forged")
        try:
            answer = json.loads(text)
        except (ValueError, RecursionError):
            raise self.fail("broken") from None
        expected = self._counts[b"z" if zygote else b"k"]
        if not isinstance(answer, dict) or answer.get("seq") != expected:
            raise self.fail("broken")
        return zygote, answer, len(raw)

    def zygote_line(self, deadline: float) -> dict[str, Any]:
        zygote, answer, _ = self.line(deadline)
        if not zygote:
            raise self.fail("broken")
        return answer

    def _raw_line(self, deadline: float, watch: Any) -> bytes:
        process = self._process
        assert process is not None and process.stdout is not None
        stream: IO[bytes] = process.stdout
        searched = 0
        while (newline := self._buffer.find(b"\n", searched)) < 0:
            searched = len(self._buffer)
            if searched > MAX_LINE_BYTES:
                raise self.fail("broken")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise self.fail("stuck")
            if not select.select([stream], [], [], min(remaining, 0.25))[0]:
                if watch is not None:
                    watch()
                continue
            chunk = os.read(stream.fileno(), _READ_CHUNK)
            if not chunk:
                raise self.fail("died")
            self._buffer += chunk
        raw = bytes(self._buffer[:newline])
        del self._buffer[: newline + 1]
        return raw

    def _write(self, data: bytes) -> None:
        process = self._process
        assert process is not None and process.stdin is not None
        try:
            process.stdin.write(data)
            process.stdin.flush()
        except OSError:
            raise self.fail("died") from None

    @contextlib.contextmanager
    def _stderr(self) -> Any:
        if self.log is None:
            yield subprocess.DEVNULL
            return
        with self.log.open("ab") as log:
            yield log

    # --- looking in -----------------------------------------------------------------------
    def progress(self) -> tuple[int, ...]:
        """Where the kernel said it was: example, step, call in the step, calls made."""
        if self._progress is None:
            return (0,) * PROGRESS_SLOTS
        view = memoryview(self._progress).cast("I")
        try:
            return tuple(int(view[slot]) for slot in range(PROGRESS_SLOTS))
        finally:
            view.release()

    def _set_progress(self, slot: int, value: int) -> None:
        if self._progress is not None:
            view = memoryview(self._progress).cast("I")
            view[slot] = value
            view.release()

    def scheduled(self) -> tuple[float, float] | None:
        """Seconds the sandbox's processes have run on a CPU, and waited for one while
        runnable (``/proc/PID/schedstat``, summed over the tree); None where Linux cannot tell."""
        if self._process is None:
            return None
        return tree_schedstat(self._process.pid)

    # --- ending ---------------------------------------------------------------------------
    def fail(self, kind: str) -> SandboxStopped:
        self.stop(wait=kind == "died")
        return SandboxStopped(kind)

    def stop(self, wait: bool = False) -> int | None:
        """Kill the sandbox and everything it started; how it ended (None: not started).

        Under bubblewrap, killing the sandbox's monitor ends its PID namespace, and with it
        every process inside. Otherwise the child's process group is killed, and with a uid
        of its own, every process of that uid, and everything it left where it could write.
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
        if self.writes is not None:
            self.writes.clean()
            self.writes = None
        return code


def kernel_files(python: str) -> list[tuple[str, Any]]:
    """The kernel's files for a child running ``python``: compiled here when it is this very
    interpreter (the same binary reads the same code objects), else their sources, which
    the child compiles."""
    sources = kernel.sources()
    if os.path.realpath(python) == isolation.interpreter():
        return list(kernel.compiled_for_child(tuple(sources)))
    return sources


def tree_schedstat(root: int) -> tuple[float, float] | None:
    """CPU seconds and run-queue wait seconds of process ``root`` and its descendants, every
    thread; None when ``/proc`` cannot tell."""
    running = waiting = 0
    pending, seen = [root], set()
    while pending:
        pid = pending.pop()
        if pid in seen:
            continue
        seen.add(pid)
        try:
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/schedstat", "rb") as stat:
                    fields = stat.read().split()
                running += int(fields[0])
                waiting += int(fields[1])
                with open(f"/proc/{pid}/task/{task}/children", "rb") as children:
                    pending += [int(child) for child in children.read().split()]
        except (OSError, ValueError, IndexError):
            if pid == root and not os.path.isdir("/proc/self"):
                return None
            continue
    return running / 1e9, waiting / 1e9
