"""Find the ``python -m`` commands a README shows, and check that each one exists as written.

Used for the kit's README and for the learner's copy's own README: a newcomer who copies a
line gets a module, subcommand and flags that exist.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from functools import cache
from pathlib import Path

# Modules whose command line is argparse: they answer --help without doing anything.
ARGPARSE_MODULES = {"grader", "sqlite_demo", "benchmarks", "maintainer"}
SUBCOMMANDS = {
    "batch", "release", "gradescope", "site", "lang", "demo", "sdk", "serve", "backup",
    "new-function", "check-function",
}  # fmt: skip


def bash_blocks(readme: str) -> list[str]:
    """The text of every ```bash block, in order."""
    return re.findall(r"```bash\n(.*?)```", readme, flags=re.DOTALL)


def python_commands(readme: str) -> list[str]:
    """Every ``python -m ...`` command in the bash blocks and inline code, sorted, once each."""
    lines = [line for block in bash_blocks(readme) for line in block.splitlines()]
    lines += re.findall(r"`((?:[A-Z_]+=\S+ )?python -m [^`]+)`", readme)
    parts = [part.split("#")[0].strip() for line in lines for part in line.split("&&")]
    return sorted({part for part in parts if " -m " in part and part.startswith(("python", "G"))})


def missing_parts(command: str, cwd: Path, environment: dict[str, str] | None = None) -> list[str]:
    """What of ``command`` does not exist: its module, subcommand or flags (empty: all do).

    The module is looked up, and an argparse module's ``--help`` is read, with ``environment``
    in ``cwd``, so a learner's copy can be checked as a learner would run it. Each lookup and
    each help is run once per run of the suite: a README shows the same module many times.
    """
    words = [word for word in shlex.split(command) if "=" not in word or word.startswith("-")]
    module = words[words.index("-m") + 1]
    rest = words[words.index("-m") + 2 :]
    subcommand = (rest[0],) if rest and rest[0] in SUBCOMMANDS else ()
    frozen = None if environment is None else tuple(sorted(environment.items()))
    if not module_exists(module, cwd, frozen):
        return [f"no module {module}"]
    if module not in ARGPARSE_MODULES:
        return []
    shown = help_of(module, subcommand, cwd, frozen)
    if shown.returncode != 0:
        return [f"{module} {' '.join(subcommand)} --help failed: {shown.stderr[-500:]}"]
    flags = [word.split("=")[0] for word in rest if word.startswith("--")]
    return [f"{module} has no option {flag}" for flag in flags if flag not in shown.stdout]


Environment = tuple[tuple[str, str], ...] | None


@cache
def module_exists(module: str, cwd: Path, environment: Environment) -> bool:
    """Whether ``module`` can be found from ``cwd`` with ``environment``."""
    probe = f"import importlib.util as u; print(u.find_spec({module!r}) is not None)"
    return run([sys.executable, "-c", probe], cwd, environment).stdout.strip() == "True"


@cache
def help_of(
    module: str, subcommand: tuple[str, ...], cwd: Path, environment: Environment
) -> subprocess.CompletedProcess[str]:
    """What ``python -m MODULE [SUBCOMMAND] --help`` answers in ``cwd`` with ``environment``."""
    return run([sys.executable, "-m", module, *subcommand, "--help"], cwd, environment)


def run(
    arguments: list[str], cwd: Path, environment: Environment
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        arguments,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=None if environment is None else dict(environment),
        timeout=60,
        check=False,
    )
