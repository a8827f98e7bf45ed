"""``python -m maintainer release OUT_DIR [--lang zh]``: write the learner's copy, in English or
in Chinese, and prove it works (``--lang`` is also the language of the release's messages)."""

from __future__ import annotations

import argparse
from pathlib import Path

from grader.i18n import text
from grader.i18n.arguments import Parser
from maintainer.release import run_release
from maintainer.release.committed import NotACheckout
from maintainer.release.files import ReleaseRefused
from maintainer.release.manifest import ENGLISH, LANGUAGES, ManifestError


def build_parser() -> argparse.ArgumentParser:
    """The ``release`` command's options."""
    parser = Parser(
        prog="python -m maintainer release", description=text("cli.release.description")
    )
    parser.add_argument("out_dir", type=Path, metavar="OUT_DIR", help=text("cli.release.out"))
    parser.add_argument("--lang", choices=LANGUAGES, help=text("cli.release.lang"))
    return parser


def main(argv: list[str]) -> int:
    """Release; exit status 0 when every proof passed, 1 when one failed, 2 when the copy
    was refused (nothing is written then; the message says why and what to do)."""
    arguments = build_parser().parse_args(argv)
    try:
        return run_release(arguments.out_dir, arguments.lang or ENGLISH)
    except (ReleaseRefused, NotACheckout, ManifestError) as error:
        print(text("cli.release.refused", reason=error))
        return 2
