"""What a learner's grading loads: no maintainer's tool (a learner's copy has none).

Proven on a real ``python -m grader`` in a process of its own, by the modules it holds when it
exits (``sys.modules``). ``-X importtime`` would not do: it lists the ``import`` statements
only, and misses a module loaded by name with ``importlib.import_module``, which is how the
catalog once loaded the maintainer's words.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

KIT_ROOT = Path(__file__).resolve().parents[2]
# Generous: a grading of one task takes seconds, on a busy machine more.
TIMEOUT = 300
#: Run ``python -m grader`` as the command line does, and write the modules it ended up
#: holding to the file named by the first argument.
PROBE = """
import atexit, json, runpy, sys
out = sys.argv.pop(1)
atexit.register(lambda: open(out, "w").write(json.dumps(sorted(sys.modules))))
sys.argv[0] = "grader"
runpy.run_module("grader", run_name="__main__", alter_sys=True)
"""


def loaded_modules(
    tmp_path: Path, code: str, *arguments: str
) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """Run ``python -c CODE LIST_FILE ARGUMENTS`` in the kit; return it and every module it
    held at exit."""
    listing = tmp_path / "modules.json"
    finished = subprocess.run(
        [sys.executable, "-c", code, str(listing), *arguments],
        cwd=KIT_ROOT, env={**os.environ, "LANGUAGE": "en"}, capture_output=True, text=True,
        timeout=TIMEOUT, check=False,
    )  # fmt: skip
    names: list[str] = json.loads(listing.read_text()) if listing.exists() else []
    return finished, set(names)


def maintainers(modules: set[str]) -> list[str]:
    return sorted(name for name in modules if name.split(".")[0] == "maintainer")


def test_grading_the_solutions_and_writing_results_loads_no_maintainers_module(
    tmp_path: Path,
) -> None:
    results = tmp_path / "results.json"
    finished, modules = loaded_modules(
        tmp_path, PROBE, "--target", "solutions", "--task", "1", "--no-sandbox",
        "--json", str(results),
    )  # fmt: skip

    assert finished.returncode == 0, finished.stdout + finished.stderr[-2000:]
    assert "20/20  passed" in finished.stdout and results.exists()
    # The words were rendered: the catalog, and every task's words, were loaded.
    assert {"grader.frontends.results", "grader.i18n.texts", "grader.tasks.replay.texts"} <= modules
    assert maintainers(modules) == []


def test_the_release_words_reach_the_catalog_once_a_maintainers_tool_is_loaded(
    tmp_path: Path,
) -> None:
    probe = (
        "import atexit, json, sys\n"
        "out = sys.argv.pop(1)\n"
        "atexit.register(lambda: open(out, 'w').write(json.dumps(sorted(sys.modules))))\n"
        "from grader.i18n import text\n"
        "before = text('release.proved')\n"
        "import maintainer.release.command\n"
        "print(before == 'release.proved', text('release.proved') != 'release.proved')\n"
    )
    finished, modules = loaded_modules(tmp_path, probe)

    assert finished.stdout.split() == ["True", "True"], finished.stderr[-2000:]
    assert "maintainer.release.texts" in maintainers(modules)


def imported_by(*arguments: str) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """Run ``python -X importtime ARGUMENTS`` in the kit; return it and the top-level names of
    every module it imported (as ``-X importtime`` lists them on stderr)."""
    finished = subprocess.run(
        [sys.executable, "-X", "importtime", *arguments],
        cwd=KIT_ROOT, env={**os.environ, "LANGUAGE": "en"}, capture_output=True, text=True,
        timeout=TIMEOUT, check=False,
    )  # fmt: skip
    names = {
        line.rsplit("|", 1)[1].strip().split(".")[0]
        for line in finished.stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    }
    return finished, names


def test_grading_every_task_and_writing_a_results_file_imports_no_maintainer_nor_hypothesis(
    tmp_path: Path,
) -> None:
    """A grade from the bank that passes needs neither the maintainer's tools nor the drawing
    of examples: a results file lists each passed task's promises from the task's row."""
    results = tmp_path / "results.json"
    finished, names = imported_by(
        "-m", "grader", "--target", "solutions", "--no-sandbox", "--json", str(results)
    )

    assert finished.returncode == 0, finished.stdout + finished.stderr[-2000:]
    assert "100/100" in finished.stdout and results.exists()
    assert {"grader", "json"} <= names  # the listing was read: it names what was imported
    assert {"maintainer", "hypothesis"} & names == set()


def test_the_importtime_listing_does_name_hypothesis_when_it_is_imported() -> None:
    finished, names = imported_by("-c", "import hypothesis")
    assert finished.returncode == 0 and "hypothesis" in names
