"""The README's commands exist as written: every module, subcommand and flag it shows.

The demo, the grader and the notebooks are run for real elsewhere in the suite; here the
point is that a newcomer who copies a line from the README gets a command that exists.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.docs.readme_commands import bash_blocks, missing_parts, python_commands

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
COMMANDS = python_commands(README)


def test_the_readme_shows_the_main_commands() -> None:
    assert {"python -m sqlite_demo", "python -m grader"} <= set(COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_module_subcommand_and_flag_in_the_readme_exists(command: str) -> None:
    assert missing_parts(command, ROOT) == []


def test_ci_runs_the_readme_installs_and_test_command_in_order() -> None:
    """The learner's install (Set up), the contributor's and the test command (Test)."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    learner = _section_block("## Set up").split("&&")[-1].strip()
    contributor, test = _section_block("## Test"), _section_block("## Test", 1)
    lines = [line.strip() for line in ci.splitlines()]
    positions = [lines.index(command.strip()) for command in (learner, contributor, test)]
    assert positions == sorted(positions)


def _section_block(heading: str, number: int = 0) -> str:
    section = README.split(heading + "\n", 1)[1]
    return bash_blocks(section)[number]
