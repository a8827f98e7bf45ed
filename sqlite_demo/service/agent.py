"""One turn of the agent: commit every step before replying, never act on a stale view.

The loop is the ordinary agent loop (read the session, ask the model, run the tools it asks
for, repeat until it replies), with three rules that keep it correct when the process is
killed mid-turn, or when several server processes serve the same sessions from one file:

* **Write before reply.** Each step is appended, in its own committed transaction, before
  the next one starts; the reply is returned only after the ``assistant_message`` holding it
  is committed. A reply the user saw is always in the log.
* **Decide on a version, append on that version.** Every append states the session's last
  event id that the decision was based on (``expected_version``); the store checks it inside
  the write transaction. If another process moved the session meanwhile, the append is
  refused (:class:`~eventlog.VersionConflictError`), and the agent reads what is new and
  decides again. So two processes can never both answer the same question, or answer a
  call that the other one already answered.
* **Finish, do not forget.** A session whose last turn was cut short (a user message without
  a reply, a tool call without a result) is finished first, whoever cut it short, and only
  then does the new message start its own turn.

Idempotency: a request may carry a key, stored with its user message. A repeat of the key
(a retry, or the same request sent to two servers) gets that turn's events and assistant
reply, after finishing the turn if it was cut short, and never appends the message twice.

What a turn costs does not grow with the session: the agent keeps each session's folded
conversation and folds in only the events it has not seen (:class:`SessionView`), the
store's checks are index lookups, and the scripted model reads back from the end.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from eventlog import (
    CORRECTION_TYPES,
    EMPTY_HISTORY,
    Conversation,
    ConversationView,
    History,
    StoredEvent,
    VersionConflictError,
    apply_to_history,
)
from sqlite_demo.service.model import Model, Reply, ToolCall, run_tool, scripted_model
from sqlite_demo.store.contract import EventStore

#: Model and tool steps one turn may take before the agent gives up on a looping model.
MAX_STEPS_PER_TURN: Final = 8
#: Appends refused because the session moved on, before the agent gives up with a 503.
MAX_CONFLICTS_PER_TURN: Final = 64
#: Sessions whose folded view one agent keeps; past this, it starts again from none.
MAX_CACHED_SESSIONS: Final = 1024
#: Events read per query while looking for the reply that ends a turn.
_TURN_PAGE: Final = 16

ToolRunner = Callable[[str, str], str]
Call = dict[str, Any]


class SessionBusyError(RuntimeError):
    """Other writers kept changing the session, so this turn could not get a step in."""


@dataclass(frozen=True, slots=True)
class TurnResult:
    """What one request on a session produced.

    Attributes:
        reply: the assistant's answer that ends the turn.
        events: the turn's events, from the user's message to the assistant's reply.
        recovered: events this request appended to finish an earlier, interrupted turn.
        repeated: True when the idempotency key matched a message stored before this request
            looked, so ``events`` are that earlier request's turn and its message was not
            stored again.
    """

    reply: str
    events: tuple[StoredEvent, ...]
    recovered: tuple[StoredEvent, ...] = ()
    repeated: bool = False


@dataclass(frozen=True, slots=True)
class SessionView:
    """One session as far as it was read: the conversation folded up to ``version``.

    Attributes:
        version: the last event id folded in (0: none); what an append based on it expects.
        history: the items in force and their chat messages (see :mod:`eventlog.history`):
            a session an agent framework wrote to may hold corrections.
        open_calls: tool calls without a result yet, in the order they were made.
    """

    version: int = 0
    history: History = EMPTY_HISTORY
    open_calls: tuple[Call, ...] = ()

    def folding(self, events: Sequence[StoredEvent]) -> SessionView:
        """Return this view with ``events`` (the session's next ones, in order) folded in."""
        view = self
        for event in events:
            history = apply_to_history(view.history, event)
            newest = history.conversation[0] if history.conversation is not None else {}
            open_calls = view.open_calls
            if event.type == "tool_call":
                open_calls = (*open_calls, newest["tool_calls"][-1])
            elif event.type == "tool_result":
                answered = newest["tool_call_id"]
                open_calls = tuple(call for call in open_calls if call["id"] != answered)
            elif event.type in CORRECTION_TYPES:
                # Rare, and it can reopen a call: count the open calls again from the chat.
                open_calls = _open_calls_in(ConversationView(history.conversation))
            view = replace(view, version=event.event_id, history=history, open_calls=open_calls)
        return view

    @property
    def conversation(self) -> Conversation:
        """The chat messages of the items in force, newest first (see :mod:`eventlog.fold`)."""
        return self.history.conversation

    @property
    def messages(self) -> ConversationView:
        """The conversation as the model reads it: Chat Completions messages, oldest first."""
        return ConversationView(self.conversation)

    @property
    def awaits_model(self) -> bool:
        """Whether the model must speak next: the last message is the user's or a tool's."""
        return self.conversation is not None and self.conversation[0]["role"] in ("user", "tool")


class Agent:
    """Runs turns against any store of the contract (:class:`EventStore`); thread-safe.

    No lock is held while the model or a tool runs: correctness comes from the expected
    version each append states, so turns on different sessions, and even two turns on the
    same session in two processes, run side by side.
    """

    def __init__(
        self,
        store: EventStore,
        model: Model = scripted_model,
        tool_runner: ToolRunner = run_tool,
    ) -> None:
        self._store = store
        self._model = model
        self._run_tool = tool_runner
        # session id -> its latest view. Views are immutable and each assignment is atomic,
        # so threads share the dict without a lock; a view that is stale is only folded
        # forward, never trusted, because every append re-checks the version in the database.
        self._views: dict[str, SessionView] = {}

    def handle_message(
        self, session_id: str, content: str, idempotency_key: str | None = None
    ) -> TurnResult:
        """Take one user message through a whole turn and return the committed reply.

        Args:
            session_id: an existing session.
            content: what the user wrote.
            idempotency_key: optional; a repeat of an earlier key answers with that turn.

        Returns:
            The :class:`TurnResult`; every event in it is already committed.

        Raises:
            UnknownSessionError: no such session; nothing is written.
            IdempotencyConflictError: the key was used before for other content.
            SessionBusyError: the session kept changing under this request.
        """
        recovered: list[StoredEvent] = []
        for _ in range(MAX_CONFLICTS_PER_TURN):
            view = self._settle(session_id, recovered)
            try:
                user_event = self._store.append_event(
                    session_id,
                    "user_message",
                    {"content": content},
                    idempotency_key=idempotency_key,
                    expected_version=view.version,
                )
            except VersionConflictError:
                continue  # someone else spoke first: finish their turn, then try again
            self._settle(session_id, [])
            events = self._turn_starting_at(user_event)
            repeated = user_event.event_id <= view.version
            return TurnResult(_content(events[-1]), events, tuple(recovered), repeated)
        raise SessionBusyError(f"session {session_id!r} kept changing; retry the request")

    def _settle(self, session_id: str, appended: list[StoredEvent]) -> SessionView:
        """Advance the session until it ends in a reply (or is empty); return that view.

        Each step is decided on the freshest view and appended with its version; a step
        refused because the session moved on is decided again on the new view. The events
        this call appended are added to ``appended``.
        """
        conflicts = 0
        steps = 0
        while True:
            view = self._fresh_view(session_id)
            if not view.open_calls and not view.awaits_model:
                return view
            if steps == MAX_STEPS_PER_TURN:
                raise RuntimeError(f"the model took more than {MAX_STEPS_PER_TURN} steps")
            event_type, payload = self._next_step(view)
            try:
                appended.append(
                    self._store.append_event(
                        session_id, event_type, payload, expected_version=view.version
                    )
                )
                steps += 1
            except VersionConflictError:
                conflicts += 1
                if conflicts == MAX_CONFLICTS_PER_TURN:
                    raise SessionBusyError(f"session {session_id!r} kept changing") from None

    def _next_step(self, view: SessionView) -> tuple[str, dict[str, str]]:
        """Decide what comes next: a result for the oldest open call, or the model's step."""
        if view.open_calls:
            function = view.open_calls[0]["function"]
            result = self._run_tool(function["name"], function["arguments"])
            return "tool_result", {"call_id": view.open_calls[0]["id"], "content": result}
        step = self._model(view.messages)
        if isinstance(step, Reply):
            return "assistant_message", {"content": step.content}
        return "tool_call", _call_payload(step)

    def _fresh_view(self, session_id: str) -> SessionView:
        """Return the session's view with every committed event folded in.

        The first time, this checks the session exists and folds its whole history; after
        that, one indexed query fetches only the events after the cached version.
        """
        view = self._views.get(session_id)
        if view is None:
            self._store.get_session(session_id)  # raises UnknownSessionError
            view = SessionView()
        new_events = self._store.get_events_for_session(session_id, after_event_id=view.version)
        if new_events or session_id not in self._views:
            view = view.folding(new_events)
            if len(self._views) >= MAX_CACHED_SESSIONS:
                self._views.clear()  # the simplest bound; a session is refolded on next use
            self._views[session_id] = view
        return view

    def _turn_starting_at(self, user_event: StoredEvent) -> tuple[StoredEvent, ...]:
        """Return the turn that ``user_event`` starts: it and everything up to its reply."""
        turn: list[StoredEvent] = []
        after = user_event.event_id - 1
        while True:
            page = self._store.get_events_for_session(
                user_event.session_id, after_event_id=after, limit=_TURN_PAGE
            )
            if not page:
                raise RuntimeError(f"the turn of event {user_event.event_id} has no reply")
            for event in page:
                turn.append(event)
                if event.type == "assistant_message":
                    return tuple(turn)
            after = page[-1].event_id


def _open_calls_in(messages: ConversationView) -> tuple[Call, ...]:
    """Return the calls of ``messages`` that no tool message answers, in the order made."""
    answered = {message["tool_call_id"] for message in messages if message["role"] == "tool"}
    calls = (call for message in messages for call in message.get("tool_calls") or ())
    return tuple(call for call in calls if call["id"] not in answered)


def _call_payload(step: ToolCall) -> dict[str, str]:
    return {"call_id": step.call_id, "name": step.name, "arguments": step.arguments}


def _content(event: StoredEvent) -> str:
    return str(event.payload["content"])
