"""The whole corpus in the browser beside the command line, and the page's start-up times.

``python -m tests.site.corpus_benchmark`` builds the site, serves it on 127.0.0.1, opens it
in Debian's Chromium with every other host unresolvable, and:

1. times a first visit (an empty profile) and a second one (the same profile), each from
   opening the page to the report of "Check all tasks" on the stubs;
2. grades every correct file (all tasks) and every mutant (its task) in one page session
   and with ``python -m grader``, and prints each one's points per task and broken promise
   where the two differ. It exits 1 on any difference.

``--timing-only`` stops after step 1; ``--mutants-only`` and ``--only NAME...`` grade part of
the corpus. Speed is measured here, never asserted in a test. The browser's limits are
wall-clock time (the command line's are CPU time): on a machine loaded far past its cores a
slow correct file can time out in the browser alone, so each line shows the load.
"""

from __future__ import annotations

import argparse
import gzip
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.browser import first_result, offline_chromium, ready
from grader.frontends.site.build import build
from grader.frontends.site.serve import Server
from tests.site.submissions import cli_grade, per_task, report_per_task, whole_corpus


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.site.corpus_benchmark")
    parser.add_argument("--timing-only", action="store_true", help="only the start-up times")
    parser.add_argument("--mutants-only", action="store_true", help="leave out the correct files")
    parser.add_argument(
        "--only", nargs="+", metavar="NAME", help="grade only these (a difference seen before)"
    )
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        built = build(Path(folder) / "site")
        print(
            f"site: {built.files} files, {built.size / 2**20:.1f} MiB, "
            f"{_gzipped(built.folder) / 2**20:.1f} MiB gzipped; load {_load()}"
        )
        with Server(built.folder) as server, sync_playwright() as playwright:
            context = offline_chromium(playwright, Path(folder) / "profile")
            cold = first_result(context, server.url)
            warm = first_result(context, server.url)
            print(f"time to first result: cold {cold:.1f} s, warm {warm:.1f} s; load {_load()}")
            if args.timing_only:
                context.close()
                return 0
            page = context.new_page()
            page.goto(server.url)
            ready(page)
            chosen = [
                item
                for item in whole_corpus()
                if (args.only is None or item[0] in args.only)
                and not (args.mutants_only and item[1] is None)
            ]
            differences = _compare(page, chosen)
            context.close()
    print(f"{differences} difference(s)")
    return 1 if differences else 0


def _compare(page: Any, corpus: list[tuple[str, str | None, dict[str, str]]]) -> int:
    differences = 0
    began = time.monotonic()
    for name, task, files in corpus:
        started = time.monotonic()
        browser = per_task(
            page.evaluate("([f, o]) => window.kit.grade(f, o)", [files, {"task": task}])
        )
        seconds = time.monotonic() - started
        cli = report_per_task(cli_grade(files, task))
        same = browser == cli
        differences += not same
        print(
            f"{'same' if same else 'DIFFERENT':9} {name:45} {task or 'all':17} {seconds:5.1f} s"
            f"  load {_load()}"
        )
        if not same:
            print(f"    browser: {browser}\n    command line: {cli}")
        sys.stdout.flush()
    print(f"{len(corpus)} submissions, each graded both ways, in {time.monotonic() - began:.0f} s")
    return differences


def _gzipped(folder: Path) -> int:
    """What the page downloads from a host that compresses (as GitHub Pages does)."""
    return sum(
        len(gzip.compress(path.read_bytes(), 6)) for path in folder.rglob("*") if path.is_file()
    )


def _load() -> str:
    return "{:.1f} {:.1f} {:.1f}".format(*os.getloadavg())


if __name__ == "__main__":
    raise SystemExit(main())
