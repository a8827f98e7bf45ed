"""Kernels in this very interpreter: for the grader's own tests and the bank's builder.

No sandbox, no guard, no second process: the submission is imported here, afresh for every
task, and the kernel's files run in a namespace of their own as they would in a child (see
:func:`grader.kernel.namespace`). It makes a grade of trusted code cost what the engine and
that code cost, nothing more, which is what a test of the engine's verdicts or of the report
formats needs. Learner code that ends the process, allocates without bound or loops in C
would take this interpreter with it: hostile code is graded in a sandbox, always.

CPU time is limited per call as in a sandbox (the kernel arms its timer): here the timer's
signal raises :class:`CallTimedOut` out of the call instead of ending the process.
"""

from __future__ import annotations

import importlib
import importlib.util
import itertools
import signal
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from grader import kernel as kernel_files
from grader.engine.contract import FUNCTIONS
from grader.engine.learner import KernelStopped, StopKind, TaskLimits

_loads = itertools.count(1)


class CallTimedOut(BaseException):
    """A call used its CPU share (raised by the timer's signal)."""


def _timed_out(signum: int, frame: Any) -> None:
    raise CallTimedOut()


@dataclass
class InProcessTransport:
    """Kernels that import ``target`` here: ``solutions``, a dotted module name or a path
    to a ``.py`` file or a package folder."""

    target: str
    measures_cpu = True
    cheap_kernels = True

    def kernel(self) -> InProcessKernel:
        return InProcessKernel(self.target)

    def close(self) -> None:
        pass


@dataclass
class InProcessKernel:
    target: str
    _space: dict[str, Any] | None = field(default=None, init=False)

    @property
    def alive(self) -> bool:
        return self._space is not None

    def start(self, limits: TaskLimits, deadline: float) -> dict[str, Any]:
        space = kernel_files.namespace()
        try:
            module = _import(self.target)
        except SyntaxError as error:
            where = f"{error.filename}:{error.lineno}"
            return {"load_error": {"kind": "syntax", "where": where, "message": str(error.msg),
                                   "text": error.text or ""}}  # fmt: skip
        except Exception as error:
            return {"load_error": {"kind": "raised", "type": type(error).__name__,
                                   "message": str(error)}}  # fmt: skip
        missing = [f.name for f in FUNCTIONS if not callable(getattr(module, f.name, None))]
        if missing:
            return {"load_error": {"kind": "missing", "names": missing}}
        for function in FUNCTIONS:
            space["FUNCTIONS"][function.name] = getattr(module, function.name)
            space["GRADED"].append(getattr(module, function.name))
        space["PASS_THROUGH"].append(CallTimedOut)
        self._space = space
        return {"ready": {}}

    def request(self, request: dict[str, Any], deadline: float) -> tuple[list[Any], dict[str, Any]]:
        space = self._space
        if space is None:
            raise KernelStopped(StopKind.DIED)
        parts: list[Any] = []
        previous = signal.signal(signal.SIGPROF, _timed_out)
        try:
            space["run_request"](request, lambda answer: parts.append(_plain(space, answer)))
        except CallTimedOut:
            self._space = None
            stopped = KernelStopped(StopKind.TIMED_OUT)
            stopped.parts = parts
            stopped.progress = tuple(int(slot) for slot in space["PROGRESS"])
            raise stopped from None
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, previous)
        return parts, {"done": {"reports": [], "faults": []}}

    def output(self) -> str:
        return ""

    def stop(self) -> float:
        self._space = None
        return 0.0


def _plain(space: dict[str, Any], answer: Any) -> Any:
    """An answer as it would cross the pipe (JSON), so that the judge reads the same."""
    import json

    return json.loads(space["encode"](answer))


def _import(target: str) -> ModuleType:
    path = Path(target)
    if path.suffix == ".py" or path.is_dir():
        file = path / "__init__.py" if path.is_dir() else path
        name = f"_graded_in_process_{next(_loads)}"
        spec = importlib.util.spec_from_file_location(
            name, file, submodule_search_locations=[str(path)] if path.is_dir() else None
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        return module
    return importlib.import_module(target)
