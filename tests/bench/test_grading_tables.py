"""The grading section's tables, from made-up figures: the load beside every figure, the
clock named, a gradebook compared, and a part that could not run saying why."""

from __future__ import annotations

import sys
from pathlib import Path

from benchmarks.cpu_clock import CGROUP, RUSAGE, run_measured
from benchmarks.grading import ClassFigures, ClassRun, ReferenceFigures, Spread
from benchmarks.grading_browser import LOOP, BrowserFigures, BrowserTiming, loop_files
from benchmarks.grading_tables import browser_table, class_table, reference_table


def _reference() -> ReferenceFigures:
    return ReferenceFigures(
        Spread([1.0, 1.2, 0.9]), Spread([1.5, 1.7, 1.6]), CGROUP, "bwrap",
        Spread([0.8, 0.85, 0.82]),
        Spread([0.2, 0.25, 0.22]), [(0.5, 0.7), (0.7, 0.9), (0.4, 0.6)],
        ["100/100", "100/100", "100/100"],
    )  # fmt: skip


def test_the_reference_table_gives_median_middle_half_share_and_load_of_every_row() -> None:
    table = reference_table(_reference())
    assert [row[2].split(" ")[0] for row in table.rows] == ["1.000", "1.600", "0.820", "0.220"]
    assert [row[3] for row in table.rows] == ["1.00", "1.60", "0.82", "0.22"]
    assert all(row[4] == "0.40-0.90" for row in table.rows)
    assert any(CGROUP in note for note in table.notes) and "(isolation: bwrap)" in table.rows[0][0]
    assert any("Scores seen: 100/100." in note for note in table.notes)


def test_the_class_table_compares_each_gradebook_with_the_one_before() -> None:
    statuses = {"graded": 95, "timed_out": 5}
    runs = [ClassRun(125.0, 245.0, CGROUP, "bwrap", (1.5, 2.5), 0, statuses, None),
            ClassRun(130.0, 250.0, CGROUP, "bwrap", (2.5, 2.4), 0, statuses, False)]  # fmt: skip
    table = class_table(ClassFigures(100, runs))
    assert [row[5] for row in table.rows] == ["n/a", "NO"]
    assert table.rows[0][3] == "1.50-2.50" and table.rows[0][4] == "graded 95, timed_out 5"


def test_a_part_that_did_not_run_says_why_in_its_table() -> None:
    klass = class_table(ClassFigures(10, skipped="no tests/ in this copy"))
    browser = browser_table(BrowserFigures([], "skipped: no Chromium at /usr/bin/chromium"))
    assert klass.rows == [] and "skipped: no tests/ in this copy" in klass.notes
    assert browser.rows == [] and browser.notes[0].startswith("skipped: no Chromium")


def test_each_browser_timing_shows_its_score_and_its_load() -> None:
    timings = [BrowserTiming("first report, cold", 10.8, (3.4, 3.5)),
               BrowserTiming("the reference, all tasks", 5.9, (3.4, 3.3), "100/100")]  # fmt: skip
    rows = browser_table(BrowserFigures(timings)).rows
    assert rows == [("first report, cold", "10.8", "-", "3.40-3.50"),
                    ("the reference, all tasks", "5.9", "100/100", "3.40-3.30")]  # fmt: skip


def test_the_looping_submission_is_the_reference_with_create_event_log_redefined() -> None:
    files = loop_files()
    assert set(files) == {"event_log.py", "sessions.py", "replay.py"}
    assert files["event_log.py"].endswith(LOOP)
    assert "def create_event_log():\n    while True:\n        pass\n" in files["event_log.py"]


def test_a_measured_command_counts_the_cpu_of_the_processes_it_starts(tmp_path: Path) -> None:
    # The child spins in a grandchild; what is counted must include it, on either clock.
    spin = "import time\nend = time.process_time() + 0.2\nwhile time.process_time() < end: pass\n"
    parent = f"import subprocess, sys\nsubprocess.run([sys.executable, '-c', {spin!r}])\n"
    measured = run_measured([sys.executable, "-c", parent], tmp_path, timeout=120)
    assert measured.returncode == 0 and measured.clock in (CGROUP, RUSAGE)
    assert measured.cpu_seconds >= 0.2
