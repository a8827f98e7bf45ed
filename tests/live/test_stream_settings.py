"""Heartbeats and the open-stream limit: the app served from a thread with short settings."""

from __future__ import annotations

import threading

import httpx

from sqlite_demo.live.event_stream import StreamSettings
from tests.live.conftest import StartInThread, client_of, new_session, say, stream_path
from tests.live.sse_reading import caught_up, frames, log_events, read_until


def test_a_quiet_stream_sends_heartbeat_comments_that_carry_no_event(
    start_in_thread: StartInThread,
) -> None:
    url = start_in_thread(StreamSettings(poll_seconds=0.01, heartbeat_seconds=0.05))
    with client_of(url) as http:
        session = new_session(http)
        with http.stream("GET", stream_path(session)) as response:
            received = read_until(
                frames(response), lambda got: sum("heartbeat" in f.comments for f in got) >= 2
            )

    heartbeats = [f for f in received if f.comments]
    assert all(f.id is None and f.data is None and f.event is None for f in heartbeats)
    assert heartbeats[0].comments == ["heartbeat"]


def test_streams_past_the_limit_get_503_until_one_closes(start_in_thread: StartInThread) -> None:
    url = start_in_thread(StreamSettings(poll_seconds=0.01, max_open_streams=2))
    with client_of(url) as http:
        session = new_session(http)
        # Each frames() iterator is kept: dropping it would close its connection.
        with client_of(url) as first, first.stream("GET", stream_path(session)) as one:
            first_frames = frames(one)
            read_until(first_frames, caught_up)
            with client_of(url) as second, second.stream("GET", stream_path(session)) as two:
                second_frames = frames(two)
                read_until(second_frames, caught_up)

                refused = http.get(stream_path(session))

                assert refused.status_code == 503
                assert refused.headers["retry-after"] == "1"
                error = refused.json()["error"]
                assert (error["code"], error["retryable"]) == ("too_many_streams", True)
                assert "2 streams are open" in error["message"]
        # Both clients went away; the server notices at its next write and frees the slots.
        assert _eventually_accepted(http, stream_path(session))


def test_a_write_in_this_process_wakes_its_streams_without_waiting_for_a_poll(
    start_in_thread: StartInThread,
) -> None:
    # An hour between polls: only the append signal can bring the turn's events.
    url = start_in_thread(StreamSettings(poll_seconds=3600.0))
    with client_of(url) as http:
        session = new_session(http)
        with client_of(url) as reader, reader.stream("GET", stream_path(session)) as response:
            stream = frames(response)
            read_until(stream, caught_up)
            say(http, session, "how many orders do I have?")
            received = read_until(stream, lambda got: len(log_events(got)) >= 4)

    assert [event["event_id"] for event in log_events(received)] == [1, 2, 3, 4]


def _eventually_accepted(http: httpx.Client, path: str) -> bool:
    for _ in range(300):  # a hang guard of a few seconds, not a speed requirement
        with http.stream("GET", path, params={"follow": "false"}) as response:
            if response.status_code == 200:
                return True
        threading.Event().wait(0.02)
    return False
