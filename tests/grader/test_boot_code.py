"""A child of this very interpreter is sent the kernel's files compiled
(``kernel.compiled_for_child``), not their sources: compiling some 4,000 lines cost about
20 ms of CPU at every grade. The code must be what the child's own compile of the source
made, or the kernel would run other code in the sandbox than the one it was tested as. The
code itself is stored by the bank builder (``grader/kernel/compiled.marshal``), read only by
the Python that wrote it and for the sources it was compiled from.
"""

from __future__ import annotations

import importlib.util
import marshal
import subprocess
import sys
from pathlib import Path

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


def _stored_file(tmp_path: Path, magic: bytes, digest: str, code: bytes) -> Path:
    path = tmp_path / "compiled.marshal"
    path.write_bytes(marshal.dumps({"magic": magic, "sources": digest, "code": code}))
    return path


def _fresh(sources: tuple[tuple[str, str], ...]) -> tuple[tuple[str, object], ...]:
    return tuple((name, compile(text, name, "exec", dont_inherit=True)) for name, text in sources)


def test_the_committed_code_is_fresh_for_the_python_that_built_it() -> None:
    # The bank builder stores the kernel compiled (python -m maintainer.bank); a grade on the
    # same Python then skips compiling it. On another Python the file is not read at all.
    stored = marshal.loads(kernel.COMPILED.read_bytes())
    if stored["magic"] != importlib.util.MAGIC_NUMBER:
        pytest.skip("the stored code is another Python's: it is compiled here instead")
    sources = tuple(kernel.sources())
    assert kernel._stored(sources) == _fresh(sources), "run python -m maintainer.bank"


def test_stored_code_is_used_only_for_this_python_and_these_sources(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sources = tuple(kernel.sources())
    planted = marshal.dumps((("<kernel:capture>", compile("PLANTED = 1", "x", "exec")),))
    here, digest = importlib.util.MAGIC_NUMBER, kernel._digest(sources)
    cases = {
        "another Python's": _stored_file(tmp_path, b"\x00\x00\r\n", digest, b"not code"),
        "other sources'": _stored_file(tmp_path, here, "0" * 64, b"not code"),
    }
    for why, path in cases.items():
        monkeypatch.setattr(kernel, "COMPILED", path)
        kernel.compiled_for_child.cache_clear()
        assert kernel.compiled_for_child(sources) == _fresh(sources), why
    # This Python's, these sources': read as it is (the file is the kit's own, like its
    # sources; the test above keeps the committed one equal to a compile of them).
    monkeypatch.setattr(kernel, "COMPILED", _stored_file(tmp_path, here, digest, planted))
    kernel.compiled_for_child.cache_clear()
    assert kernel.compiled_for_child(sources) == marshal.loads(planted)
    kernel.compiled_for_child.cache_clear()


def test_a_missing_or_broken_file_means_a_compile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sources = tuple(kernel.sources())
    broken = tmp_path / "broken.marshal"
    broken.write_bytes(b"\x00garbage")
    for path in (tmp_path / "missing.marshal", broken):
        monkeypatch.setattr(kernel, "COMPILED", path)
        kernel.compiled_for_child.cache_clear()
        assert kernel.compiled_for_child(sources) == _fresh(sources)
    kernel.compiled_for_child.cache_clear()


def test_the_builder_writes_the_code_once_and_keeps_it_while_it_is_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "compiled.marshal"
    monkeypatch.setattr(kernel, "COMPILED", path)
    sources = tuple(kernel.sources())
    assert kernel.store_compiled() == path
    assert kernel._stored(sources) == _fresh(sources)
    # The same code in other bytes (marshal's version 2 writes no back-references): a builder
    # that wrote the file again would change them.
    other_bytes = marshal.dumps(marshal.loads(path.read_bytes()), 2)
    assert other_bytes != path.read_bytes()
    path.write_bytes(other_bytes)
    kernel.store_compiled()
    assert path.read_bytes() == other_bytes
