"""``python -m grader gradescope OUT.zip``: write a Gradescope autograder for the kit."""

from __future__ import annotations

from pathlib import Path

from grader.frontends.gradescope import build_zip
from grader.i18n import LANGUAGES, text
from grader.i18n.arguments import Parser


def main(argv: list[str]) -> int:
    """Write the zip; exit 0, or 2 when the destination's folder does not exist."""
    parser = Parser(
        prog="python -m grader gradescope", description=text("cli.gradescope.description")
    )
    parser.add_argument("zip", type=Path, help=text("cli.gradescope.zip"))
    parser.add_argument("--lang", choices=LANGUAGES, help=text("cli.lang"))
    arguments = parser.parse_args(argv)
    if not arguments.zip.parent.resolve().is_dir():
        print(text("cli.gradescope.no_folder", path=arguments.zip.parent))
        return 2
    build_zip(arguments.zip)
    print(text("cli.gradescope.wrote", path=arguments.zip))
    return 0
