"""The SDK demo: an OpenAI Agents SDK agent SIGKILLed mid-run, resumed by a new process.

``python -m sqlite_demo sdk [--db PATH]`` plays, on a fresh SQLite file, with the agent of
:mod:`sqlite_demo.sdk_agent` (the SDK's ``Runner``, its scripted model, our session):

1. Process A asks "how many orders do I have?" (a tool call, its output, the answer), then
   "how many of them have shipped?" (in the kit's language): the runner saves the question
   and calls the warehouse tool, which hangs. A is SIGKILLed there, in the middle of its run.
2. The log, read by this process: the first turn whole, the second question, and nothing
   half-written. The call A was running never reached the log, so nothing in it waits
   for an output that will never come.
3. Process B opens the same file and runs a turn on what the log holds, adding nothing: the
   model is sent the whole conversation, calls the warehouse and answers. The session now
   holds both turns, each call next to its output, the question once.

Each phase prints its checks; the exit status is 0 only if every check held.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Final

from rich.console import Console

from sqlite_demo.demo_output import Checklist, compact_json, make_console, print_summary
from sqlite_demo.store.sqlite import SqliteEventStore
from sqlite_demo.texts import default_language, say

SESSION: Final = "orders"
#: The session's items after the kill: the first turn, then the unanswered question.
KEPT_THROUGH_THE_KILL: Final = [
    "user_message",
    "tool_call",
    "tool_result",
    "assistant_message",
    "user_message",
]
#: The child's own bound on a hang: far longer than any turn takes, short of forever.
CHILD_TIMEOUT_SECONDS: Final = 300


def run_sdk_demo(db_path: Path | None = None) -> int:
    """Run the demo; return 0 if every check held, 1 if one failed, 2 if it could not run.

    Args:
        db_path: the database to create (it must not exist yet); by default a file in a
            temporary directory that is removed afterwards.
    """
    console = make_console()
    if importlib.util.find_spec("agents") is None:
        console.print(say("sdk.needs_agents"), markup=False)
        return 2
    if db_path is not None and db_path.exists():
        console.print(say("sdk.refused_exists", path=db_path), markup=False)
        return 2
    started, checks = time.monotonic(), Checklist(console, default_language())
    with tempfile.TemporaryDirectory(prefix="sdk_demo_") as workdir:
        db = db_path or Path(workdir) / "agent.db"
        try:
            _kill_mid_run(db, console, checks)
            _read_what_the_log_kept(db, console, checks)
            _resume_in_a_new_process(db, console, checks)
        except Exception as error:  # any failure is reported as a failed demo, not a traceback
            ran = say("demo.check.ran_to_end")
            checks.check(ran, False, f"{type(error).__name__}: {error}")
    return print_summary(checks, console, time.monotonic() - started)


def questions() -> tuple[str, str]:
    """The two questions, in the kit's language (the agent answers in the question's)."""
    return say("sdk.question.orders"), say("sdk.question.shipped")


def _kill_mid_run(db: Path, console: Console, checks: Checklist) -> None:
    _heading(console, checks, 1)
    agent = _agent_process(db, "--slow-warehouse", "ask", *questions())
    assert agent.stdout is not None
    lines = []
    try:
        for line in agent.stdout:
            lines.append(line.rstrip("\n"))
            console.print(f"  A: {lines[-1]}", markup=False)
            if line.rstrip("\n") == say("sdk.warehouse_started"):
                agent.kill()  # SIGKILL: no finally, no close(), no flush
                break
    finally:
        agent.kill()
        status = agent.wait(timeout=CHILD_TIMEOUT_SECONDS)
    console.print("  " + say("sdk.killed", pid=agent.pid, status=status), markup=False)
    from sqlite_demo.sdk_agent import ORDER_COUNT  # the SDK is there: the demo checked

    answer = say("sdk.answer", text=say("sdk.reply.orders", count=ORDER_COUNT))
    checks.check(say("sdk.check.first_answered"), answer in lines)
    checks.expect_equal(say("sdk.check.killed"), status, -9)


def _read_what_the_log_kept(db: Path, console: Console, checks: Checklist) -> None:
    _heading(console, checks, 2)
    with SqliteEventStore(db) as store:
        events = store.get_events_for_session(SESSION)
        for event in events:
            console.print(f"  {event.event_id:>2}  {event.type:<18} {_short(event.payload)}")
        checks.expect_equal(
            say("sdk.check.first_turn_whole"),
            [event.type for event in events],
            KEPT_THROUGH_THE_KILL,
        )
        checks.expect_equal(
            say("sdk.check.question_last"), events[-1].payload.get("content"), questions()[1]
        )


def _resume_in_a_new_process(db: Path, console: Console, checks: Checklist) -> None:
    _heading(console, checks, 3)
    done = subprocess.run(
        [*_agent_command(db), "resume"],
        capture_output=True,
        text=True,
        timeout=CHILD_TIMEOUT_SECONDS,
        check=False,
    )
    for line in done.stdout.splitlines():
        console.print(f"  B: {line}", markup=False)
    failed = say("sdk.exit", status=done.returncode, stderr=done.stderr[-2000:])
    checks.check(say("sdk.check.b_finished"), done.returncode == 0, failed)
    from sqlite_demo.sdk_agent import SHIPPED_COUNT

    found = say("sdk.log_holds", count=len(KEPT_THROUGH_THE_KILL))
    checks.check(say("sdk.check.b_found"), found in done.stdout.splitlines())
    shipped = say("sdk.answer", text=say("sdk.reply.shipped", count=SHIPPED_COUNT))
    checks.check(say("sdk.check.b_answered"), shipped in done.stdout.splitlines())
    with SqliteEventStore(db) as store:
        types = [event.type for event in store.get_events_for_session(SESSION)]
        calls = [(row.call_id, row.name, row.result) for row in store.get_tool_calls(SESSION)]
        asked = [row.content for row in store.get_messages(SESSION) if row.role == "user"]
    checks.expect_equal(
        say("sdk.check.log"),
        types,
        [*KEPT_THROUGH_THE_KILL, "tool_call", "tool_result", "assistant_message"],
    )
    checks.expect_equal(
        say("sdk.check.calls"),
        calls,
        [("call_1", "query_order_count", "42"), ("call_2", "query_shipped_count", "7")],
    )
    checks.expect_equal(say("sdk.check.asked_once"), asked, list(questions()))


def _agent_process(db: Path, *arguments: str) -> subprocess.Popen[str]:
    command = [*_agent_command(db), *arguments]
    return subprocess.Popen(command, stdout=subprocess.PIPE, text=True)


def _agent_command(db: Path) -> list[str]:
    return [sys.executable, "-m", "sqlite_demo.sdk_agent", "--db", str(db), "--session", SESSION]


def _short(payload: Any) -> str:
    # The item each payload keeps whole is shown by the chapter's fields beside it.
    return compact_json({key: value for key, value in payload.items() if key != "item"})


def _heading(console: Console, checks: Checklist, number: int) -> None:
    heading = say("demo.phase", number=number, title=say(f"sdk.phase.{number}"))
    console.print()
    console.rule(heading, align="left")
    checks.start_phase(heading)
