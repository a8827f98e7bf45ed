"""A child of this very interpreter is sent the kernel's files compiled
(``kernel.compiled_for_child``), not their sources: compiling some 4,000 lines cost about
20 ms of CPU at every grade. The code must be what the child's own compile of the source
made, or the kernel would run other code in the sandbox than the one it was tested as.
"""

from __future__ import annotations

import marshal
import subprocess
import sys

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
    ours = kernel.compiled_for_child()
    assert [name for name, _ in ours] == [name for name, _ in sources]
    # Code objects are equal when their bytecode, constants, names, flags (future imports
    # among them) and line tables are: a future flag inherited here, or asserts compiled
    # away under -O, would differ.
    for (name, code), compiled in zip(ours, theirs, strict=True):
        assert code == compiled, name


def test_the_code_is_sent_only_to_this_interpreter() -> None:
    assert sandbox.kernel_files(sys.executable) == list(kernel.compiled_for_child())
    assert sandbox.kernel_files("/no/such/python3") == kernel.sources()
