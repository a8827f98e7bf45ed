"""The README's commands exist as written: every module, subcommand and flag it shows.

The demo, the grader and the notebooks are run for real elsewhere in the suite; here the
point is that a newcomer who copies a line from the README gets a command that exists.
"""

from __future__ import annotations

import importlib.util
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
# Modules whose command line is argparse: they answer --help without doing anything.
ARGPARSE_MODULES = {"grader", "sqlite_demo", "benchmarks"}
SUBCOMMANDS = {"batch", "release", "demo", "serve", "backup"}


def _bash_blocks() -> list[str]:
    return re.findall(r"```bash\n(.*?)```", README, flags=re.DOTALL)


def _readme_commands() -> list[str]:
    lines = [line for block in _bash_blocks() for line in block.splitlines()]
    lines += re.findall(r"`((?:[A-Z_]+=\S+ )?python -m [^`]+)`", README)
    parts = [part.split("#")[0].strip() for line in lines for part in line.split("&&")]
    return sorted({part for part in parts if " -m " in part and part.startswith(("python", "G"))})


COMMANDS = _readme_commands()


def test_the_readme_shows_the_main_commands() -> None:
    assert {"python -m sqlite_demo", "python -m grader"} <= set(COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_module_subcommand_and_flag_in_the_readme_exists(command: str) -> None:
    words = [word for word in shlex.split(command) if "=" not in word or word.startswith("-")]
    module = words[words.index("-m") + 1]
    assert importlib.util.find_spec(module) is not None, f"no module {module} for: {command}"
    if module not in ARGPARSE_MODULES:
        return
    rest = words[words.index("-m") + 2 :]
    subcommand = [rest[0]] if rest and rest[0] in SUBCOMMANDS else []
    shown = subprocess.run(
        [sys.executable, "-m", module, *subcommand, "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert shown.returncode == 0, shown.stderr
    for flag in (word.split("=")[0] for word in rest if word.startswith("--")):
        assert flag in shown.stdout, f"{command}: {flag} is not an option of {module}"


def test_ci_runs_the_readme_install_and_test_commands() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    setup, test = _bash_blocks()[0], _section_block("## Test")
    install = setup.split("&&")[-1].strip()
    assert install in ci
    assert test.strip() in ci


def _section_block(heading: str) -> str:
    section = README.split(heading, 1)[1]
    return re.findall(r"```bash\n(.*?)```", section, flags=re.DOTALL)[0]
