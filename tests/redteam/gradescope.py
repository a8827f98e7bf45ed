"""The Gradescope autograder, unpacked and run as Gradescope runs it, outside Gradescope.

:func:`unpacked` builds the zip as an instructor does (``python -m grader gradescope``),
unpacks it into a fake ``/autograder`` (``AUTOGRADER_ROOT``) in a folder others may pass
through (as ``/autograder`` is), and stands for ``setup.sh`` with ``GRADER_PYTHON`` (a
Python with the grader's one dependency). :func:`run_autograder` runs ``run_autograder``
for one submission with a ``PATH`` that has everything but the commands named, under the
survivors' watch.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.redteam import batch
from tests.redteam.hostile import KIT_ROOT


def tools_without(folder: Path, missing: tuple[str, ...]) -> Path:
    """A folder of links to every command of the system's ``bin`` folders but ``missing``."""
    folder.mkdir()
    for bin_dir in ("/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin"):
        if not os.path.isdir(bin_dir):
            continue
        for name in os.listdir(bin_dir):
            if name not in missing and not (folder / name).exists():
                (folder / name).symlink_to(os.path.join(bin_dir, name))
    return folder


def unpacked() -> Iterator[dict[str, Any]]:
    """The unpacked autograder, its tool folders and a listener; removed afterwards."""
    place = Path(tempfile.mkdtemp(prefix="redteam-gradescope-"))
    place.chmod(0o755)
    root = place / "autograder"
    (root / "source").mkdir(parents=True)
    archive = place / "autograder.zip"
    subprocess.run([sys.executable, "-m", "grader", "gradescope", str(archive)], cwd=KIT_ROOT,
                   check=True, capture_output=True)  # fmt: skip
    with zipfile.ZipFile(archive) as unpacked:
        for info in unpacked.infolist():
            unpacked.extract(info, root / "source")
            (root / "source" / info.filename).chmod(info.external_attr >> 16 & 0o777 or 0o644)
    for folder in (root, root / "source"):
        folder.chmod(0o755)
    listener = batch.Listener()
    yield {
        "root": root,
        "no_bwrap": tools_without(place / "bin", ("bwrap",)),
        "no_bwrap_no_unshare": tools_without(place / "bin-bare", ("bwrap", "unshare")),
        "listener": listener,
        "marker": f"redteam-{secrets.token_hex(4)}",
    }
    listener.close()
    shutil.rmtree(place, ignore_errors=True)


def run_autograder(
    autograder: dict[str, Any], source: str, tools: str = "no_bwrap"
) -> dict[str, Any]:
    """Grade one submission as Gradescope would; its results.json, and what was left."""
    root: Path = autograder["root"]
    for folder in ("submission", "results"):
        shutil.rmtree(root / folder, ignore_errors=True)
    (root / "submission").mkdir()
    (root / "submission" / "event_log.py").write_text(source)
    report = root.parent / "survivors.json"
    env = {"PATH": str(autograder[tools]), "AUTOGRADER_ROOT": str(root),
           "GRADER_PYTHON": sys.executable, "HOME": str(root.parent)}  # fmt: skip
    command = ["bash", str(root / "source" / "run_autograder")]
    watcher = subprocess.Popen(
        [sys.executable, "-m", "tests.redteam.survivors", str(report), "3", "--", *command],
        cwd=KIT_ROOT, env={**env, "PYTHONPATH": str(KIT_ROOT)},
    )  # fmt: skip
    watcher.wait(timeout=900)
    results = json.loads((root / "results" / "results.json").read_text())
    errors = (root / "results" / "errors.txt").read_text(errors="replace")
    return {"results": results, "survivors": json.loads(report.read_text())["survivors"],
            "errors": errors}  # fmt: skip
