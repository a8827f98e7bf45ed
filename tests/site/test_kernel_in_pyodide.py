"""The kernel's own Python under the site's Pyodide (in Node, no browser): what it builds
there, its collector can free.

Why: Pyodide's Python 3.14 dies ("null function or function signature mismatch") when its
garbage collector frees an ``operator.methodcaller`` left in a reference cycle. The kernel's
in-place changes made each method call with one, and a failed change leaves exactly such a
cycle (the error's traceback holds the frame that holds the caller). So in the browser a
correct solution's grade stopped half-way through task 1 with "the process running your code
stopped", and the worker took the page's Pyodide down with it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from grader import kernel
from grader.kernel.mutate import NEW_FIELD_VALUES

#: Loads the site's Pyodide and runs the Python file given; prints what it printed, or
#: ``FATAL <error>`` if Pyodide died.
HARNESS = """
const [folder, file] = process.argv.slice(2);
const { pathToFileURL } = await import("node:url");
const { loadPyodide } = await import(pathToFileURL(folder + "pyodide.mjs").href);
const indexURL = folder;
const { readFileSync } = await import("node:fs");
const pyodide = await loadPyodide({ indexURL, stdout: (line) => console.log(line) });
try {
  pyodide.runPython(readFileSync(file, "utf8"));
} catch (error) {
  console.log("FATAL " + String(error).split("\\n")[0]);
}
"""

#: Every change the kernel makes, each on a frozen payload that refuses it (the failure is
#: what leaves a cycle), a collection after each.
CHANGES = """
import builtins, gc, json
from types import MappingProxyType
space = {"__builtins__": dict(builtins.__dict__), "__name__": "grading_kernel"}
for name, text in json.loads(SOURCES):
    exec(compile(text, name, "exec"), space)
frozen = MappingProxyType({"meta": (1, 2), "content": "x"})
made = []
for operation, argument in json.loads(OPERATIONS):
    change = ([], operation, argument)
    made.append(space["_drive"](space["make_change"](frozen, [], change)))
    gc.collect()
print("collected", json.dumps(made))
"""

OPERATIONS = [
    *[(name, "content") for name in ("setitem", "delitem", "popkey")],
    *[(name, None) for name in ("append", "extend", "insert", "pop", "clear", "update",
                                "setdefault", "popitem", "reverse")],
    *[("setattr", name) for name, _ in NEW_FIELD_VALUES],
]  # fmt: skip


def test_every_in_place_change_the_kernel_makes_leaves_nothing_pyodide_cannot_collect(
    site: Path, tmp_path: Path
) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("no Node.js here to run Pyodide (apt-get install nodejs)")
    harness = tmp_path / "harness.mjs"
    harness.write_text(HARNESS)
    program = tmp_path / "changes.py"
    sources = json.dumps(kernel.sources(kernel.WORKER_FILES))
    program.write_text(f"SOURCES = {sources!r}\nOPERATIONS = {json.dumps(OPERATIONS)!r}\n{CHANGES}")
    done = subprocess.run(
        [node, str(harness), f"{site / 'pyodide'}/", str(program)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    printed = done.stdout.strip().splitlines()
    said = done.stdout[-2000:] + done.stderr[-2000:]
    assert printed and printed[-1].startswith("collected"), said
    # Every change was refused by the frozen payload (None): none of them got through.
    assert json.loads(printed[-1].split(" ", 1)[1]) == [None] * len(OPERATIONS)
