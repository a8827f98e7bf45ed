"""The scripted model: a pure function from the conversation so far to the next step."""

# ruff: noqa: RUF001  (Chinese replies use full-width punctuation on purpose)

from __future__ import annotations

from typing import Any

import pytest

from sqlite_demo.service.model import (
    Reply,
    ToolCall,
    asks_for_order_count,
    run_tool,
    scripted_model,
)


def user(content: str) -> dict[str, Any]:
    return {"role": "user", "content": content}


def tool_calls(*call_ids: str) -> dict[str, Any]:
    calls = [
        {"id": c, "type": "function", "function": {"name": "query_order_count", "arguments": "{}"}}
        for c in call_ids
    ]
    return {"role": "assistant", "content": None, "tool_calls": calls}


def tool(call_id: str, content: str) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": call_id, "content": content}


@pytest.mark.parametrize(
    ("text", "reply"),
    [
        ("你好", "你好！我是订单客服助手，可以帮你查询订单数量。"),
        (
            "hello",
            "Hello! I am the order service assistant; I can look up how many orders you have.",
        ),
        (
            "Hi there",
            "Hello! I am the order service assistant; I can look up how many orders you have.",
        ),
    ],
)
def test_a_greeting_gets_a_reply_in_the_users_language(text: str, reply: str) -> None:
    assert scripted_model([user(text)]) == Reply(reply)


@pytest.mark.parametrize("text", ["帮我查一下订单数量", "how many orders do I have"])
def test_an_order_question_calls_the_order_count_tool(text: str) -> None:
    assert scripted_model([user(text)]) == ToolCall("call_1", "query_order_count", "{}")


def test_the_call_id_continues_from_the_sessions_last_call() -> None:
    earlier = [user("帮我查一下订单数量"), tool_calls("call_1"), tool("call_1", "42")]
    conversation = [*earlier, {"role": "assistant", "content": "…"}, user("帮我查一下订单数量")]

    step = scripted_model(conversation)

    assert isinstance(step, ToolCall) and step.call_id == "call_2"


def test_the_call_id_skips_calls_it_did_not_number_and_never_reuses_one() -> None:
    conversation = [
        tool_calls("call_7"),
        tool("call_7", "1"),
        tool_calls("other"),
        user("订单数量"),
    ]

    step = scripted_model(conversation)

    assert isinstance(step, ToolCall) and step.call_id == "call_8"


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("帮我查一下订单数量", "你当前有 42 个订单。"),
        ("how many orders do I have", "You have 42 orders."),
    ],
)
def test_after_the_tool_result_the_model_answers_with_it(text: str, answer: str) -> None:
    conversation = [user(text), tool_calls("call_1"), tool("call_1", "42")]

    assert scripted_model(conversation) == Reply(answer)


@pytest.mark.parametrize(
    ("text", "starts"), [("帮我总结这份文档", "文档摘要"), ("please summarize this", "Summary")]
)
def test_a_summarise_request_gets_a_summary(text: str, starts: str) -> None:
    step = scripted_model([user(text)])

    assert isinstance(step, Reply) and step.content.startswith(starts)


@pytest.mark.parametrize(
    ("text", "starts"), [("天气怎么样", "抱歉"), ("what is the weather", "Sorry")]
)
def test_anything_else_gets_the_fallback_in_the_users_language(text: str, starts: str) -> None:
    step = scripted_model([user(text)])

    assert isinstance(step, Reply) and step.content.startswith(starts)


def test_the_model_refuses_a_conversation_that_ends_with_its_own_reply() -> None:
    with pytest.raises(ValueError, match="user or tool message"):
        scripted_model([user("你好"), {"role": "assistant", "content": "你好！"}])


def test_the_order_count_tool_returns_42_and_an_unknown_tool_an_error_text() -> None:
    assert run_tool("query_order_count", "{}") == "42"
    assert run_tool("drop_tables", "{}").startswith("error:")


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("帮我查一下订单数量", True),
        ("我有多少订单", True),
        ("订单\n的数量", True),
        ("数量订单", False),  # the count word must come after "订单"
        ("订单" * 10922, False),  # 65 KB of the worst case for a backtracking pattern
        ("订单" * 10922 + "数量", True),
        ("How Many Orders do I have?", True),
        ("what is my ORDER COUNT", True),
        ("how many order", False),
    ],
)
def test_an_order_count_question_is_recognised_in_either_language(text: str, asks: bool) -> None:
    assert asks_for_order_count(text) is asks


def test_a_64_kib_message_without_any_intent_gets_the_fallback() -> None:
    step = scripted_model([user("订单" * 10922)])

    assert isinstance(step, Reply) and step.content.startswith("抱歉")
