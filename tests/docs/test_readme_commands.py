"""The README command checker finds the commands a README shows and reports what is missing."""

from __future__ import annotations

from pathlib import Path

from tests.docs.readme_commands import missing_parts, python_commands

ROOT = Path(__file__).resolve().parents[2]


def test_commands_come_from_bash_blocks_and_inline_code_without_comments() -> None:
    readme = (
        "Run `python -m grader --task replay` or:\n\n"
        "```bash\n"
        "pip install -e . && python -m sqlite_demo   # the demo\n"
        "GRADER_TARGET=x.py python -m grader\n"
        "```\n"
    )
    assert python_commands(readme) == [
        "GRADER_TARGET=x.py python -m grader",
        "python -m grader --task replay",
        "python -m sqlite_demo",
    ]


def test_a_module_that_does_not_exist_is_reported() -> None:
    assert missing_parts("python -m no_such_module_here", ROOT) == ["no module no_such_module_here"]


def test_a_flag_the_module_lacks_is_reported_and_a_real_one_is_not() -> None:
    assert missing_parts("python -m grader --task replay --no-such-flag", ROOT) == [
        "grader has no option --no-such-flag"
    ]
