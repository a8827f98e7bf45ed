"""On PostgreSQL, a stream held by one server hears the appends made through another, with
no poll: LISTEN/NOTIFY wakes it at the writer's COMMIT.

The streaming server here polls once an hour, so only a notification can bring the event
in time; on SQLite, where nothing tells one process of another's appends, the poll is what
finds them (``test_stream_http.py`` covers that).
"""

from __future__ import annotations

from sqlite_demo.live.event_stream import StreamSettings
from sqlite_demo.server import ServerProcess
from tests.live.conftest import (
    StartInThread,
    client_of,
    event_ids,
    new_session,
    say,
    stream_path,
)
from tests.live.sse_reading import caught_up, frames, log_events, read_until
from tests.server_fixtures import StartServer

#: Longer than any test: a stream that relied on its poll would see nothing new in time.
NEVER = 3600.0  # and no heartbeat either: a stream that hears nothing times out


def test_an_append_through_one_server_reaches_a_stream_held_by_another_without_a_poll(
    postgres_url: str, start_server: StartServer, start_in_thread: StartInThread
) -> None:
    writer: ServerProcess = start_server(postgres_url)
    streamer = start_in_thread(
        StreamSettings(poll_seconds=NEVER, heartbeat_seconds=NEVER), postgres_url
    )
    with client_of(writer.url, writer.headers) as write, client_of(streamer) as read:
        session = new_session(write)
        say(write, session, "hello")  # before the stream: its backlog
        with read.stream("GET", stream_path(session)) as response:
            stream = frames(response)
            received = read_until(stream, caught_up)
            say(write, session, "how many orders do I have?")  # 4 events, through the other
            received += read_until(stream, lambda got: len(log_events(got)) >= 4)
            say(write, session, "hello")
            received += read_until(stream, lambda got: len(log_events(got)) >= 2)

        ids = [event["event_id"] for event in log_events(received)]
        assert ids == event_ids(write, session) == list(range(1, 9))


def test_many_streams_on_one_server_each_get_their_own_sessions_appends_from_another(
    postgres_url: str, start_server: StartServer, start_in_thread: StartInThread
) -> None:
    writer = start_server(postgres_url)
    streamer = start_in_thread(
        StreamSettings(poll_seconds=NEVER, heartbeat_seconds=NEVER), postgres_url
    )
    with client_of(writer.url, writer.headers) as write, client_of(streamer) as read:
        sessions = [new_session(write, f"s{n}") for n in range(3)]
        with (
            read.stream("GET", stream_path(sessions[0])) as first,
            read.stream("GET", stream_path(sessions[1])) as second,
        ):
            streams = [frames(first), frames(second)]
            for stream in streams:
                read_until(stream, caught_up)
            say(write, sessions[2], "hello")  # no stream follows it: wakes nobody's reads
            say(write, sessions[1], "hello")
            say(write, sessions[0], "hello")
            got = [read_until(stream, lambda got: len(log_events(got)) >= 2) for stream in streams]

        for session, received in zip(sessions[:2], got, strict=True):
            assert [e["event_id"] for e in log_events(received)] == event_ids(write, session)
