"""Google ADK: ``SqliteSessionService``, ADK's session service for a SQLite file.

Each message is one ``await service.append_event(session, Event(...))``: ADK opens a new
``aiosqlite`` connection (and its thread) per call, checks the session is not stale, inserts
the event as JSON and updates the session's timestamp, then commits. Reading the session is
``get_session``; ``GetSessionConfig(after_timestamp=t)`` reads the events from time t on,
which serves as the tail read (a position in time rather than in the log).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

from google.adk.events import Event
from google.adk.sessions.base_session_service import GetSessionConfig
from google.adk.sessions.sqlite_session_service import SqliteSessionService
from google.genai import types

from benchmarks.systems.base import AdapterInfo, Durability, Synchronous, file_durability
from benchmarks.workload import ChatMessage

INFO = AdapterInfo(
    api="SqliteSessionService: await append_event(session, Event) / await get_session()",
    tail="get_session(config=GetSessionConfig(after_timestamp=t)): events from a time on",
    settings=(
        "the library sets neither pragma: a new file is in rollback-journal (DELETE) mode"
        " with synchronous FULL; neither can be chosen through the API"
    ),
)

_APP, _USER = "benchmark", "user"


class AdkSessionService:
    """One ADK session in a fresh ``SqliteSessionService`` file, driven from one event loop."""

    def __init__(self, directory: Path) -> None:
        self._path = directory / "adk.db"
        self._loop = asyncio.Runner()
        self._service = SqliteSessionService(str(self._path))
        self._session = self._loop.run(self._service.create_session(app_name=_APP, user_id=_USER))
        self._timestamps: list[float] = []

    def append_each(self, messages: Sequence[ChatMessage]) -> None:
        self._loop.run(self._append_each(messages))

    async def _append_each(self, messages: Sequence[ChatMessage]) -> None:
        for message in messages:
            event = await self._service.append_event(self._session, _as_event(message))
            self._timestamps.append(event.timestamp)

    def read_all(self) -> int:
        return len(self._loop.run(self._get_session(config=None)))

    def read_tail(self, after: int) -> int | None:
        config = GetSessionConfig(after_timestamp=self._timestamps[after])
        return len(self._loop.run(self._get_session(config)))

    async def _get_session(self, config: GetSessionConfig | None) -> list[Event]:
        session = await self._service.get_session(
            app_name=_APP, user_id=_USER, session_id=self._session.id, config=config
        )
        return [] if session is None else session.events

    def durability(self) -> Durability:
        source = "PRAGMA on a fresh connection; the library's source sets neither pragma"
        return file_durability(self._path, source)

    def close(self) -> None:
        self._loop.run(self._service.close())
        self._loop.close()


def _as_event(message: ChatMessage) -> Event:
    role = "user" if message.role == "user" else "model"
    content = types.Content(role=role, parts=[types.Part(text=message.content)])
    return Event(author=message.role, invocation_id="benchmark", content=content)


def open_store(directory: Path, synchronous: Synchronous | None) -> AdkSessionService:
    """Open ADK's SQLite session service in ``directory``; ``synchronous`` is ignored."""
    return AdkSessionService(directory)
