"""A pytest plugin: the SDK's session tests, run with ``EventLogSession`` as ``SQLiteSession``.

Loaded into a pytest run of the SDK's own tests (``-p eventlog_session_plugin``, from the
unpacked sdist's folder), it does three things:

* replaces ``agents.SQLiteSession`` wherever the tests import it from, before they are
  collected, by :class:`SQLiteSessionStandIn`: SQLiteSession's constructor, building an
  :class:`~sqlite_demo.EventLogSession`;
* deselects the tests listed in :mod:`not_applicable`, the ones about SQLiteSession's own
  internals (their ids come in ``$EVENTLOG_SDK_DESELECT``, one per line);
* writes every test's outcome, as JSON, to ``$EVENTLOG_SDK_REPORT``.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import agents
import agents.memory
import agents.memory.sqlite_session
import pytest

from sqlite_demo import EventLogSession

_SCRATCH = Path(tempfile.mkdtemp(prefix="sdk-sessions-"))
_OUTCOMES: dict[str, str] = {}


class SQLiteSessionStandIn(EventLogSession):
    """``SQLiteSession(session_id, db_path=":memory:", ..., session_settings=None)``, kept
    in the event log. ``:memory:`` (a database of its own per instance) is a new file."""

    def __init__(
        self,
        session_id: str,
        db_path: str | Path = ":memory:",
        sessions_table: str = "agent_sessions",
        messages_table: str = "agent_messages",
        session_settings: Any = None,
    ) -> None:
        if str(db_path) == ":memory:":
            db_path = Path(tempfile.mkdtemp(dir=_SCRATCH)) / "memory.db"
        super().__init__(session_id, db_path, session_settings=session_settings)


for module in (agents, agents.memory, agents.memory.sqlite_session):
    module.SQLiteSession = SQLiteSessionStandIn  # type: ignore[attr-defined,misc]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    listed = set(os.environ.get("EVENTLOG_SDK_DESELECT", "").split("\n")) - {""}
    deselected = [item for item in items if item.nodeid in listed]
    config.hook.pytest_deselected(items=deselected)
    items[:] = [item for item in items if item.nodeid not in listed]
    # Only what was collected: a listed id the SDK no longer has is then seen to be missing.
    _OUTCOMES.update({item.nodeid: "deselected" for item in deselected})


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    # A test's outcome is its worst phase: a failing fixture teardown fails the test.
    counts = report.when == "call" or report.outcome != "passed"
    if counts and _OUTCOMES.get(report.nodeid) in (None, "passed"):
        _OUTCOMES[report.nodeid] = report.outcome


def pytest_sessionfinish(session: pytest.Session) -> None:
    path = os.environ.get("EVENTLOG_SDK_REPORT")
    if path:
        Path(path).write_text(json.dumps(_OUTCOMES, indent=1, sort_keys=True), encoding="utf-8")
    shutil.rmtree(_SCRATCH, ignore_errors=True)
