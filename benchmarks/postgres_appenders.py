"""The systems the PostgreSQL section appends with, each in a database of its own.

* ``ours``: :class:`~sqlite_demo.store.postgres.PostgresEventStore`, every rule checked, the
  projection row written, the NOTIFY sent, ids from the log head: one round trip.
* ``raw psycopg``, the floor the goal names: one ``INSERT`` into an IDENTITY-keyed table and
  ``COMMIT``, on a connection that is not in autocommit (psycopg's default), as application
  code usually writes it.
* ``raw, one statement``: the same ``INSERT`` in autocommit, its own transaction: the least
  an append can cost, one round trip and nothing else.
* ``raw + log head``: that statement, with the id taken from a one-row head table in the same
  statement, as ours takes it. Its cost over the previous one is what the head costs.
* ``eventsourcing``'s ``PostgresApplicationRecorder``: ``insert_events([event])``.
"""

from __future__ import annotations

import json
import time
import urllib.parse
from typing import Any, Final, Protocol

import psycopg

from sqlite_demo.store.postgres.store import PostgresEventStore
from sqlite_demo.store.postgres.throwaway import PostgresCluster

QUESTION: Final = "how many orders do I have?"
_TABLE: Final = (
    "CREATE TABLE events (event_id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
    " session_id TEXT NOT NULL, type TEXT NOT NULL, payload TEXT NOT NULL,"
    " created_at BIGINT NOT NULL);"
    " CREATE INDEX ON events (session_id, event_id)"
)
_HEAD: Final = (
    "CREATE TABLE log_head (only_row BOOLEAN PRIMARY KEY DEFAULT TRUE, last_event_id BIGINT);"
    " INSERT INTO log_head VALUES (TRUE, 0);"
    " CREATE TABLE events (event_id BIGINT PRIMARY KEY, session_id TEXT NOT NULL,"
    " type TEXT NOT NULL, payload TEXT NOT NULL, created_at BIGINT NOT NULL);"
    " CREATE INDEX ON events (session_id, event_id)"
)


class Appender(Protocol):
    """One system of the section."""

    name: str

    def append(self, number: int) -> None: ...

    def read_all(self) -> int: ...

    def close(self) -> None: ...


def content(number: int) -> tuple[str, str]:
    """The event type and text of message ``number`` of the workload."""
    kind = "user_message" if number % 2 == 0 else "assistant_message"
    return kind, f"message {number}: {QUESTION} You have 42 orders."


class Ours:
    name = "ours"

    def __init__(self, url: str) -> None:
        self.store = PostgresEventStore(url, max_connections=1)
        self.session = self.store.create_session("benchmark").id

    def append(self, number: int) -> None:
        kind, text = content(number)
        self.store.append_event(self.session, kind, {"content": text})

    def read_all(self) -> int:
        return len(self.store.get_events_for_session(self.session))

    def close(self) -> None:
        self.store.close()


class RawPsycopg:
    """The floor: one INSERT and COMMIT per message, no rules, no projection, no lock."""

    name = "raw psycopg"
    _AUTOCOMMIT = False
    _SCHEMA = _TABLE
    _INSERT = "INSERT INTO events (session_id, type, payload, created_at) VALUES (%s, %s, %s, %s)"

    def __init__(self, url: str) -> None:
        self.connection = psycopg.connect(url, autocommit=self._AUTOCOMMIT)
        self.connection.execute("SET synchronous_commit = on")
        self.connection.execute(self._SCHEMA.encode())
        self.connection.commit()

    def append(self, number: int) -> None:
        kind, text = content(number)
        payload = json.dumps({"content": text})
        self.connection.execute(
            self._INSERT, ("sess_benchmark", kind, payload, int(time.time() * 1000))
        )
        self.connection.commit()  # a no-op in autocommit

    def read_all(self) -> int:
        rows = self.connection.execute(
            "SELECT type, payload FROM events WHERE session_id = %s ORDER BY event_id",
            ("sess_benchmark",),
        ).fetchall()
        self.connection.commit()
        return len([json.loads(payload) for _, payload in rows])  # decoded, as ours is

    def close(self) -> None:
        self.connection.close()


class RawOneStatement(RawPsycopg):
    """The INSERT alone, in autocommit: one round trip, its own transaction."""

    name = "raw, one statement"
    _AUTOCOMMIT = True


class RawWithHead(RawPsycopg):
    """The one statement, its id taken from a one-row head table, as ours takes its ids."""

    name = "raw + log head"
    _AUTOCOMMIT = True
    _SCHEMA = _HEAD
    _INSERT = (
        "WITH head AS (UPDATE log_head SET last_event_id = last_event_id + 1"
        " RETURNING last_event_id)"
        " INSERT INTO events (event_id, session_id, type, payload, created_at)"
        " SELECT last_event_id, %s, %s, %s, %s FROM head"
    )


class Eventsourcing:
    """``eventsourcing``'s PostgreSQL recorder, one originator, one event per message."""

    name = "eventsourcing"

    def __init__(self, cluster: PostgresCluster) -> None:
        from eventsourcing.persistence import StoredEvent
        from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore

        database = urllib.parse.urlsplit(cluster.new_database()).path.lstrip("/")
        self.stored_event: Any = StoredEvent
        self.datastore = PostgresDatastore(
            database, str(cluster.socket_folder), 5432, "postgres", "", originator_id_type="text"
        )
        self.recorder = PostgresApplicationRecorder(self.datastore)
        self.recorder.create_table()
        self.version = 0

    def append(self, number: int) -> None:
        kind, text = content(number)
        self.version += 1
        state = json.dumps({"role": kind, "content": text}).encode()
        self.recorder.insert_events([self.stored_event("benchmark", self.version, kind, state)])

    def read_all(self) -> int:
        events = self.recorder.select_events("benchmark")
        return len([json.loads(event.state) for event in events])

    def close(self) -> None:
        self.datastore.close()
