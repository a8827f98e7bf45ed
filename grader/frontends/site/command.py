"""``python -m grader site OUT/``: build the static site; ``--serve``: build it and serve it.

Examples::

    python -m grader site _site                   # any static host can serve the folder
    python -m grader site --serve                 # build into a temporary folder, serve it
    python -m grader site _site --serve --port 8000
"""

from __future__ import annotations

import argparse
import signal
import sys
import tempfile
import time
from pathlib import Path

from grader.frontends.site.build import BuildError, build
from grader.frontends.site.serve import Server
from grader.i18n import text
from grader.i18n.arguments import Parser


def main(argv: list[str]) -> int:
    parser = Parser(prog="python -m grader site", description=text("cli.site.description"))
    parser.add_argument("out", nargs="?", type=Path, help=text("cli.site.out"))
    parser.add_argument("--serve", action="store_true", help=text("cli.site.serve"))
    parser.add_argument("--port", type=_port, default=8000, help=text("cli.site.port"))
    args = parser.parse_args(argv)
    if args.out is None and not args.serve:
        parser.error(text("cli.site.no_folder"))
    if args.out is not None:
        return _build_and_serve(args.out, args.serve, args.port)
    # --serve alone: a temporary folder, removed when the server stops.
    with tempfile.TemporaryDirectory(prefix="kit-site-") as folder:
        return _build_and_serve(Path(folder) / "site", True, args.port)


def _port(value: str) -> int:
    if not value.isdigit() or not 1 <= int(value) <= 65535:
        raise argparse.ArgumentTypeError(text("cli.site.not_a_port", value=value))
    return int(value)


def _build_and_serve(out: Path, serve: bool, port: int) -> int:
    try:
        built = build(out)
    except BuildError as error:
        print(text("cli.site.cannot_build", error=error), file=sys.stderr)
        return 2
    size = built.size / 2**20
    print(text("cli.site.built", folder=built.folder, files=built.files, size=size))
    if not serve:
        return 0
    try:
        server = Server(built.folder, port)
    except OSError as error:
        print(text("cli.site.cannot_serve", port=port, error=error.strerror), file=sys.stderr)
        return 2
    # A kill stops it as Ctrl+C does: the server closes and a temporary site is removed.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    with server:
        print(text("cli.site.serving", url=server.url), flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            print(text("cli.site.stopped"))
    return 0
