"""The stubs, in each language, as git holds them: never the working tree's ``exercises/``,
which is the learner's work.

The English stubs are ``exercises/*.py``; the Chinese ones are built from them with other
docstrings (``python -m maintainer.translations build``) and kept in
``docs/learner/zh/exercises/``. ``python -m grader lang`` switches an untouched stub between
the two, and the browser site is built from both.

A learner may commit their work into ``exercises/``: then the last commit holds a solution,
not a stub. The English stub is then the latest version of the file, in the history, whose
functions only raise ``NotImplementedError``.
"""

from __future__ import annotations

import ast
import subprocess
from pathlib import Path

from grader.i18n.choice import KIT_ROOT
from grader.transport.workspace import EXERCISE_MODULES

#: Where each language's stubs are committed.
STUB_FOLDERS = {"en": "exercises", "zh": "docs/learner/zh/exercises"}
#: The stub files, in the order a learner writes them.
STUB_FILES = ("__init__.py", *EXERCISE_MODULES)
#: How far back to look for the English stub behind a learner's commits.
HISTORY_DEPTH = 200


class NoCommittedStubs(Exception):
    """This copy holds no stubs in git for every language: it is not a git checkout of the
    kit (a learner's copy holds its stubs in one language, in ``exercises/`` only)."""


def is_stub(source: str) -> bool:
    """Whether every function of ``source`` only raises ``NotImplementedError`` (after its
    docstring): a file no one has written any code in yet."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return False
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            body = node.body[1:] if ast.get_docstring(node) is not None else node.body
            if len(body) != 1 or not _raises_not_implemented(body[0]):
                return False
    return True


def _raises_not_implemented(statement: ast.stmt) -> bool:
    if not isinstance(statement, ast.Raise) or statement.exc is None:
        return False
    raised = statement.exc.func if isinstance(statement.exc, ast.Call) else statement.exc
    return isinstance(raised, ast.Name) and raised.id == "NotImplementedError"


def committed_stubs(language: str, root: Path = KIT_ROOT) -> dict[str, str]:
    """``{file name: source}`` of ``language``'s stubs, from git.

    Raises:
        NoCommittedStubs: not a git checkout, or git holds no stubs in ``language``.
    """
    folder = STUB_FOLDERS[language]
    stubs = {}
    for name in STUB_FILES:
        source = _git_show(root, "HEAD", f"{folder}/{name}")
        if language == "en" and not is_stub(source):
            source = _last_stub_in_history(root, f"{folder}/{name}")
        stubs[name] = source
    return stubs


def _last_stub_in_history(root: Path, path: str) -> str:
    commits = _git(root, "log", f"-n{HISTORY_DEPTH}", "--format=%H", "--", path).split()
    for commit in commits:
        source = _git_show(root, commit, path)
        if is_stub(source):
            return source
    raise NoCommittedStubs(f"no commit of the last {HISTORY_DEPTH} holds a stub {path}")


def _git_show(root: Path, commit: str, path: str) -> str:
    return _git(root, "show", f"{commit}:{path}")


def _git(root: Path, *arguments: str) -> str:
    try:
        done = subprocess.run(
            ["git", *arguments], cwd=root, capture_output=True, check=True, encoding="utf-8"
        )
    except (OSError, subprocess.CalledProcessError) as error:
        raise NoCommittedStubs(f"git {' '.join(arguments)}: {error}") from None
    return done.stdout
