"""Your implementation of the five event-log functions. Grade it with ``python -m grader``.

Write them in this order; each task of the grade needs only its own function and the two
that build a log:

1. ``create_event_log`` and ``append_event`` (``event_log.py``): task 1, and every later task;
2. ``get_events_for_session`` (``sessions.py``): task 2, and task 5 (it reads what a refused
   append left behind); once it is written, task 1 also uses it to look inside logs;
3. ``list_sessions`` (``sessions.py``): task 3;
4. ``replay_session`` (``replay.py``): task 4.

Use the standard library only: the grader runs your code in a separate interpreter that sees
nothing else (an ``import`` of anything else is reported as a load error).
"""

from __future__ import annotations

from exercises.event_log import append_event, create_event_log
from exercises.replay import replay_session
from exercises.sessions import get_events_for_session, list_sessions

__all__ = [
    "append_event",
    "create_event_log",
    "get_events_for_session",
    "list_sessions",
    "replay_session",
]
