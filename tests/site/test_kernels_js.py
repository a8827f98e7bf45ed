"""The engine worker's kernels (``static/kernels.js``) under Node, with fake Web Workers: every
kernel starts from the one snapshot a worker of its own made (or loads Python itself when
there is none), a kernel worker that fails to load Python is replaced by a fresh one, and
only when several in a row fail is the kernel reported dead.

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

#: Fake workers: the first is asked for the snapshot and gives it (or fails, when the maker
#: word is "fail"); each kernel worker after it follows the next word of the plan ("load",
#: "fail", "error") once it is told how to start; a loaded one answers the boot message with a
#: ready line. Prints what start() answered, how many kernel workers were made and
#: terminated, whether the snapshot's maker was ended, what each kernel was given to start
#: from, and the warnings.
HARNESS = """
const [kernelsUrl, planJson, maker] = process.argv.slice(2);
const plan = JSON.parse(planJson);
const failed = "failed Failed to load 'python_stdlib.zip': request failed.";
const made = [];
const makers = [];
const warnings = [];
console.warn = (text) => warnings.push(String(text));
class FakeWorker {
  constructor(url, options) {
    this.terminated = false;
    this.started = undefined;
    made.push(this);
  }
  postMessage(message) {
    if (message.make) {
      made.splice(made.indexOf(this), 1);
      makers.push(this);
      const snapshot = maker === "fail" ? "failed no memory" : new Uint8Array([1, 2, 3]);
      setTimeout(() => this.onmessage?.({ data: snapshot }), 1);
    } else if ("snapshot" in message) {
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
const kernels = new Kernels("kernel.js");
const answer = await kernels.start("code", new Uint8Array(), "{}", 10);
kernels.stop();
await new Promise((resolve) => setTimeout(resolve, 20));
console.log(JSON.stringify({
  answer,
  made: made.length,
  terminated: made.filter((worker) => worker.terminated).length,
  makers: makers.length,
  makerEnded: makers.every((worker) => worker.terminated),
  startedFrom: made.map((worker) => worker.started),
  warnings,
}));
"""


def start_with(plan: list[str], tmp_path: Path, maker: str = "snapshot") -> dict[str, Any]:
    """What ``Kernels.start`` answers when its fresh workers behave as ``plan`` says (and the
    snapshot's maker as ``maker`` says)."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("no Node.js here to run the page's JavaScript (apt-get install nodejs)")
    harness = tmp_path / "harness.mjs"
    harness.write_text(HARNESS, encoding="utf-8")
    done = subprocess.run(
        [node, str(harness), KERNELS_JS.as_uri(), json.dumps(plan), maker],
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
    found = start_with(["fail", "fail", "fail", "load"], tmp_path)

    assert found["answer"] == {"lines": [], "stopped": "died", "progress": [0, 0, 0, 0]}
    assert len(found["warnings"]) == 3
    # Each failed worker is ended; the fourth, still the spare, is the next start's.
    assert (found["made"], found["terminated"]) == (4, 3)


def test_every_kernel_starts_from_the_one_snapshot_and_its_maker_is_ended(tmp_path: Path) -> None:
    found = start_with(["load"], tmp_path)

    assert found["makers"] == 1
    assert found["makerEnded"]
    # The kernel that booted and the spare made after it: each from the same bytes.
    assert found["startedFrom"] == [[1, 2, 3], [1, 2, 3]]


def test_kernels_load_python_themselves_when_the_snapshot_cannot_be_made(
    tmp_path: Path,
) -> None:
    found = start_with(["load"], tmp_path, maker="fail")

    assert found["answer"]["stopped"] is None
    assert found["answer"]["lines"] == ['00 {"seq": 0, "ready": {}}']
    assert found["makerEnded"]
    assert found["startedFrom"] == [None, None]
