"""The trusted code that runs first in every sandboxed child, before any submission code.

Usage (the batch runs it; nobody else needs to)::

    python -m grader.batch.worker probe --memory-mb=1024 --output-mb=2 --task-seconds=5
    python -m grader.batch.worker grade --memory-mb=1024 --output-mb=2 --task-seconds=5

``probe`` imports the submission once and says how that went; ``grade`` grades it and sends
the results, signed with the key it reads from stdin, on its stdout pipe. Both first cap
their own memory and output. Nothing the submission prints reaches that pipe: ``probe`` moves
its standard output to the log, and in ``grade`` the submission only runs in the grader's
child processes, which silence their standard output first.

What the signature does not cover: the grader runs learner code in a *forked* child, which
starts as a copy of this process's memory. Code written to dig through the interpreter's
memory could find the key there, just as it could patch the grader's checks in its own
process. The signature stops forged prints and files, not a deliberate attack on the grader.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import importlib
import os
import resource
import sys
from typing import BinaryIO

from grader.batch.discovery import SUBMISSION_MODULE

MEBIBYTE = 1024 * 1024

# What ``probe`` reports on its channel; the batch turns each into a row status.
IMPORTED = b"imported"
IMPORT_ERROR = b"import_error"
MEMORY_EXCEEDED = b"memory_exceeded"
EXITED = b"exited"


def set_limits(memory_mb: int, output_mb: int) -> None:
    """Cap this process and everything it starts: address space, file size, no core dumps."""
    memory = memory_mb * MEBIBYTE
    output = output_mb * MEBIBYTE
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_FSIZE, (output, output))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def take_private_channel() -> BinaryIO:
    """Keep the stdout pipe for this module alone and send fd 1 to the log instead.

    Used by ``probe``, where the submission runs in this very process. ``os.dup`` makes the
    copy non-inheritable, so programs started later never receive it.
    """
    channel = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    return channel


def stdout_channel() -> BinaryIO:
    """Use fd 1 itself as the channel: ``grade`` never runs submission code in this process.

    The grader runs the submission in a forked child whose first act is to point fds 1 and 2
    at ``/dev/null``, so the submission never holds this pipe.
    """
    return open(1, "wb", closefd=False)


def probe(channel: BinaryIO) -> int:
    """Import the submission and report ``imported``, ``import_error`` or ``memory_exceeded``.

    A submission that exits during import never reaches the report, which the batch reads as
    a crash. Faking a report gains nothing: a probe decides only whether grading happens.
    """
    try:
        importlib.import_module(SUBMISSION_MODULE)
    except MemoryError:
        report, code = MEMORY_EXCEEDED, 1
    except SystemExit:
        report, code = EXITED, 1
    except BaseException as error:
        print(f"{type(error).__name__}: {error}", file=sys.stderr)
        report, code = IMPORT_ERROR, 1
    else:
        report, code = IMPORTED, 0
    channel.write(report)
    channel.flush()
    return code


def grade(channel: BinaryIO, key: bytes, task_seconds: float) -> int:
    """Grade the submission and send ``<hmac>\\n<results JSON>`` on the channel."""
    from grader.batch.results import grade_as_json

    payload = grade_as_json(SUBMISSION_MODULE, task_seconds).encode("utf-8")
    signature = hmac.new(key, payload, hashlib.sha256).hexdigest().encode("ascii")
    channel.write(signature + b"\n" + payload)
    channel.flush()
    return 0


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    """Read the mode and the limits from the command line."""
    parser = argparse.ArgumentParser(prog="python -m grader.batch.worker")
    parser.add_argument("mode", choices=("probe", "grade"))
    parser.add_argument("--memory-mb", type=int, required=True)
    parser.add_argument("--output-mb", type=int, required=True)
    parser.add_argument("--task-seconds", type=float, required=True)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Set the limits, take the channel, read the key (grade mode), then do the work."""
    arguments = parse_arguments(sys.argv[1:] if argv is None else argv)
    set_limits(arguments.memory_mb, arguments.output_mb)
    if arguments.mode == "probe":
        forget_stdin()
        return probe(take_private_channel())
    # The key is read before any submission code runs; stdin is empty from then on.
    key = bytes.fromhex(sys.stdin.readline().strip())
    forget_stdin()
    return grade(stdout_channel(), key, arguments.task_seconds)


def forget_stdin() -> None:
    """Point fd 0 at ``/dev/null``: later readers (the submission included) see no input."""
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)


if __name__ == "__main__":
    sys.exit(main())
