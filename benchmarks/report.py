"""Printing the tables with rich, and writing them as Markdown ready for the README."""

from __future__ import annotations

import re
from pathlib import Path

from rich import box
from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

from benchmarks.goals import goals_table
from benchmarks.grading_tables import grading_tables
from benchmarks.http_tables import length_table, service_table
from benchmarks.peer_tables import peer_table
from benchmarks.postgres_tables import postgres_service_table, postgres_table
from benchmarks.results import Results
from benchmarks.stream_tables import catch_up_table, delivery_table
from benchmarks.tables import (
    Table,
    chat_table,
    core_table,
    ratio_table,
    read_paths_table,
    replay_table,
)


def all_tables(results: Results) -> list[Table]:
    """The report's tables in reading order: ratios and goals first, then the raw figures."""
    tables = [] if results.peers is None else [peer_table(results.peers)]
    if results.chat:
        tables += [ratio_table(results), goals_table(results), chat_table(results)]
    if results.read_paths:
        tables.append(read_paths_table(results))
    if results.replay:
        tables.append(replay_table(results))
    if results.core:
        tables.append(core_table(results))
    if results.http is not None:
        tables += [service_table(results.http), length_table(results.http)]
    if results.streams is not None:
        tables += [delivery_table(results.streams), catch_up_table(results.streams)]
    if results.postgres is not None:
        tables.append(postgres_table(results.postgres))
        if results.postgres.skipped is None:
            tables.append(postgres_service_table(results.postgres))
    if results.grading is not None:
        tables += grading_tables(results.grading)
    return tables


def print_report(console: Console, results: Results) -> None:
    """Print every table, then the conditions of the run."""
    for table in all_tables(results):
        console.print(_as_rich(table))
        for note in table.notes:
            # markup=False: notes quote code such as add_items([item]), not rich styles.
            console.print(f"  {note}", style="dim", soft_wrap=True, markup=False)
        console.print()
    console.print(conditions(results))


def conditions(results: Results) -> str:
    """One line on how the run went: its mode, wall time and the machine's load."""
    mode = "quick (small sizes: a smoke run, not figures to quote)" if results.quick else "full"
    start, end = results.load_average
    return (
        f"Mode: {mode}. Wall time {results.seconds:.0f} s."
        f" Load average (1 min) {start:.2f} at start, {end:.2f} at end."
    )


def write_markdown(path: Path, results: Results) -> None:
    """Write every table as GitHub Markdown, with its notes as a list under it."""
    parts = [_as_markdown(table) for table in all_tables(results)]
    path.write_text("\n\n".join([*parts, conditions(results)]) + "\n", encoding="utf-8")


def _numeric_columns(table: Table) -> list[bool]:
    # Numbers line up on the right; words and sentences read better from the left.
    return [
        all(_NUMBER.match(row[index]) for row in table.rows) and bool(table.rows)
        for index in range(len(table.headers))
    ]


_NUMBER = re.compile(r"^([\d,.]+x?|[\d,.]+%|[\d,.]+-[\d,.]+|n/a|skipped|no API|-)$")


def _as_rich(table: Table) -> RichTable:
    rich_table = RichTable(title=table.title, box=box.SIMPLE_HEAVY, title_justify="left")
    for header, numeric in zip(table.headers, _numeric_columns(table), strict=True):
        rich_table.add_column(header, justify="right" if numeric else "left")
    for row in table.rows:
        rich_table.add_row(*(Text(cell) for cell in row))  # Text: brackets are not markup
    return rich_table


def _as_markdown(table: Table) -> str:
    lines = [f"**{table.title}**", "", _markdown_row(table.headers)]
    lines.append("|" + "|".join("---:" if n else "---" for n in _numeric_columns(table)) + "|")
    lines += [_markdown_row(row) for row in table.rows]
    if table.notes:
        lines += [""] + [f"- {note}" for note in table.notes]
    return "\n".join(lines)


def _markdown_row(cells: tuple[str, ...]) -> str:
    return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"
