"""The chapter's backend: the event log in one SQLite file (WAL, ``BEGIN IMMEDIATE``).

=================  ===========================================================
``store``          :class:`SqliteEventStore`, the store contract over one file
``connection``     the pragmas, the schema, and one write as one transaction
``writes``         the SQL of one append: rules that need the log, the event row
``projections``    the ``messages`` and ``tool_calls`` rows, written with their event
``tails``          the newest items of the sessions read lately, kept in memory and true
``faults``         SQLite's errors in the store's own words
``backup``         a live file copied with SQLite's online backup API
``schema.sql``     the four tables, their indexes and the append-only triggers
=================  ===========================================================
"""

from __future__ import annotations

from sqlite_demo.store.sqlite.backup import backup_database
from sqlite_demo.store.sqlite.store import SqliteEventStore

__all__ = ["SqliteEventStore", "backup_database"]
