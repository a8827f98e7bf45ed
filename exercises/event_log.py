"""Creating the log and appending to it: the only way the log ever grows.

Work through the functions in order and run ``python -m grader`` after each one; it tells you
which property you broke and the smallest case that shows it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def create_event_log() -> Any:
    """Return an empty event log.

    The log is an immutable value: appending never changes it, it returns a new one. Its inner
    shape is your choice (a tuple of events, a frozen dataclass holding one, ...); the grader
    never looks inside, it only hands the log back to your other functions.

    Why immutable? Because an event log is a ledger. An old log value still describes exactly
    the past it described, which is what lets you rebuild the state at any earlier event.

    Example:
        >>> log = create_event_log()
        >>> list_sessions(log)
        ()
    """
    raise NotImplementedError("create_event_log is not implemented yet")


def append_event(
    log: Any, session_id: str, event_type: str, payload: Mapping[str, Any]
) -> tuple[Any, Any]:
    """Append one event and return ``(new_log, event)``; ``log`` itself must not change.

    Args:
        log: the log to extend.
        session_id: the conversation the event belongs to: a non-empty string.
        event_type: one of ``user_message``, ``assistant_message``, ``tool_call``, ``tool_result``.
        payload: the details. Required keys, all strings:
            user_message / assistant_message: ``content``;
            tool_call: ``call_id`` and ``name`` (both non-empty) and ``arguments`` (the JSON text
            the model produced, stored as given even when it is not valid JSON);
            tool_result: ``call_id`` (non-empty) and ``content``.
            Extra keys are kept. Store a copy: changing the caller's dict later must not leak in.

    Returns:
        The new log, and the event: any object with the attributes ``event_id`` (int),
        ``session_id`` (str), ``type`` (str) and ``payload`` (a mapping that readers cannot use
        to change the log). Event ids form one global sequence across all sessions: the first
        event gets 1, every later one the previous id + 1, with no gaps.

    Raises:
        ValueError: (or a subclass of it) and append nothing, for: an unknown event type; a
            session id that is not a non-empty string; a payload that is not a mapping, lacks a
            required key or holds a value of the wrong type; a tool_call whose call_id this
            session already used; a tool_result whose call_id this session never called, or
            whose call already has a result. Call ids are scoped to their session.

    Why: the event log is the single source of truth. Refusing bad input at the door is what
    keeps every later replay valid, and global ids are what "resume after event 4" counts on.

    Example:
        >>> log = create_event_log()
        >>> log, event = append_event(log, "sess_a", "user_message", {"content": "hello"})
        >>> event.event_id, event.session_id, event.type, dict(event.payload)
        (1, 'sess_a', 'user_message', {'content': 'hello'})
    """
    raise NotImplementedError("append_event is not implemented yet")
