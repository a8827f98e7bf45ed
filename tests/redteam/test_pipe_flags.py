"""A submission that makes the kernel's pipes non-blocking costs nothing, at any load.

Whether a pipe blocks is a flag of its open file description, and a fork shares those: the
request pipe belongs to the zygote and to every kernel it forks. Learner code cannot name the
pipes, but file descriptors are small numbers, and ``os.set_blocking(fd, False)`` on each
used to reach them. The kernel's next read then failed if the trusted side had not written
yet, and a write failed if the trusted side had not read yet: which task lost its kernel
depended on how busy the machine was (the class batch's ``steals_requests`` got 80 on a quiet
machine and 60 on a busy one). The kernel now puts the flag back before it waits on a pipe,
so such code is graded as what it is: correct code.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.engine.outcomes import Verdict
from grader.run import grade
from grader.settings import Settings
from grader.tasks import TASKS
from tests.redteam.conftest import need, need_bwrap, need_root, uid_usable
from tests.redteam.hostile import CORRECT

#: Correct code that, at import and in every call, makes every file descriptor it can reach
#: non-blocking and reads what is waiting on it (nothing is: the trusted side waits for the
#: answer before it writes again).
UNBLOCKS_EVERY_PIPE = (
    CORRECT
    + """

import os as _os


def _unblock():
    for fd in range(3, 256):
        try:
            _os.set_blocking(fd, False)
            _os.read(fd, 1 << 20)
        except OSError:
            pass


_unblock()
_functions = (create_event_log, append_event, get_events_for_session, list_sessions,
              replay_session)


def _unblocking(function):
    def call(*args, **kwargs):
        _unblock()
        return function(*args, **kwargs)
    return call


(create_event_log, append_event, get_events_for_session, list_sessions,
 replay_session) = map(_unblocking, _functions)
"""
)


@pytest.mark.parametrize("mode", ["bwrap", "uid"])
def test_non_blocking_pipes_cost_no_task(mode: str, tmp_path: Path) -> None:
    if mode == "bwrap":
        need_bwrap()
    else:
        need_root()
        need(uid_usable(), "uid isolation has no interpreter other users can read here")
    target = tmp_path / "unblocks_every_pipe.py"
    target.write_text(UNBLOCKS_EVERY_PIPE, encoding="utf-8")
    report = grade(str(target), TASKS, Settings(isolation=mode))
    failing = [(result.task_id, result.status) for result in report.results if not result.earned]
    assert (report.verdict, report.score, failing) == (Verdict.GRADED, report.max_score, [])
