"""Time a class of 100 submissions under bubblewrap, as an instructor grades one.

``python -m tests.redteam.measure_class_of_100 [--out FOLDER] [-- BATCH FLAGS...]``
``python -m tests.redteam.measure_class_of_100 --build FOLDER [--size N]`` only writes a class
(of ``N``, 100 by default): ``python -m benchmarks --only grading`` grades it, on a CPU clock.

The class is the corpus (``tests/implementations``: the correct files and the mutants),
cycled to 95 submissions, and five hostile ones (every route to the kernel, a fork bomb, a
loop at import, 10 GB asked for in a function, a flood of the pipes). It is graded by
``python -m grader batch`` with the batch's defaults (one submission at a time per core,
30 s per submission), and the script prints the wall time, the load average before and
after (the machine is shared: read the figure beside it) and the statuses.

Not run by the test suite: it takes a couple of minutes of both cores.
"""

from __future__ import annotations

import csv
import itertools
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from tests.implementations.corpus import correct_files, mutant_source
from tests.implementations.mutants import MUTANTS
from tests.redteam import classic
from tests.redteam.hostile import KIT_ROOT, mutant, with_every_route

SIZE = 100


def build(folder: Path, size: int = SIZE) -> None:
    """Write a class of ``size`` into ``folder``: the five hostile files, the rest correct
    files and mutants."""
    corpus = [(path.stem, path.read_text()) for path in correct_files()]
    corpus += [(item.name, mutant_source(item)) for item in MUTANTS]
    hostile = classic.attacks(folder, folder.parent / "out", 9, "measure")
    extra = {
        "hostile_every_route": with_every_route(mutant("payload_shared_mutable")),
        "hostile_fork_bomb": hostile["fork_bomb.py"],
        "hostile_loops_at_import": "while True:\n    pass\n",
        "hostile_allocates_10gb": classic.controls()["allocates_10gb_in_replay.py"],
        "hostile_floods_the_pipe": hostile["floods_the_pipe.py"],
    }
    cycled = itertools.islice(itertools.cycle(corpus), size - len(extra))
    for number, (name, source) in enumerate(cycled, start=1):
        (folder / f"s{number:03d}_{name}.py").write_text(source)
    for name, source in extra.items():
        (folder / f"{name}.py").write_text(source)


def main(argv: list[str]) -> int:
    if "--build" in argv:
        size = int(argv[argv.index("--size") + 1]) if "--size" in argv else SIZE
        folder = Path(argv[argv.index("--build") + 1])
        folder.mkdir(parents=True)
        build(folder, size)
        return 0
    flags = argv[argv.index("--") + 1 :] if "--" in argv else []
    root = Path(argv[argv.index("--out") + 1]) if "--out" in argv else Path(tempfile.mkdtemp())
    submissions, out = root / "class", root / "out"
    submissions.mkdir(parents=True)
    build(submissions)
    load_before = os.getloadavg()
    started = time.monotonic()
    command = [sys.executable, "-m", "grader", "batch", str(submissions), "--out", str(out),
               "--no-progress", *flags]  # fmt: skip
    finished = subprocess.run(command, cwd=KIT_ROOT, capture_output=True, text=True, check=False)
    seconds = time.monotonic() - started
    load_after = os.getloadavg()
    with (out / "gradebook.csv").open(newline="") as file:
        rows = list(csv.DictReader(file))
    statuses = Counter(row["status"] for row in rows)
    print(finished.stdout.splitlines()[0] if finished.stdout else finished.stderr[-500:])
    print(f"{len(rows)} submissions in {seconds:.0f} s (exit {finished.returncode})")
    print("load average before: {:.2f} {:.2f} {:.2f}".format(*load_before))
    print("load average after:  {:.2f} {:.2f} {:.2f}".format(*load_after))
    print("statuses:", ", ".join(f"{name} {count}" for name, count in sorted(statuses.items())))
    hostile = {row["id"]: (row["status"], row["score"]) for row in rows if "hostile" in row["id"]}
    print("hostile:", hostile)
    return 0 if finished.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
