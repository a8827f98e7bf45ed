"""Replay: fold one session's events into the chat messages a model API accepts.

Replay is a fold. The state is the tuple of messages so far, and one small function per
event type says how that event changes it. ``replay_session`` starts from no messages and
applies the session's events, oldest first. Every message is a new dict, built from the
event's strings, so a caller who edits what a replay returned changes nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import reduce
from typing import Any

from solutions.event_log import Event, EventLog
from solutions.sessions import get_events_for_session

Message = dict[str, Any]
Messages = tuple[Message, ...]


def user_message(messages: Messages, payload: Mapping[str, Any]) -> Messages:
    return (*messages, {"role": "user", "content": payload["content"]})


def assistant_message(messages: Messages, payload: Mapping[str, Any]) -> Messages:
    return (*messages, {"role": "assistant", "content": payload["content"]})


def tool_call(messages: Messages, payload: Mapping[str, Any]) -> Messages:
    """A call joins the previous message when that one holds calls too: the API wants the
    calls a model made together in ONE assistant message, in order, before their results."""
    call = {
        "id": payload["call_id"],
        "type": "function",
        "function": {"name": payload["name"], "arguments": payload["arguments"]},
    }
    if messages and "tool_calls" in messages[-1]:
        *earlier, last = messages
        return (*earlier, {**last, "tool_calls": [*last["tool_calls"], call]})
    return (*messages, {"role": "assistant", "content": None, "tool_calls": [call]})


def tool_result(messages: Messages, payload: Mapping[str, Any]) -> Messages:
    return (
        *messages,
        {"role": "tool", "tool_call_id": payload["call_id"], "content": payload["content"]},
    )


#: How each event type changes the messages: the whole of replay's knowledge.
APPLY: Mapping[str, Callable[[Messages, Mapping[str, Any]], Messages]] = {
    "user_message": user_message,
    "assistant_message": assistant_message,
    "tool_call": tool_call,
    "tool_result": tool_result,
}


def apply_event(messages: Messages, event: Event) -> Messages:
    """The messages after ``event``; ``messages`` itself is left as it was."""
    return APPLY[event.type](messages, event.payload)


def replay_session(log: EventLog, session_id: str) -> list[Message]:
    """Return the session as OpenAI Chat Completions messages, freshly built on every call.

    A session without events replays to an empty list. Each step copies the tuple so far,
    which keeps every state a value; for the sessions of a chat that costs nothing worth a
    cleverer structure.
    """
    no_messages: Messages = ()
    messages = reduce(apply_event, get_events_for_session(log, session_id), no_messages)
    return list(messages)
