"""A PostgreSQL database of schema 2 (no append functions) is brought to schema 3 in place.

Schema 3 adds ``kit_append`` and ``kit_project`` (``append.sql``); its tables are schema 2's.
A database written by the kit before them keeps its sessions, events, ids and projections,
and appends after the upgrade continue its sequence.
"""

from __future__ import annotations

from importlib import resources

import psycopg
import pytest

from eventlog import StoreError
from sqlite_demo.store.postgres import PostgresEventStore
from sqlite_demo.store.postgres.connection import SCHEMA_VERSION


def _schema_2(url: str) -> None:
    """Make ``url`` a database as the kit left it at schema 2, holding one exchange."""
    tables = resources.files("sqlite_demo.store.postgres").joinpath("schema.sql").read_text()
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(tables.encode())
        connection.execute("CREATE TABLE kit_schema (version INTEGER NOT NULL)")
        connection.execute("INSERT INTO kit_schema VALUES (2)")
        connection.execute("INSERT INTO sessions (id, title, created_at) VALUES ('s', 'old', 1)")
        for event_id, kind, text in ((1, "user_message", "hi"), (2, "assistant_message", "yo")):
            connection.execute(
                "INSERT INTO events (event_id, session_id, type, payload, created_at)"
                " VALUES (%s, 's', %s, %s, 1)",
                (event_id, kind, f'{{"content":"{text}"}}'),
            )
            role = kind.removesuffix("_message")
            connection.execute(
                "INSERT INTO messages VALUES (%s, 's', %s, %s, 1)", (event_id, role, text)
            )
        connection.execute("UPDATE log_head SET last_event_id = 2")


def _version(url: str) -> int:
    with psycopg.connect(url, autocommit=True) as connection:
        row = connection.execute("SELECT version FROM kit_schema").fetchone()
    assert row is not None
    return int(row[0])


def test_a_schema_2_database_is_upgraded_in_place_and_keeps_its_log(postgres_url: str) -> None:
    _schema_2(postgres_url)
    with PostgresEventStore(postgres_url) as store:
        assert [e.payload["content"] for e in store.get_events_for_session("s")] == ["hi", "yo"]
        appended = store.append_event("s", "user_message", {"content": "again"})
        assert appended.event_id == 3
        assert [row.content for row in store.get_messages("s")] == ["hi", "yo", "again"]
    assert _version(postgres_url) == SCHEMA_VERSION == 3


def test_an_upgraded_database_opens_again_without_a_change(postgres_url: str) -> None:
    _schema_2(postgres_url)
    PostgresEventStore(postgres_url).close()
    with PostgresEventStore(postgres_url) as store:
        assert store.last_event_id("s") == 2
    assert _version(postgres_url) == 3


def test_a_database_of_schema_1_is_refused_and_left_as_it_was(postgres_url: str) -> None:
    _schema_2(postgres_url)
    with psycopg.connect(postgres_url, autocommit=True) as connection:
        connection.execute("UPDATE kit_schema SET version = 1")
    with pytest.raises(StoreError, match="schema version 1"):
        PostgresEventStore(postgres_url)
    assert _version(postgres_url) == 1
