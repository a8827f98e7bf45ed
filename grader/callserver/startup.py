"""How the child starts: limits first, then the channel, then the submission, then requests.

The order matters. Limits and the uid are set while only the call server's own code has run,
so learner code never runs with more than it is allowed; the protocol's pipes are taken out of
fds 0 and 1 before the submission is imported, so its prints cannot reach them by accident.
"""

from __future__ import annotations

import json
import os
import resource
import sys
from collections.abc import Callable
from typing import Any

from . import text
from .loading import LoadError, load_functions
from .server import Server


def set_limits(config: dict[str, Any]) -> None:
    """Cap this process and whatever it starts; hard limits too, so they cannot be raised."""
    limits = {
        "memory_bytes": resource.RLIMIT_AS,
        "file_bytes": resource.RLIMIT_FSIZE,
        "open_files": resource.RLIMIT_NOFILE,
        "processes": resource.RLIMIT_NPROC,
        "cpu_seconds": resource.RLIMIT_CPU,
    }
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    for key, which in limits.items():
        if config.get(key) is not None:
            resource.setrlimit(which, (config[key], config[key]))


def drop_privileges(uid: int | None) -> None:
    """Become ``uid`` (when started as root): its own processes only, no capabilities."""
    if uid is None or os.getuid() != 0:
        return
    os.setgroups([])
    os.setgid(uid)
    os.setuid(uid)


def take_channel() -> tuple[Any, Callable[[bytes], object]]:
    """Keep stdin and stdout for the protocol; learner code gets /dev/null and the log."""
    reader = os.fdopen(os.dup(0), "rb")
    writer_fd = os.dup(1)
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    os.dup2(2, 1)

    def write(data: bytes) -> None:
        view_ = memoryview(data)
        while view_:
            view_ = view_[os.write(writer_fd, view_) :]

    return reader, write


def main(config_text: str) -> None:
    """Start: limits, channel, the submission; then answer requests until stdin closes.

    ``config_text`` is the JSON configuration the trusted side put on the command line.
    """
    config = json.loads(config_text)
    reader, write = take_channel()
    text.FALLBACKS.update(config.get("fallbacks", {}))
    set_limits(config)
    drop_privileges(config.get("uid"))
    server = Server(config, write)
    sys.stdout = sys.stderr = server.capture
    try:
        server.functions = load_functions(config)
    except LoadError as problem:
        server.send({"load_error": problem.details})
        return
    server.send({"ready": True})
    for line in reader:
        server.handle_line(line)
