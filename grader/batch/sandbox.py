"""Run one untrusted step in a child process that cannot outlive, outgrow or outtalk its limits.

Every child gets: a fresh working folder that is also its HOME and TMPDIR; a memory cap
(``RLIMIT_AS``) and an output-file cap (``RLIMIT_FSIZE``) that the child's own trusted code sets
before the submission is imported; stdout and stderr in a log file outside the sandbox; a
wall-clock limit; and its own process group, killed whole when the step ends, so nothing the
submission started keeps running.

Why the child sets its own limits instead of ``preexec_fn``: batches launch children from
several threads, and ``preexec_fn`` is documented as unsafe (it can deadlock) in a process that
has threads.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from grader.i18n import current_language


@dataclass(frozen=True, slots=True)
class Limits:
    """What one submission may use: memory (MiB), log output (MiB) and wall-clock seconds for
    its import, for each task (the grader's own per-task limit) and for its whole grading."""

    memory_mb: int = 1024
    output_mb: int = 2
    import_seconds: float = 10.0
    task_seconds: float = 5.0
    grading_seconds: float = 60.0


@dataclass(frozen=True, slots=True)
class StepOutcome:
    """How a child ended: its exit code (negative: killed by that signal), whether it ran
    out of time, and what it wrote on its private stdout channel (at most ``MAX_CHANNEL``)."""

    returncode: int
    timed_out: bool
    channel: bytes


# A results message is a few kilobytes; anything far larger is not one.
MAX_CHANNEL = 4 * 1024 * 1024


def sandbox_environment(sandbox: Path, kit_root: Path) -> dict[str, str]:
    """Return the few variables a child gets: none of the instructor's own environment.

    The sandbox comes first on PYTHONPATH so that ``exercises`` names the submission; the
    kit's root follows so that the grader itself imports when the kit is not installed.
    """
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(sandbox),
        "TMPDIR": str(sandbox),
        "PYTHONPATH": os.pathsep.join([str(sandbox), str(kit_root)]),
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONIOENCODING": "utf-8",
        "LANG": "C.UTF-8",
        # Reports come back in the language the instructor chose (see grader.i18n).
        "LANGUAGE": current_language(),
    }


def limit_arguments(limits: Limits) -> list[str]:
    """Return the command-line flags that tell the child which limits to set on itself."""
    return [
        f"--memory-mb={limits.memory_mb}",
        f"--output-mb={limits.output_mb}",
        f"--task-seconds={limits.task_seconds}",
    ]


def run_step(
    arguments: list[str],
    *,
    sandbox: Path,
    kit_root: Path,
    log_path: Path,
    stdin: bytes,
    seconds: float,
) -> StepOutcome:
    """Run ``python -m grader.batch.worker <arguments>`` in ``sandbox`` and wait for it.

    Args:
        arguments: the worker's arguments (its mode and limits).
        sandbox: the child's working folder, HOME and TMPDIR.
        kit_root: the folder holding the ``grader`` package.
        log_path: where the child's stderr (and the submission's prints) go.
        stdin: bytes sent to the child's stdin, which it reads before importing anything.
        seconds: the wall-clock limit; the whole process group is killed when it passes.

    Returns:
        The child's exit code, whether it timed out, and its private channel's bytes.
    """
    command = [sys.executable, "-m", "grader.batch.worker", *arguments]
    with log_path.open("ab") as log:
        child = subprocess.Popen(
            command,
            cwd=sandbox,
            env=sandbox_environment(sandbox, kit_root),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log,
            start_new_session=True,
        )
        try:
            channel, _ = child.communicate(stdin, timeout=seconds)
            timed_out = False
        except subprocess.TimeoutExpired:
            # Nothing a timed-out child said is used, so there is no reason to keep reading:
            # a process that escaped the group could hold the pipe open forever.
            channel, timed_out = b"", True
        finally:
            # Whatever the submission started in the background ends with its step.
            kill_group(child.pid)
            if child.stdout is not None:
                child.stdout.close()
            child.wait()
    return StepOutcome(child.returncode, timed_out, channel[:MAX_CHANNEL])


def kill_group(group_id: int) -> None:
    """Kill every process in the group; a group that is already gone is fine."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(group_id, signal.SIGKILL)
