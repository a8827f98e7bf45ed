"""The same store contract on PostgreSQL: one database, servers on as many machines as needed.

=================  ===========================================================
``store``          :class:`PostgresEventStore`, the store contract over a pool
``connection``     the pool, each connection's settings, the schema made once
``writes``         one append in one round trip: ``kit_append``, and its refusals worded
``notify``         LISTEN/NOTIFY: streams woken by every server's appends
``text``           the NUL character, which PostgreSQL's text cannot hold, kept anyway
``faults``         psycopg's errors in the store's own words
``schema.sql``     the four tables, the log's head, the append-only triggers
``append.sql``     ``kit_append`` and ``kit_project``: the rules, the rows, the NOTIFY
=================  ===========================================================

Needs psycopg 3 and psycopg-pool: ``pip install -e ".[postgres]"``.
"""

from __future__ import annotations

from sqlite_demo.store.postgres.store import PostgresEventStore

__all__ = ["PostgresEventStore"]
