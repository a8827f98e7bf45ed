"""A scripted, deterministic stand-in for an LLM, driven exactly the way a real one is.

The model is a pure function from the conversation so far (OpenAI Chat Completions
messages, as :func:`eventlog.replay_events` builds them) to the next step: either a tool
call or a final reply. The agent loop in :mod:`sqlite_demo.service.agent` is therefore the real
loop; only the brain is scripted, so the demo and the tests never need a network or a key.

The script knows four intents, answering in Chinese when the user wrote Chinese:

* a greeting ("你好", "hello", "hi") gets a self-introduction;
* an order-count question ("帮我查一下订单数量", "how many orders do I have") calls the
  ``query_order_count`` tool, then answers with the number the tool returned;
* a summarise request ("帮我总结这份文档", "summarise this document") gets a summary;
* anything else gets a fallback that says what the assistant can do.
"""

# The replies are Chinese text, where full-width punctuation is correct, not a look-alike.
# ruff: noqa: RUF001

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

Message = Mapping[str, Any]

ORDER_COUNT_TOOL: Final = "query_order_count"

# Every test below reads the message once, so a model call costs time linear in the length of
# the last user message: a pattern such as "订单.*(数量|多少)" would retry ".*" from every
# "订单" and take seconds on a 64 KiB message made of them.
_GREETING = re.compile(r"\s*(你好|您好|(hello|hi|hey)\b)", re.IGNORECASE)  # used with match()
_SUMMARISE = re.compile(r"总结|摘要|summari[sz]e|summary", re.IGNORECASE)
_CALL_NUMBER = re.compile(r"call_(\d+)")
_CJK = re.compile(r"[\u3400-\u9fff]")

# (Chinese, English) texts, picked by the language of the user's message.
_GREETING_REPLY = (
    "你好！我是订单客服助手，可以帮你查询订单数量。",
    "Hello! I am the order service assistant; I can look up how many orders you have.",
)
_ORDER_COUNT_REPLY = ("你当前有 {count} 个订单。", "You have {count} orders.")
_SUMMARY_REPLY = (
    "文档摘要：会话以只追加的事件存在 SQLite 里，进程崩溃后回放这些事件即可恢复。",
    "Summary: the conversation is kept as append-only events in SQLite; replaying them "
    "restores it after a crash.",
)
_FALLBACK_REPLY = (
    "抱歉，我只会打招呼、查询订单数量和总结文档。",
    "Sorry, I can only say hello, count your orders and summarise a document.",
)


@dataclass(frozen=True, slots=True)
class Reply:
    """The model's final answer for this turn: an ``assistant_message`` with ``content``."""

    content: str


@dataclass(frozen=True, slots=True)
class ToolCall:
    """The model asks for a tool to run before it answers: a ``tool_call`` event."""

    call_id: str
    name: str
    arguments: str


ModelStep = Reply | ToolCall
Model = Callable[[Sequence[Message]], ModelStep]


def scripted_model(messages: Sequence[Message]) -> ModelStep:
    """Decide the next step of the conversation, as a chat model would.

    Args:
        messages: the whole session so far in OpenAI format; the last one must be the
            user's message or a tool result (that is when a model is asked to speak).

    Returns:
        A :class:`ToolCall` to make, or the :class:`Reply` that ends the turn.

    Raises:
        ValueError: when the last message is not a user or tool message, because a real
            model API would have nothing to answer either.
    """
    if not messages or messages[-1]["role"] not in ("user", "tool"):
        raise ValueError("a model answers a user or tool message; the conversation ends in neither")
    user_text = _last_user_text(messages)
    chinese = bool(_CJK.search(user_text))
    if messages[-1]["role"] == "tool":
        return Reply(_pick(_ORDER_COUNT_REPLY, chinese).format(count=messages[-1]["content"]))
    if asks_for_order_count(user_text):
        return ToolCall(call_id=next_call_id(messages), name=ORDER_COUNT_TOOL, arguments="{}")
    if _GREETING.match(user_text):
        return Reply(_pick(_GREETING_REPLY, chinese))
    if _SUMMARISE.search(user_text):
        return Reply(_pick(_SUMMARY_REPLY, chinese))
    return Reply(_pick(_FALLBACK_REPLY, chinese))


def asks_for_order_count(text: str) -> bool:
    """Tell whether ``text`` asks how many orders there are, in Chinese or in English.

    Chinese: "订单" (orders) followed somewhere by "数量" (count) or "多少" (how many), or
    "多少" followed by "订单". Each ``find`` scans the text once, so this is linear.
    """
    lowered = text.lower()
    if "how many orders" in lowered or "order count" in lowered:
        return True
    return _appears_after(text, "订单", ("数量", "多少")) or _appears_after(text, "多少", ("订单",))


def _appears_after(text: str, first: str, then: tuple[str, ...]) -> bool:
    start = text.find(first)
    return start >= 0 and any(text.find(word, start + len(first)) >= 0 for word in then)


def next_call_id(messages: Sequence[Message]) -> str:
    """Return the id for a new tool call: one more than the session's last ``call_N``.

    The conversation is read backwards to its most recent numbered call only, so the cost
    does not grow with a session's length, and ids never repeat within a session: the
    chapter's first call is ``call_1``, the next one ``call_2``.
    """
    for message in reversed(messages):
        for call in reversed(message.get("tool_calls") or ()):
            numbered = _CALL_NUMBER.fullmatch(call["id"])
            if numbered:
                return f"call_{int(numbered.group(1)) + 1}"
    return "call_1"


def run_tool(name: str, arguments: str) -> str:
    """Run one of the scripted tools and return its result as the tool message's content.

    Args:
        name: the tool's name, as the model gave it.
        arguments: the JSON arguments string (the order-count tool takes none).

    Returns:
        The tool's output; an unknown tool gets an error text the model could read, as a
        real tool runner would return instead of crashing the turn.
    """
    if name == ORDER_COUNT_TOOL:
        return "42"
    return f"error: unknown tool {name!r}"


def _last_user_text(messages: Sequence[Message]) -> str:
    # Backwards: the last user message is near the end, whatever the session's length.
    for message in reversed(messages):
        if message["role"] == "user":
            return str(message["content"])
    return ""


def _pick(texts: tuple[str, str], chinese: bool) -> str:
    return texts[0] if chinese else texts[1]
