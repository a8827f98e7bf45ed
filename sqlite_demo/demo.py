"""The demo: kill a real agent server with SIGKILL and watch every committed event come back.

Five phases against a ``python -m sqlite_demo serve`` subprocess, on a fresh database:

1. The order-service session "订单客服" takes two turns ("你好", "帮我查一下订单数量"):
   six events, the tool call and its result among them.
2. The server is SIGKILLed: no ``finally``, no ``close()``, no checkpoint. The commits sit
   in the ``-wal`` file (on PostgreSQL: in the database server, read back over a connection
   of the demo's own).
3. A new server opens the same file: SQLite recovers the WAL, and the events and the
   replayed conversation are exactly what they were before the kill.
4. A second session, the document assistant "文档助手", takes one turn: eight events in all,
   six plus two, and the first session reads exactly as before (isolation by data model).
5. Resume: a client that saw events up to 4 asks for what came after and gets 5 and 6.

Each phase prints its checks; the exit status is 0 only if every check held.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rich.console import Console

from eventlog import StoreError
from sqlite_demo.demo_output import (
    Checklist,
    event_table,
    make_console,
    print_summary,
    replay_lines,
)
from sqlite_demo.server import ServerProcess
from sqlite_demo.service.client import AgentClient
from sqlite_demo.store.opening import describe_db, is_postgres_url, open_store
from sqlite_demo.texts import default_language, say, say_refusal

GREETING_REPLY = "你好！我是订单客服助手，可以帮你查询订单数量。"  # noqa: RUF001
ORDER_COUNT_REPLY = "你当前有 42 个订单。"

#: The chapter's six events of session A: (event_id, type, payload).
EXPECTED_SESSION_A = [
    (1, "user_message", {"content": "你好"}),
    (2, "assistant_message", {"content": GREETING_REPLY}),
    (3, "user_message", {"content": "帮我查一下订单数量"}),
    (4, "tool_call", {"call_id": "call_1", "name": "query_order_count", "arguments": "{}"}),
    (5, "tool_result", {"call_id": "call_1", "content": "42"}),
    (6, "assistant_message", {"content": ORDER_COUNT_REPLY}),
]


class Demo:
    """The five phases, sharing one server process, one client and one checklist."""

    def __init__(self, workdir: Path, db: Path | str, console: Console, language: str) -> None:
        self.console = console
        self.language = language
        self.checks = Checklist(console, language)
        self.server = ServerProcess(db, workdir / "server.log")
        self.labels: dict[str, str] = {}
        self.before_kill: dict[str, Any] = {}

    def run(self) -> None:
        """Run every phase in order; the server is stopped whatever happens."""
        try:
            self.server.start()
            self.phase_1_two_turns()
            self.phase_2_kill()
            self.server.start()
            self.phase_3_replay_after_restart()
            self.phase_4_second_session()
            self.phase_5_resume()
        finally:
            self.server.stop()

    def phase_1_two_turns(self) -> None:
        """Two turns in session A give the chapter's six events, tool call included."""
        self._heading(1)
        with self._client() as client:
            session_a = self._new_session(client, "订单客服", "sess_a")
            first = client.send_message(session_a, "你好")
            second = client.send_message(session_a, "帮我查一下订单数量")
            events = client.get_events(session_a)
            self.before_kill = self._reads_of(client, session_a)
        self.console.print(event_table(events, self.labels))
        self.checks.expect_equal(self._say("demo.check.greeting"), first["reply"], GREETING_REPLY)
        claim = self._say("demo.check.order_count")
        self.checks.expect_equal(claim, second["reply"], ORDER_COUNT_REPLY)
        claim = self._say("demo.check.six_events")
        self.checks.expect_equal(claim, _shape(events), EXPECTED_SESSION_A)
        claim = self._say("demo.check.committed_first")
        self.checks.expect_equal(claim, [*first["events"], *second["events"]], events)

    def phase_2_kill(self) -> None:
        """SIGKILL the server; the commits are left in the -wal file (or in PostgreSQL)."""
        self._heading(2)
        pid = self.server.pid
        status = self.server.kill()
        self._line("demo.killed", pid=pid, status=status)
        self.checks.expect_equal(self._say("demo.check.killed"), status, -9)
        if isinstance(self.server.db, str):
            self._committed_in_postgres(self.server.db)
            return
        wal = Path(f"{self.server.db_path}-wal")
        wal_size = wal.stat().st_size if wal.exists() else 0
        db_size = self.server.db_path.stat().st_size
        self._line("demo.file_size", name=self.server.db_path.name, size=db_size)
        self._line("demo.wal_size", name=wal.name, size=wal_size)
        self.checks.check(self._say("demo.check.wal_left"), wal_size > 0)

    def _committed_in_postgres(self, url: str) -> None:
        # No file to show: the commits are the database server's. Read them back over a
        # connection of our own, as any other server would.
        with open_store(url) as store:
            events = store.get_events_for_session(self._id_of("sess_a"))
        self._line("demo.postgres_committed", database=describe_db(url), count=len(events))
        self.checks.expect_equal(
            self._say("demo.check.postgres_committed"),
            [e.event_id for e in events],
            [event_id for event_id, _, _ in EXPECTED_SESSION_A],
        )

    def phase_3_replay_after_restart(self) -> None:
        """A new server on the same file reads and replays session A as before the kill."""
        self._heading(3)
        self._line("demo.restarted", pid=self.server.pid)
        with self._client() as client:
            after = self._reads_of(client, self._id_of("sess_a"))
        for line in replay_lines(after["replay"]):
            self.console.print(f"  {line}", markup=False)
        before = self.before_kill
        claim = self._say("demo.check.same_events")
        self.checks.expect_equal(claim, after["events"], before["events"])
        claim = self._say("demo.check.same_replay")
        self.checks.expect_equal(claim, after["replay"], before["replay"])

    def phase_4_second_session(self) -> None:
        """Session B adds two events; session A reads exactly as before."""
        self._heading(4)
        session_a = self._id_of("sess_a")
        with self._client() as client:
            session_b = self._new_session(client, "文档助手", "sess_b")
            turn = client.send_message(session_b, "帮我总结这份文档")
            all_events = [e for s in client.list_sessions() for e in client.get_events(s["id"])]
            reads_a = self._reads_of(client, session_a)
        self.console.print(event_table(sorted(all_events, key=_event_id), self.labels))
        counts = [sum(e["session_id"] == s for e in all_events) for s in (session_a, session_b)]
        types = [event["type"] for event in turn["events"]]
        claim = self._say("demo.check.assistant_answered")
        self.checks.expect_equal(claim, types, ["user_message", "assistant_message"])
        self.checks.expect_equal(self._say("demo.check.eight_events"), counts, [6, 2])
        claim = self._say("demo.check.isolated")
        self.checks.expect_equal(claim, reads_a, self.before_kill)
        message_ids = [row["event_id"] for row in reads_a["messages"]]
        claim = self._say("demo.check.projection_slice")
        self.checks.expect_equal(claim, message_ids, [1, 2, 3, 6])

    def phase_5_resume(self) -> None:
        """A client that saw events up to 4 asks for the rest and gets 5 and 6."""
        self._heading(5)
        with self._client() as client:
            later = client.get_events(self._id_of("sess_a"), after=4)
        self.console.print(event_table(later, self.labels))
        claim = self._say("demo.check.resumed")
        self.checks.expect_equal(claim, [e["event_id"] for e in later], [5, 6])

    def _client(self) -> AgentClient:
        return AgentClient(self.server.url, token=self.server.token)

    def _new_session(self, client: AgentClient, title: str, label: str) -> str:
        session_id: str = client.create_session(title)["id"]
        self.labels[session_id] = label
        self._line("demo.created", label=label, title=title, session_id=session_id)
        return session_id

    def _id_of(self, label: str) -> str:
        return next(session for session, name in self.labels.items() if name == label)

    def _reads_of(self, client: AgentClient, session_id: str) -> dict[str, Any]:
        return {
            "events": client.get_events(session_id),
            "messages": client.get_messages(session_id),
            "replay": client.replay(session_id),
        }

    def _heading(self, number: int) -> None:
        title = self._say("demo.phase", number=number, title=self._say(f"demo.phase.{number}"))
        self.console.print()
        self.console.rule(title, align="left")
        self.checks.start_phase(title)

    def _say(self, message_id: str, **fields: object) -> str:
        return say(message_id, self.language, **fields)

    def _line(self, message_id: str, **fields: object) -> None:
        """Print one indented line of the demo's story, as plain text (never rich markup)."""
        self.console.print(f"  {self._say(message_id, **fields)}", markup=False)


def run_demo(db_path: Path | str | None = None, language: str | None = None) -> int:
    """Run the demo; return 0 if every check held, 1 if one failed, 2 if it could not run.

    Args:
        db_path: the database to create; by default a file in a temporary directory that is
            removed afterwards. An existing, non-empty file is refused: the demo's checks
            expect event ids to start at 1, and it never writes into someone's data. A
            ``postgresql://`` URL names an existing database, which must hold no session.
        language: of everything it prints (``en`` or ``zh``); by default this copy's.
    """
    console = make_console()
    language = language or default_language()
    if db_path is not None and (problem := _unusable(db_path, language)):
        shown = say("demo.refused", language, path=describe_db(db_path), problem=problem)
        console.print(shown, markup=False)
        return 2
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="sqlite_demo_") as workdir:
        demo = Demo(Path(workdir), db_path or Path(workdir) / "demo.db", console, language)
        try:
            demo.run()
        except Exception as error:  # any failure is reported as a failed demo, not a traceback
            ran = say("demo.check.ran_to_end", language)
            demo.checks.check(ran, False, f"{type(error).__name__}: {error}")
    return print_summary(demo.checks, console, time.monotonic() - started)


def _unusable(db_path: Path | str, language: str) -> str:
    """Say why the demo cannot use ``db_path``; an empty string when it can."""
    if isinstance(db_path, str) and is_postgres_url(db_path):
        return _unusable_postgres(db_path, language)
    db_path = Path(db_path)
    if not db_path.parent.is_dir():
        return say("demo.no_directory", language, directory=db_path.parent)
    if db_path.exists() and db_path.stat().st_size > 0:
        return say("demo.file_holds_data", language)
    return ""


def _unusable_postgres(url: str, language: str) -> str:
    try:
        with open_store(url) as store:
            if store.list_all_sessions():
                return say("demo.database_holds_sessions", language)
    except StoreError as error:
        return say_refusal(error, language)
    return ""


def _shape(events: list[dict[str, Any]]) -> list[tuple[int, str, dict[str, Any]]]:
    return [(e["event_id"], e["type"], e["payload"]) for e in events]


def _event_id(event: Mapping[str, Any]) -> int:
    return int(event["event_id"])
