"""A child that abuses the pipe costs its own request, never the grader's memory or time.

Each test starts a child whose call server has been replaced by a hostile one (what learner
code that patches the call server in its own process could do), then sends one request: the
trusted side must end it within its deadline, with a bounded buffer, and say how it broke.
"""

from __future__ import annotations

import textwrap
import time
from pathlib import Path

import pytest

from grader.sandbox import backends
from grader.sandbox.child import MAX_ANSWER_BYTES, Child, ChildFailure, Limits
from grader.sandbox.workspace import RUNTIME_PACKAGE, Source, Workspace

READY = """\
import os, sys
out = os.fdopen(1, "wb", buffering=0)
out.write(b'{"ready": true}\\n')
sys.stdin.readline()
"""
DEEP = "b'[' * 200000 + b']' * 200000"
HOSTILE = {
    "nested_too_deep_to_parse": f"out.write(b'{{\"id\": 1, \"x\": ' + {DEEP} + b'}}\\n')\n",
    "parts_without_end": 'while True:\n    out.write(b\'{"id": 1, "part": {}}\\n\')\n',
    "one_line_that_never_ends": "while True:\n    out.write(b'x' * 65536)\n",
    "answers_for_another_request": 'out.write(b\'{"id": 7, "value": []}\\n\')\n',
    "not_json": 'out.write(b\'{"id": 1, "value": [}\\n\')\n',
}


def hostile_child(tmp_path: Path, body: str) -> Child:
    """A child whose call server answers "ready", reads one request, then does ``body``."""
    package = tmp_path / "runtime" / RUNTIME_PACKAGE
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    main = READY + body + "import time\ntime.sleep(60)\n"
    (package / "startup.py").write_text("def main(config):\n" + textwrap.indent(main, "    "))
    (tmp_path / "submission").mkdir()
    (tmp_path / "scratch").mkdir()
    source = Source("hostile", tmp_path / "submission", "exercises")
    return Child(Workspace(tmp_path, source), backends.NONE, Limits(), {})


@pytest.mark.parametrize("abuse", sorted(HOSTILE))
def test_an_abusive_answer_ends_the_request_within_its_deadline_and_its_caps(
    abuse: str, tmp_path: Path
) -> None:
    child = hostile_child(tmp_path, HOSTILE[abuse])
    assert child.start(time.monotonic() + 10) == {"ready": True}
    started = time.monotonic()
    with pytest.raises(ChildFailure) as failure:
        child.request({"op": "batch", "requests": [{"op": "reset"}]}, time.monotonic() + 5)
    assert failure.value.kind == "broken"
    assert time.monotonic() - started < 5
    assert len(child._buffer) <= MAX_ANSWER_BYTES + 2**16
    assert not child.alive


def test_a_child_that_only_says_what_it_is_doing_times_out_at_the_deadline(
    tmp_path: Path,
) -> None:
    child = hostile_child(tmp_path, 'while True:\n    out.write(b\'{"id": 1, "doing": "x"}\\n\')\n')
    child.start(time.monotonic() + 10)
    started = time.monotonic()
    with pytest.raises(ChildFailure) as failure:
        child.request({"op": "reset"}, time.monotonic() + 1)
    assert (failure.value.kind, failure.value.doing) == ("timed_out", "x")
    assert 1 <= time.monotonic() - started < 3
