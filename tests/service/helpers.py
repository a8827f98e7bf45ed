"""What the service tests share: reading a database behind the server's back (either
backend), and judging whether a replayed conversation is one a model API would accept."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tests.databases import TableDump, dump_database, query

__all__ = ["TableDump", "conversation_problems", "dump_database", "query"]


def conversation_problems(messages: Sequence[Mapping[str, Any]]) -> list[str]:
    """Return what would make the Chat Completions API refuse this conversation (or show
    that two writers both answered); empty when it is valid.

    Valid means: it starts with a user message; an assistant message with tool calls is
    directly followed by exactly one tool message per call and nothing else in between; no
    tool message answers a call that is not open; no two user messages and no two assistant
    messages follow each other; and it ends with an assistant reply.
    """
    problems: list[str] = []
    open_calls: set[str] = set()
    previous_role = None
    for index, message in enumerate(messages):
        role = message["role"]
        if role == "tool":
            if message["tool_call_id"] not in open_calls:
                problems.append(f"message {index} answers {message['tool_call_id']}, not open")
            open_calls.discard(message["tool_call_id"])
        elif open_calls:
            problems.append(f"message {index} ({role}) comes while {open_calls} are unanswered")
        if role == previous_role and role in ("user", "assistant"):
            problems.append(f"messages {index - 1} and {index} are both {role} messages")
        if message.get("tool_calls"):
            open_calls = {call["id"] for call in message["tool_calls"]}
        previous_role = role
    if messages and messages[0]["role"] != "user":
        problems.append("the conversation does not start with a user message")
    if messages and (messages[-1]["role"] != "assistant" or messages[-1].get("tool_calls")):
        problems.append("the conversation does not end with an assistant reply")
    return problems
