"""The documents' commands exist as written: every module, subcommand and flag they show.

The demo, the grader and the notebooks are run for real elsewhere in the suite; here the
point is that a reader who copies a line from the README or a page of ``docs/`` gets a
command that exists.
"""

from __future__ import annotations

import pytest

from tests.docs.documents import DOCUMENTS, ROOT, read
from tests.docs.readme_commands import bash_blocks, missing_parts, python_commands

README = read("README.md")
COMMANDS = sorted(
    {(name, command) for name in DOCUMENTS for command in python_commands(read(name))}
)


def test_the_readme_shows_the_main_commands() -> None:
    assert {"python -m sqlite_demo", "python -m grader"} <= set(python_commands(README))


@pytest.mark.parametrize(("document", "command"), COMMANDS)
def test_every_module_subcommand_and_flag_in_the_documents_exists(
    document: str, command: str
) -> None:
    assert missing_parts(command, ROOT) == []


def test_ci_runs_the_readme_install_then_the_contributors_install_and_test_command_in_order() -> (
    None
):
    """The learner's install (README, Set up), the contributor's and the test command
    (CONTRIBUTING.md, Test)."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    learner = _section_block(README, "## Set up").split("&&")[-1].strip()
    contributing = read("CONTRIBUTING.md")
    contributor = _section_block(contributing, "## Test")
    test = _section_block(contributing, "## Test", 1)
    lines = [line.strip() for line in ci.splitlines()]
    positions = [lines.index(command.strip()) for command in (learner, contributor, test)]
    assert positions == sorted(positions)


def _section_block(document: str, heading: str, number: int = 0) -> str:
    section = document.split(heading + "\n", 1)[1]
    return bash_blocks(section)[number]


def test_the_command_list_is_not_empty_so_the_check_above_checks_something() -> None:
    assert len({document for document, _ in COMMANDS}) >= 4
