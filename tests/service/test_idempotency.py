"""A request repeated with the same Idempotency-Key gets the first answer and writes nothing."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.databases import Database
from tests.service.helpers import dump_database


def _new_session(http: TestClient) -> str:
    session_id: str = http.post("/sessions", json={"title": "订单客服"}).json()["id"]
    return session_id


def _send(http: TestClient, session: str, content: str, key: str | None = None) -> dict[str, Any]:
    headers = {"Idempotency-Key": key} if key else {}
    response = http.post(
        f"/sessions/{session}/messages", json={"content": content}, headers=headers
    )
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def test_a_repeated_key_returns_the_first_answer_and_writes_nothing(
    in_process: TestClient, db: Database
) -> None:
    session = _new_session(in_process)
    first = _send(in_process, session, "帮我查一下订单数量", key="order-1")
    before = dump_database(db)

    again = _send(in_process, session, "帮我查一下订单数量", key="order-1")

    assert (again["reply"], again["events"]) == (first["reply"], first["events"])
    assert again["repeated"] is True and again["recovered_events"] == []
    assert dump_database(db) == before


def test_a_repeated_key_answers_with_its_own_turn_not_the_latest(in_process: TestClient) -> None:
    session = _new_session(in_process)
    first = _send(in_process, session, "你好", key="hello-1")
    _send(in_process, session, "帮我查一下订单数量", key="order-1")

    again = _send(in_process, session, "你好", key="hello-1")

    assert again["events"] == first["events"]


def test_a_new_key_is_a_new_turn(in_process: TestClient) -> None:
    session = _new_session(in_process)
    first = _send(in_process, session, "你好", key="hello-1")

    second = _send(in_process, session, "你好", key="hello-2")

    assert second["repeated"] is False
    assert second["events"][0]["event_id"] > first["events"][-1]["event_id"]


def test_keys_are_scoped_to_their_session(in_process: TestClient) -> None:
    orders, documents = _new_session(in_process), _new_session(in_process)
    _send(in_process, orders, "你好", key="same-key")

    other = _send(in_process, documents, "你好", key="same-key")

    assert other["repeated"] is False
    assert {e["session_id"] for e in other["events"]} == {documents}


def test_reusing_a_key_for_other_content_is_a_409_that_writes_nothing(
    in_process: TestClient, db: Database
) -> None:
    session = _new_session(in_process)
    _send(in_process, session, "你好", key="k")
    before = dump_database(db)

    response = in_process.post(
        f"/sessions/{session}/messages",
        json={"content": "帮我总结这份文档"},
        headers={"Idempotency-Key": "k"},
    )

    assert response.status_code == 409
    assert response.json()["error"]["code"] == "idempotency_key_reused"
    assert dump_database(db) == before
