"""One turn of the agent: commit every event before replying, finish what a kill cut short.

The loop is the ordinary agent loop (replay the session, ask the model, run the tools it
asks for, repeat until it replies), with two rules that make it survive a crash:

* **Write before reply.** Each step is appended to the store, in its own committed
  transaction, before the next step starts; the reply is returned only after the
  ``assistant_message`` holding it is committed. A reply the user saw is always in the log.
* **Finish, do not forget.** A ``SIGKILL`` can stop a turn anywhere: after the user's
  message, or after a ``tool_call`` whose result never came. Such a session would not be a
  valid model conversation, so the next request on it first completes the pending steps
  (runs the open tool calls, asks the model for the reply) and only then takes its own turn.

Idempotency: a request may carry a key. The user's message is stored with it, and a request
that repeats the key gets the first request's answer and writes nothing, unless the first
attempt was cut short; then the retry completes that turn (the only writes it makes) and
answers with it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from sqlite_demo.errors import IdempotencyConflictError
from sqlite_demo.model import Message, Model, Reply, ToolCall, run_tool, scripted_model
from sqlite_demo.store import SqliteEventStore, StoredEvent

#: Model and tool steps one turn may take before the agent gives up on a looping model.
MAX_STEPS_PER_TURN: Final = 8

ToolRunner = Callable[[str, str], str]


@dataclass(frozen=True, slots=True)
class TurnResult:
    """What one request on a session produced.

    Attributes:
        reply: the assistant's answer that ends the turn.
        events: the turn's events, from the user's message to the assistant's reply.
        recovered: events this request appended to finish an earlier, interrupted turn.
        repeated: True when the idempotency key matched an earlier request, so ``events``
            are that request's events and nothing new was written for this message.
    """

    reply: str
    events: tuple[StoredEvent, ...]
    recovered: tuple[StoredEvent, ...] = ()
    repeated: bool = False


class Agent:
    """Runs turns against a :class:`SqliteEventStore`, one at a time.

    A lock serialises turns: the idempotency check and the append that follows it must not
    interleave with another request's, and a session's steps must not interleave either.
    Pass ``lock`` to share it with other users of the same store (the HTTP app does).
    One lock for everything is right for a scripted model that answers in microseconds; with
    a real model taking seconds, a lock per session would let sessions proceed in parallel.
    """

    def __init__(
        self,
        store: SqliteEventStore,
        model: Model = scripted_model,
        tool_runner: ToolRunner = run_tool,
        *,
        lock: threading.Lock | None = None,
    ) -> None:
        self._store = store
        self._model = model
        self._run_tool = tool_runner
        self._lock = lock or threading.Lock()

    def handle_message(
        self, session_id: str, content: str, idempotency_key: str | None = None
    ) -> TurnResult:
        """Take one user message through a whole turn and return the committed reply.

        Args:
            session_id: an existing session.
            content: what the user wrote.
            idempotency_key: optional; a repeat of an earlier key returns that answer.

        Returns:
            The :class:`TurnResult`; every event in it is already committed.

        Raises:
            sqlite_demo.errors.UnknownSessionError: no such session; nothing is written.
            IdempotencyConflictError: the key was used before for other content.
        """
        with self._lock:
            self._store.get_session(session_id)
            if idempotency_key is not None:
                original = self._store.find_event_by_idempotency_key(session_id, idempotency_key)
                if original is not None:
                    return self._repeat_turn(original, content)
            recovered = self._run_until_reply(session_id)
            user_event = self._store.append_event(
                session_id, "user_message", {"content": content}, idempotency_key=idempotency_key
            )
            events = (user_event, *self._run_until_reply(session_id))
            return TurnResult(_content(events[-1]), events, recovered)

    def _repeat_turn(self, original: StoredEvent, content: str) -> TurnResult:
        if original.payload["content"] != content:
            raise IdempotencyConflictError(
                "this Idempotency-Key was already used for a different message; "
                "use a new key for a new message"
            )
        recovered = self._run_until_reply(original.session_id)
        events = self._turn_starting_at(original)
        return TurnResult(_content(events[-1]), events, recovered, repeated=True)

    def _turn_starting_at(self, user_event: StoredEvent) -> tuple[StoredEvent, ...]:
        later = self._store.get_events_for_session(
            user_event.session_id, after_event_id=user_event.event_id - 1
        )
        for index, event in enumerate(later):
            if event.type == "assistant_message":
                return tuple(later[: index + 1])
        raise RuntimeError(f"the turn of event {user_event.event_id} has no reply")

    def _run_until_reply(self, session_id: str) -> tuple[StoredEvent, ...]:
        """Advance the session until it ends in an assistant reply; return what was appended.

        A session that already ends in a reply (or is empty) is left alone, which is why the
        same function both finishes an interrupted turn and runs a new one.
        """
        appended: list[StoredEvent] = []
        for _ in range(MAX_STEPS_PER_TURN):
            messages = self._store.replay_session(session_id)
            unanswered = open_tool_calls(messages)
            if unanswered:
                appended += [self._answer_tool_call(session_id, call) for call in unanswered]
            elif awaits_model(messages):
                appended.append(self._append_step(session_id, self._model(messages)))
            else:
                return tuple(appended)
        raise RuntimeError(f"the model took more than {MAX_STEPS_PER_TURN} steps in one turn")

    def _answer_tool_call(self, session_id: str, call: dict[str, Any]) -> StoredEvent:
        function = call["function"]
        result = self._run_tool(function["name"], function["arguments"])
        payload = {"call_id": call["id"], "content": result}
        return self._store.append_event(session_id, "tool_result", payload)

    def _append_step(self, session_id: str, step: Reply | ToolCall) -> StoredEvent:
        if isinstance(step, Reply):
            return self._store.append_event(
                session_id, "assistant_message", {"content": step.content}
            )
        payload = {"call_id": step.call_id, "name": step.name, "arguments": step.arguments}
        return self._store.append_event(session_id, "tool_call", payload)


def open_tool_calls(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """Return the tool calls that have no tool message answering them yet, in call order."""
    answered = {message["tool_call_id"] for message in messages if message["role"] == "tool"}
    calls = [call for message in messages for call in message.get("tool_calls") or ()]
    return [call for call in calls if call["id"] not in answered]


def awaits_model(messages: Sequence[Message]) -> bool:
    """Tell whether the model must speak next: the last message is the user's or a tool's."""
    return bool(messages) and messages[-1]["role"] in ("user", "tool")


def _content(event: StoredEvent) -> str:
    return str(event.payload["content"])
