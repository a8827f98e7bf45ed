"""``python -m benchmarks --quick`` runs end to end: exit 0, valid charts, every system named,
the HTTP section against a real server process, and the grading section (the reference
graded three ways, a class of 10 under bubblewrap; the browser is left out of ``--quick``).

Which frameworks run depends on what is installed (the ``bench`` extra); the tool itself
skips the missing ones, so this test passes with or without them. It asserts nothing about
speed: timings on a shared machine are not facts a test can rely on.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

# The quick benchmark serves the service for its HTTP section.
# Its grading section grades in the sandbox the grader chooses (bubblewrap where it works).
pytestmark = [pytest.mark.server, pytest.mark.sandbox, pytest.mark.slow]

REPOSITORY = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """Run the quick benchmark once for the whole module; return its output and out dir."""
    out = tmp_path_factory.mktemp("bench-out")
    finished = subprocess.run(
        [sys.executable, "-m", "benchmarks", "--quick", "--out", str(out)],
        cwd=REPOSITORY,
        capture_output=True,
        text=True,
        timeout=280,
        check=False,
    )
    assert finished.returncode == 0, f"exit {finished.returncode}\n{finished.stderr[-3000:]}"
    return finished.stdout, out


def test_every_chart_is_a_non_empty_valid_png(quick_run: tuple[str, Path]) -> None:
    # Imported here: the charts import matplotlib, a second that every worker would pay to
    # collect this module, in the fast tier too, where its tests are deselected.
    from PIL import Image

    from benchmarks.charts import CHART_FILES

    _, out = quick_run
    for name in CHART_FILES:
        path = out / name
        assert path.stat().st_size > 0, f"{name} is empty"
        with Image.open(path) as image:
            assert image.format == "PNG", f"{name} is {image.format}, not PNG"
            image.verify()  # raises if the file is truncated or its checksums are wrong


def test_the_printed_tables_name_every_system_that_ran(quick_run: tuple[str, Path]) -> None:
    stdout, out = quick_run
    ran = [system["name"] for system in json.loads((out / "results.json").read_text())["systems"]]
    assert "ours (NORMAL)" in ran and "raw sqlite3 (NORMAL)" in ran
    missing = [name for name in ran if name not in stdout]
    assert not missing, f"systems that ran but are not in the printed tables: {missing}"


def test_every_skipped_system_is_reported_with_its_reason(quick_run: tuple[str, Path]) -> None:
    stdout, out = quick_run
    skipped = json.loads((out / "results.json").read_text())["skipped_systems"]
    for system in skipped:
        assert f"skipping {system['name']}" in stdout
        assert system["reason"]


def test_the_markdown_report_holds_the_ratio_goal_and_http_tables(
    quick_run: tuple[str, Path],
) -> None:
    _, out = quick_run
    markdown = (out / "results.md").read_text()
    assert "Ratios against ours" in markdown
    assert "**Goals**" in markdown
    assert "**The service over HTTP**" in markdown
    assert "**Turn latency against session length (HTTP)**" in markdown


def test_the_sdk_reads_are_compared_on_both_clocks_from_the_same_rounds(
    quick_run: tuple[str, Path],
) -> None:
    _, out = quick_run
    peers = json.loads((out / "results.json").read_text())["peers"]
    if any(reason.startswith("SQLiteSession") for reason in peers["skipped"]):
        pytest.skip("the OpenAI Agents SDK is not installed: no SDK goals to compare")
    reads = [f for f in peers["figures"] if f["goal"].startswith("get_items")]
    clocks: dict[tuple[str, int], set[str]] = {(f["goal"], f["size"]): set() for f in reads}
    for figure in reads:
        clocks[(figure["goal"], figure["size"])].add(figure["clock"])
        assert figure["rounds"] > 0 and figure["load"][0] >= 0, figure
    assert clocks and all(found == {"CPU", "wall"} for found in clocks.values()), clocks


def test_the_grading_section_grades_the_reference_and_a_class_and_says_why_no_browser(
    quick_run: tuple[str, Path],
) -> None:
    _, out = quick_run
    grading = json.loads((out / "results.json").read_text())["grading"]
    reference = grading["reference"]
    assert set(reference["scores"]) == {"100/100"}, reference["scores"]
    for figure in ("sandbox_cpu", "in_process_cpu", "reference_cpu"):
        assert reference[figure]["samples"], figure
    assert reference["loads"] and reference["clock"]
    klass = grading["klass"]
    assert klass["skipped"] is None and klass["size"] == 10
    assert [sum(run["statuses"].values()) for run in klass["runs"]] == [10]
    assert grading["browser"]["skipped"].startswith("skipped: ")
    markdown = (out / "results.md").read_text()
    for title in ("Grading the reference, all five tasks", "Grading a class of 10",
                  "Grading in the browser"):  # fmt: skip
        assert f"**{title}**" in markdown
