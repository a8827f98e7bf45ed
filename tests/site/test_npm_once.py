"""Two builds of the site at once install the npm packages once: the second waits for the
first and takes what it installed.

Why: ``npm ci`` empties ``node_modules`` before it installs, so two at once in the one cache
folder (two ``python -m grader site``, or two test workers building the site) deleted each
other's files, and one build failed or bundled half a package.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from grader.frontends.site import build

#: A stand-in for npm: notes each run, takes a while, and installs one file.
FAKE_NPM = """#!/bin/sh
echo run >> "$RUNS"
sleep 0.5
mkdir -p node_modules && echo installed > node_modules/package
"""


def test_two_builds_at_once_run_npm_ci_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    npm = tmp_path / "npm"
    npm.write_text(FAKE_NPM, encoding="utf-8")
    npm.chmod(0o755)
    runs = tmp_path / "runs"
    monkeypatch.setenv("RUNS", str(runs))
    monkeypatch.setattr(build.shutil, "which", lambda name: str(npm))
    cache = tmp_path / "cache"
    found: list[Path] = []

    builds = [threading.Thread(target=lambda: found.append(build._npm_modules(cache)))
              for _ in range(2)]  # fmt: skip
    for each in builds:
        each.start()
    for each in builds:
        each.join()

    assert runs.read_text(encoding="utf-8").splitlines() == ["run"]
    assert len(found) == 2
    assert all((modules / "package").read_text(encoding="utf-8") == "installed\n"
               for modules in found)  # fmt: skip
