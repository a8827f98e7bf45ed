"""Reading the log: one session's events, resuming after an id, and the list of sessions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def get_events_for_session(log: Any, session_id: str, after_event_id: int = 0) -> Sequence[Any]:
    """Return the session's events whose ``event_id`` is greater than ``after_event_id``.

    ``after_event_id`` is the resume read: a client whose connection dropped after event 4
    asks for everything after 4 and misses nothing.

    Promises:
        - Only this session's events, oldest first, each as append_event returned it: other
          sessions' events never leak in (session ids are compared exactly: "a" is not "A",
          not "ab", not "a " and not the same letters written in another Unicode form).
        - Exactly the events whose event_id is greater than after_event_id, whatever
          after_event_id is (0, negative, an id of another session, larger than any id).
        - The sequence returned is the caller's own (a tuple is simplest): changing it, or
          the payloads of the events in it, changes nothing in the log, also when it is empty.

    Example:
        >>> log = create_event_log()
        >>> log, _ = append_event(log, "a", "user_message", {"content": "hi"})
        >>> log, _ = append_event(log, "b", "user_message", {"content": "yo"})
        >>> log, _ = append_event(log, "a", "assistant_message", {"content": "hello"})
        >>> [e.event_id for e in get_events_for_session(log, "a")]
        [1, 3]
        >>> [e.event_id for e in get_events_for_session(log, "a", after_event_id=1)]
        [3]
    """
    raise NotImplementedError("get_events_for_session is not implemented yet")


def list_sessions(log: Any) -> Sequence[str]:
    """Return the ids of the sessions that have events.

    Promises:
        - Every session that has events, each once, in the order of its first event (none
          for an empty log; a session whose only append was refused has no events).
        - The sequence returned is the caller's own: changing it changes nothing the next
          call returns, also when it is empty.

    Example:
        >>> log = create_event_log()
        >>> for session in ["b", "a", "b"]:
        ...     log, _ = append_event(log, session, "user_message", {"content": "."})
        >>> list(list_sessions(log))
        ['b', 'a']
    """
    raise NotImplementedError("list_sessions is not implemented yet")
