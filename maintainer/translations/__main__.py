"""``python -m maintainer.translations``: the Chinese texts' maintenance, in three commands.

* ``status``: every translation out of step with its English, file by file (exit 1 if any).
* ``stamp FILE [KEY ...] [--all]``: after re-translating, record in ``FILE`` the fingerprint
  of the English as it is now, for the entries named (``KEY``: a README section's heading
  line, ``"## Set up"``; a catalog's id; a notebook cell's old fingerprint) or for every
  stale one (``--all``). Stamp only what you have re-translated: a stamp says "this Chinese
  says what the English says".
* ``build``: write the Chinese stubs, ``docs/learner/zh/exercises/``, from ``exercises/`` and
  :mod:`maintainer.translations.exercises_zh` (``python notebooks/build.py`` builds the
  Chinese notebooks).
"""

from __future__ import annotations

import argparse
import re
import sys

from grader.i18n import fingerprint
from maintainer.translations import markdown
from maintainer.translations.catalogs import DOCUMENTS, Catalog, all_catalogs, drift, renames
from maintainer.translations.docstrings import KIT_ROOT
from maintainer.translations.stubs import write_stubs


def status() -> int:
    """Print what is out of step; 1 when anything is."""
    found = 0
    for catalog in all_catalogs():
        for problem in drift(catalog):
            print(f"{catalog.file}: {problem}")
            found += 1
    print(f"{found} translation(s) out of step" if found else "every translation is in step")
    return 1 if found else 0


def stamp(file: str, keys: list[str], every: bool) -> int:
    """Record the current English fingerprints for ``keys`` (or every stale entry) in ``file``."""
    catalog = next((c for c in all_catalogs() if c.file == file), None)
    if catalog is None:
        print(f"no translations in {file}; files: {', '.join(c.file for c in all_catalogs())}")
        return 2
    chosen = chosen_renames(catalog, keys, every)
    if not chosen:
        print(f"nothing to stamp in {file}: " + ("; ".join(drift(catalog)) or "all in step"))
        return 1
    path = KIT_ROOT / file
    if file in DOCUMENTS.values():
        markdown.restamp(path, chosen)
    else:
        source = path.read_text(encoding="utf-8")
        for old, new in chosen.items():
            source = re.sub(rf'"{old}"', f'"{new}"', source)
        path.write_text(source, encoding="utf-8")
    for key, new in chosen.items():
        print(f"stamped {file}: {key} -> {new}")
    return 0


def chosen_renames(catalog: Catalog, keys: list[str], every: bool) -> dict[str, str]:
    """What to write: for a document ``{heading: new}``, else ``{old fingerprint: new}``."""
    if catalog.file in DOCUMENTS.values():
        now = {key: fingerprint(english) for key, english in catalog.english.items()}
        stale = {key: now[key] for key, (fp, _) in catalog.chinese.items()
                 if key in now and fp != now[key]}  # fmt: skip
        return stale if every else {key: stale[key] for key in keys if key in stale}
    by_old = renames(catalog)
    if every:
        return by_old
    olds = {key: catalog.chinese[key][0] for key in keys if key in catalog.chinese}
    olds.update({key: key for key in keys if key in by_old})
    return {old: by_old[old] for old in olds.values() if old in by_old}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m maintainer.translations")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("status", help="list every translation out of step with its English")
    stamping = commands.add_parser("stamp", help="record the English a re-translation follows")
    stamping.add_argument("file", help="the translations' file, as status names it")
    stamping.add_argument("keys", nargs="*", help="the entries re-translated")
    stamping.add_argument("--all", action="store_true", help="every stale entry of the file")
    commands.add_parser("build", help="write the Chinese stubs into docs/learner/zh/exercises/")
    arguments = parser.parse_args(argv)
    if arguments.command == "status":
        return status()
    if arguments.command == "stamp":
        return stamp(arguments.file, arguments.keys, arguments.all)
    for path in write_stubs():
        print(f"wrote {path.relative_to(KIT_ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
