"""The order in which the workers take the test files: the dearest first.

``--dist loadfile`` hands a worker a whole file at a time, from a queue that xdist orders by
the number of tests in each file. The dearest files here hold few tests (one module fixture
grades the whole corpus; one test grades a class in a batch), so that order can leave one of
them for the end of the run, where one worker runs it alone while the other has nothing
left. The rule that fills two cores evenly without knowing the future is to start the
longest jobs first and let the short ones fill in at the end (LPT): on one run's durations,
a simulation of two workers ended about a minute sooner (1,426 s, the lower bound, against
1,480 s). So the queue is ordered by what each
file cost in a recent run (:data:`DURATIONS`); a file it does not name yet counts by the
tiers of its tests. The order changes nothing a test sees: each file still runs whole, on one
worker, in its own order.

``python -m tests.scheduling LOG`` writes :data:`DURATIONS` from the output of a run that
printed every test's duration (``PYTEST_ADDOPTS="--durations=0 --durations-min=0" .ci/run >
LOG``: ``pyproject.toml`` hides durations under 5 s otherwise).
"""

from __future__ import annotations

import json
import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import Final

import pytest

#: Seconds each test file took in a recent full run (setup, call and teardown together).
DURATIONS: Final = Path(__file__).with_name("durations.json")
#: What a test counts for in a file :data:`DURATIONS` does not name: its dearest tier's
#: guess, in seconds (a corpus-wide soak runs minutes; a sandbox, a browser or a server
#: seconds; a plain test a fraction of one).
TIER_SECONDS: Final = {"slow": 30.0, "browser": 5.0, "sandbox": 5.0, "server": 3.0, "postgres": 1.0}
PLAIN_SECONDS: Final = 0.1
#: A line of ``--durations=0``: seconds, phase, the test's id.
_DURATION_LINE: Final = re.compile(r"\s*([\d.]+)s (?:setup|call|teardown)\s+([^:\s]+)::")


def pytest_configure(config: pytest.Config) -> None:
    # xdist's own order (most tests first) would undo the one made below.
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False


@pytest.hookimpl(trylast=True)  # after the tiers have marked and kept the tests
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    costs = _file_costs(items)
    items.sort(key=lambda item: -costs[_file_of(item)])  # stable: each file keeps its order


def _file_of(item: pytest.Item) -> str:
    return item.nodeid.split("::", 1)[0]


def _file_costs(items: list[pytest.Item]) -> dict[str, float]:
    known: dict[str, float] = json.loads(DURATIONS.read_text()) if DURATIONS.exists() else {}
    guessed: defaultdict[str, float] = defaultdict(float)
    for item in items:
        marks = item.iter_markers()
        tiers = [TIER_SECONDS[mark.name] for mark in marks if mark.name in TIER_SECONDS]
        guessed[_file_of(item)] += max(tiers, default=PLAIN_SECONDS)
    return {name: known.get(name, guessed[name]) for name in guessed}


def durations_of(log: str) -> dict[str, float]:
    """Seconds per test file, summed over the phases ``--durations=0`` printed in ``log``."""
    seconds: defaultdict[str, float] = defaultdict(float)
    for line in log.splitlines():
        found = _DURATION_LINE.match(line)
        if found:
            seconds[found.group(2)] += float(found.group(1))
    return {name: round(total, 1) for name, total in sorted(seconds.items())}


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m tests.scheduling LOG (a run's output with --durations=0)")
        return 2
    durations = durations_of(Path(argv[0]).read_text(encoding="utf-8", errors="replace"))
    if not durations:
        print(f"{argv[0]}: no --durations=0 lines in it")
        return 1
    DURATIONS.write_text(json.dumps(durations, indent=1) + "\n", encoding="utf-8")
    print(f"{DURATIONS}: {len(durations)} files, {sum(durations.values()):.0f} s in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
