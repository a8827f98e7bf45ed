"""Copying a live database safely: SQLite's online backup API, not a file copy.

In WAL mode, committed transactions live in the ``-wal`` file until a checkpoint copies them
into the main file. Copying only the main file (``shutil.copy``, ``cp``) leaves them behind:
the copy opens fine and is simply missing the latest conversations. The backup API reads
the database through SQLite, WAL included, as one consistent snapshot.
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from pathlib import Path

from sqlite_demo.connection import translate_sqlite_errors
from sqlite_demo.errors import StoreError


def backup_database(
    source: str | os.PathLike[str],
    destination: str | os.PathLike[str],
    *,
    busy_timeout_ms: int = 5000,
) -> None:
    """Write a complete, consistent copy of the database at ``source`` to ``destination``.

    Writers may keep appending meanwhile; the copy holds every transaction committed before
    the backup finished. When this returns, ``destination`` is a single self-contained file
    (no ``-wal`` to carry along) that opens as a normal database.

    Args:
        source: an existing database file, possibly open in other connections or processes.
        destination: the file to write; an existing database there is overwritten.
        busy_timeout_ms: how long to wait for a lock held by a writer.

    Raises:
        StoreError: ``source`` does not exist, or is the same file as ``destination``.
        StorageError: SQLite could not read the source or write the destination.
    """
    source_path, destination_path = Path(source), Path(destination)
    if not source_path.is_file():
        raise StoreError(f"no database file to back up at {source_path}")
    if destination_path.exists() and destination_path.samefile(source_path):
        raise StoreError(f"cannot back up {source_path} onto itself")
    with translate_sqlite_errors():
        # mode=ro: a backup must never create or change the source.
        source_uri = f"{source_path.resolve().as_uri()}?mode=ro"
        with (
            closing(sqlite3.connect(source_uri, uri=True)) as from_db,
            closing(sqlite3.connect(destination_path)) as to_db,
        ):
            from_db.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            # pages=-1: copy everything in one step, so no writer can slip in between steps.
            from_db.backup(to_db, pages=-1)
