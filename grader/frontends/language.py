"""``python -m grader lang [en|zh|auto]``: one command sets the language of the whole kit.

The choice is kept in one file, ``.kit-language`` at the kit's root, which every tool reads
(:mod:`grader.i18n.choice`): the grader, ``python -m sqlite_demo``, the live page and the
browser site speak that language whatever the locale. ``auto`` forgets the choice; with no
language the command says which one is in use, and why.

The command also switches the stubs in ``exercises/`` to that language's docstrings, and
only the stubs: a file that is neither language's committed stub (:mod:`grader.frontends.stubs`)
is the learner's work, and then nothing is changed at all, neither a file nor the choice
(``--leave-exercises`` changes the tools' language alone).
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

from grader.frontends.stubs import STUB_FILES, NoCommittedStubs, committed_stubs
from grader.i18n import LANGUAGES, LOCALE_VARIABLES, edition, text, using_language
from grader.i18n import choice as kit
from grader.i18n.arguments import Parser

FORGET = "auto"


@dataclass(frozen=True)
class StubPlan:
    """What switching the stubs to one language would do."""

    switch: dict[str, str]  # file name -> the new source
    edited: tuple[str, ...]  # files that are the learner's work


def main(argv: list[str], root: Path = kit.KIT_ROOT) -> int:
    parser = Parser(prog="python -m grader lang", description=text("cli.lang.description"))
    parser.add_argument(
        "language", nargs="?", choices=(*LANGUAGES, FORGET), help=text("cli.lang.language")
    )
    parser.add_argument(
        "--leave-exercises", action="store_true", help=text("cli.lang.leave_exercises")
    )
    arguments = parser.parse_args(argv)
    if arguments.language is None:
        print(where_the_language_comes_from(root))
        return 0
    if arguments.language == FORGET:
        return _store(None, root)
    with using_language(arguments.language):  # say it in the language chosen
        return set_language(arguments.language, root, switch_stubs=not arguments.leave_exercises)


def set_language(language: str, root: Path, *, switch_stubs: bool = True) -> int:
    """Switch the stubs (unless told not to) and keep ``language``; 1 when a stub is the
    learner's work, and then nothing is changed."""
    if not switch_stubs:
        status = _store(language, root)
        print(text("lang.stubs_left"))
        return status
    try:
        plan = plan_stubs(language, root)
    except NoCommittedStubs:
        status = _store(language, root)
        print(text("lang.no_stubs"))
        return status
    if plan.edited:
        files = text("lang.separator").join(f"exercises/{name}" for name in plan.edited)
        print(text("lang.stubs_edited", files=files), file=sys.stderr)
        print(text("lang.stubs_edited_how", code=language), file=sys.stderr)
        return 1
    for name, source in plan.switch.items():
        _replace(root / "exercises" / name, source)
    status = _store(language, root)
    name = language_name(language)
    if plan.switch:
        files = text("lang.separator").join(f"exercises/{file}" for file in plan.switch)
        print(text("lang.stubs_switched", name=name, files=files))
    else:
        print(text("lang.stubs_already", name=name))
    return status


def plan_stubs(language: str, root: Path) -> StubPlan:
    """Which stubs to rewrite for ``language``, and which files are the learner's.

    Raises:
        NoCommittedStubs: git holds no stubs in every language here.
    """
    stubs = {code: committed_stubs(code, root) for code in LANGUAGES}
    switch, edited = {}, []
    for name in STUB_FILES:
        path = root / "exercises" / name
        current = path.read_text(encoding="utf-8") if path.is_file() else None
        wanted = stubs[language][name]
        if current == wanted:
            continue
        if current is None or current in (stubs[code][name] for code in LANGUAGES):
            switch[name] = wanted
        else:
            edited.append(name)
    return StubPlan(switch, tuple(edited))


def _replace(path: Path, source: str) -> None:
    # Written beside, then renamed: a file is either the old stub or the new one.
    partial = path.with_name(f".{path.name}.lang")
    partial.write_text(source, encoding="utf-8")
    os.replace(partial, path)


def _store(language: str | None, root: Path) -> int:
    path = kit.language_file(root)
    try:
        kit.store_language(language, root)
    except OSError as error:
        print(text("lang.cannot_write", path=path, error=error.strerror), file=sys.stderr)
        return 1
    if language is None:
        now = kit.kit_language(root=root)
        with using_language(now):
            print(text("lang.forgotten", name=language_name(now)))
    else:
        print(text("lang.set", name=language_name(language), path=path))
    return 0


def language_name(language: str) -> str:
    return text(f"lang.name.{language}")


def where_the_language_comes_from(root: Path) -> str:
    """Which language the kit speaks here, and which setting decides it."""
    language = kit.kit_language(root=root)
    name = language_name(language)
    if kit.passed_on_language():
        return text("lang.now.passed_on", name=name)
    if kit.stored_language(root):
        return text("lang.now.chosen", name=name, path=kit.language_file(root))
    if edition.LANGUAGE:
        return text("lang.now.edition", name=name)
    variables = ", ".join(f"{v}={os.environ[v]}" for v in LOCALE_VARIABLES if os.environ.get(v))
    said = text("lang.now.locale", name=name, variables=variables or "-")
    return said + "\n" + text("lang.now.how")
