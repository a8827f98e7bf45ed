"""A child of this very interpreter is sent the kernel's files compiled
(``kernel.compiled_for_child``), not their sources: compiling some 4,000 lines cost about
20 ms of CPU at every grade. The code must be what the child's own compile of the source
made, or the kernel would run other code in the sandbox than the one it was tested as.
"""

from __future__ import annotations

import marshal
import subprocess
import sys

import pytest

from grader import kernel
from grader.transport import isolation, sandbox

#: What the child's boot does with a source (see ``BOOT`` in grader/transport/sandbox.py),
#: run in a child started as the sandbox starts it.
CHILD_COMPILE = """
import marshal, sys
sources = marshal.loads(sys.stdin.buffer.read())
sys.stdout.buffer.write(marshal.dumps([compile(text, name, "exec") for name, text in sources]))
"""


def test_the_code_sent_is_the_code_the_child_compiles_from_the_source() -> None:
    sources = kernel.sources()
    child = subprocess.run(
        [isolation.interpreter(), "-P", "-s", "-S", "-c", CHILD_COMPILE],
        input=marshal.dumps(sources),
        capture_output=True,
        check=True,
        env={"PATH": "/usr/bin:/bin"},
    )
    theirs = marshal.loads(child.stdout)
    ours = kernel.compiled_for_child(tuple(sources))
    assert [name for name, _ in ours] == [name for name, _ in sources]
    # Code objects are equal when their bytecode, constants, names, flags (future imports
    # among them) and line tables are: a future flag inherited here, or asserts compiled
    # away under -O, would differ.
    for (name, code), compiled in zip(ours, theirs, strict=True):
        assert code == compiled, name


def test_the_code_is_sent_only_to_this_interpreter() -> None:
    sources = kernel.sources()
    assert sandbox.kernel_files(sys.executable) == list(kernel.compiled_for_child(tuple(sources)))
    assert sandbox.kernel_files("/no/such/python3") == sources


def test_the_code_is_compiled_from_the_sources_of_the_moment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The red-team tests add a kernel file of their own (the guard switched off, a kernel
    # that answers nonsense) by replacing kernel.sources: that file must reach the child.
    real = kernel.sources
    sandbox.kernel_files(sys.executable)  # the kernel's own files, compiled and kept
    extra = ("<kernel:extra>", "EXTRA = 1\n")
    monkeypatch.setattr(kernel, "sources", lambda files=kernel.FILES: [*real(files), extra])
    sent = sandbox.kernel_files(sys.executable)
    assert [name for name, _ in sent][-1] == "<kernel:extra>"
    assert sent[-1][1] == compile(extra[1], extra[0], "exec", dont_inherit=True)
