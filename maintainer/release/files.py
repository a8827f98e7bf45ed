"""Write the learner's copy from the last commit, as the manifest lists it, or refuse and say why.

Refusals come before anything is written: the output folder must be new or empty and outside
the kit, the kit must be a git checkout with a commit, ``exercises/`` must hold exactly the
committed stubs, and the manifest must match the commit.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from grader.i18n import text
from maintainer.release.committed import (
    REGULAR_MODES,
    CommittedFile,
    committed_files,
    head_commit,
    read_blobs,
    uncommitted_changes,
)
from maintainer.release.manifest import ENGLISH, in_manifest, learner_files
from maintainer.translations.catalogs import DOCUMENTS
from maintainer.translations.markdown import rendered

KIT_ROOT = Path(__file__).resolve().parents[2]
STUBS = "exercises/"


class ReleaseRefused(ValueError):
    """No copy was written; the message says why and what to do."""


@dataclass(frozen=True, slots=True)
class WrittenCopy:
    """What :func:`write_copy` wrote: the commit it came from, the copy's files, and the
    uncommitted changes to files a copy holds, which it therefore does not carry."""

    commit: str
    files: list[str]
    left_out: list[str]


def check_output_folder(out_dir: Path, kit_root: Path) -> None:
    """Refuse a folder inside the kit (it would end up in the kit) or one holding files (a
    release never merges into an older one, which could keep files that should be gone)."""
    if out_dir.resolve().is_relative_to(kit_root.resolve()):
        raise ReleaseRefused(text("release.refused.inside_kit", path=out_dir))
    if out_dir.exists() and (not out_dir.is_dir() or any(out_dir.iterdir())):
        raise ReleaseRefused(text("release.refused.not_empty", path=out_dir))


def check_stubs_are_committed(kit_root: Path) -> None:
    """Refuse when ``exercises/`` differs from the commit: the copy holds the committed stubs,
    so whoever edited them would hand learners something other than what they see."""
    changes = uncommitted_changes(kit_root, STUBS)
    if changes:
        shown = ", ".join(changes[:5]) + (", ..." if len(changes) > 5 else "")
        raise ReleaseRefused(text("release.refused.stubs_changed", stubs=STUBS, changes=shown))


def regular_files(entries: list[CommittedFile], wanted: set[str]) -> dict[str, CommittedFile]:
    """The wanted entries by path; a link or submodule among them is refused, since a copy
    holds files only (a link could point to anything on the instructor's disk), and so is a
    path with a ``..`` part, which git stores if a tree is built by hand and which could
    write outside the copy's folder."""
    chosen = {entry.path: entry for entry in entries if entry.path in wanted}
    odd = [path for path, entry in chosen.items() if entry.mode not in REGULAR_MODES]
    if odd:
        raise ReleaseRefused(text("release.refused.links", paths=", ".join(odd)))
    escaping = [path for path in chosen if {"", ".", ".."} & set(path.split("/"))]
    if escaping:
        raise ReleaseRefused(text("release.refused.escaping", paths=", ".join(escaping)))
    return chosen


def write_copy(out_dir: Path, kit_root: Path = KIT_ROOT, language: str = ENGLISH) -> WrittenCopy:
    """Write the learner's copy of the last commit into ``out_dir``, in ``language``.

    Raises:
        ReleaseRefused: for any reason in the module docstring; nothing is written then.
        maintainer.release.committed.NotACheckout: when the kit is not a git checkout with a
            commit (a ``ValueError`` too, saying what to do).
        maintainer.release.manifest.ManifestError: when the manifest names files the commit lacks.
    """
    check_output_folder(out_dir, kit_root)
    commit = head_commit(kit_root)
    check_stubs_are_committed(kit_root)
    files = write_commit(out_dir, kit_root, commit, language)
    left_out = [line for line in uncommitted_changes(kit_root) if in_manifest(line[3:], language)]
    return WrittenCopy(commit, files, left_out)


def write_commit(out_dir: Path, kit_root: Path, commit: str, language: str = ENGLISH) -> list[str]:
    """Write the manifest's files of ``commit`` into ``out_dir``; return the copy's paths.

    A translated document is written as readers see it: without the markers that tie its
    sections to the English (:mod:`maintainer.translations.markdown`).
    """
    entries = committed_files(kit_root, commit)
    sources = learner_files((entry.path for entry in entries), language)
    committed = regular_files(entries, set(sources.values()))
    blobs = read_blobs(kit_root, [entry.blob for entry in committed.values()])
    contents = dict(zip(committed, blobs, strict=True))
    for copy_path, source in sources.items():
        target = out_dir / copy_path
        target.parent.mkdir(parents=True, exist_ok=True)
        content = contents[source]
        if source in DOCUMENTS.values():
            content = rendered(content.decode("utf-8")).encode("utf-8")
        target.write_bytes(content)
        target.chmod(REGULAR_MODES[committed[source].mode])
    return list(sources)
