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

    def __init__(self, workdir: Path, db: Path | str, console: Console) -> None:
        self.console = console
        self.checks = Checklist(console)
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
        self._heading(1, "two turns in the order-service session")
        with self._client() as client:
            session_a = self._new_session(client, "订单客服", "sess_a")
            first = client.send_message(session_a, "你好")
            second = client.send_message(session_a, "帮我查一下订单数量")
            events = client.get_events(session_a)
            self.before_kill = self._reads_of(client, session_a)
        self.console.print(event_table(events, self.labels))
        self.checks.expect_equal("the greeting is answered", first["reply"], GREETING_REPLY)
        self.checks.expect_equal("the order count is answered", second["reply"], ORDER_COUNT_REPLY)
        self.checks.expect_equal(
            "the log holds the chapter's six events", _shape(events), EXPECTED_SESSION_A
        )
        self.checks.expect_equal(
            "each reply came with its turn's events, already in the log",
            [*first["events"], *second["events"]],
            events,
        )

    def phase_2_kill(self) -> None:
        """SIGKILL the server; the commits are left in the -wal file (or in PostgreSQL)."""
        self._heading(2, "SIGKILL the server: no cleanup code runs")
        pid = self.server.pid
        status = self.server.kill()
        self.console.print(f"  sent SIGKILL to server pid {pid}; its exit status: {status}")
        self.checks.expect_equal("the server died of SIGKILL", status, -9)
        if isinstance(self.server.db, str):
            self._committed_in_postgres(self.server.db)
            return
        wal = Path(f"{self.server.db_path}-wal")
        wal_size = wal.stat().st_size if wal.exists() else 0
        db_size = self.server.db_path.stat().st_size
        self.console.print(f"  {self.server.db_path.name}: {db_size} bytes")
        self.console.print(f"  {wal.name}: {wal_size} bytes (the commits, not yet checkpointed)")
        self.checks.check("the -wal file is left behind, holding the commits", wal_size > 0)

    def _committed_in_postgres(self, url: str) -> None:
        # No file to show: the commits are the database server's. Read them back over a
        # connection of our own, as any other server would.
        with open_store(url) as store:
            events = store.get_events_for_session(self._id_of("sess_a"))
        self.console.print(f"  {describe_db(url)}: {len(events)} events of session A committed")
        self.checks.expect_equal(
            "PostgreSQL holds the six events, read over another connection",
            [e.event_id for e in events],
            [event_id for event_id, _, _ in EXPECTED_SESSION_A],
        )

    def phase_3_replay_after_restart(self) -> None:
        """A new server on the same file reads and replays session A as before the kill."""
        self._heading(3, "restart on the same file and replay")
        self.console.print(f"  restarted: server pid {self.server.pid}, same file, same port")
        with self._client() as client:
            after = self._reads_of(client, self._id_of("sess_a"))
        for line in replay_lines(after["replay"]):
            self.console.print(f"  {line}", markup=False)
        before = self.before_kill
        claim = "the events are exactly those before the kill"
        self.checks.expect_equal(claim, after["events"], before["events"])
        claim = "the replayed conversation is exactly that before the kill"
        self.checks.expect_equal(claim, after["replay"], before["replay"])

    def phase_4_second_session(self) -> None:
        """Session B adds two events; session A reads exactly as before."""
        self._heading(4, "a second session: isolation by the data model")
        session_a = self._id_of("sess_a")
        with self._client() as client:
            session_b = self._new_session(client, "文档助手", "sess_b")
            turn = client.send_message(session_b, "帮我总结这份文档")
            all_events = [e for s in client.list_sessions() for e in client.get_events(s["id"])]
            reads_a = self._reads_of(client, session_a)
        self.console.print(event_table(sorted(all_events, key=_event_id), self.labels))
        counts = [sum(e["session_id"] == s for e in all_events) for s in (session_a, session_b)]
        types = [event["type"] for event in turn["events"]]
        claim = "the document assistant answered: one user_message, one assistant_message"
        self.checks.expect_equal(claim, types, ["user_message", "assistant_message"])
        self.checks.expect_equal("8 events in all: sess_a 6 + sess_b 2", counts, [6, 2])
        self.checks.expect_equal(
            "sess_a reads (events, messages, replay) are unchanged", reads_a, self.before_kill
        )
        message_ids = [row["event_id"] for row in reads_a["messages"]]
        self.checks.expect_equal(
            "getMessages(sess_a) event_ids are [1, 2, 3, 6]: the projection is a slice",
            message_ids,
            [1, 2, 3, 6],
        )

    def phase_5_resume(self) -> None:
        """A client that saw events up to 4 asks for the rest and gets 5 and 6."""
        self._heading(5, "resume: what came after event 4?")
        with self._client() as client:
            later = client.get_events(self._id_of("sess_a"), after=4)
        self.console.print(event_table(later, self.labels))
        self.checks.expect_equal(
            "events after 4 in sess_a are 5 and 6", [e["event_id"] for e in later], [5, 6]
        )

    def _client(self) -> AgentClient:
        return AgentClient(self.server.url, token=self.server.token)

    def _new_session(self, client: AgentClient, title: str, label: str) -> str:
        session_id: str = client.create_session(title)["id"]
        self.labels[session_id] = label
        self.console.print(f"  created {label} ({title}): {session_id}", markup=False)
        return session_id

    def _id_of(self, label: str) -> str:
        return next(session for session, name in self.labels.items() if name == label)

    def _reads_of(self, client: AgentClient, session_id: str) -> dict[str, Any]:
        return {
            "events": client.get_events(session_id),
            "messages": client.get_messages(session_id),
            "replay": client.replay(session_id),
        }

    def _heading(self, number: int, title: str) -> None:
        self.console.print()
        self.console.rule(f"Phase {number}: {title}", align="left")
        self.checks.start_phase(f"Phase {number}: {title}")


def run_demo(db_path: Path | str | None = None) -> int:
    """Run the demo; return 0 if every check held, 1 if one failed, 2 if it could not run.

    Args:
        db_path: the database to create; by default a file in a temporary directory that is
            removed afterwards. An existing, non-empty file is refused: the demo's checks
            expect event ids to start at 1, and it never writes into someone's data. A
            ``postgresql://`` URL names an existing database, which must hold no session.
    """
    console = make_console()
    if db_path is not None and (problem := _unusable(db_path)):
        shown = describe_db(db_path)
        console.print(f"refusing to run the demo on {shown}: {problem}", markup=False)
        return 2
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="sqlite_demo_") as workdir:
        demo = Demo(Path(workdir), db_path or Path(workdir) / "demo.db", console)
        try:
            demo.run()
        except Exception as error:  # any failure is reported as a failed demo, not a traceback
            demo.checks.check("the demo ran to the end", False, f"{type(error).__name__}: {error}")
    return print_summary(demo.checks, console, time.monotonic() - started)


def _unusable(db_path: Path | str) -> str:
    """Say why the demo cannot use ``db_path``; an empty string when it can."""
    if isinstance(db_path, str) and is_postgres_url(db_path):
        return _unusable_postgres(db_path)
    db_path = Path(db_path)
    if not db_path.parent.is_dir():
        return f"the directory {db_path.parent} does not exist"
    if db_path.exists() and db_path.stat().st_size > 0:
        return "the file already exists and holds data; give a path that does not exist yet"
    return ""


def _unusable_postgres(url: str) -> str:
    try:
        with open_store(url) as store:
            if store.list_all_sessions():
                return "the database holds sessions; give an empty database"
    except StoreError as error:
        return str(error)
    return ""


def _shape(events: list[dict[str, Any]]) -> list[tuple[int, str, dict[str, Any]]]:
    return [(e["event_id"], e["type"], e["payload"]) for e in events]


def _event_id(event: Mapping[str, Any]) -> int:
    return int(event["event_id"])
