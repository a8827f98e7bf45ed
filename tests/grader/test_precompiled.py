"""The zygote compiles the submission once (``_precompile`` in ``grader/kernel/serve.py``) and
every kernel it forks runs those code objects instead of compiling the source again; what
does not compile in time, or at all, is left for each kernel to meet as before.

Why: each kernel compiled its own copy of the submission, 3-4 ms of CPU, and a class of 100
starts some 6,000 kernels.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
from pathlib import Path
from typing import Any

import pytest

from grader import kernel

SOURCE = "def create_event_log():\n    return ()\n"


@pytest.fixture
def zygote(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The kernel's files as the zygote has them, in this interpreter; the source loader is
    put back as it was after the test."""
    loader = importlib.machinery.SourceFileLoader
    monkeypatch.setattr(loader, "get_code", loader.get_code)
    return kernel.namespace(kernel.FILES)


def _imported(path: Path) -> Any:
    spec = importlib.util.spec_from_file_location("submission_under_test", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, spec.loader


def test_every_module_of_a_folder_is_compiled_once_and_imported_from_there(
    zygote: dict[str, Any], tmp_path: Path
) -> None:
    (tmp_path / "pkg").mkdir()
    for name in ("__init__.py", "event_log.py", "pkg/__init__.py", "pkg/deeper.py"):
        (tmp_path / name).write_text(SOURCE, encoding="utf-8")

    zygote["_precompile"]({"roots": [str(tmp_path)], "file": None})

    compiled = zygote["PRECOMPILED"]
    assert sorted(compiled) == sorted(
        str(tmp_path / name)
        for name in ("__init__.py", "event_log.py", "pkg/__init__.py", "pkg/deeper.py")
    )
    module, loader = _imported(tmp_path / "event_log.py")
    assert loader.get_code("submission_under_test") is compiled[str(tmp_path / "event_log.py")]
    assert module.create_event_log() == ()


def test_a_file_that_does_not_compile_is_left_to_the_kernel_which_meets_the_same_error(
    zygote: dict[str, Any], tmp_path: Path
) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("def create_event_log(:\n    pass\n", encoding="utf-8")
    fine = tmp_path / "fine.py"
    fine.write_text(SOURCE, encoding="utf-8")

    zygote["_precompile"]({"roots": [str(tmp_path)], "file": None})

    assert sorted(zygote["PRECOMPILED"]) == [str(fine)]
    with pytest.raises(SyntaxError) as raised:
        _imported(broken)
    assert raised.value.filename == str(broken)


def test_compiling_past_its_time_leaves_every_file_to_the_kernels(
    zygote: dict[str, Any], tmp_path: Path
) -> None:
    # Twenty thousand functions: well over a millisecond of CPU to compile.
    slow = tmp_path / "slow.py"
    slow.write_text("".join(f"def f{n}(x):\n    return x + {n}\n" for n in range(20_000)))
    zygote["PRECOMPILE_SECONDS"] = 0.001
    untouched = importlib.machinery.SourceFileLoader.get_code

    zygote["_precompile"]({"roots": [str(tmp_path)], "file": str(slow)})

    assert zygote["PRECOMPILED"] == {}
    assert importlib.machinery.SourceFileLoader.get_code is untouched
