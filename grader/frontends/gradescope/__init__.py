"""A Gradescope autograder for this kit: ``python -m grader gradescope OUT.zip``.

The zip follows Gradescope's autograder specification, as otter-grader's do: ``setup.sh``
and ``run_autograder`` at its root, and the grader itself (``kit/``) beside them. Gradescope
unpacks it into ``/autograder/source``, runs ``setup.sh`` once while building the image, and
``run_autograder`` for every submission: it grades ``/autograder/submission`` (a single
``.py`` file, the exercise files, or a package) exactly as ``python -m grader`` does and writes
``/autograder/results/results.json`` in Gradescope's format.

``setup.sh`` uses the image's own Python when it is 3.10 or newer (Ubuntu 22.04's is 3.10),
else installs one; ``run_autograder`` always leaves a ``results.json``: when it cannot grade
(no usable Python, the grader failed to start), the file says why and gives no points.
Where the image cannot run bubblewrap, learner code runs as a user of its own, with the kit
and the submission closed to it. Two variables let the tests run it outside Gradescope:
``AUTOGRADER_ROOT`` (default ``/autograder``) and ``GRADER_PYTHON``.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from grader.pins import HYPOTHESIS
from grader.transport.workspace import IGNORED, KIT_ROOT

#: What the autograder needs of the kit: the grader, and the stubs' ``__init__`` (a folder of
#: exercise files is graded as the ``exercises`` package, whose imports it supplies).
KIT_PARTS = ("grader", "exercises/__init__.py")
#: The grader's only dependency at run time, pinned to the version every grade is made with.
REQUIREMENTS = {"hypothesis": HYPOTHESIS}
HERE = Path(__file__).resolve().parent


def requirements() -> str:
    """``requirements.txt``: the grader's dependencies, at the versions every grade is made
    with (:mod:`grader.pins`), whatever this environment has."""
    return "".join(f"{name}=={version}\n" for name, version in REQUIREMENTS.items())


def build_zip(destination: Path) -> None:
    """Write the autograder zip to ``destination`` (the same bytes for the same kit)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        _add(archive, "setup.sh", (HERE / "setup.sh").read_bytes(), executable=True)
        _add(archive, "run_autograder", (HERE / "run_autograder").read_bytes(), executable=True)
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
