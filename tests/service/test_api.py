"""Each endpoint of the agent service, against a real server subprocess."""

# ruff: noqa: RUF001  (Chinese replies use full-width punctuation on purpose)

from __future__ import annotations

import httpx
import pytest
from fastapi.testclient import TestClient

from sqlite_demo.server import ServerProcess
from sqlite_demo.service.client import AgentClient, ApiError
from tests.databases import Database, another_process_holds_the_write_lock
from tests.service.helpers import query

GREETING = "你好！我是订单客服助手，可以帮你查询订单数量。"


def test_health_says_the_database_can_be_written(client: AgentClient) -> None:
    assert client.health() == {"status": "ok", "database": "writable"}


def test_creating_a_session_returns_201_with_its_id_title_and_time(http: httpx.Client) -> None:
    response = http.post("/sessions", json={"title": "订单客服"})

    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"id", "title", "created_at"}
    assert body["title"] == "订单客服"
    assert body["id"].startswith("sess_") and len(body["id"]) >= len("sess_") + 32
    assert isinstance(body["created_at"], int)


def test_listing_sessions_returns_them_oldest_first(client: AgentClient) -> None:
    first = client.create_session("订单客服")
    second = client.create_session("文档助手")

    assert client.list_sessions() == [first, second]


def test_a_greeting_takes_one_turn_of_two_events(client: AgentClient) -> None:
    session = client.create_session("订单客服")["id"]

    turn = client.send_message(session, "你好")

    assert turn["reply"] == GREETING
    assert [(e["event_id"], e["type"]) for e in turn["events"]] == [
        (1, "user_message"),
        (2, "assistant_message"),
    ]
    assert turn["recovered_events"] == [] and turn["repeated"] is False


def test_an_order_question_calls_the_tool_then_answers_with_its_result(
    client: AgentClient,
) -> None:
    session = client.create_session("订单客服")["id"]

    turn = client.send_message(session, "帮我查一下订单数量")

    assert turn["reply"] == "你当前有 42 个订单。"
    assert [(e["type"], e["payload"]) for e in turn["events"]] == [
        ("user_message", {"content": "帮我查一下订单数量"}),
        ("tool_call", {"call_id": "call_1", "name": "query_order_count", "arguments": "{}"}),
        ("tool_result", {"call_id": "call_1", "content": "42"}),
        ("assistant_message", {"content": "你当前有 42 个订单。"}),
    ]


def test_an_english_question_gets_an_english_answer_and_the_next_call_id(
    client: AgentClient,
) -> None:
    session = client.create_session("orders")["id"]
    client.send_message(session, "how many orders do I have")

    turn = client.send_message(session, "how many orders do I have")

    assert turn["reply"] == "You have 42 orders."
    assert turn["events"][1]["payload"]["call_id"] == "call_2"


def test_every_event_of_a_reply_is_committed_before_the_reply_arrives(
    server: ServerProcess, client: AgentClient, db: Database
) -> None:
    session = client.create_session("订单客服")["id"]
    turn = client.send_message(session, "帮我查一下订单数量")

    server.kill()  # nothing after the reply gets a chance to run: no close, no checkpoint

    rows = query(db, "SELECT event_id, type FROM events WHERE session_id = ?", [session])
    assert rows == [(e["event_id"], e["type"]) for e in turn["events"]]


def test_messages_are_the_projection_of_user_and_assistant_events_only(
    client: AgentClient,
) -> None:
    session = client.create_session("订单客服")["id"]
    client.send_message(session, "你好")
    client.send_message(session, "帮我查一下订单数量")

    messages = client.get_messages(session)

    assert [(m["event_id"], m["role"]) for m in messages] == [
        (1, "user"),
        (2, "assistant"),
        (3, "user"),
        (6, "assistant"),
    ]
    assert messages[3] == {"event_id": 6, "role": "assistant", "content": "你当前有 42 个订单。"}


def test_events_after_n_are_the_sessions_later_events_oldest_first(client: AgentClient) -> None:
    session = client.create_session("订单客服")["id"]
    client.send_message(session, "你好")
    client.send_message(session, "帮我查一下订单数量")

    everything = client.get_events(session)
    later = client.get_events(session, after=4)

    assert [e["event_id"] for e in everything] == [1, 2, 3, 4, 5, 6]
    assert later == everything[4:]
    assert set(later[0]) == {"event_id", "session_id", "type", "payload", "created_at"}


def test_events_of_one_session_never_show_in_another(client: AgentClient) -> None:
    orders = client.create_session("订单客服")["id"]
    documents = client.create_session("文档助手")["id"]
    client.send_message(orders, "你好")
    client.send_message(documents, "帮我总结这份文档")

    assert {e["session_id"] for e in client.get_events(orders)} == {orders}
    assert [e["event_id"] for e in client.get_events(documents)] == [3, 4]


def test_replay_returns_the_session_as_openai_chat_messages(client: AgentClient) -> None:
    session = client.create_session("订单客服")["id"]
    client.send_message(session, "帮我查一下订单数量")

    assert client.replay(session) == [
        {"role": "user", "content": "帮我查一下订单数量"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "query_order_count", "arguments": "{}"},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "42"},
        {"role": "assistant", "content": "你当前有 42 个订单。"},
    ]


def test_a_new_session_reads_as_empty_everywhere(client: AgentClient) -> None:
    session = client.create_session("空")["id"]

    assert client.get_events(session) == []
    assert client.get_messages(session) == []
    assert client.replay(session) == []


def test_the_client_raises_the_services_refusal_with_its_status_and_code(
    client: AgentClient,
) -> None:
    with pytest.raises(ApiError) as refusal:
        client.send_message("sess_nope", "你好")

    assert (refusal.value.status, refusal.value.code) == (404, "unknown_session")
    assert "sess_nope" in refusal.value.message


def test_health_calls_a_lock_held_by_another_process_busy_not_broken(
    in_process: TestClient, db: Database
) -> None:
    with another_process_holds_the_write_lock(db):
        busy = in_process.get("/health")
    free = in_process.get("/health")

    assert (busy.status_code, busy.json()) == (200, {"status": "ok", "database": "busy"})
    assert free.json() == {"status": "ok", "database": "writable"}
