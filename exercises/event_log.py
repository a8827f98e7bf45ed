"""Creating the log and appending to it: the only way the log ever grows.

Work through the functions in order and run ``python -m grader`` after each one; it tells you
which promise you broke and the smallest case that shows it.

What a payload holds. The top level is any mapping with string keys (a ``dict``, a
``types.MappingProxyType``, a ``Mapping`` class of your own). Its values are JSON data, the
way Python spells it: ``str``, ``int`` (of at most 4,300 digits), ``float`` (finite),
``bool``, ``None``, lists and tuples of JSON data, and dicts with string keys, 200 levels
deep at most, the payload itself counting as the first (the grader goes no deeper, so a
recursive copy is fine). Anything else (bytes, a set, an object, a key that is not a string,
NaN, an int of more than 4,300 digits, two keys of one mapping that JSON counts as one: a
surrogate pair and the character it encodes) is outside the contract: keep it, convert it or
refuse it, as you like; the grader never passes one. (4,300 digits is the most Python writes as text
or reads back from it, so a copy through JSON text keeps every int the contract allows.)

What "equal" means for a payload. The same keys, and for each key a value equal to the one
given, type for type: a ``str`` is a ``str`` with the same characters (counted as JSON counts
them: two surrogates that form a pair, ``"\\ud83d\\ude42"``, are the one character they
encode, ``"🙂"``; a lone surrogate stays itself), an ``int`` an ``int``
(``True`` is not ``1`` and ``1.0`` is not ``1``), a ``float`` a ``float`` with the same value
and sign (``-0.0`` is not ``0.0``), a ``bool`` a ``bool``; a list or a tuple may come back as
either, item by item equal; a mapping may come back as any mapping, key by key equal. So a
frozen copy (lists turned into tuples, dicts into read-only mappings) is equal to what was
given, and so is a copy parsed back from JSON text.
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
        session_id: the conversation the event belongs to: a non-empty ``str`` (a subclass of
            ``str`` too), compared exactly, character by character as Python counts them:
            case, spaces and the Unicode form all count, and a surrogate pair
            (``"\\ud83d\\ude42"``) is another id than the character it encodes (``"🙂"``).
        event_type: one of ``user_message``, ``assistant_message``, ``tool_call``, ``tool_result``
            (a subclass of ``str`` with one of these values too: a subclass of ``str`` is a
            ``str`` wherever a string goes).
        payload: the details (see the module docstring for what it may hold). Required keys,
            all strings:
            user_message / assistant_message: ``content``;
            tool_call: ``call_id`` (non-empty, compared as session ids are) and ``name``
            (non-empty) and ``arguments`` (the JSON text the model produced, stored as given
            even when it is not valid JSON);
            tool_result: ``call_id`` (non-empty) and ``content``.

    Returns:
        The new log, and the event: any object with the attributes ``event_id`` (an ``int``,
        not a ``bool``), ``session_id`` (a ``str``), ``type`` (a ``str``) and ``payload`` (a
        mapping).

    Promises:
        - It returns a pair: the new log, then the event.
        - The event has the attributes event_id (an int), session_id and type (strs) and
          payload (a mapping).
        - Event ids form one sequence shared by all sessions: the first event gets 1, every
          later one the previous id + 1, with no gaps, however long the log grows.
        - The event carries the session_id and type it was appended with, and a payload
          equal to the one given, type for type (1 is not True nor 1.0), extra keys included.
        - The log passed in never changes: after the append, appending to it or reading it
          gives the same answers as just before.
        - Logs are independent values: appending to an older log starts a branch (the event
          gets that log's next id, and the new log holds that log's events and the new one),
          and appending to one log never changes another.
        - The payload is copied: changing the caller's mapping afterwards, at any depth (a
          list inside a tuple, the dict behind a MappingProxyType), changes nothing in the log.
        - Nobody can change the log through a payload: changing what ``event.payload`` holds
          (a nested list, say) changes nothing that later reads or appends see.
        - An event is a fact: assigning to its attributes (where the class allows it) changes
          nothing in the log.
        - Any valid append is accepted, unusual ones too: empty or long content, any
          characters (control characters, line breaks, any script); arguments that are not
          valid JSON; extra payload keys; a call_id or name with spaces or any characters; a
          call_id another session used; a tool_result with other events between it and its
          call; any non-empty str as session id; any mapping as payload.
        - Bad input raises ValueError (or a subclass), never another exception. Bad input is:
          an unknown event type (of any type, a list included); a session id that is not a
          non-empty str; a payload that is not a mapping; a missing required key; a required
          value that is not a str; an empty call_id or name; a tool_call whose call_id this
          session already used; a tool_result whose call_id this session never called; a
          tool_result for a call that already has a result. Call ids are compared exactly
          ("call_1" is not "Call_1") and scoped to their session.
        - A refused append leaves no trace: no log changes, no id is used up, and no call id
          becomes used or answered.

    Why: the event log is the single source of truth. Refusing bad input at the door is what
    keeps every later replay valid, and global ids are what "resume after event 4" counts on.

    Example:
        >>> log = create_event_log()
        >>> log, event = append_event(log, "sess_a", "user_message", {"content": "hello"})
        >>> event.event_id, event.session_id, event.type, dict(event.payload)
        (1, 'sess_a', 'user_message', {'content': 'hello'})
    """
    raise NotImplementedError("append_event is not implemented yet")
