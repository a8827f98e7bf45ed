"""Text PostgreSQL can keep: every string, the NUL character included, stored and read exactly.

PostgreSQL's ``text`` cannot hold U+0000, which is valid in a Python string, in JSON and in
SQLite text, so a session id, a title or a message holding one could not be stored as it
is. The store's connections therefore write every string through :class:`NulSafeStrDumper`
and read every ``text`` through :class:`NulSafeTextLoader`, which encode with one escape
character, U+FFFF (a Unicode noncharacter, which no text is meant to hold)::

    U+0000  ->  U+FFFF "0"
    U+FFFF  ->  U+FFFF U+FFFF

Any other string is stored unchanged, so what ``psql`` shows is the text itself. The
encoding is one-to-one, so equality, uniqueness and lookups by key mean in the database
exactly what they mean in Python. A payload's JSON text escapes NUL as ``\\u0000`` anyway.
"""

from __future__ import annotations

import re
from typing import Any, Final

from psycopg.abc import AdaptContext, Buffer
from psycopg.types.string import StrDumperUnknown, TextLoader

ESCAPE: Final = "\uffff"
_ESCAPED: Final = re.compile("\uffff(.)", re.DOTALL)


def to_postgres_text(text: str) -> str:
    """Return ``text`` as a string PostgreSQL can store: without U+0000 (see above)."""
    if "\x00" not in text and ESCAPE not in text:
        return text
    return text.replace(ESCAPE, ESCAPE + ESCAPE).replace("\x00", ESCAPE + "0")


def from_postgres_text(stored: str) -> str:
    """Return the string that :func:`to_postgres_text` turned into ``stored``."""
    if ESCAPE not in stored:
        return stored
    return _ESCAPED.sub(lambda found: "\x00" if found[1] == "0" else ESCAPE, stored)


class NulSafeStrDumper(StrDumperUnknown):
    """Sends a Python ``str`` as :func:`to_postgres_text` of it (the type left to the server,
    as psycopg's own default does)."""

    def dump(self, obj: str) -> Buffer | None:
        # Every string of every statement comes through here: the usual one, without either
        # character, is encoded at once (psycopg's own dumper does only this, and refuses NUL).
        if "\x00" in obj or ESCAPE in obj:
            obj = to_postgres_text(obj)
        return obj.encode(self._encoding)


class NulSafeTextLoader(TextLoader):
    """Reads a ``text`` column back through :func:`from_postgres_text`."""

    def load(self, data: Buffer) -> Any:
        loaded = super().load(data)
        return from_postgres_text(loaded) if isinstance(loaded, str) else loaded


def register_nul_safe_text(context: AdaptContext) -> None:
    """Make ``context`` (a connection) write and read every string as described above."""
    context.adapters.register_dumper(str, NulSafeStrDumper)
    context.adapters.register_loader("text", NulSafeTextLoader)
