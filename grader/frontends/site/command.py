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
from grader.i18n.arguments import Parser


def main(argv: list[str]) -> int:
    parser = Parser(
        prog="python -m grader site",
        description="Build the exercises' static site: graded in the browser, nothing to install.",
    )
    parser.add_argument("out", nargs="?", type=Path, help="the folder to build the site in")
    parser.add_argument("--serve", action="store_true", help="serve it on 127.0.0.1")
    parser.add_argument("--port", type=_port, default=8000, help="the port to serve on (8000)")
    args = parser.parse_args(argv)
    if args.out is None and not args.serve:
        parser.error("give the folder to build the site in, or --serve")
    if args.out is not None:
        return _build_and_serve(args.out, args.serve, args.port)
    # --serve alone: a temporary folder, removed when the server stops.
    with tempfile.TemporaryDirectory(prefix="kit-site-") as folder:
        return _build_and_serve(Path(folder) / "site", True, args.port)


def _port(value: str) -> int:
    if not value.isdigit() or not 1 <= int(value) <= 65535:
        raise argparse.ArgumentTypeError(f"{value!r} is not a port: give 1 to 65535")
    return int(value)


def _build_and_serve(out: Path, serve: bool, port: int) -> int:
    try:
        built = build(out)
    except BuildError as error:
        print(f"cannot build the site: {error}", file=sys.stderr)
        return 2
    print(f"built {built.folder}: {built.files} files, {built.size / 2**20:.1f} MiB")
    if not serve:
        return 0
    try:
        server = Server(built.folder, port)
    except OSError as error:
        print(f"cannot serve on 127.0.0.1:{port}: {error.strerror}; try --port", file=sys.stderr)
        return 2
    # A kill stops it as Ctrl+C does: the server closes and a temporary site is removed.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    with server:
        print(f"serving {server.url} (Ctrl+C stops)")
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            print("stopped")
    return 0
