"""The corpus: correct implementations in unusual styles, and mutants that each break a clause.

Each file under ``correct/`` is a learner-style submission that gets full marks: one module
that defines the five functions and imports only the standard library. The wrong ones are
data (see :mod:`tests.implementations.mutants`): a correct file and a small edit, written out
as a submission by :func:`write_mutant` when a test needs it.

Run ``python -m tests.implementations.corpus`` to print the corpus as a table.
"""

from __future__ import annotations

import functools
import importlib.util
import itertools
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import CodeType, ModuleType

CORPUS_DIR = Path(__file__).resolve().parent
CORRECT_DIR = CORPUS_DIR / "correct"

_load_counter = itertools.count(1)


@dataclass(frozen=True)
class Mutant:
    """A correct file with a small edit that breaks one clause of the contract.

    Attributes:
        name: what the bug is, as an identifier.
        base: the stem of the correct file it starts from.
        task: the grader task that must lose its points.
        why: the bug in one sentence.
        edits: ``(old, new)`` text replacements; each ``old`` occurs once in the base.
        spills: other tasks the bug honestly breaks too.
        needs_size: why the bug shows only in an example past some size (256 events, a run
            of six calls); empty for a bug that any small example can show, which the
            grader must then show in a dozen calls or fewer.
    """

    name: str
    base: str
    task: str
    why: str
    edits: tuple[tuple[str, str], ...]
    spills: frozenset[str] = field(default_factory=frozenset)
    needs_size: str = ""


def correct_files() -> list[Path]:
    """Return the paths of the correct implementations, sorted by name."""
    return sorted(p for p in CORRECT_DIR.glob("c*.py"))


def mutant_source(mutant: Mutant) -> str:
    """The mutant's source: its base with every edit applied, and its ``why`` as docstring.

    Raises:
        ValueError: an edit's old text does not occur exactly once (the base changed).
    """
    source = (CORRECT_DIR / f"{mutant.base}.py").read_text(encoding="utf-8")
    for old, new in mutant.edits:
        if source.count(old) != 1:
            raise ValueError(
                f"{mutant.name}: {old!r} occurs {source.count(old)} times in {mutant.base}"
            )
        source = source.replace(old, new)
    return (
        f'"""{mutant.why}\n\nA mutant of correct/{mutant.base}.py."""\n' + source.split('"""', 2)[2]
    )


def write_mutant(mutant: Mutant, folder: Path) -> Path:
    """Write the mutant as ``<name>.py`` into ``folder``; return its path."""
    path = folder / f"{mutant.name}.py"
    path.write_text(mutant_source(mutant), encoding="utf-8")
    return path


def load_implementation(path: Path | str) -> ModuleType:
    """Import the file at ``path`` as a fresh module under a name no other load uses.

    For the corpus's own soundness tests, which check the files without the grader.

    Raises:
        ImportError: if the file cannot be loaded as a module.
    """
    path = Path(path)
    name = f"corpus_{path.parent.name}_{path.stem}_{next(_load_counter)}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path} as a module")
    module = importlib.util.module_from_spec(spec)
    # dataclasses look their module up in sys.modules while building the class.
    sys.modules[name] = module
    exec(_compiled(str(path), path.read_bytes()), module.__dict__)
    return module


@functools.cache
def _compiled(path: str, source: bytes) -> CodeType:
    """The file's code, compiled once per source: the soundness tests load each correct file
    once per scenario (some 1,600 loads), and where no bytecode is cached
    (``PYTHONDONTWRITEBYTECODE``) compiling them took most of a load. Each load still runs
    the code in a fresh module, so no state of one load reaches the next."""
    return compile(source, path, "exec", dont_inherit=True)


def main() -> None:
    """Print every correct file and every mutant, one line each."""
    from tests.implementations.mutants import MUTANTS

    for path in correct_files():
        summary = " ".join((load_implementation(path).__doc__ or "").split("\n\n")[0].split())
        print(f"{path.stem:45} {'-':17} {summary}")
    for mutant in MUTANTS:
        print(f"{mutant.name:45} {mutant.task:17} {mutant.why}")


if __name__ == "__main__":
    main()
