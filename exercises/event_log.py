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
        log: the log to extend: the newest one, or any older one.
        session_id: the conversation the event belongs to: a non-empty string.
        event_type: one of ``user_message``, ``assistant_message``, ``tool_call``, ``tool_result``.
        payload: the details, any mapping (a dict, a ``types.MappingProxyType``, ...).
            Required keys, all strings:
            user_message / assistant_message: ``content``;
            tool_call: ``call_id`` and ``name`` (both non-empty) and ``arguments`` (the JSON text
            the model produced, stored as given even when it is not valid JSON);
            tool_result: ``call_id`` (non-empty) and ``content``.

    Returns:
        The new log, and the event: any object with the attributes ``event_id`` (int),
        ``session_id`` (str), ``type`` (str) and ``payload`` (a mapping).

    Promises:
        - It returns a pair: the new log, then the event.
        - The event has the attributes event_id, session_id, type and payload (a mapping).
        - Event ids form one sequence shared by all sessions: the first event gets 1, every
          later one the previous id + 1, with no gaps.
        - The event carries the session_id and type it was appended with, and a payload
          equal to the one given, extra keys included.
        - The log passed in never changes: reading it afterwards gives the same answers.
        - Appending to an older log starts a branch: the event gets that log's next id, and
          the new log holds that log's events and the new one, whatever was appended since.
        - The payload is copied: changing the caller's dict afterwards, nested values
          included, changes nothing in the log.
        - Nobody can change the log through a payload: changing what ``event.payload`` holds
          (a nested list, say) changes nothing that later reads return.
        - An event is a fact: assigning to its attributes (where the class allows it) changes
          nothing in the log.
        - Any valid append is accepted, unusual ones too: empty content; arguments that are
          not valid JSON; extra payload keys; a call_id another session used; a tool_result
          with other events between it and its call; any non-empty str as session id (spaces,
          non-ASCII); any str as content; any mapping as payload.
        - Bad input raises ValueError (or a subclass) and appends nothing: no log changes and
          no id is used up. Bad input is: an unknown event type; a session id that is not a
          non-empty str; a payload that is not a mapping; a missing required key; a required
          value that is not a str; an empty call_id or name; a tool_call whose call_id this
          session already used; a tool_result whose call_id this session never called; a
          tool_result for a call that already has a result. Call ids are scoped to their
          session.

    Why: the event log is the single source of truth. Refusing bad input at the door is what
    keeps every later replay valid, and global ids are what "resume after event 4" counts on.

    Example:
        >>> log = create_event_log()
        >>> log, event = append_event(log, "sess_a", "user_message", {"content": "hello"})
        >>> event.event_id, event.session_id, event.type, dict(event.payload)
        (1, 'sess_a', 'user_message', {'content': 'hello'})
    """
    raise NotImplementedError("append_event is not implemented yet")
