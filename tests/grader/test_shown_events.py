"""A list of events in a report is cut like any value shown: a read of 2,049 events that
lost its last one is not printed whole, twice."""

from __future__ import annotations

from grader.engine import plan
from grader.engine.answers import EventView
from grader.engine.data import MAX_SHOWN


def test_a_long_list_of_events_is_cut_and_a_short_one_is_shown_whole() -> None:
    events = [EventView(number, "a", "user_message", {"content": "x"}) for number in range(1, 2050)]
    shown = plan._show_events(events)
    assert shown.startswith("[" + events[0].code() + ", ") and shown.endswith(" ...")
    assert len(shown) == MAX_SHOWN + len(" ...")
    assert plan._show_events(events[:2]) == f"[{events[0].code()}, {events[1].code()}]"
