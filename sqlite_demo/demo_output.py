"""How the demo shows what happened: event tables, replayed conversations, and checks.

Kept apart from :mod:`sqlite_demo.demo` so the demo reads as the story of the five phases,
and this module as the one place that decides what the terminal looks like. Without a
terminal (piped, in a test) the output has no colour and a fixed width, so it is the same on
every run apart from session ids and timings.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from sqlite_demo.texts import say

#: Width used when the output is not a terminal, so piped output never depends on $COLUMNS.
PIPED_WIDTH = 110


def make_console() -> Console:
    """Return a console: colours on a terminal, plain fixed-width text anywhere else."""
    if sys.stdout.isatty():
        return Console(highlight=False)
    return Console(highlight=False, no_color=True, width=PIPED_WIDTH, soft_wrap=False)


def compact_json(payload: Mapping[str, Any]) -> str:
    """Return a payload as one line of JSON, Chinese kept readable: ``{"content":"你好"}``."""
    return json.dumps(dict(payload), ensure_ascii=False, separators=(",", ":"))


def event_table(events: Sequence[Mapping[str, Any]], labels: Mapping[str, str]) -> Table:
    """Return the events as the chapter prints them: event_id, session, type, payload.

    Args:
        events: events as the API returns them.
        labels: short names for session ids (``sess_a``), so the table is stable.
    """
    table = Table("event_id", "session", "type", "payload")
    for event in events:
        session = labels.get(event["session_id"], event["session_id"])
        table.add_row(
            str(event["event_id"]), session, event["type"], compact_json(event["payload"])
        )
    return table


def replay_lines(messages: Sequence[Mapping[str, Any]]) -> list[str]:
    """Return a replayed conversation as one line per message, ``[role] text``."""
    return [f"{'[' + message['role'] + ']':<12}{_message_text(message)}" for message in messages]


def _message_text(message: Mapping[str, Any]) -> str:
    if message.get("tool_calls"):
        calls = ", ".join(
            f"{call['id']} {call['function']['name']} args={call['function']['arguments']}"
            for call in message["tool_calls"]
        )
        return f"tool_calls: [{calls}]"
    if message["role"] == "tool":
        return f"{message['tool_call_id']} -> {message['content']}"
    return str(message["content"])


@dataclass
class Checklist:
    """Prints each check as it is made and remembers, per phase, whether all of them held."""

    console: Console
    language: str = "en"
    results: list[tuple[str, bool]] = field(default_factory=list)
    phase: str = "setup"

    def start_phase(self, name: str) -> None:
        """Count the checks that follow towards the phase ``name``."""
        self.phase = name

    def check(self, claim: str, holds: bool, detail: str = "") -> bool:
        """Record and print one check: ``passed  claim`` or ``FAILED  claim: detail``."""
        self.results.append((self.phase, holds))
        # escape(): claims hold brackets ("[1, 2, 3, 6]") that rich would read as markup.
        if holds:
            passed = say("demo.passed", self.language)
            self.console.print(f"  [green]{passed}[/green]  {escape(claim)}")
        else:
            suffix = f": {detail}" if detail else ""
            failed = say("demo.failed", self.language)
            self.console.print(f"  [bold red]{failed}[/bold red]  {escape(claim + suffix)}")
        return holds

    def expect_equal(self, claim: str, actual: object, expected: object) -> bool:
        """Check ``actual == expected``; on failure the detail shows both."""
        shown = {"actual": repr(actual), "expected": repr(expected)}
        detail = say("demo.got_expected", self.language, **shown)
        return self.check(claim, actual == expected, detail)

    def phase_verdicts(self) -> list[tuple[str, bool]]:
        """Return each phase, in order, with whether every one of its checks held."""
        verdicts: dict[str, bool] = {}
        for phase, holds in self.results:
            verdicts[phase] = verdicts.get(phase, True) and holds
        return list(verdicts.items())

    @property
    def failures(self) -> int:
        """How many checks did not hold."""
        return sum(not holds for _, holds in self.results)


def print_summary(checks: Checklist, console: Console, seconds: float) -> int:
    """Print one verdict line per phase and the total; return the demo's exit status.

    Returns:
        0 when every check held, 1 otherwise.
    """
    language = checks.language
    console.print()
    for phase, held in checks.phase_verdicts():
        verdict = (
            f"[green]{say('demo.passed', language)}[/green]"
            if held
            else f"[bold red]{say('demo.failed', language)}[/bold red]"
        )
        console.print(say("demo.verdict", language, phase=escape(phase), verdict=verdict))
    total = len(checks.results)
    if checks.failures:
        shown = say("demo.checks_failed", language, failures=checks.failures, total=total)
        console.print(f"[bold red]{shown}[/bold red]")
        return 1
    shown = say("demo.checks_passed", language, total=total, seconds=f"{seconds:.1f}")
    console.print(f"[bold green]{shown}[/bold green]")
    return 0
