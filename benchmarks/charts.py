"""PNG charts of one run, drawn with matplotlib's file-only Agg backend (no display needed).

Four charts: appends per second and full-read time per system; replay time against the
database's size; the pure core's costs against the log's length; the service's turn latency
against the session's length. Log scales where the systems differ by orders of magnitude and
a linear axis would hide all but one.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # before pyplot: draw to files, never to a window

import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from benchmarks.http_bench import HttpFigures
from benchmarks.measure import quartiles
from benchmarks.results import Results

CHART_FILES = ("append_and_read.png", "replay_scaling.png", "pure_core.png", "turn_latency.png")


def write_charts(directory: Path, results: Results) -> list[Path]:
    """Draw the charts into ``directory`` (created if missing); return their paths."""
    directory.mkdir(parents=True, exist_ok=True)
    drawn = [_append_and_read(results), _replay_scaling(results), _pure_core(results)]
    if results.http is not None:
        drawn.append(_turn_latency(results.http))
    paths = []
    for name, figure in zip(CHART_FILES, drawn, strict=False):
        path = directory / name
        figure.savefig(path, dpi=120, bbox_inches="tight")
        plt.close(figure)
        paths.append(path)
    return paths


def _append_and_read(results: Results) -> Figure:
    names = [system.name for system in results.systems]
    figure, (append_axes, read_axes) = plt.subplots(1, 2, figsize=(13, 0.55 * len(names) + 2))
    for offset, size in enumerate(results.sizes()):
        figures = [results.figures(name, size) for name in names]
        rows = [index + 0.4 * offset for index in range(len(names))]
        appends = [0.0 if f is None else f.appends_per_second for f in figures]
        reads = [0.0 if f is None else f.read_all_seconds * 1e3 for f in figures]
        bars = append_axes.barh(rows, appends, height=0.4, label=f"{size:,} messages")
        append_axes.bar_label(bars, fmt="{:,.0f}", fontsize=7, padding=2)
        bars = read_axes.barh(rows, reads, height=0.4, label=f"{size:,} messages")
        read_axes.bar_label(bars, fmt="{:,.1f}", fontsize=7, padding=2)
    for axes, label in (
        (append_axes, "appends per second (more is better)"),
        (read_axes, "read the whole session, ms (less is better)"),
    ):
        _label_systems(axes, results, names)
        axes.set_xscale("log")
        axes.margins(x=0.15)  # room for the value labels at the ends of the bars
        axes.set_xlabel(label)
        axes.grid(axis="x", which="both", alpha=0.3)
    read_axes.set_yticklabels([])
    handles, labels = append_axes.get_legend_handles_labels()
    figure.legend(handles, labels, loc="lower center", ncol=len(labels), frameon=False)
    figure.suptitle("One message per call, one commit each (missing bar: size skipped)")
    figure.subplots_adjust(bottom=0.16)
    return figure


def _label_systems(axes: Axes, results: Results, names: list[str]) -> None:
    labels = []
    for name in names:
        durability = next((f.durability.label for f in results.chat if f.system == name), "")
        labels.append(f"{name}\n{durability}")
    axes.set_yticks([index + 0.2 for index in range(len(names))], labels, fontsize=8)
    axes.invert_yaxis()


def _replay_scaling(results: Results) -> Figure:
    figure, axes = plt.subplots(figsize=(7, 4.5))
    sizes = [point.total_events for point in results.replay]
    axes.plot(sizes, [p.replay_seconds * 1e3 for p in results.replay], "o-", label="warm (median)")
    axes.plot(
        sizes,
        [p.first_replay_seconds * 1e3 for p in results.replay],
        "s--",
        label="first replay after opening (one sample)",
    )
    axes.set_xscale("log")
    axes.set_ylim(bottom=0)
    axes.set_xlabel("events in the database (all sessions)")
    axes.set_ylabel("replay one 100-event session, ms")
    axes.set_title("Replaying one 100-event session as the database grows")
    axes.grid(which="both", alpha=0.3)
    axes.legend()
    return figure


def _pure_core(results: Results) -> Figure:
    figure, axes = plt.subplots(figsize=(7, 4.5))
    sizes = [point.log_events for point in results.core]
    series = (
        ("append one event", [p.append_seconds for p in results.core]),
        ("replay a 100-event session", [p.replay_session_seconds for p in results.core]),
        ("replay a session of the whole log", [p.replay_whole_seconds for p in results.core]),
    )
    for label, seconds in series:
        axes.plot(sizes, [s * 1e6 for s in seconds], "o-", label=label)
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlabel("events in the log")
    axes.set_ylabel("microseconds (median)")
    axes.set_title("Pure core: costs grow with the log (tuple copy, full scan)")
    axes.grid(which="both", alpha=0.3)
    axes.legend()
    return figure


def _turn_latency(http: HttpFigures) -> Figure:
    figure, axes = plt.subplots(figsize=(7, 4.5))
    lengths = [point.events for point in http.by_length]
    middles = [quartiles(point.samples) for point in http.by_length]
    axes.fill_between(
        lengths,
        [low * 1e3 for low, _ in middles],
        [high * 1e3 for _, high in middles],
        alpha=0.25,
        label="middle half of the turns",
    )
    axes.plot(lengths, [p.turn.p50 * 1e3 for p in http.by_length], "o-", label="median turn")
    floor = http.floor_turn_seconds * 1e3
    axes.axhline(floor, color="grey", linestyle=":", label="raw sqlite3 floor of its 4 appends")
    axes.set_xscale("log")
    axes.set_ylim(bottom=0)
    axes.set_xlabel("events in the session before the turn")
    axes.set_ylabel("one order turn over HTTP, ms")
    axes.set_title("Turn latency against session length (python -m sqlite_demo serve)")
    axes.grid(which="both", alpha=0.3)
    axes.legend()
    return figure
