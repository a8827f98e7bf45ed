"""Soak: several server processes on one database, many clients, servers SIGKILLed and restarted.

Run twice, with the same assertions: on one SQLite file, and on one PostgreSQL database.
Sixteen client threads share a handful of sessions and talk to any of three servers on the
same database, so turns on one session constantly race each other across processes.
Every request carries its own idempotency key and is retried, with that key, on another
server when its server dies under it; some answered requests are sent again to another
server, as a client that never saw the answer would. Meanwhile a killer SIGKILLs a server
at moments drawn from a seeded generator and starts it again on the same database and port.

Afterwards, on the database itself: every answered turn is there exactly as it was answered,
every message was stored once, no request got a 500, ids run 1..n without a gap, the
projections equal a fresh refold of the events, a SQLite file passes ``PRAGMA
integrity_check``, and after one more request per session (to finish turns a kill cut
short) every session is a valid Chat Completions conversation in which no question was
answered twice.

About 20 s per backend; ``SOAK_SERVERS`` and ``SOAK_KILLS`` run it bigger or longer by hand.
"""

from __future__ import annotations

import json
import os
import random
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from sqlite_demo import SqliteEventStore, backup_database, open_store
from sqlite_demo.server import ServerProcess
from sqlite_demo.service.client import AgentClient, ApiError
from sqlite_demo.store.opening import is_postgres_url
from tests.databases import BACKENDS, Database
from tests.service.helpers import conversation_problems, query
from tests.store.folds import expected_messages, expected_tool_calls

pytestmark = [pytest.mark.slow, pytest.mark.server]

SEED = 20240611
SERVERS = int(os.environ.get("SOAK_SERVERS", "3"))
KILLS = int(os.environ.get("SOAK_KILLS", "4"))
CLIENTS = 16
SESSIONS = 6
MESSAGES = ["你好", "帮我查一下订单数量", "帮我总结这份文档", "how many orders do I have", "hi"]
#: After the soak, how long a client may keep retrying one request before it gives up.
GIVE_UP_SECONDS = 60.0


@dataclass
class Client:
    """One client thread's record of what it sent and what it was told."""

    number: int
    answers: dict[str, dict[str, Any]] = field(default_factory=dict)  # key -> the turn
    contents: dict[str, str] = field(default_factory=dict)  # key -> what was sent
    repeats: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # key, 2nd answer
    statuses: Counter[int] = field(default_factory=Counter)
    error: BaseException | None = None


@dataclass(frozen=True)
class Soak:
    """What the soak left: the running servers, their database, the sessions and the records."""

    servers: list[ServerProcess]
    db: Database
    sessions: list[str]
    clients: list[Client]


class Cluster:
    """The servers, and which of them are up right now (the killer takes some down)."""

    def __init__(self, servers: list[ServerProcess]) -> None:
        self.servers = servers
        self.lock = threading.Lock()

    def url(self, rng: random.Random) -> str:
        return f"http://127.0.0.1:{rng.choice(self.servers).port}"

    def kill_and_restart(self, rng: random.Random) -> None:
        server = rng.choice(self.servers)
        with self.lock:  # one restart at a time: ServerProcess is not thread-safe
            server.kill()
            server.start()


def _send(url: str, session: str, content: str, key: str, client: Client) -> dict[str, Any]:
    with AgentClient(url, timeout=10) as agent:
        try:
            answer = agent.send_message(session, content, idempotency_key=key)
        except ApiError as refusal:
            client.statuses[refusal.status] += 1
            raise
    client.statuses[200] += 1
    return answer


def _until_answered(
    cluster: Cluster, rng: random.Random, session: str, content: str, key: str, client: Client
) -> dict[str, Any]:
    deadline = time.monotonic() + GIVE_UP_SECONDS
    while True:
        try:
            return _send(cluster.url(rng), session, content, key, client)
        except (httpx.TransportError, ApiError) as failure:
            # A dead server or a retryable refusal: the same key on any server, as a real
            # client would retry. Anything else is a finding.
            if isinstance(failure, ApiError) and not failure.retryable:
                raise
            if time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def _talk(cluster: Cluster, sessions: list[str], client: Client, stop: threading.Event) -> None:
    rng = random.Random(SEED + client.number)
    try:
        for number in range(10**9):
            if stop.is_set():
                return
            key, content = f"client{client.number}-msg{number}", rng.choice(MESSAGES)
            session = rng.choice(sessions)
            client.contents[key] = content
            client.answers[key] = _until_answered(cluster, rng, session, content, key, client)
            if number % 8 == 7:  # the answer "got lost": ask again, elsewhere
                again = _until_answered(cluster, rng, session, content, key, client)
                client.repeats.append((key, again))
    except BaseException as error:  # reported by the tests, not lost in the thread
        client.error = error


def _kill_and_restart(cluster: Cluster, rng: random.Random, kills: int) -> None:
    for _ in range(kills):
        time.sleep(rng.uniform(0.3, 1.0))
        cluster.kill_and_restart(rng)


@pytest.fixture(scope="module", params=BACKENDS)
def soaked(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Soak]:
    """Run the soak once per backend for this module's tests; stop the servers afterwards."""
    workdir = tmp_path_factory.mktemp("soak")
    db: Database = workdir / "agent.db"
    if request.param == "postgres":
        db = request.getfixturevalue("postgres_cluster").new_database()
    servers = [ServerProcess(db, workdir / f"server{n}.log") for n in range(SERVERS)]
    try:
        for server in servers:
            server.start()
        with AgentClient(servers[0].url) as agent:
            sessions = [agent.create_session(f"shared {n}")["id"] for n in range(SESSIONS)]
        yield Soak(servers, db, sessions, _soak(Cluster(servers), sessions))
    finally:
        for server in servers:
            server.stop()


def _soak(cluster: Cluster, sessions: list[str]) -> list[Client]:
    clients = [Client(number) for number in range(CLIENTS)]
    stop = threading.Event()
    threads = [threading.Thread(target=_talk, args=(cluster, sessions, c, stop)) for c in clients]
    for thread in threads:
        thread.start()
    try:
        _kill_and_restart(cluster, random.Random(SEED), KILLS)
        time.sleep(0.5)  # every client gets answers from the last servers too
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=GIVE_UP_SECONDS + 10)
    return clients


def test_no_client_failed_and_none_ever_got_a_500(soaked: Soak) -> None:
    assert [client.error for client in soaked.clients] == [None] * CLIENTS
    statuses = sum((client.statuses for client in soaked.clients), Counter[int]())
    assert statuses[500] == 0, statuses
    assert statuses[200] > CLIENTS * 5, statuses


def test_every_answered_turn_is_stored_exactly_as_it_was_answered(soaked: Soak) -> None:
    answered = [turn for client in soaked.clients for turn in client.answers.values()]
    ids = [event["event_id"] for turn in answered for event in turn["events"]]
    stored = {
        row[0]: (row[1], row[2], json.loads(row[3]))
        for row in query(soaked.db, "SELECT event_id, session_id, type, payload FROM events")
    }
    for turn in answered:
        for event in turn["events"]:
            assert stored[event["event_id"]] == (
                event["session_id"],
                event["type"],
                event["payload"],
            )
        assert turn["events"][-1]["type"] == "assistant_message"
        assert turn["events"][-1]["payload"]["content"] == turn["reply"]
    assert len(set(ids)) == len(ids)  # no event belongs to two turns


def test_every_message_was_stored_once_under_its_key(soaked: Soak) -> None:
    keys = Counter(
        key
        for (key,) in query(
            soaked.db, "SELECT idempotency_key FROM events WHERE idempotency_key IS NOT NULL"
        )
    )
    assert set(keys.values()) == {1}
    for client in soaked.clients:
        assert set(client.answers) <= set(keys)


def test_a_repeated_key_is_answered_with_the_same_turn_and_its_reply(soaked: Soak) -> None:
    repeats = [(client, key, again) for client in soaked.clients for key, again in client.repeats]
    assert repeats
    for client, key, again in repeats:
        first = client.answers[key]
        assert (again["reply"], again["events"]) == (first["reply"], first["events"])
        assert again["reply"] != client.contents[key]


def test_event_ids_run_from_1_without_a_gap_and_the_counter_never_goes_back(soaked: Soak) -> None:
    ids = [i for (i,) in query(soaked.db, "SELECT event_id FROM events ORDER BY event_id")]
    # The last id handed out: SQLite's AUTOINCREMENT counter, PostgreSQL's log head.
    counter = query(
        soaked.db,
        "SELECT last_event_id FROM log_head"
        if is_postgres_url(soaked.db)
        else "SELECT seq FROM sqlite_sequence WHERE name = 'events'",
    )
    assert ids == list(range(1, len(ids) + 1))
    assert counter == [(len(ids),)]


def test_the_projections_equal_a_fold_of_the_events(soaked: Soak) -> None:
    with open_store(soaked.db) as store:
        for session in soaked.sessions:
            events = store.get_events_for_session(session)
            assert store.get_messages(session) == expected_messages(events)
            assert store.get_tool_calls(session) == expected_tool_calls(events)


def test_a_rebuild_of_the_projections_changes_no_row_and_a_sqlite_file_is_sound(
    soaked: Soak, tmp_path: Path
) -> None:
    if is_postgres_url(soaked.db):
        # No file to copy: the refold runs on the database itself, where a rebuild that
        # changes no row proves the same.
        before = {t: query(soaked.db, f"SELECT * FROM {t} ORDER BY event_id") for t in _TABLES}
        with open_store(soaked.db) as store:
            store.rebuild_projections()
        after = {t: query(soaked.db, f"SELECT * FROM {t} ORDER BY event_id") for t in _TABLES}
        assert after == before
        return
    copy = tmp_path / "refolded.db"
    backup_database(soaked.db, copy)
    with SqliteEventStore(copy) as store:
        store.rebuild_projections()
    for table in _TABLES:
        rows = f"SELECT * FROM {table} ORDER BY event_id"
        assert query(soaked.db, rows) == query(copy, rows), table
    assert query(soaked.db, "PRAGMA integrity_check") == [("ok",)]


_TABLES = ("messages", "tool_calls")


def test_after_one_more_request_every_session_is_a_valid_conversation(soaked: Soak) -> None:
    with AgentClient(soaked.servers[0].url) as agent:
        for session in soaked.sessions:
            agent.send_message(session, "你好")
            assert conversation_problems(agent.replay(session)) == []
