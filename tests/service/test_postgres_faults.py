"""PostgreSQL killed or restarted under load: 503 with ``retryable``, then served again, and
no acknowledged event lost.

A file-backed server has no such fault: its database cannot go away while it runs. A
PostgreSQL server can, and does (a restart for an upgrade, a crash, a failover). The
service must then refuse plainly and retryably, never answer 500, never hang, and serve
again by itself once the database is back, without being restarted.

Four clients talk to one service while the cluster is SIGKILLed (a crash: the WAL is
replayed at the next start) and later stopped and started cleanly. Each request carries its
idempotency key and is retried with it on a retryable refusal. Afterwards every turn a
client was told about is in the database exactly as answered, and each message is stored
once.
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from sqlite_demo.server import ServerProcess
from sqlite_demo.service.client import AgentClient, ApiError
from tests.postgres_cluster import PostgresCluster
from tests.server_fixtures import StartServer
from tests.service.helpers import conversation_problems, query

CLIENTS = 4
#: A hang guard, not a speed requirement: how long one request may be retried.
GIVE_UP_SECONDS = 60.0

pytestmark = pytest.mark.slow


@dataclass
class Client:
    """One client thread's record of what it sent and what it was told."""

    number: int
    answers: dict[str, dict[str, Any]] = field(default_factory=dict)  # key -> the turn
    statuses: Counter[int] = field(default_factory=Counter)
    retryable_refusals: list[str] = field(default_factory=list)  # their error codes
    error: BaseException | None = None


def _until_answered(url: str, session: str, key: str, client: Client) -> dict[str, Any]:
    deadline = time.monotonic() + GIVE_UP_SECONDS
    while True:
        try:
            with AgentClient(url, timeout=30) as agent:
                answer = agent.send_message(session, "帮我查一下订单数量", idempotency_key=key)
            client.statuses[200] += 1
            return answer
        except ApiError as refusal:
            client.statuses[refusal.status] += 1
            if not refusal.retryable or time.monotonic() > deadline:
                raise
            client.retryable_refusals.append(refusal.code)
            time.sleep(0.05)


def _talk(url: str, session: str, client: Client, stop: threading.Event) -> None:
    try:
        number = 0
        while not stop.is_set():
            key = f"client{client.number}-msg{number}"
            client.answers[key] = _until_answered(url, session, key, client)
            number += 1
    except BaseException as error:  # reported by the test, not lost in the thread
        client.error = error


def _answered_count(clients: list[Client]) -> int:
    return sum(len(client.answers) for client in clients)


def _wait_for_more_answers(clients: list[Client], more: int) -> None:
    target = _answered_count(clients) + more
    deadline = time.monotonic() + GIVE_UP_SECONDS
    while _answered_count(clients) < target:
        assert all(client.error is None for client in clients), [c.error for c in clients]
        assert time.monotonic() < deadline, "the service stopped answering"
        time.sleep(0.05)


def _refused_while_down(server: ServerProcess, session: str) -> httpx.Response:
    with httpx.Client(base_url=server.url, timeout=30, headers=server.headers) as http:
        return http.post(f"/sessions/{session}/messages", json={"content": "你好"})


def test_a_killed_or_restarted_database_is_a_retryable_503_and_loses_no_acknowledged_event(
    private_postgres_cluster: PostgresCluster, start_server: StartServer
) -> None:
    cluster = private_postgres_cluster
    db = cluster.new_database()
    server = start_server(db)
    with AgentClient(server.url, token=server.token) as agent:
        sessions = [agent.create_session(f"shared {n}")["id"] for n in range(2)]
    clients = [Client(number) for number in range(CLIENTS)]
    stop = threading.Event()
    # The clients find the token on their own: the server lent it to this process.
    threads = [
        threading.Thread(target=_talk, args=(server.url, sessions[c.number % 2], c, stop))
        for c in clients
    ]
    for thread in threads:
        thread.start()
    try:
        _wait_for_more_answers(clients, 8)
        cluster.kill()  # a crash: no checkpoint, the WAL is replayed at the next start
        down = _refused_while_down(server, sessions[0])
        cluster.start()
        _wait_for_more_answers(clients, 8)  # served again, the service never restarted
        cluster.stop("fast")  # a clean restart: the server ends every connection
        cluster.start()
        _wait_for_more_answers(clients, 8)
    finally:
        stop.set()
        for thread in threads:
            thread.join(GIVE_UP_SECONDS + 10)

    assert down.status_code == 503
    assert down.json()["error"]["retryable"] is True
    assert down.json()["error"]["code"] == "database_unavailable"
    assert "retry-after" in down.headers
    assert [client.error for client in clients] == [None] * CLIENTS
    statuses = sum((client.statuses for client in clients), Counter[int]())
    assert set(statuses) <= {200, 503}, statuses
    _assert_every_answer_is_stored_once_as_answered(db, clients)
    with AgentClient(server.url, token=server.token) as agent:
        for session in sessions:
            agent.send_message(session, "你好")  # finishes a turn a fault cut short
            assert conversation_problems(agent.replay(session)) == []


def _assert_every_answer_is_stored_once_as_answered(db: str, clients: list[Client]) -> None:
    stored = {
        row[0]: (row[1], row[2], json.loads(row[3]))
        for row in query(db, "SELECT event_id, session_id, type, payload FROM events")
    }
    for client in clients:
        for turn in client.answers.values():
            for event in turn["events"]:
                assert stored[event["event_id"]] == (
                    event["session_id"],
                    event["type"],
                    event["payload"],
                )
    keys = Counter(
        key
        for (key,) in query(
            db, "SELECT idempotency_key FROM events WHERE idempotency_key IS NOT NULL"
        )
    )
    assert set(keys.values()) == {1}
    assert set().union(*(client.answers for client in clients)) <= set(keys)
    ids = [i for (i,) in query(db, "SELECT event_id FROM events ORDER BY event_id")]
    assert ids == list(range(1, len(ids) + 1))
