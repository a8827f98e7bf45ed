"""A Gradescope autograder for this kit: ``python -m grader gradescope OUT.zip``.

The zip follows Gradescope's autograder specification, as otter-grader's do: ``setup.sh``
and ``run_autograder`` at its root, and the grader itself (``kit/``) beside them. Gradescope
unpacks it into ``/autograder/source``, runs ``setup.sh`` once while building the image, and
runs ``run_autograder`` for every submission: it grades ``/autograder/submission`` (a single
``.py`` file, the exercise files, or a package) exactly as ``python -m grader`` does and
writes ``/autograder/results/results.json`` in Gradescope's format.

``run_autograder`` reads two variables so it can be tried outside Gradescope (the tests do):
``AUTOGRADER_ROOT`` (default ``/autograder``) and ``GRADER_PYTHON`` (default the virtual
environment ``setup.sh`` makes). It uses bubblewrap when the image allows it, else a user of
its own (Gradescope runs as root), and ``results.json`` records which.
"""

from __future__ import annotations

import importlib.metadata
import io
import zipfile
from pathlib import Path

from grader.sandbox.workspace import IGNORED

KIT_ROOT = Path(__file__).resolve().parents[2]
#: What the autograder needs of the kit: the grader, and the stubs' ``__init__`` (a folder of
#: exercise files is graded as the ``exercises`` package, whose imports it supplies).
KIT_PARTS = ("grader", "exercises/__init__.py")
#: The grader's own dependencies at run time; pinned to the versions the instructor has.
REQUIREMENTS = ("hypothesis", "rich")

SETUP = """\
#!/usr/bin/env bash
# Runs once, while Gradescope builds the autograder image (Ubuntu, as root).
set -euo pipefail
apt-get update
apt-get install -y --no-install-recommends python3 python3-venv bubblewrap
python3 -m venv /autograder/venv
/autograder/venv/bin/pip install --no-cache-dir -r /autograder/source/requirements.txt
"""

RUN_AUTOGRADER = """\
#!/usr/bin/env bash
# Runs for every submission. Grades /autograder/submission into results/results.json.
set -uo pipefail
root="${AUTOGRADER_ROOT:-/autograder}"
python="${GRADER_PYTHON:-$root/venv/bin/python}"
mkdir -p "$root/results"
cd "$root/source/kit"
"$python" -m grader --target "$root/submission" \\
    --format gradescope --json "$root/results/results.json"
# Gradescope reads the score from results.json; the exit status only says the run finished.
exit 0
"""


def requirements() -> str:
    """``requirements.txt``: the grader's dependencies, pinned to this environment's versions."""
    return "".join(f"{name}=={importlib.metadata.version(name)}\n" for name in REQUIREMENTS)


def build_zip(destination: Path) -> None:
    """Write the autograder zip to ``destination`` (the same bytes for the same kit)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        _add(archive, "setup.sh", SETUP, executable=True)
        _add(archive, "run_autograder", RUN_AUTOGRADER, executable=True)
        _add(archive, "requirements.txt", requirements())
        for part in KIT_PARTS:
            for path in _files(KIT_ROOT / part):
                _add(archive, f"kit/{path.relative_to(KIT_ROOT)}", path.read_bytes())
    destination.write_bytes(buffer.getvalue())


def _files(path: Path) -> list[Path]:
    if path.is_file():
        return [path]
    return sorted(
        file
        for file in path.rglob("*")
        if file.is_file()
        and not any(part in IGNORED for part in file.parts)
        and file.suffix != ".pyc"
    )


def _add(
    archive: zipfile.ZipFile, name: str, content: str | bytes, executable: bool = False
) -> None:
    # A fixed date and mode: the zip depends on the kit's files only.
    info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
    info.external_attr = (0o755 if executable else 0o644) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(info, content)
