"""The tests' judge of valid model conversations must itself catch what it claims to."""

from __future__ import annotations

from typing import Any

import pytest

from tests.service.helpers import conversation_problems
from tests.service.test_model import tool, tool_calls, user

REPLY = {"role": "assistant", "content": "ok"}

INVALID: dict[str, list[dict[str, Any]]] = {
    "two user messages in a row": [user("a"), user("b"), REPLY],
    "two assistant replies in a row": [user("a"), REPLY, REPLY],
    "a second call right after a reply": [
        user("a"),
        REPLY,
        tool_calls("c1"),
        tool("c1", "1"),
        REPLY,
    ],
    "a tool result answered twice": [
        user("a"),
        tool_calls("c1"),
        tool("c1", "1"),
        tool("c1", "2"),
        REPLY,
    ],
    "a tool message after the reply": [
        user("a"),
        tool_calls("c1"),
        tool("c1", "1"),
        REPLY,
        tool("c1", "1"),
    ],
    "starting with the assistant": [REPLY, user("a"), REPLY],
    "a user message before the tool result": [user("a"), tool_calls("c1"), user("b"), REPLY],
    "a tool result for no call": [user("a"), tool("c1", "42"), REPLY],
    "an unanswered call at the end": [user("a"), tool_calls("c1")],
    "no reply at the end": [user("a")],
}


@pytest.mark.parametrize("name", INVALID, ids=str)
def test_an_invalid_conversation_has_a_problem(name: str) -> None:
    assert conversation_problems(INVALID[name]) != []


def test_a_conversation_with_answered_parallel_calls_is_valid() -> None:
    conversation = [user("a"), tool_calls("c1", "c2"), tool("c1", "1"), tool("c2", "2"), REPLY]

    assert conversation_problems(conversation) == []
