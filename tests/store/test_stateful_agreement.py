"""Each durable store and the pure reference, driven side by side through random programs.

Hypothesis runs sequences of operations, refused ones included, against ``solutions`` (the
model) and a durable store (the system under test: SQLite, then PostgreSQL, with the same
rules and assertions), and compares every observation:
returned events, reads after an id, active session order, replay, and which operations
are refused. The two are independent implementations (the reference shares no code with
the store), so this tests the rules, not only the SQL wiring. A failure prints the shortest
program that reproduces it.

Refusals are compared as "raised a ValueError or not": each side names its own errors. The
durable stores know things the model does not: sessions must be created first, idempotency
keys, expected versions, and payloads it cannot keep as JSON. Rules for those keep a little
model state of their own.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    invariant,
    multiple,
    precondition,
    rule,
    run_state_machine_as_test,
)

import solutions
from eventlog import InvalidPayloadError
from sqlite_demo import (
    EventStore,
    IdempotencyConflictError,
    SessionExistsError,
    UnknownSessionError,
    VersionConflictError,
    open_store,
)
from tests.databases import BACKENDS
from tests.store.adapters import plain
from tests.store.folds import expected_messages, expected_tool_calls
from tests.store.strategies import (
    SESSION_NAMES,
    any_event_types,
    any_payloads,
    durable_only_refusal,
    keyed_requests,
    session_names,
    texts,
    valid_appends,
)

View = tuple[int, str, str, dict[str, Any]]


def _view(event: Any) -> View:
    return event.event_id, event.session_id, event.type, plain(event.payload)


class StoresAgree(RuleBasedStateMachine):
    """Every operation goes to both stores; every answer must match."""

    sessions = Bundle("sessions")

    def __init__(self, new_database: Callable[[Path], str | Path]) -> None:
        super().__init__()
        self.directory = tempfile.TemporaryDirectory()
        self.store: EventStore = open_store(new_database(Path(self.directory.name)))
        self.log = solutions.create_event_log()
        self.appended: list[View] = []  # every event the model accepted, in order
        self.created: set[str] = set()
        self.keyed: dict[tuple[str, str], View] = {}  # (session, key) -> the event it appended

    def teardown(self) -> None:
        self.store.close()
        self.directory.cleanup()

    def _append_to_both(
        self, session_id: Any, event_type: Any, payload: Any, **store_options: Any
    ) -> View | None:
        """Append to the model, then to the store: both refuse, or both give the same event."""
        try:
            new_log, expected = solutions.append_event(self.log, session_id, event_type, payload)
        except ValueError:
            with pytest.raises(ValueError):
                self.store.append_event(session_id, event_type, payload, **store_options)
            return None
        if durable_only_refusal(payload):
            with pytest.raises(InvalidPayloadError):
                self.store.append_event(session_id, event_type, payload, **store_options)
            return None
        actual = self.store.append_event(session_id, event_type, payload, **store_options)
        assert _view(actual) == _view(expected)
        self.log = new_log
        self.appended.append(_view(expected))
        return _view(actual)

    @rule(target=sessions, name=session_names)
    def create_session(self, name: str) -> Any:
        if name in self.created:
            with pytest.raises(SessionExistsError):
                self.store.create_session("again", session_id=name)
            return multiple()
        self.store.create_session(f"title of {name}", session_id=name)
        self.created.add(name)
        return name

    @rule(session_id=sessions, append=valid_appends())
    def append_valid_payload(self, session_id: str, append: tuple[str, dict[str, Any]]) -> None:
        self._append_to_both(session_id, *append)

    @rule(session_id=sessions, event_type=any_event_types, payload=any_payloads)
    def append_anything(self, session_id: str, event_type: str, payload: Any) -> None:
        self._append_to_both(session_id, event_type, payload)

    @rule(session_id=st.sampled_from(["", None, 7, b"bytes"]), append=valid_appends())
    def append_with_an_invalid_session_id(
        self, session_id: Any, append: tuple[str, dict[str, Any]]
    ) -> None:
        self._append_to_both(session_id, *append)

    @precondition(lambda self: len(self.created) < len(SESSION_NAMES))
    @rule(data=st.data(), append=valid_appends())
    def append_to_a_session_never_created(
        self, data: st.DataObject, append: tuple[str, dict[str, Any]]
    ) -> None:
        name = data.draw(st.sampled_from([n for n in SESSION_NAMES if n not in self.created]))
        with pytest.raises(UnknownSessionError):
            self.store.append_event(name, *append)

    @precondition(lambda self: any(view[2] == "tool_call" for view in self.appended))
    @rule(data=st.data(), content=texts)
    def answer_a_call_that_was_made(self, data: st.DataObject, content: str) -> None:
        # Random call ids rarely meet their call; this rule answers calls that exist, so
        # first results and second results (refused) both come up often.
        calls = [view for view in self.appended if view[2] == "tool_call"]
        _, session_id, _, payload = data.draw(st.sampled_from(calls))
        self._append_to_both(
            session_id, "tool_result", {"call_id": payload["call_id"], "content": content}
        )

    @rule(session_id=sessions, stale=st.booleans(), content=texts)
    def append_at_an_expected_version(self, session_id: str, stale: bool, content: str) -> None:
        # The version is the session's last event id: a writer that read the session then
        # appends at it; one that read it before the last event gets a conflict.
        ids = [view[0] for view in self.appended if view[1] == session_id]
        version = ids[-1] if ids else 0
        if stale and ids:
            with pytest.raises(VersionConflictError):
                self.store.append_event(
                    session_id, "user_message", {"content": content}, expected_version=version - 1
                )
            return
        self._append_to_both(
            session_id, "user_message", {"content": content}, expected_version=version
        )

    @rule(session_id=sessions, key=st.sampled_from(["k1", "k2"]), request=keyed_requests)
    def append_with_an_idempotency_key(
        self, session_id: str, key: str, request: tuple[str, dict[str, Any]]
    ) -> None:
        event_type, payload = request
        original = self.keyed.get((session_id, key))
        if original is None:
            appended = self._append_to_both(session_id, event_type, payload, idempotency_key=key)
            if appended is not None:
                self.keyed[(session_id, key)] = appended
        elif (original[2], original[3]) == (event_type, payload):
            again = self.store.append_event(session_id, event_type, payload, idempotency_key=key)
            assert _view(again) == original
        else:
            with pytest.raises(IdempotencyConflictError):
                self.store.append_event(session_id, event_type, payload, idempotency_key=key)

    @rule(session_id=sessions, after_event_id=st.integers(min_value=-1, max_value=40))
    def read_after_an_id(self, session_id: str, after_event_id: int) -> None:
        expected = solutions.get_events_for_session(self.log, session_id, after_event_id)
        actual = self.store.get_events_for_session(session_id, after_event_id)
        assert [_view(event) for event in actual] == [_view(event) for event in expected]

    @rule(session_id=sessions)
    def replay(self, session_id: str) -> None:
        expected = solutions.replay_session(self.log, session_id)
        assert self.store.replay_session(session_id) == list(expected)

    @precondition(lambda self: bool(self.appended))
    @rule()
    def rebuild_projections(self) -> None:
        self.store.rebuild_projections()

    @invariant()
    def active_sessions_agree(self) -> None:
        expected = list(solutions.list_sessions(self.log))
        assert self.store.list_active_session_ids() == expected

    @invariant()
    def the_whole_log_agrees(self) -> None:
        actual = [
            _view(event)
            for session_id in self.created
            for event in self.store.get_events_for_session(session_id)
        ]
        assert sorted(actual, key=lambda view: view[0]) == self.appended

    @invariant()
    def projections_equal_the_fold_of_the_events(self) -> None:
        for session_id in self.created:
            events = self.store.get_events_for_session(session_id)
            assert self.store.get_messages(session_id) == expected_messages(events)
            assert self.store.get_tool_calls(session_id) == expected_tool_calls(events)


SETTINGS = settings(
    max_examples=75,
    stateful_step_count=30,
    derandomize=True,
    database=None,
    deadline=None,  # real I/O: its speed is not what this test is about
)


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_store_agrees_with_the_reference(backend: str, request: pytest.FixtureRequest) -> None:
    if backend == "postgres":
        cluster = request.getfixturevalue("postgres_cluster")

        def new_database(folder: Path) -> str | Path:
            url: str = cluster.new_database()
            return url
    else:

        def new_database(folder: Path) -> str | Path:
            return folder / "events.db"

    run_state_machine_as_test(lambda: StoresAgree(new_database), settings=SETTINGS)
