"""Which backend a ``--db`` names, and how a message shows it without its password.

Apart from the backends, so that each of them (and the command line) can name a database
without importing the module that opens them.
"""

from __future__ import annotations

import os
import urllib.parse
from typing import Final

#: The URL schemes libpq accepts, and so the ones that name a PostgreSQL database.
POSTGRES_SCHEMES: Final = ("postgresql://", "postgres://")


def is_postgres_url(db: str | os.PathLike[str]) -> bool:
    """Whether ``db`` is a PostgreSQL connection URL rather than a file path."""
    return isinstance(db, str) and db.startswith(POSTGRES_SCHEMES)


def describe_db(db: str | os.PathLike[str]) -> str:
    """Return ``db`` as a message may show it: a path as it is, a URL without its password."""
    if not is_postgres_url(db):
        return os.fspath(db)
    parts = urllib.parse.urlsplit(str(db))
    if parts.password is None:
        return str(db)
    host = parts.netloc.rpartition("@")[2]
    return urllib.parse.urlunsplit(parts._replace(netloc=f"{parts.username}:***@{host}"))
