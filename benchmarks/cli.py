"""``python -m benchmarks [--quick] [--only SECTION ...] [--out DIR]``: run, report, draw charts.

The full run takes about half an hour on a small machine, most of it appending 10,000
messages to the slower frameworks, building the 1,000,000-event database, driving the HTTP
service and grading a class of 100 twice. ``--quick`` runs every measurement at small sizes
in about a minute; the test suite runs it as a smoke test, and its figures are not worth quoting.
``--only peers postgres`` runs just those sections (the peer goals take a few minutes); the
charts are drawn only when the chat, replay and pure-core sections ran. ``--only grading``
times the grader: the reference graded whole, a class of 100 twice and the browser site,
11 to 13 minutes on this shared machine; in ``--quick`` a class of 10 graded once and no
browser.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from benchmarks.charts import write_charts
from benchmarks.chat_bench import ChatFigures, SkippedSize, run_chat_benchmark
from benchmarks.grading import GradingPlan, run_grading_benchmark
from benchmarks.http_bench import HttpPlan, run_http_benchmark
from benchmarks.peers import PeerPlan, run_peer_benchmark
from benchmarks.postgres_bench import PostgresPlan, run_postgres_benchmark
from benchmarks.pure_core import run_pure_core
from benchmarks.read_paths import ReadPath, run_read_paths
from benchmarks.report import print_report, write_markdown
from benchmarks.results import Results
from benchmarks.scaling import ReplayPoint, run_replay_scaling
from benchmarks.stream_bench import StreamPlan, run_stream_benchmark
from benchmarks.systems import load_systems


@dataclass(frozen=True, slots=True)
class Plan:
    """The sizes and repetitions of one run.

    Attributes:
        chat_sizes: ``(messages, runs)`` pairs for the append/read benchmark.
        database_sizes: total events of the replay-scaling databases, smallest first.
        replay_repeats: timed replays per database.
        core_sizes: log lengths for the pure core.
        core_repeats: timed calls per pure-core figure.
        http: the sizes of the HTTP section.
        streams: the sizes of the event-stream section.
        postgres: the sizes of the PostgreSQL section.
        peers: the sizes of the peer goals.
        grading: the sizes of the grading section.
    """

    chat_sizes: tuple[tuple[int, int], ...]
    database_sizes: tuple[int, ...]
    replay_repeats: int
    core_sizes: tuple[int, ...]
    core_repeats: int
    http: HttpPlan
    streams: StreamPlan
    postgres: PostgresPlan
    peers: PeerPlan
    grading: GradingPlan


#: The sections of a run, in the order they run; ``--only`` picks some of them.
SECTIONS = ("peers", "chat", "replay", "core", "http", "streams", "postgres", "grading")

FULL = Plan(
    ((1_000, 5), (10_000, 5)),
    (100, 10_000, 100_000, 1_000_000),
    100,
    (100, 1_000, 10_000),
    15,
    HttpPlan(1_000, 16, 20.0, (30, 300, 1_500, 3_000, 6_000), 25, 4, 15.0),
    StreamPlan((1, 50, 200), 50, 20_000, 64),
    PostgresPlan((3_000, 10_000), (1, 2, 4), 8, 10.0, (1, 100), 50),
    PeerPlan((3_000, 10_000), (3_000, 10_000), (1_000, 5_000, 10_000), 15, 201),
    GradingPlan(5, 100, 2, True),
)
QUICK = Plan(
    ((50, 3), (150, 3)),
    (100, 1_000, 10_000),
    30,
    (100, 300, 1_000),
    5,
    HttpPlan(100, 16, 2.0, (30, 300), 5, 2, 2.0),
    StreamPlan((1, 5), 5, 2_000, 8),
    PostgresPlan((200,), (1, 2), 4, 0.5, (1, 5), 3),
    PeerPlan((200,), (200,), (100, 300), 3, 5),
    # A class of 10 graded once; the browser left out (its first load alone is tens of s).
    GradingPlan(1, 10, 1, False),
)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmarks; return the process exit status (0 on success)."""
    arguments = _parse(argv)
    console = _console()
    plan = QUICK if arguments.quick else FULL
    results = run(plan, arguments.quick, console, tuple(arguments.only or SECTIONS))
    print_report(console, results)
    arguments.out.mkdir(parents=True, exist_ok=True)
    results.write_json(arguments.out / "results.json")
    write_markdown(arguments.out / "results.md", results)
    if results.chat and results.replay and results.core:
        for path in write_charts(arguments.out, results):
            console.print(f"wrote {path}")
    return 0


def run(plan: Plan, quick: bool, console: Console, sections: tuple[str, ...] = SECTIONS) -> Results:
    """Run every measurement of ``plan`` in ``sections`` and return the figures."""
    started, load_at_start = time.perf_counter(), os.getloadavg()[0]
    systems, skipped_systems = load_systems()
    for skipped in skipped_systems:
        console.print(f"[yellow]skipping {skipped.name}[/]: {escape(skipped.reason)}")

    def progress(line: str) -> None:
        console.print(line, markup=False)
        console.file.flush()  # show progress at once, even when the output goes to a file

    peers = run_peer_benchmark(plan.peers, progress) if "peers" in sections else None
    chat: list[ChatFigures] = []
    skipped_sizes: list[SkippedSize] = []
    read_paths: list[ReadPath] = []
    if "chat" in sections:
        chat, skipped_sizes = run_chat_benchmark(systems, plan.chat_sizes, progress)
        largest = max(messages for messages, _ in plan.chat_sizes)
        read_paths = run_read_paths(largest, plan.core_repeats)
        progress(f"read paths: {largest:,} messages timed")
    replay: list[ReplayPoint] = []
    if "replay" in sections:
        replay = run_replay_scaling(plan.database_sizes, plan.replay_repeats, progress)
    core = run_pure_core(plan.core_sizes, plan.core_repeats, progress) if "core" in sections else []
    http = run_http_benchmark(plan.http, progress) if "http" in sections else None
    streams = run_stream_benchmark(plan.streams, progress) if "streams" in sections else None
    postgres = run_postgres_benchmark(plan.postgres, progress) if "postgres" in sections else None
    grading = run_grading_benchmark(plan.grading, progress) if "grading" in sections else None
    seconds = time.perf_counter() - started
    load = (load_at_start, os.getloadavg()[0])
    return Results(
        quick,
        systems,
        skipped_systems,
        chat,
        skipped_sizes,
        read_paths,
        replay,
        core,
        seconds,
        load,
        http,
        streams,
        postgres,
        peers,
        grading,
    )


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description="Compare the SQLite event store with agent frameworks' SQLite stores.",
    )
    parser.add_argument(
        "--quick", action="store_true", help="small sizes, about a minute: a smoke run"
    )
    parser.add_argument(
        "--only",
        nargs="+",
        choices=SECTIONS,
        metavar="SECTION",
        help=f"run only these sections, of: {', '.join(SECTIONS)} (default: all)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("bench-results"),
        help="directory for the PNG charts, results.json and results.md (default: %(default)s)",
    )
    return parser.parse_args(argv)


def _console() -> Console:
    # Piped into a file or a test, rich would assume 80 columns and wrap system names
    # across lines; a wide fixed width keeps every row on one line.
    return Console() if sys.stdout.isatty() else Console(width=200)
