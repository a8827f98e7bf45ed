"""The engine worker's kernels (``static/kernels.js``) under Node, with fake Web Workers: every
kernel starts from the one snapshot the engine made of its own fresh Python (or loads Python
itself when there is none), two spares wait loaded, a kernel worker that fails to load Python
is replaced by a fresh one, and only when several in a row fail is the kernel reported dead.

Why: once in a while a fresh kernel worker failed to load (a page short of a file or of memory
for one more WebAssembly instance), before any learner code reached it. It was reported dead,
the engine could not load the submission again, and every task left of the grading came back
``error`` in 0.2 s: the stubs' test saw ``error`` where ``not_implemented`` was due.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

KERNELS_JS = Path(__file__).resolve().parents[2] / "grader/frontends/site/static/kernels.js"

#: Fake workers: each follows the next word of the plan ("load", "fail", "error") once it is
#: told how to start; a loaded one answers the boot message with a ready line. The kernels are
#: given the snapshot [1, 2, 3], or none when the third argument is "none". Prints what start()
#: answered, how many kernel workers were made and terminated, what each was given to start
#: from, and the warnings.
HARNESS = """
const [kernelsUrl, planJson, given] = process.argv.slice(2);
const plan = JSON.parse(planJson);
const failed = "failed Failed to load 'python_stdlib.zip': request failed.";
const made = [];
const warnings = [];
console.warn = (text) => warnings.push(String(text));
class FakeWorker {
  constructor(url, options) {
    this.terminated = false;
    this.started = undefined;
    made.push(this);
  }
  postMessage(message) {
    if ("snapshot" in message) {
      this.how = plan.shift() ?? "load";
      this.started = message.snapshot === null ? null : Array.from(message.snapshot);
      setTimeout(() => {
        const error = { message: "no such script", preventDefault() {} };
        if (this.how === "error") this.onerror?.(error);
        else if (this.how === "fail") this.onmessage?.({ data: failed });
        else this.onmessage?.({ data: "loaded" });
      }, 1);
    } else if (message.boot !== undefined) {
      setTimeout(() => this.onmessage?.({ data: 'answer 00 {"seq": 0, "ready": {}}' }), 1);
    }
  }
  terminate() { this.terminated = true; }
}
globalThis.Worker = FakeWorker;
const { Kernels } = await import(kernelsUrl);
const kernels = new Kernels("kernel.js", given === "none" ? null : new Uint8Array([1, 2, 3]));
const answer = await kernels.start("code", new Uint8Array(), "{}", 10);
kernels.stop();
await new Promise((resolve) => setTimeout(resolve, 20));
console.log(JSON.stringify({
  answer,
  made: made.length,
  terminated: made.filter((worker) => worker.terminated).length,
  startedFrom: made.map((worker) => worker.started),
  warnings,
}));
"""


def start_with(plan: list[str], tmp_path: Path, snapshot: str = "given") -> dict[str, Any]:
    """What ``Kernels.start`` answers when its fresh workers behave as ``plan`` says (given a
    snapshot, or none when ``snapshot`` is ``"none"``)."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("no Node.js here to run the page's JavaScript (apt-get install nodejs)")
    harness = tmp_path / "harness.mjs"
    harness.write_text(HARNESS, encoding="utf-8")
    done = subprocess.run(
        [node, str(harness), KERNELS_JS.as_uri(), json.dumps(plan), snapshot],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    found: dict[str, Any] = json.loads(done.stdout)
    return found


def test_a_kernel_worker_that_loads_is_booted_and_nothing_is_warned(tmp_path: Path) -> None:
    found = start_with(["load"], tmp_path)

    assert found["answer"]["stopped"] is None
    assert found["answer"]["lines"] == ['00 {"seq": 0, "ready": {}}']
    assert found["warnings"] == []


@pytest.mark.parametrize("failure", ["fail", "error"])
def test_a_kernel_worker_that_does_not_load_is_replaced_by_a_fresh_one(
    tmp_path: Path, failure: str
) -> None:
    found = start_with([failure, "load"], tmp_path)

    assert found["answer"]["stopped"] is None
    assert found["answer"]["lines"] == ['00 {"seq": 0, "ready": {}}']
    (warning,) = found["warnings"]
    assert warning.startswith("kernel worker 1 of 3 did not load: ")
    assert ("request failed" if failure == "fail" else "no such script") in warning


def test_only_three_workers_failing_in_a_row_make_the_kernel_dead(tmp_path: Path) -> None:
    found = start_with(["fail", "fail", "fail", "load", "load"], tmp_path)

    assert found["answer"] == {"lines": [], "stopped": "died", "progress": [0, 0, 0, 0]}
    assert len(found["warnings"]) == 3
    # Each failed worker is ended; the fourth and fifth, still the spares, are the next
    # start's.
    assert (found["made"], found["terminated"]) == (5, 3)


def test_every_kernel_starts_from_the_one_snapshot_and_two_spares_wait(tmp_path: Path) -> None:
    found = start_with(["load"], tmp_path)

    # The kernel that booted, the other spare, and the spare made in its place: each from
    # the same bytes, and none ended but the one stop() ended.
    assert found["startedFrom"] == [[1, 2, 3], [1, 2, 3], [1, 2, 3]]
    assert (found["made"], found["terminated"]) == (3, 1)


def test_kernels_load_python_themselves_when_there_is_no_snapshot(tmp_path: Path) -> None:
    found = start_with(["load"], tmp_path, snapshot="none")

    assert found["answer"]["stopped"] is None
    assert found["answer"]["lines"] == ['00 {"seq": 0, "ready": {}}']
    assert found["startedFrom"] == [None, None, None]
