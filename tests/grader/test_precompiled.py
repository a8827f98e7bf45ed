"""The zygote compiles a one-file submission once (``_precompile`` in
``grader/kernel/loading.py``) and every kernel it forks executes that code object instead of
compiling the source again; what would not compile exactly as in a kernel is left to each
kernel, as before.

Why: each kernel compiled its own copy of the submission (3-4 ms of CPU), and a class of 100
starts thousands of kernels. A first version put a loader method of the kernel's on
``SourceFileLoader``: every class is listed by ``object.__subclasses__()`` and a method's
``__globals__`` are not audited, so the hostile file that tries every route reached the
kernel's namespace through it and cleared the guard's reports. The last test here is that
route, against the kernel as the zygote leaves it.
"""

from __future__ import annotations

import resource
import types
from pathlib import Path
from typing import Any

import pytest

from grader import kernel

SOURCE = "def create_event_log():\n    return ()\n"


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@pytest.fixture
def zygote() -> dict[str, Any]:
    """The kernel's files as the zygote has them, in this interpreter (a namespace of their
    own: nothing of it is left in this process's modules)."""
    return kernel.namespace(kernel.FILES)


def _config(path: Path) -> dict[str, Any]:
    return {"file": str(path), "roots": [str(path.parent)], "module": None}


def _precompiled(
    zygote: dict[str, Any], tmp_path: Path, source: str = SOURCE, cpu: Any = _cpu
) -> Path:
    """``source`` written as the submission's one file, and compiled by the zygote."""
    path = tmp_path / "submission.py"
    path.write_text(source, encoding="utf-8")
    zygote["_precompile"](_config(path), cpu)
    return path


def _functions(code: types.CodeType) -> list[types.CodeType]:
    return [constant for constant in code.co_consts if isinstance(constant, types.CodeType)]


def test_a_file_is_compiled_once_and_every_import_executes_that_code(
    zygote: dict[str, Any], tmp_path: Path
) -> None:
    path = _precompiled(zygote, tmp_path)

    code = zygote["_PRECOMPILED"][str(path)]
    assert code.co_filename == str(path)
    first = zygote["_import"](_config(path))
    second = zygote["_import"](_config(path))
    assert first.create_event_log() == ()
    assert first.create_event_log.__code__ is _functions(code)[0]
    assert second.create_event_log.__code__ is _functions(code)[0]
    assert first.__file__ == str(path) and first.__name__ == "submission"


def test_the_code_is_the_import_system_s_own_and_no_future_import_of_the_kernel_s(
    zygote: dict[str, Any], tmp_path: Path
) -> None:
    # The kernel's files say ``from __future__ import annotations``: a submission compiled
    # with that flag inherited would keep its annotations as strings.
    path = _precompiled(zygote, tmp_path, "def f(x: int) -> int:\n    return x\n")
    module = zygote["_import"](_config(path))

    assert module.f.__annotations__ == {"x": int, "return": int}
    imported = compile(path.read_bytes(), str(path), "exec", dont_inherit=True)
    assert zygote["_PRECOMPILED"][str(path)].co_code == imported.co_code


@pytest.mark.parametrize(
    ("why", "source"),
    [
        ("does not compile", "def create_event_log(:\n    pass\n"),
        ("warns while compiling", "def create_event_log():\n    return 1 is 1\n"),
        ("too large", "# " + "x" * (1 << 18) + "\n" + SOURCE),
    ],
)
def test_a_file_that_would_not_compile_as_in_a_kernel_is_left_to_each_kernel(
    zygote: dict[str, Any], tmp_path: Path, why: str, source: str
) -> None:
    _precompiled(zygote, tmp_path, source)

    assert zygote["_PRECOMPILED"] == {}, why


def test_a_file_the_kernel_leaves_meets_the_same_error_in_each_kernel(
    zygote: dict[str, Any], tmp_path: Path
) -> None:
    path = _precompiled(zygote, tmp_path, "def create_event_log(:\n    pass\n")

    with pytest.raises(SyntaxError) as raised:
        zygote["_import"](_config(path))
    assert raised.value.filename == str(path)


def test_compiling_past_its_time_leaves_the_file_to_each_kernel(
    zygote: dict[str, Any], tmp_path: Path
) -> None:
    clock = iter((0.0, 10.0))  # the compile took ten seconds of CPU
    _precompiled(zygote, tmp_path, SOURCE, lambda: next(clock))
    assert zygote["_PRECOMPILED"] == {}


def test_a_package_is_imported_by_the_import_system_as_before(
    zygote: dict[str, Any], tmp_path: Path
) -> None:
    (tmp_path / "exercises").mkdir()
    (tmp_path / "exercises" / "__init__.py").write_text(SOURCE, encoding="utf-8")
    zygote["_precompile"]({"file": None, "roots": [str(tmp_path)], "module": "exercises"}, _cpu)
    assert zygote["_PRECOMPILED"] == {}


def test_after_precompiling_no_method_of_any_class_leads_to_the_kernel(
    zygote: dict[str, Any], tmp_path: Path
) -> None:
    """The route of ``by_subclasses`` (tests/redteam/hostile.py), after the zygote compiled:
    the compiled code is held where only the kernel's own functions can look."""
    zygote["_seal_classes"](zygote)  # as the zygote does first
    path = _precompiled(zygote, tmp_path)
    zygote["_import"](_config(path))
    assert zygote["_PRECOMPILED"], "the file must have been compiled for this test to mean much"

    found = []
    seen: set[int] = set()
    pending: list[type] = [object]
    while pending:
        cls = pending.pop()
        for sub in type.__subclasses__(cls):
            if id(sub) in seen:
                continue
            seen.add(id(sub))
            pending.append(sub)
            for value in list(vars(sub).values()):
                try:
                    space = getattr(value, "__globals__", None)
                except Exception:  # a lazy attribute of one of this process's modules
                    continue  # (six.moves imports on access, _gdbm absent): no function there
                if space is zygote:
                    found.append(f"{sub.__qualname__}.{getattr(value, '__name__', '?')}")
    assert found == [], found
