"""``GET /sessions/{id}/events/stream`` over real HTTP, against real server processes.

Each test reads the stream with a streaming client (httpx) and checks the one property that
matters for a client that reconnects: the events it receives, across every connection, are
exactly the session's events in the log, each once, in order.
"""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx

from sqlite_demo import open_store
from sqlite_demo.server import ServerProcess
from tests.live.conftest import (
    READ_TIMEOUT_SECONDS,
    client_of,
    event_ids,
    new_session,
    say,
    stream_path,
)
from tests.live.sse_reading import Frame, caught_up, frames, log_events, read_until
from tests.server_fixtures import StartServer


def ids_of(received: list[Frame]) -> list[int]:
    return [event["event_id"] for event in log_events(received)]


def has_ids(count: int) -> Callable[[list[Frame]], bool]:
    """A condition for :func:`read_until`: at least ``count`` log events were read."""
    return lambda received: len(ids_of(received)) >= count


def drain(stream: Iterator[Frame], into: list[Frame]) -> None:
    """Read until the stream breaks (the server was killed), keeping every whole frame."""
    with contextlib.suppress(httpx.TransportError):
        for frame in stream:
            into.append(frame)


def test_the_backlog_comes_as_the_log_has_it_each_event_under_its_id(
    http: httpx.Client,
) -> None:
    session = new_session(http)
    say(http, session, "hello")
    say(http, session, "how many orders do I have?")

    response = http.get(stream_path(session), params={"follow": "false"})

    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    assert response.headers["cache-control"] == "no-cache"
    received = list(frames(response))
    assert [frame.id for frame in received if frame.is_log_event] == ["1", "2", "3", "4", "5", "6"]
    assert log_events(received) == http.get(f"/sessions/{session}/events").json()
    assert received[0].retry == "1000"
    assert received[-1].event == "caught-up"
    assert received[-1].json == {"after": 0, "last_event_id": 6}


def test_last_event_id_resumes_exactly_after_that_event_whichever_it_is(
    http: httpx.Client,
) -> None:
    session = new_session(http)
    other = new_session(http, "other")
    say(http, session, "how many orders do I have?")
    say(http, other, "hello")  # ids 5 and 6 belong to the other session
    say(http, session, "hello")
    all_ids = event_ids(http, session)

    for last in range(0, max(all_ids) + 2):
        headers = {"Last-Event-ID": str(last)}
        response = http.get(stream_path(session), params={"follow": "false"}, headers=headers)
        resumed = ids_of(list(frames(response)))
        assert resumed == [i for i in all_ids if i > last], f"after Last-Event-ID {last}"


def test_last_event_id_wins_over_after_as_when_an_event_source_reconnects(
    http: httpx.Client,
) -> None:
    session = new_session(http)
    say(http, session, "how many orders do I have?")

    response = http.get(
        stream_path(session), params={"after": 1, "follow": "false"}, headers={"Last-Event-ID": "3"}
    )
    only_after = http.get(stream_path(session), params={"after": 1, "follow": "false"})

    assert ids_of(list(frames(response))) == [4]
    assert ids_of(list(frames(only_after))) == [2, 3, 4]


def test_refusals_are_json_errors_sent_before_any_stream(http: httpx.Client) -> None:
    session = new_session(http)
    cases = [
        (stream_path("sess_nobody"), {}, {}, 404, "unknown_session"),
        (stream_path(session), {}, {"Last-Event-ID": "x1"}, 422, "invalid_request"),
        (stream_path(session), {}, {"Last-Event-ID": "-1"}, 422, "invalid_request"),
        (stream_path(session), {}, {"Last-Event-ID": "9" * 20}, 422, "invalid_request"),
        (stream_path(session), {"after": "-1"}, {}, 422, "invalid_request"),
        (stream_path(session), {"follow": "maybe"}, {}, 422, "invalid_request"),
    ]
    for path, params, headers, status, code in cases:
        response = http.get(path, params=params, headers=headers)
        assert response.status_code == status, (path, params, headers, response.text)
        assert response.headers["content-type"] == "application/json"
        assert response.json()["error"]["code"] == code


def test_stored_text_cannot_forge_a_frame_of_its_own(http: httpx.Client) -> None:
    session = new_session(http)
    forged = "hi\n\nid: 999\ndata: {}\n\nevent: closing\r\ndata: x\r\rid: 1000"
    say(http, session, forged)

    received = list(frames(http.get(stream_path(session), params={"follow": "false"})))

    assert ids_of(received) == [1, 2]
    assert [frame.event for frame in received] == [None, None, None, "caught-up"]
    assert log_events(received)[0]["payload"] == {"content": forged}


def test_new_events_arrive_live_once_each_after_the_caught_up_frame(
    server: ServerProcess, http: httpx.Client
) -> None:
    session = new_session(http)
    say(http, session, "hello")

    with (
        client_of(server.url, server.headers) as reader,
        reader.stream("GET", stream_path(session)) as response,
    ):
        stream = frames(response)
        received = read_until(stream, caught_up)
        say(http, session, "how many orders do I have?")
        say(http, session, "hello")
        received += read_until(stream, has_ids(8 - len(ids_of(received))))

    assert ids_of(received) == event_ids(http, session) == list(range(1, 9))
    caught_up_at = next(i for i, f in enumerate(received) if f.event == "caught-up")
    assert ids_of(received[:caught_up_at]) == [1, 2]


def test_concurrent_streams_each_get_exactly_their_own_sessions_events(
    server: ServerProcess, http: httpx.Client
) -> None:
    orders, docs = new_session(http, "orders"), new_session(http, "docs")
    with contextlib.ExitStack() as stack:
        streams = {}
        for name, session in [("orders 1", orders), ("orders 2", orders), ("docs", docs)]:
            reader = stack.enter_context(client_of(server.url, server.headers))
            response = stack.enter_context(reader.stream("GET", stream_path(session)))
            streams[name] = frames(response)
            read_until(streams[name], caught_up)
        say(http, orders, "hello")
        say(http, docs, "summarise the document")
        say(http, orders, "how many orders do I have?")
        say(http, docs, "hello")
        got = {
            name: read_until(stream, has_ids(6 if "orders" in name else 4))
            for name, stream in streams.items()
        }

    assert ids_of(got["orders 1"]) == ids_of(got["orders 2"]) == event_ids(http, orders)
    assert ids_of(got["docs"]) == event_ids(http, docs)
    assert {e["session_id"] for e in log_events(got["docs"])} == {docs}
    assert {e["session_id"] for e in log_events(got["orders 1"])} == {orders}


def test_a_slow_consumer_misses_nothing_and_holds_up_neither_writer_nor_stream(
    server: ServerProcess, http: httpx.Client
) -> None:
    session = new_session(http)
    # The slow client reads nothing while 4.8 MB are appended: more than the kernel buffers
    # (4 MB for the server's send side here, 64 KiB on ours), so the server's writes to it
    # block. Another process appends them (fast); the server then takes a turn while blocked.
    small_buffer = [(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)]
    slow_transport = httpx.HTTPTransport(socket_options=small_buffer)
    with (
        httpx.Client(
            base_url=server.url,
            transport=slow_transport,
            timeout=READ_TIMEOUT_SECONDS,
            headers=server.headers,
        ) as slow,
        client_of(server.url, server.headers) as fast,
        slow.stream("GET", stream_path(session)) as slow_response,
        fast.stream("GET", stream_path(session)) as fast_response,
    ):
        slow_stream, fast_stream = frames(slow_response), frames(fast_response)
        read_until(slow_stream, caught_up)
        read_until(fast_stream, caught_up)
        with open_store(server.db) as other_writer:
            for turn in range(40):
                other_writer.append_event(
                    session, "user_message", {"content": f"{turn} " + "x" * 60_000}
                )
                other_writer.append_event(session, "assistant_message", {"content": "y" * 60_000})
        fast_got = read_until(fast_stream, has_ids(80))
        say(http, session, "how many orders do I have?")
        fast_got += read_until(fast_stream, has_ids(4))
        slow_got = read_until(slow_stream, has_ids(84))

    expected = event_ids(http, session)
    assert len(expected) == 84
    assert ids_of(fast_got) == expected
    assert ids_of(slow_got) == expected


def test_resuming_after_a_kill_brings_what_was_committed_but_not_yet_sent(
    server: ServerProcess, http: httpx.Client
) -> None:
    session = new_session(http)
    say(http, session, "hello")
    received: list[Frame] = []
    with client_of(server.url, server.headers) as reader:
        with reader.stream("GET", stream_path(session)) as response:
            stream = frames(response)
            received += read_until(stream, caught_up)
            say(http, session, "how many orders do I have?")
            server.kill()  # most likely before the stream's next poll sent those 4 events
            drain(stream, received)
        last_received = max(ids_of(received))
        server.start()
        say(http, session, "hello")  # committed after the restart, before the reconnect
        headers = {"Last-Event-ID": str(last_received)}
        with reader.stream("GET", stream_path(session), headers=headers) as response:
            stream = frames(response)
            resumed = read_until(stream, caught_up)
            say(http, session, "how many orders do I have?")
            resumed += read_until(stream, has_ids(12 - max(ids_of(resumed))))

    assert ids_of(received) + ids_of(resumed) == event_ids(http, session) == list(range(1, 13))


def test_a_stream_sees_another_server_process_writes_and_resumes_on_that_server(
    start_server: StartServer, db_path: Path
) -> None:
    writer, streamer = start_server(db_path), start_server(db_path)
    with (
        client_of(writer.url, writer.headers) as write,
        client_of(streamer.url, streamer.headers) as read,
    ):
        session = new_session(write)
        say(write, session, "hello")
        with read.stream("GET", stream_path(session)) as response:
            stream = frames(response)
            received = read_until(stream, caught_up)
            say(write, session, "how many orders do I have?")
            received += read_until(stream, has_ids(6 - len(ids_of(received))))
        streamer.kill()
        say(write, session, "hello")
        headers = {"Last-Event-ID": str(ids_of(received)[-1])}
        resumed = list(
            frames(write.get(stream_path(session), params={"follow": "false"}, headers=headers))
        )

        assert ids_of(received) + ids_of(resumed) == event_ids(write, session) == list(range(1, 9))


def test_stopping_the_server_ends_open_streams_with_a_closing_frame(
    server: ServerProcess, http: httpx.Client
) -> None:
    session = new_session(http)
    say(http, session, "hello")
    with (
        client_of(server.url, server.headers) as reader,
        reader.stream("GET", stream_path(session)) as response,
    ):
        stream = frames(response)
        read_until(stream, caught_up)
        # SIGTERM; a server that waited for this endless response would be SIGKILLed after
        # 10 s instead, and the stream would end with no closing frame.
        server.stop()
        rest = list(stream)

    assert [frame.event for frame in rest] == ["closing"]
    assert rest[0].json == {"reason": "the server is shutting down", "last_event_id": 2}
