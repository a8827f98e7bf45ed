"""Write the Chinese stubs: ``exercises/`` as committed, each docstring in Chinese.

They are stored in ``docs/learner/zh/exercises/`` and a test checks they are exactly what
:func:`chinese_stubs` writes now, as the notebooks are checked against their builder: so a
reviewer reads the Chinese stubs as a learner will, and a release copies committed files only.
"""

from __future__ import annotations

from pathlib import Path

from maintainer.translations.docstrings import EXERCISE_FILES, KIT_ROOT, build_stub, english_stub

STUBS_DIR = KIT_ROOT / "docs" / "learner" / "zh" / "exercises"


def chinese_stubs(english_dir: Path | None = None) -> dict[str, str]:
    """``{file name: Chinese stub}`` for each exercise file."""
    from maintainer.translations.exercises_zh import ZH

    translations = {key: entry[1] for key, entry in ZH.items()}
    return {
        name: build_stub(english_stub(name, english_dir), name.removesuffix(".py"), translations)
        for name in EXERCISE_FILES
    }


def write_stubs(out_dir: Path = STUBS_DIR) -> list[Path]:
    """Write the Chinese stubs into ``out_dir``; return their paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, source in chinese_stubs().items():
        (out_dir / name).write_text(source, encoding="utf-8")
        written.append(out_dir / name)
    return written
