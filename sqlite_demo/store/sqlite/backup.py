"""Copying a live database safely: SQLite's online backup API, not a file copy.

In WAL mode, committed transactions live in the ``-wal`` file until a checkpoint copies them
into the main file. Copying only the main file (``shutil.copy``, ``cp``) leaves them behind:
the copy opens fine and is simply missing the latest conversations. The backup API reads
the database through SQLite, WAL included, as one consistent snapshot.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from contextlib import closing
from pathlib import Path

from eventlog import StoreError
from eventlog.messages import sentence
from sqlite_demo.store.sqlite.faults import translate_sqlite_errors


def backup_database(
    source: str | os.PathLike[str],
    destination: str | os.PathLike[str],
    *,
    busy_timeout_ms: int = 5000,
) -> None:
    """Write a complete, consistent copy of the database at ``source`` to a new ``destination``.

    Writers may keep appending meanwhile; the copy holds every transaction committed before
    the backup started. The copy is a single file in rollback-journal mode: opening it creates
    no ``-wal`` or ``-shm``, so it can be mailed, archived or moved alone. It is written under
    a temporary name in the destination's folder and linked into place only when complete,
    so ``destination`` never holds half a database, and an existing file is never replaced.

    Args:
        source: an existing database file, possibly open in other connections or processes.
        destination: the new file to write; its folder must exist.
        busy_timeout_ms: how long to wait for a lock held by a writer.

    Raises:
        StoreError: a missing source or destination folder, or a destination that exists
            (also when it appears while the copy is being written), with a one-line message.
        StorageError: SQLite could not read the source or write the copy.
    """
    source_path, destination_path = Path(source), Path(destination)
    if not source_path.is_file():
        raise StoreError(sentence("backup.no_source", path=source_path))
    if not destination_path.parent.is_dir():
        raise StoreError(sentence("backup.no_folder", path=destination_path.parent))
    if destination_path.exists():
        raise StoreError(sentence("backup.exists", path=destination_path))
    partial = _copy_to_a_temporary_file(source_path, destination_path, busy_timeout_ms)
    try:
        # link() fails if the name was taken meanwhile, where rename() would overwrite it.
        os.link(partial, destination_path)
    except FileExistsError:
        raise StoreError(sentence("backup.exists", path=destination_path)) from None
    finally:
        partial.unlink()


def _copy_to_a_temporary_file(source: Path, destination: Path, busy_timeout_ms: int) -> Path:
    folder, prefix = destination.parent, f".{destination.name}."
    handle, name = tempfile.mkstemp(prefix=prefix, suffix=".partial", dir=folder)
    os.close(handle)
    partial = Path(name)
    try:
        with translate_sqlite_errors():
            _backup(source, partial, busy_timeout_ms)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    return partial


def _backup(source: Path, partial: Path, busy_timeout_ms: int) -> None:
    # mode=ro: a backup must never create or change the source.
    source_uri = f"{source.resolve().as_uri()}?mode=ro"
    with (
        closing(sqlite3.connect(source_uri, uri=True)) as from_db,
        closing(sqlite3.connect(partial, isolation_level=None)) as to_db,
    ):
        from_db.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        # pages=-1: copy everything in one step, so no writer can slip in between steps.
        from_db.backup(to_db, pages=-1)
        # The copied header still says WAL; a copy that stands alone says DELETE, the
        # rollback journal, which leaves no companion file behind once it is closed.
        to_db.execute("PRAGMA journal_mode = DELETE")
