"""One class per event type, each with ``__slots__``, each knowing its own message.

Polymorphism instead of dispatch: ``UserMessage``, ``AssistantMessage``, ``ToolCall`` and
``ToolResult`` declare their required keys and build their own chat message; replay only
asks each event for its message and whether it joins a run of calls. Events refuse
assignment, and payloads are ``FrozenMap``s: a small read-only ``Mapping`` of our own,
nested all the way down (lists become tuples).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar


class FrozenMap(Mapping):  # type: ignore[type-arg]
    """A read-only mapping over a private dict that nobody else holds."""

    __slots__ = ("_items",)

    def __init__(self, items: dict[Any, Any]) -> None:
        object.__setattr__(self, "_items", items)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a FrozenMap cannot change")

    def __getitem__(self, key: Any) -> Any:
        return self._items[key]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __repr__(self) -> str:
        return f"FrozenMap({self._items!r})"


def freeze(value: Any) -> Any:
    if isinstance(value, Mapping):
        return FrozenMap({key: freeze(item) for key, item in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(freeze(item) for item in value)
    return value


class BaseEvent:
    __slots__ = ("event_id", "session_id", "type", "payload")
    required: ClassVar[tuple[str, ...]] = ()
    non_empty: ClassVar[tuple[str, ...]] = ()
    joins_run: ClassVar[bool] = False

    def __init__(self, event_id: int, session_id: str, type_name: str, payload: FrozenMap):
        for name, value in zip(BaseEvent.__slots__, (event_id, session_id, type_name, payload)):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"an event is a fact: {name} cannot be assigned")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"an event is a fact: {name} cannot be deleted")

    @classmethod
    def check(cls, payload: Mapping[str, Any]) -> None:
        for key in cls.required:
            value = payload.get(key)
            if not isinstance(value, str):
                raise ValueError(f"{cls.__name__} needs a str {key!r}")
            if key in cls.non_empty and not value:
                raise ValueError(f"{cls.__name__}: {key!r} must not be empty")

    def message(self) -> dict[str, Any]:
        raise NotImplementedError


class UserMessage(BaseEvent):
    __slots__ = ()
    required = ("content",)

    def message(self) -> dict[str, Any]:
        return {"role": "user", "content": self.payload["content"]}


class AssistantMessage(BaseEvent):
    __slots__ = ()
    required = ("content",)

    def message(self) -> dict[str, Any]:
        return {"role": "assistant", "content": self.payload["content"]}


class ToolCall(BaseEvent):
    __slots__ = ()
    required = ("call_id", "name", "arguments")
    non_empty = ("call_id", "name")
    joins_run = True

    def call(self) -> dict[str, Any]:
        p = self.payload
        return {"id": p["call_id"], "type": "function",
                "function": {"name": p["name"], "arguments": p["arguments"]}}

    def message(self) -> dict[str, Any]:
        return {"role": "assistant", "content": None, "tool_calls": [self.call()]}


class ToolResult(BaseEvent):
    __slots__ = ()
    required = ("call_id", "content")
    non_empty = ("call_id",)

    def message(self) -> dict[str, Any]:
        p = self.payload
        return {"role": "tool", "tool_call_id": p["call_id"], "content": p["content"]}


CLASSES: tuple[tuple[str, type[BaseEvent]], ...] = (
    ("user_message", UserMessage),
    ("assistant_message", AssistantMessage),
    ("tool_call", ToolCall),
    ("tool_result", ToolResult),
)


class EventLog:
    __slots__ = ("events",)

    def __init__(self, events: tuple[BaseEvent, ...] = ()) -> None:
        object.__setattr__(self, "events", events)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("an event log is a value")


def create_event_log() -> EventLog:
    return EventLog()


def class_for(event_type: Any) -> type[BaseEvent]:
    if isinstance(event_type, str):
        for name, cls in CLASSES:
            if event_type == name:
                return cls
    raise ValueError(f"unknown event type {event_type!r}")


def call_history(log: EventLog, session_id: str, call_id: str) -> list[type[BaseEvent]]:
    return [type(e) for e in log.events
            if isinstance(e, (ToolCall, ToolResult)) and e.session_id == session_id
            and e.payload["call_id"] == call_id]


def append_event(log: EventLog, session_id: str, event_type: str, payload: Mapping[str, Any]
                 ) -> tuple[EventLog, BaseEvent]:
    cls = class_for(event_type)
    if not isinstance(session_id, str) or not session_id:
        raise ValueError("session_id must be a non-empty str")
    if not isinstance(payload, Mapping):
        raise ValueError("payload must be a mapping")
    cls.check(payload)
    if cls in (ToolCall, ToolResult):
        history = call_history(log, session_id, payload["call_id"])
        if cls is ToolCall and history:
            raise ValueError("this call_id is already used in this session")
        if cls is ToolResult and ToolCall not in history:
            raise ValueError("this call_id was never called in this session")
        if cls is ToolResult and ToolResult in history:
            raise ValueError("this call already has a result")
    event = cls(len(log.events) + 1, session_id, event_type, freeze(payload))
    return EventLog(log.events + (event,)), event


def get_events_for_session(log: EventLog, session_id: str, after_event_id: int = 0
                           ) -> tuple[BaseEvent, ...]:
    return tuple(e for e in log.events if e.session_id == session_id and e.event_id > after_event_id)


def list_sessions(log: EventLog) -> tuple[str, ...]:
    return tuple(dict.fromkeys(e.session_id for e in log.events))


def replay_session(log: EventLog, session_id: str) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
    previous: BaseEvent | None = None
    for event in get_events_for_session(log, session_id):
        if isinstance(event, ToolCall) and previous is not None and previous.joins_run:
            messages[-1]["tool_calls"].append(event.call())
        else:
            messages.append(event.message())
        previous = event
    return messages
