"""Fixtures for the adapter's own tests: a store file, and a session over it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sqlite_demo import EventLogSession, SqliteEventStore


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteEventStore]:
    """A fresh store, shared by the sessions a test makes on it."""
    with SqliteEventStore(tmp_path / "agent.db") as opened:
        yield opened


@pytest.fixture
def session(store: SqliteEventStore) -> EventLogSession:
    """The session ``chat`` on ``store``."""
    return EventLogSession("chat", store)


def call(call_id: str, name: str = "query_order_count") -> dict[str, Any]:
    """A function call item, as the SDK's runner saves one."""
    return {"type": "function_call", "call_id": call_id, "name": name, "arguments": "{}"}


def output(call_id: str, text: str = "42") -> dict[str, Any]:
    """The output item that answers ``call(call_id)``."""
    return {"type": "function_call_output", "call_id": call_id, "output": text}


def said(role: str, text: str) -> dict[str, Any]:
    """A plain message item."""
    return {"role": role, "content": text}
