"""A turn cut short by a kill is finished by the next request, never forgotten.

The kill is simulated by writing the start of a turn straight through the store, exactly
what a server killed mid-turn leaves behind, then starting the service on that file.
"""

# ruff: noqa: RUF001  (Chinese replies use full-width punctuation on purpose)

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from fastapi.testclient import TestClient

from sqlite_demo import open_store
from sqlite_demo.app import create_app
from sqlite_demo.service.model import ModelStep, scripted_model
from tests.databases import Database
from tests.service.helpers import conversation_problems

QUESTION = "帮我查一下订单数量"
CALL = {"call_id": "call_1", "name": "query_order_count", "arguments": "{}"}
RESULT = {"call_id": "call_1", "content": "42"}
ANSWER = {"content": "你当前有 42 个订单。"}

#: What a kill may leave: the steps of the order turn that were committed before it.
CUT_SHORT_TURNS = {
    "after the user message": [("user_message", {"content": QUESTION})],
    "after the tool call": [("user_message", {"content": QUESTION}), ("tool_call", CALL)],
    "after the tool result": [
        ("user_message", {"content": QUESTION}),
        ("tool_call", CALL),
        ("tool_result", RESULT),
    ],
}
FULL_TURN = [
    ("user_message", {"content": QUESTION}),
    ("tool_call", CALL),
    ("tool_result", RESULT),
    ("assistant_message", ANSWER),
]


def _session_cut_short(
    db: Database, steps: list[tuple[str, dict[str, Any]]], key: str | None = None
) -> str:
    with open_store(db) as store:
        session = store.create_session("订单客服").id
        for index, (event_type, payload) in enumerate(steps):
            store.append_event(
                session, event_type, payload, idempotency_key=key if index == 0 else None
            )
    return session


def _shape(events: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    return [(event["type"], event["payload"]) for event in events]


@pytest.mark.parametrize("cut", CUT_SHORT_TURNS, ids=str)
def test_the_next_message_first_finishes_the_interrupted_turn(db: Database, cut: str) -> None:
    committed = CUT_SHORT_TURNS[cut]
    session = _session_cut_short(db, committed)

    with TestClient(create_app(db)) as http:
        turn = http.post(f"/sessions/{session}/messages", json={"content": "你好"}).json()
        replay = http.get(f"/sessions/{session}/replay").json()

    assert _shape(turn["recovered_events"]) == FULL_TURN[len(committed) :]
    assert _shape(turn["events"]) == [
        ("user_message", {"content": "你好"}),
        ("assistant_message", {"content": "你好！我是订单客服助手，可以帮你查询订单数量。"}),
    ]
    assert conversation_problems(replay) == []


def test_retrying_the_key_of_an_interrupted_turn_finishes_it_and_answers_it(db: Database) -> None:
    session = _session_cut_short(db, CUT_SHORT_TURNS["after the tool call"], key="order-1")

    with TestClient(create_app(db)) as http:
        turn = http.post(
            f"/sessions/{session}/messages",
            json={"content": QUESTION},
            headers={"Idempotency-Key": "order-1"},
        ).json()
        replay = http.get(f"/sessions/{session}/replay").json()

    assert turn["repeated"] is True
    assert turn["reply"] == ANSWER["content"]
    assert _shape(turn["events"]) == FULL_TURN
    assert _shape(turn["recovered_events"]) == FULL_TURN[2:]
    assert conversation_problems(replay) == []


def test_a_finished_session_is_left_alone(db: Database) -> None:
    session = _session_cut_short(db, FULL_TURN)

    with TestClient(create_app(db)) as http:
        turn = http.post(f"/sessions/{session}/messages", json={"content": "你好"}).json()

    assert turn["recovered_events"] == []
    assert turn["events"][0]["event_id"] == len(FULL_TURN) + 1


def test_a_model_failure_mid_turn_is_a_500_and_the_next_request_finishes_the_turn(
    db: Database,
) -> None:
    failures = iter([True])  # fail once, at the first answer after a tool result

    def flaky_model(messages: Sequence[Mapping[str, Any]]) -> ModelStep:
        if messages[-1]["role"] == "tool" and next(failures, False):
            raise RuntimeError("the model API timed out")
        return scripted_model(messages)

    app = create_app(db, model=flaky_model)
    with TestClient(app, raise_server_exceptions=False) as http:
        session = http.post("/sessions", json={"title": "订单客服"}).json()["id"]
        failed = http.post(f"/sessions/{session}/messages", json={"content": QUESTION})
        turn = http.post(f"/sessions/{session}/messages", json={"content": "你好"}).json()

    assert failed.status_code == 500
    assert failed.json()["error"]["code"] == "internal_error"
    assert failed.headers["connection"] == "close"  # the server drops it; the client is told
    assert _shape(turn["recovered_events"]) == [("assistant_message", ANSWER)]
