"""The pure core (``solutions``): what appending and replaying cost as the log grows.

The reference log is a tuple, and appending builds a new tuple one event longer, so the
old log stays valid for whoever holds it. That copy makes one append O(n) in the length of
the log, and filling a log of n events O(n^2): the price of immutability without a
persistent data structure, paid knowingly because the core is for learning, not for
millions of events. Replaying a session scans the whole log for its events, so it is O(n)
in the log too, even for a short session; SQLite's index is what removes that scan.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from benchmarks.measure import median_time
from benchmarks.workload import chat_messages
from solutions import EventLog, append_event, create_event_log, replay_session

#: Sessions in the logs below hold this many events, as in the replay-scaling databases.
EVENTS_PER_SESSION = 100

Progress = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class CorePoint:
    """Costs at one log size, each a median in seconds.

    Attributes:
        log_events: events in the log.
        append_seconds: appending one event to the log.
        replay_session_seconds: replaying one 100-event session out of the log.
        replay_whole_seconds: replaying a session that holds every event of the log.
    """

    log_events: int
    append_seconds: float
    replay_session_seconds: float
    replay_whole_seconds: float


def run_pure_core(sizes: Sequence[int], repeats: int, progress: Progress) -> list[CorePoint]:
    """Measure the pure core at each log size (each a multiple of 100 is best)."""
    points = [_measure(size, repeats) for size in sizes]
    for point in points:
        append_us, replay_ms = point.append_seconds * 1e6, point.replay_session_seconds * 1e3
        progress(
            f"pure core: {point.log_events:,} events: append {append_us:.1f} us,"
            f" replay a session {replay_ms:.2f} ms"
        )
    return points


def _measure(size: int, repeats: int) -> CorePoint:
    sessions = max(1, size // EVENTS_PER_SESSION)
    many_sessions = build_log(size, sessions)
    one_session = build_log(size, sessions=1)
    one_short = _session_name(sessions // 2)
    return CorePoint(
        log_events=size,
        append_seconds=median_time(
            lambda: append_event(many_sessions, "extra", "user_message", {"content": "hi"}), repeats
        ),
        replay_session_seconds=median_time(
            lambda: replay_session(many_sessions, one_short), repeats
        ),
        replay_whole_seconds=median_time(
            lambda: replay_session(one_session, _session_name(0)), repeats
        ),
    )


def build_log(size: int, sessions: int) -> EventLog:
    """Append ``size`` chat events round-robin over ``sessions`` sessions, through the API."""
    log = create_event_log()
    for number, message in enumerate(chat_messages(size)):
        session = _session_name(number % sessions)
        log, _ = append_event(log, session, message.event_type, {"content": message.content})
    return log


def _session_name(index: int) -> str:
    return f"session-{index}"
