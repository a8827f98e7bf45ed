"""The systems under test, and loading only those whose packages are installed.

Adapters import their framework at module level, so loading one is the installation check:
a system whose package is missing, or fails to import, is skipped with the reason, never
faked. Ours and the raw ``sqlite3`` floor each run twice, at synchronous NORMAL and FULL,
so that every framework can be compared with ours at its own durability setting.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import Final, Literal

from benchmarks.systems.base import AdapterInfo, ChatStore, Durability, Synchronous

Role = Literal["ours", "floor", "framework"]


@dataclass(frozen=True, slots=True)
class SystemEntry:
    """One row of the comparison: a display name, its adapter and what it needs installed.

    Attributes:
        name: the name tables and charts show.
        adapter: the module in ``benchmarks.systems`` that drives it.
        package: the PyPI package the adapter imports, or None for the kit and stdlib only.
        role: ``ours``, ``floor`` (raw sqlite3) or ``framework``.
        synchronous: the setting to ask for, where the system lets us choose.
    """

    name: str
    adapter: str
    package: str | None
    role: Role
    synchronous: Synchronous | None = None


@dataclass(frozen=True, slots=True)
class LoadedSystem:
    """A system ready to run: its entry, what its adapter says about it, and how to open it."""

    entry: SystemEntry
    info: AdapterInfo
    open: Callable[[Path], ChatStore]

    @property
    def name(self) -> str:
        return self.entry.name


@dataclass(frozen=True, slots=True)
class SkippedSystem:
    """A system that could not run here, and why."""

    name: str
    reason: str


SYSTEMS: Final = (
    SystemEntry("ours (NORMAL)", "ours", None, "ours", "NORMAL"),
    SystemEntry("ours (FULL)", "ours", None, "ours", "FULL"),
    SystemEntry("raw sqlite3 (NORMAL)", "raw_sqlite", None, "floor", "NORMAL"),
    SystemEntry("raw sqlite3 (FULL)", "raw_sqlite", None, "floor", "FULL"),
    # Ours again, through the SDK's Session protocol, beside the SDK's own SQLiteSession and at
    # its durability (FULL): the same add_items / get_items calls on both.
    SystemEntry(
        "ours as an SDK Session (FULL)", "event_log_session", "openai-agents", "ours", "FULL"
    ),
    SystemEntry("OpenAI Agents SQLiteSession", "openai_agents", "openai-agents", "framework"),
    SystemEntry("Google ADK SqliteSessionService", "adk", "google-adk", "framework"),
    SystemEntry(
        "LangGraph SqliteSaver", "langgraph", "langgraph-checkpoint-sqlite", "framework", "NORMAL"
    ),
    SystemEntry(
        "eventsourcing SQLiteApplicationRecorder", "eventsourcing_lib", "eventsourcing", "framework"
    ),
)


def load_systems(
    entries: Sequence[SystemEntry] = SYSTEMS,
    import_module: Callable[[str], ModuleType] = importlib.import_module,
) -> tuple[list[LoadedSystem], list[SkippedSystem]]:
    """Import each entry's adapter; return the systems that loaded and those that did not.

    Args:
        entries: the systems to try, in table order.
        import_module: how to import an adapter; tests pass one that fails on purpose.
    """
    loaded: list[LoadedSystem] = []
    skipped: list[SkippedSystem] = []
    for entry in entries:
        try:
            module = import_module(f"benchmarks.systems.{entry.adapter}")
        except ImportError as error:
            skipped.append(SkippedSystem(entry.name, _import_failure(entry, error)))
            continue
        except Exception as error:  # e.g. a library that wants an API key as it is imported
            skipped.append(SkippedSystem(entry.name, f"fails on import: {error!r}"))
            continue
        opener = partial(module.open_store, synchronous=entry.synchronous)
        loaded.append(LoadedSystem(entry, module.INFO, opener))
    return loaded, skipped


def _import_failure(entry: SystemEntry, error: ImportError) -> str:
    if isinstance(error, ModuleNotFoundError) and entry.package is not None:
        return (
            f"{entry.package} is not installed ({error.name} not found);"
            " install the bench extra: pip install -e '.[bench]'"
        )
    return f"cannot be imported: {error}"


__all__ = [
    "SYSTEMS",
    "AdapterInfo",
    "ChatStore",
    "Durability",
    "LoadedSystem",
    "Role",
    "SkippedSystem",
    "SystemEntry",
    "load_systems",
]
