"""The kernel: the only grader code that runs in the learner's interpreter.

The trusted process never imports learner code. It asks the kernel, over a pipe, to run a
*plan*: "create a log and keep it as log0", "append to log0 and keep the pair as log1, e1",
"read log0 again", "change e1.payload in every way a caller could and read the log after
each change". The kernel runs the plan against the learner's functions and answers with
plain observations (what came back, what was raised); the trusted process compares them
with its oracle and decides every verdict.

A kernel is not a module. Its files are executed, in :data:`FILES` order, into one private
namespace whose builtins are a private copy: nothing of it is in ``sys.modules``, no object
the learner's code is handed belongs to it, and a learner who patches ``builtins``, ``os`` or
``json`` patches objects the kernel no longer looks at (:mod:`.capture` took what it needs
before any learner code ran). In a sandbox :mod:`.guard` also installs an audit hook that
denies, and reports, the ways to reach the kernel anyway (frames, ``gc``, tracing, ``ctypes``,
``/proc/self/mem``, threads, subprocesses), and :mod:`.serve` authenticates every message
both ways with a key only the kernel holds. Each file uses the standard library only.

The same files run in a browser's worker (:data:`WORKER_FILES`): the guard too, with
:mod:`.messages` in place of :mod:`.serve`.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import marshal
from pathlib import Path
from types import CodeType
from typing import Any

HERE = Path(__file__).resolve().parent
#: The kernel's files, in the order they are executed into its namespace.
#: (:mod:`.refusals` is the guard's table; :mod:`.loading` imports the submission; :mod:`.serve`
#: is the pipes' end of the channel.)
FILES = (
    "capture", "isolated", "clock", "wire", "reach", "observe", "digest", "mutate", "calls",
    "plans", "refusals", "guard", "loading", "serve",
)  # fmt: skip
#: The files a kernel without a sandbox needs (no guard, no pipe).
IN_PROCESS_FILES = FILES[:10]
#: The kernel in a browser's worker: the same files, with messages instead of pipes.
WORKER_FILES = (*FILES[:-1], "messages")
#: The kernel's files compiled once, by ``python -m maintainer.bank``, for the Python that
#: ran it (see :func:`compiled_for_child`).
COMPILED = HERE / "compiled.marshal"


def sources(files: tuple[str, ...] = FILES) -> list[tuple[str, str]]:
    """Each kernel file as ``(name, source)``, ready to send to a child."""
    return [
        (f"<kernel:{name}>", (HERE / f"{name}.py").read_text(encoding="utf-8")) for name in files
    ]


@functools.lru_cache(maxsize=8)
def compiled_for_child(files: tuple[tuple[str, str], ...]) -> tuple[tuple[str, CodeType], ...]:
    """``files`` (``(name, source)`` pairs, as :func:`sources` gives them) as ``(name, code)``,
    compiled exactly as a child compiles the source it is sent (no future import of this
    module's inherited, no optimisation: the child runs without ``-O``), for a child of this
    very interpreter, which then runs the code instead of compiling some 4,000 lines at every
    grade (about 20 ms of CPU).

    The code comes from :data:`COMPILED` when that file was written by this version of
    Python from exactly these sources; else it is compiled here (once per process)."""
    stored = _stored(files)
    return stored if stored is not None else _compile(files)


def store_compiled() -> Path:
    """Write :data:`COMPILED` for the kernel's files and this Python (the bank builder does),
    unless it holds that very code already: marshal's bytes for the same code vary from run
    to run (with reference counts), and rebuilding the banks should not rewrite the file."""
    files = tuple(sources())
    code = _compile(files)
    if _stored(files) == code:
        return COMPILED
    stored = {"magic": importlib.util.MAGIC_NUMBER, "sources": _digest(files),
              "code": marshal.dumps(code)}  # fmt: skip
    COMPILED.write_bytes(marshal.dumps(stored))
    return COMPILED


def _compile(files: tuple[tuple[str, str], ...]) -> tuple[tuple[str, CodeType], ...]:
    """Each file compiled as a child compiles the source it is sent."""
    return tuple(
        (name, compile(text, name, "exec", dont_inherit=True, optimize=0)) for name, text in files
    )


def _stored(files: tuple[tuple[str, str], ...]) -> tuple[tuple[str, CodeType], ...] | None:
    """The stored code for ``files``, or None: no file, another Python's (its bytecode would
    not run here: the code is only read once the magic number matches), or other sources (a
    contributor's edit, a test's extra file)."""
    try:
        stored = marshal.loads(COMPILED.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    if not isinstance(stored, dict) or stored.get("magic") != importlib.util.MAGIC_NUMBER:
        return None
    if stored.get("sources") != _digest(files):
        return None
    code: tuple[tuple[str, CodeType], ...] = marshal.loads(stored["code"])
    return code


def _digest(files: tuple[tuple[str, str], ...]) -> str:
    digest = hashlib.sha256()
    for name, text in files:
        digest.update(f"{len(name)}:{name}{len(text)}:".encode())
        digest.update(text.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def namespace(files: tuple[str, ...] = IN_PROCESS_FILES) -> dict[str, Any]:
    """A kernel namespace in this interpreter, for a transport without a sandbox."""
    import builtins

    space: dict[str, Any] = {"__builtins__": dict(builtins.__dict__), "__name__": "grading_kernel"}
    for code in _compiled(files):
        exec(code, space)
    return space


@functools.cache
def _compiled(files: tuple[str, ...]) -> tuple[CodeType, ...]:
    """The files compiled once per process: the shrinker asks for a fresh kernel at every
    attempt, and compiling them again each time cost more than the attempt itself."""
    return tuple(compile(text, name, "exec") for name, text in sources(files))
