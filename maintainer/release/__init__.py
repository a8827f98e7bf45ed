"""Write the learner's copy of the kit, then prove inside it that it works on its own.

``python -m maintainer release OUT_DIR`` writes the files :mod:`maintainer.release.manifest`
lists, as they are in the last commit (:mod:`maintainer.release.files`), and refuses when
``exercises/`` holds uncommitted changes or the kit is not a git checkout. Then it proves, in
that copy: ``solutions`` cannot be imported and the kit's packages come from the copy; the
grader runs against the stubs and reports every task as not implemented yet; ``python -m
sqlite_demo`` completes; ruff and mypy pass with the copy's own settings; every notebook
executes.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from grader.i18n import text
from maintainer.release.files import KIT_ROOT, ReleaseRefused, WrittenCopy, write_copy
from maintainer.release.isolation import copy_only_environment
from maintainer.release.manifest import ENGLISH
from maintainer.release.proofs import (
    FAILED,
    ProofResult,
    prove_copy_stands_alone,
    prove_demo_completes,
    prove_grader_on_stubs,
    prove_notebooks_execute,
)
from maintainer.release.style_checks import prove_checks_pass

__all__ = [
    "ProofResult",
    "ReleaseRefused",
    "make_release",
    "prove_release",
    "render_proofs",
    "run_release",
]


def prove_release(copy_dir: Path) -> list[ProofResult]:
    """Run every proof inside ``copy_dir`` and return their results, in order."""
    with tempfile.TemporaryDirectory(prefix="grader-release-") as scratch_name:
        scratch = Path(scratch_name)
        environment = copy_only_environment(copy_dir, scratch)
        return [
            prove_copy_stands_alone(copy_dir, environment),
            prove_grader_on_stubs(copy_dir, environment, scratch),
            prove_demo_completes(copy_dir, environment, scratch),
            prove_checks_pass(copy_dir, environment, scratch, KIT_ROOT / ".mypy_cache"),
            *prove_notebooks_execute(copy_dir, environment),
        ]


def make_release(
    out_dir: Path, kit_root: Path = KIT_ROOT, language: str = ENGLISH
) -> tuple[WrittenCopy, list[ProofResult]]:
    """Write the learner's copy of the last commit into ``out_dir``, in ``language``, and
    prove it.

    Raises:
        ValueError: a :class:`ReleaseRefused` or
            :class:`~maintainer.release.committed.NotACheckout` whose message says why nothing was
            written and what to do.
    """
    written = write_copy(out_dir, kit_root, language)
    return written, prove_release(out_dir.resolve())


def render_proofs(proofs: list[ProofResult]) -> str:
    """Return one line per proof (status, name, detail) for the terminal."""
    lines = []
    for proof in proofs:
        status = text(f"release.outcome.{proof.outcome}")
        shown = text(proof.name)
        if proof.detail:  # "notebook executes: 03_....ipynb", in the language's punctuation
            shown = text("release.proof.detail", proof=shown, detail=proof.detail)
        lines.append(f"[{status}] {shown}")
    return "\n".join(lines)


def render_copy(written: WrittenCopy, out_dir: Path) -> str:
    """Where the copy went, which commit it holds, and which uncommitted edits it lacks."""
    lines = [
        text("release.copied", count=len(written.files), path=out_dir),
        text("release.commit", commit=written.commit[:12]),
    ]
    if written.left_out:
        shown = ", ".join(line.strip() for line in written.left_out)
        lines.append(text("release.left_out", paths=shown))
    return "\n".join(lines)


def run_release(out_dir: Path, language: str = ENGLISH) -> int:
    """Release, print the summary, and return the exit status: 0 when no proof failed."""
    written, proofs = make_release(out_dir, language=language)
    print(render_copy(written, out_dir))
    print(render_proofs(proofs))
    failed = [proof for proof in proofs if proof.outcome == FAILED]
    print(text("release.failed" if failed else "release.proved", count=len(failed)))
    return 1 if failed else 0
