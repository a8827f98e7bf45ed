"""The published shapes of the HTTP API: request bodies with their limits, and responses.

These models are what ``/openapi.json`` shows. Request bodies are validated against them;
responses are built directly as JSON for speed, and the test suite (schemathesis) checks
that every response the service sends matches the shape documented here.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from eventlog import InvalidPayloadError, check_text
from sqlite_demo.store.sqlite.store import MAX_SQLITE_INTEGER, Session

#: The largest message content, in characters (Unicode code points, as JSON Schema counts).
MAX_CONTENT_CHARS: Final = 64 * 1024
MAX_TITLE_CHARS: Final = 200
MAX_IDEMPOTENCY_KEY_CHARS: Final = 200
#: A bigger ``after`` than SQLite's largest integer cannot even be compared with an event id.
MAX_EVENT_ID: Final = MAX_SQLITE_INTEGER

#: Every type the store keeps (eventlog.STORE_EVENT_TYPES): the chapter's four, and what a
#: session written through an agent framework's adapter may hold besides.
EventType = Literal[
    "user_message",
    "assistant_message",
    "tool_call",
    "tool_result",
    "agent_item",
    "item_removed",
    "session_cleared",
]

#: OpenAPI links from a new session to the operations on it: the stateful tests follow them.
SESSION_LINKS: Final = {
    name: {"operationId": name, "parameters": {"session_id": "$response.body#/id"}}
    for name in ("post_message", "get_messages", "get_events", "replay")
}


def _storable(text: str) -> str:
    # The store's own text rule, applied before anything runs: a lone surrogate ("\ud800" in
    # the JSON) is a valid JSON string but not text SQLite can keep. Raised as a ValueError,
    # pydantic reports it as a 422 like any other invalid field.
    return check_text(text, "the text", InvalidPayloadError, non_empty=False)


StorableText = Annotated[str, AfterValidator(_storable)]


class NewSession(BaseModel):
    """Body of ``POST /sessions``; unknown fields are refused so typos do not pass silently."""

    model_config = ConfigDict(extra="forbid", strict=True)
    title: StorableText = Field(min_length=1, max_length=MAX_TITLE_CHARS)


class NewMessage(BaseModel):
    """Body of ``POST /sessions/{id}/messages``; content over its limit is a 422, as any field."""

    model_config = ConfigDict(extra="forbid", strict=True)
    content: StorableText = Field(min_length=1, max_length=MAX_CONTENT_CHARS)


class SessionOut(BaseModel):
    """A session: its id, its title, and when it was created (unix ms)."""

    id: str
    title: str
    created_at: int

    @classmethod
    def of(cls, session: Session) -> SessionOut:
        """Return ``session`` as the API shows it."""
        return cls(id=session.id, title=session.title, created_at=session.created_at)


class EventOut(BaseModel):
    """One event of the log, its payload a JSON object."""

    event_id: int
    session_id: str
    type: EventType
    payload: dict[str, Any]
    created_at: int


class TurnOut(BaseModel):
    """One turn: the reply, the turn's events, and what was done to finish an earlier turn."""

    reply: str
    events: list[EventOut]
    recovered_events: list[EventOut]
    repeated: bool


class MessageOut(BaseModel):
    """A row of the ``messages`` projection."""

    event_id: int
    role: Literal["user", "assistant"]
    content: str


class FunctionCall(BaseModel):
    """The function a tool call names, with its arguments as the model wrote them."""

    name: str
    arguments: str


class ToolCallOut(BaseModel):
    """One tool call of an assistant message."""

    id: str
    type: Literal["function"]
    function: FunctionCall


class UserChatMessage(BaseModel):
    role: Literal["user"]
    content: str


class AssistantChatMessage(BaseModel):
    role: Literal["assistant"]
    content: str | None
    tool_calls: list[ToolCallOut] = Field(default_factory=list)


class ToolChatMessage(BaseModel):
    role: Literal["tool"]
    tool_call_id: str
    content: str


ChatMessage = Annotated[
    UserChatMessage | AssistantChatMessage | ToolChatMessage, Field(discriminator="role")
]


class Health(BaseModel):
    """The service is up and its database can be written (busy: another writer has it now)."""

    status: Literal["ok"]
    database: Literal["writable", "busy"]
