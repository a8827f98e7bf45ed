"""The trusted side of the pipe: start the child, send requests, read answers within limits.

Every answer is read with a deadline and a size cap, so a child that hangs, floods the pipe or
dies costs its own request, never the grader. A child that misbehaves is killed and the next
request starts a fresh one (the submission is imported again, from the same private copy).
Nothing the child sends is ever executed: answers are JSON, checked for shape by the caller.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from grader.sandbox import backends
from grader.sandbox.workspace import Workspace

#: The largest answer line read from a child; a longer one ends the child.
MAX_ANSWER_BYTES = 8 * 1024 * 1024
#: The most a child may send in answer to one request, every line together.
MAX_REQUEST_BYTES = 64 * 1024 * 1024
#: The longest "doing" note kept (the code of one call).
_MAX_DOING = 2000
_READ_CHUNK = 1 << 16


@dataclass(frozen=True)
class Limits:
    """What one child may use: memory, processes, open files, file output and CPU time."""

    memory_mb: int = 1024
    processes: int = 32
    open_files: int = 256
    output_mb: int = 2
    cpu_seconds: int = 600

    def config(self) -> dict[str, int]:
        """The limits as the call server's configuration keys."""
        return {
            "memory_bytes": self.memory_mb * 2**20,
            "processes": self.processes,
            "open_files": self.open_files,
            "file_bytes": self.output_mb * 2**20,
            "cpu_seconds": self.cpu_seconds,
        }


class ChildFailure(Exception):
    """The child did not answer a request properly; it has been killed.

    Attributes:
        kind: ``timed_out`` (no answer before the deadline), ``died`` (it exited; ``code``
            says how) or ``broken`` (it answered something that is not the protocol).
        doing: the last call the child announced before it stopped answering, if any.
        parts: for a batch, the answers that came before it stopped.
    """

    def __init__(
        self,
        kind: str,
        code: int | None = None,
        doing: str | None = None,
        parts: list[Any] | None = None,
    ) -> None:
        super().__init__(kind)
        self.kind, self.code, self.doing = kind, code, doing
        self.parts = parts or []


@dataclass
class Child:
    """One child interpreter running the call server on a workspace.

    Args:
        workspace: the private copy of the submission and the call server.
        isolation: ``bwrap``, ``uid`` or ``none`` (see :mod:`grader.sandbox.backends`).
        limits: resource limits for the child.
        config: extra call-server configuration (function names, fallback sentences).
        log: where the child's stderr goes (what learner code writes to fd 1 or 2).
        hidden: extra folders to hide inside the sandbox.
    """

    workspace: Workspace
    isolation: str
    limits: Limits
    config: dict[str, Any]
    log: Path | None = None
    hidden: tuple[Path, ...] = ()
    _process: subprocess.Popen[bytes] | None = field(default=None, init=False)
    _uid: int | None = field(default=None, init=False)
    _buffer: bytearray = field(default_factory=bytearray, init=False)
    _received: int = field(default=0, init=False)
    _next_id: int = field(default=0, init=False)

    @property
    def alive(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def start(self, deadline: float) -> dict[str, Any]:
        """Start the child and return its first answer: ``ready`` or ``load_error``.

        Raises:
            ChildFailure: it did not finish importing before ``deadline``, or died trying.
        """
        self.stop()
        self._uid = backends.child_uid(self.isolation)
        root = backends.child_root(self.isolation, self.workspace)
        config = {
            **self.config,
            **self.limits.config(),
            "root": root,
            "uid": self._uid,
        }
        if self.isolation == backends.NONE:
            # Without a uid of its own, a process cap would count all of this user's processes.
            config["processes"] = None
        config.update(self._target_config(root))
        if self._uid is not None and self.isolation == backends.UID:
            self.workspace.open_to(self._uid)
        argv = [*backends.command(self.isolation, self.workspace, self.hidden), json.dumps(config)]
        home = str(self.workspace.scratch)
        with self._stderr() as stderr:
            self._process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=stderr,
                cwd=home,
                env=backends.child_environment(home),
                start_new_session=True,
            )
        self._buffer = bytearray()
        self._received = 0
        return self._read(deadline, None)

    def _target_config(self, root: str) -> dict[str, Any]:
        source = self.workspace.source
        if source.module is None:
            return {"module": None, "file": f"{root}/{source.path.name}"}
        return {"module": source.module, "file": None}

    @contextlib.contextmanager
    def _stderr(self) -> Any:
        if self.log is None:
            yield subprocess.DEVNULL
            return
        with self.log.open("ab") as log:
            yield log

    def request(self, message: dict[str, Any], deadline: float) -> dict[str, Any]:
        """Send one request and return its answer (``id`` removed).

        Raises:
            ChildFailure: no proper answer before ``deadline``; the child is stopped.
        """
        if not self.alive:
            raise self._fail("died", None)
        self._next_id += 1
        line = json.dumps({"id": self._next_id, **message}, ensure_ascii=False) + "\n"
        process = self._process
        assert process is not None and process.stdin is not None
        try:
            process.stdin.write(line.encode("utf-8"))
            process.stdin.flush()
        except OSError:
            raise self._fail("died", None) from None
        expected_parts = len(message.get("requests", ())) if message.get("op") == "batch" else 0
        doing: str | None = None
        parts: list[Any] = []
        self._received = 0
        while True:
            try:
                answer = self._read(deadline, doing)
            except ChildFailure as failure:
                failure.parts = parts
                raise
            if answer.get("id") != self._next_id:
                raise self._fail("broken", doing)
            if "doing" in answer and len(answer) == 2:
                doing = str(answer["doing"])[:_MAX_DOING]
            elif "part" in answer and len(answer) == 2 and len(parts) < expected_parts:
                parts.append(answer["part"])
            elif "done" in answer and len(answer) == 2:
                return {"batch": parts}
            elif not {"doing", "part", "done"} & set(answer):
                answer.pop("id")
                return answer
            else:
                raise self._fail("broken", doing)

    def _read(self, deadline: float, doing: str | None) -> dict[str, Any]:
        """One line of JSON from the child: within the deadline, the size caps, the syntax."""
        process = self._process
        assert process is not None and process.stdout is not None
        stream: IO[bytes] = process.stdout
        searched = 0
        while (newline := self._buffer.find(b"\n", searched)) < 0:
            searched = len(self._buffer)
            if searched > MAX_ANSWER_BYTES or self._received > MAX_REQUEST_BYTES:
                raise self._fail("broken", doing)
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([stream], [], [], remaining)[0]:
                raise self._fail("timed_out", doing)
            chunk = os.read(stream.fileno(), _READ_CHUNK)
            if not chunk:
                raise self._fail("died", doing)
            self._received += len(chunk)
            self._buffer += chunk
        line = bytes(self._buffer[:newline])
        del self._buffer[: newline + 1]
        if len(line) > MAX_ANSWER_BYTES:
            raise self._fail("broken", doing)
        try:
            answer = json.loads(line)
        except (ValueError, RecursionError):  # not JSON, or nested too deep to parse
            raise self._fail("broken", doing) from None
        if not isinstance(answer, dict):
            raise self._fail("broken", doing)
        return answer

    def _fail(self, kind: str, doing: str | None) -> ChildFailure:
        # A child that died on its own gets a moment to be reaped, so its real exit code shows.
        code = self.stop(wait=kind == "died")
        return ChildFailure(kind, code if kind == "died" else None, doing)

    def stop(self, wait: bool = False) -> int | None:
        """Kill the child and everything it started; return how it ended (None: not started).

        Under bubblewrap, killing the sandbox's monitor ends its PID namespace, and with it
        every process inside. Without a sandbox the child's process group is killed.
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
        if self._uid is not None and self.isolation == backends.UID:
            backends.kill_user(self._uid)
        # bubblewrap reports a child killed by signal N as exit status 128 + N.
        if self.isolation == backends.BWRAP and code > 128:
            return -(code - 128)
        return code
