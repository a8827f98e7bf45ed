"""What a user of the sandbox's uid range could read, asked as root.

:func:`readable` forks, takes a uid from the range learner code runs as, and tries to open
each path (a folder by listing it): the file system's own answer, with no guard in the way.
"""

from __future__ import annotations

import json
import os

from grader.transport.isolation import UID_RANGE

#: A uid of the range no child is given (children get a random one).
UID = UID_RANGE[1] - 1


def readable(paths: list[str]) -> dict[str, str]:
    """Each path, as the user :data:`UID` finds it."""
    reading, writing = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the forked child
        os.close(reading)
        os.setgroups([])
        os.setgid(UID)
        os.setuid(UID)
        found = {}
        for path in paths:
            try:
                if os.path.isdir(path):
                    os.listdir(path)
                else:
                    with open(path, "rb") as file:
                        file.read(1)
                found[path] = "readable"
            except OSError as error:
                found[path] = type(error).__name__
        os.write(writing, json.dumps(found).encode())
        os._exit(0)
    os.close(writing)
    with os.fdopen(reading, "rb") as answer:
        data = answer.read()
    os.waitpid(child, 0)
    return dict(json.loads(data))
