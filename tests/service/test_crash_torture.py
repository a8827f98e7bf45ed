"""Crash torture: clients keep talking while the server is SIGKILLed again and again.

Four client threads each hold a session and send messages non-stop, every one with its own
idempotency key, retrying the same key until it gets an answer. Meanwhile the server is
killed at moments drawn from a seeded random generator (the schedule is the same on every
run; where in a turn each kill lands is up to the machine) and restarted on the same file.

Afterwards, on the file itself: every answered turn is there in full, every message was
stored exactly once, no event is half-written (each has its projection, and the projections
equal a fresh fold of the events), ids run 1..n with no gap or reuse, the file passes
``PRAGMA integrity_check``, and one more request per session leaves every session a valid
model conversation.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from sqlite_demo.backup import backup_database
from sqlite_demo.client import AgentClient
from sqlite_demo.server import ServerProcess
from sqlite_demo.store import SqliteEventStore
from tests.service.helpers import conversation_problems, query

SEED = 20240610
CLIENTS = 4
KILLS = 5
#: Hard bound on the whole torture; each client gives up retrying after it.
DEADLINE_SECONDS = 60.0
MESSAGES = ["你好", "帮我查一下订单数量", "帮我总结这份文档", "how many orders do I have", "hi"]


@dataclass
class Talker:
    """One client thread's record: what it sent, in order, and the answers it received."""

    session_id: str
    sent: list[tuple[str, str]] = field(default_factory=list)  # (key, content)
    answers: dict[str, dict[str, Any]] = field(default_factory=dict)  # key -> response
    error: BaseException | None = None


def _talk(url: str, talker: Talker, index: int, stop: threading.Event, deadline: float) -> None:
    try:
        with AgentClient(url, timeout=5.0) as client:
            number = 0
            while not stop.is_set():
                key, content = f"client{index}-msg{number}", MESSAGES[number % len(MESSAGES)]
                talker.sent.append((key, content))
                talker.answers[key] = _send_until_answered(client, talker, key, content, deadline)
                number += 1
    except BaseException as error:  # reported by the test, not lost in the thread
        talker.error = error


def _send_until_answered(
    client: AgentClient, talker: Talker, key: str, content: str, deadline: float
) -> dict[str, Any]:
    while True:
        try:
            return client.send_message(talker.session_id, content, idempotency_key=key)
        except httpx.TransportError:
            # The server died under us or is restarting: retry the same key, as a real
            # client would; the key makes the retry safe.
            if time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def _kill_repeatedly(server: ServerProcess, rng: random.Random) -> None:
    for _ in range(KILLS):
        time.sleep(rng.uniform(0.05, 0.5))
        server.kill()
        server.start()


@dataclass(frozen=True)
class Torture:
    """What the torture left: the restarted, running server, its file, and the records."""

    server: ServerProcess
    db_path: Path
    talkers: list[Talker]


@pytest.fixture(scope="module")
def tortured(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Torture]:
    """Run the torture once for this module's tests; stop the server afterwards."""
    workdir = tmp_path_factory.mktemp("torture")
    server = ServerProcess(workdir / "agent.db", workdir / "server.log")
    try:
        server.start()
        yield Torture(server, workdir / "agent.db", _torture(server))
    finally:
        server.stop()


def _torture(server: ServerProcess) -> list[Talker]:
    with AgentClient(server.url) as client:
        talkers = [Talker(client.create_session(f"client {i}")["id"]) for i in range(CLIENTS)]
    stop, deadline = threading.Event(), time.monotonic() + DEADLINE_SECONDS
    threads = [
        threading.Thread(target=_talk, args=(server.url, talker, i, stop, deadline))
        for i, talker in enumerate(talkers)
    ]
    for thread in threads:
        thread.start()
    try:
        _kill_repeatedly(server, random.Random(SEED))
        time.sleep(0.2)  # let every client get answers from the last server too
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=DEADLINE_SECONDS)
    assert [t.error for t in talkers] == [None] * CLIENTS
    return talkers


def test_the_clients_got_answers_before_and_after_every_kill(tortured: Torture) -> None:
    assert all(len(talker.answers) > KILLS for talker in tortured.talkers)


def test_every_answered_turn_survives_the_kills_in_full(tortured: Torture) -> None:
    for talker in tortured.talkers:
        for key, answer in talker.answers.items():
            ids = [event["event_id"] for event in answer["events"]]
            stored = query(
                tortured.db_path,
                f"SELECT event_id, session_id, type, payload FROM events"
                f" WHERE event_id IN ({', '.join('?' * len(ids))}) ORDER BY event_id",
                ids,
            )
            expected = [
                (e["event_id"], e["session_id"], e["type"], e["payload"]) for e in answer["events"]
            ]
            assert [(i, s, t, json.loads(p)) for i, s, t, p in stored] == expected, key
            assert answer["events"][-1]["payload"]["content"] == answer["reply"]


def test_every_message_is_stored_once_in_the_order_it_was_sent(tortured: Torture) -> None:
    for talker in tortured.talkers:
        stored = query(
            tortured.db_path,
            "SELECT idempotency_key, json_extract(payload, '$.content') FROM events"
            " WHERE session_id = ? AND type = 'user_message' ORDER BY event_id",
            [talker.session_id],
        )
        assert stored == talker.sent


def test_event_ids_run_from_1_with_no_gap_and_the_counter_never_goes_back(
    tortured: Torture,
) -> None:
    ids = [
        event_id
        for (event_id,) in query(tortured.db_path, "SELECT event_id FROM events ORDER BY event_id")
    ]
    counter = query(tortured.db_path, "SELECT seq FROM sqlite_sequence WHERE name = 'events'")

    assert ids == list(range(1, len(ids) + 1))
    assert counter == [(len(ids),)]


def test_no_event_is_half_written_every_projection_equals_a_fresh_fold(
    tortured: Torture, tmp_path: Path
) -> None:
    copy = tmp_path / "refolded.db"
    backup_database(tortured.db_path, copy)
    with SqliteEventStore(copy) as store:
        store.rebuild_projections()
    messages = "SELECT session_id, event_id, role, content FROM messages ORDER BY event_id"
    calls = "SELECT session_id, event_id, call_id, name, arguments, result FROM tool_calls"
    calls += " ORDER BY event_id"

    assert query(tortured.db_path, messages) == query(copy, messages)
    assert query(tortured.db_path, calls) == query(copy, calls)
    unprojected = query(
        tortured.db_path,
        "SELECT count(*) FROM events WHERE type != 'tool_result' AND event_id NOT IN"
        " (SELECT event_id FROM messages UNION SELECT event_id FROM tool_calls)",
    )
    assert unprojected == [(0,)]


def test_the_file_passes_sqlites_integrity_check(tortured: Torture) -> None:
    assert query(tortured.db_path, "PRAGMA integrity_check") == [("ok",)]


def test_after_one_more_request_every_session_is_a_valid_model_conversation(
    tortured: Torture,
) -> None:
    with AgentClient(tortured.server.url) as client:
        for talker in tortured.talkers:
            client.send_message(talker.session_id, "你好")
            assert conversation_problems(client.replay(talker.session_id)) == []
