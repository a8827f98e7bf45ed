"""The store: one contract, two backends.

==================  ===========================================================
``contract``        :class:`EventStore`, what everything above the store relies on
``base``            :class:`SqlEventStore`: what the two backends share, written once
``reads``           the reads' SQL, the same on both backends
``rows``            the values a read builds from its rows, built fast
``records``         the values a store hands out: sessions and projection rows
``corrections``     the rule a correction must fit, ``idempotency``: a key met again
``locations``       which backend a ``--db`` names
``append_signal``   the port that wakes a stream when its session is appended to
``opening``         :func:`open_store`: a file path is SQLite, a URL is PostgreSQL
``sqlite/``         the chapter's backend: one file, one machine
``postgres/``       the same contract on PostgreSQL: one database, many machines
==================  ===========================================================

``postgres/`` needs psycopg (``pip install -e ".[postgres]"``); nothing here imports it
until a ``postgresql://`` URL is opened.
"""

from __future__ import annotations

from sqlite_demo.store.contract import EventStore
from sqlite_demo.store.locations import is_postgres_url
from sqlite_demo.store.opening import open_store
from sqlite_demo.store.records import MessageRow, Session, ToolCallRow
from sqlite_demo.store.sqlite import SqliteEventStore

__all__ = [
    "EventStore",
    "MessageRow",
    "Session",
    "SqliteEventStore",
    "ToolCallRow",
    "is_postgres_url",
    "open_store",
]
