"""The stream's logic without HTTP: a fake store whose commits land exactly where a race would.

Each test runs the real generator (:func:`session_event_stream`) on an event loop with tiny
intervals; the fake store decides when events become visible.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass

from sqlite_demo.live.event_stream import StreamSettings, StreamSource, session_event_stream
from sqlite_demo.live.shared_reads import SharedReads
from sqlite_demo.store.append_signal import AppendSignal

FAST = StreamSettings(poll_seconds=0.001, heartbeat_seconds=3600.0)


@dataclass(frozen=True)
class FakeEvent:
    """The two attributes of a stored event that the stream itself reads."""

    event_id: int
    session_id: str


def stored(event_id: int, session_id: str = "a") -> FakeEvent:
    return FakeEvent(event_id, session_id)


class FakeStore:
    """Events in memory; ``after_read`` runs right after each read has taken its snapshot,
    which is where a commit would slip in between "read the backlog" and "listen"."""

    def __init__(self, events: list[FakeEvent]) -> None:
        self.events = list(events)
        self.reads = 0
        self.after_read: Callable[[FakeStore], None] = lambda store: None

    def get_events_for_session(
        self, session_id: str, after_event_id: int = 0, limit: int | None = None
    ) -> list[FakeEvent]:
        self.reads += 1
        snapshot = [
            e for e in self.events if e.session_id == session_id and e.event_id > after_event_id
        ]
        self.after_read(self)
        return snapshot[:limit]


def to_text(event: FakeEvent) -> str:
    return json.dumps({"event_id": event.event_id, "session_id": event.session_id})


async def collect(
    store: FakeStore,
    *,
    after: int = 0,
    follow: bool = True,
    settings: StreamSettings = FAST,
    stop_when: Callable[[list[str]], bool] = lambda frames: False,
    appends: AppendSignal | None = None,
) -> list[str]:
    """Run the stream until ``stop_when(frames)``, then shut it down; return every frame."""
    closing = threading.Event()
    frames: list[str] = []
    source = StreamSource(store, to_text, appends)  # type: ignore[arg-type]
    stream = session_event_stream(
        source, "a", after, follow=follow, settings=settings, closing=closing
    )
    async for chunk in stream:
        # A chunk is a page: one or more frames, each ended by a blank line.
        frames += [f"{frame}\n\n" for frame in chunk.decode().split("\n\n")[:-1]]
        if stop_when(frames):
            closing.set()
    return frames


def ids_sent(frames: list[str]) -> list[int]:
    return [
        int(frame.split("\n")[0].removeprefix("id: "))
        for frame in frames
        if frame.startswith("id: ")
    ]


def test_an_event_committed_right_after_the_backlog_read_arrives_exactly_once() -> None:
    store = FakeStore([stored(1), stored(2)])

    def commit_once(store: FakeStore) -> None:
        if store.reads == 1:
            store.events.append(stored(3))

    store.after_read = commit_once

    frames = asyncio.run(collect(store, stop_when=lambda f: 3 in ids_sent(f)))

    assert ids_sent(frames) == [1, 2, 3]
    caught_up = [f for f in frames if f.startswith("event: caught-up")]
    assert caught_up == ['event: caught-up\ndata: {"after":0,"last_event_id":2}\n\n']
    assert frames.index(caught_up[0]) < frames.index(
        next(f for f in frames if f.startswith("id: 3"))
    )


def test_events_committed_while_live_arrive_once_each_in_id_order() -> None:
    store = FakeStore([])

    def commit_every_read(store: FakeStore) -> None:
        if store.reads <= 5:
            store.events.append(stored(store.reads * 10))
            store.events.append(stored(store.reads * 10 + 1))

    store.after_read = commit_every_read

    frames = asyncio.run(collect(store, stop_when=lambda f: 51 in ids_sent(f)))

    assert ids_sent(frames) == [10, 11, 20, 21, 30, 31, 40, 41, 50, 51]


def test_other_sessions_events_are_never_sent() -> None:
    store = FakeStore([stored(1), stored(2, "b"), stored(3), stored(4, "b")])

    frames = asyncio.run(collect(store, follow=False))

    assert ids_sent(frames) == [1, 3]


def test_the_stream_resumes_strictly_after_the_given_id() -> None:
    store = FakeStore([stored(i) for i in range(1, 6)])

    frames = asyncio.run(collect(store, after=3, follow=False))

    assert ids_sent(frames) == [4, 5]
    assert frames[-1] == 'event: caught-up\ndata: {"after":3,"last_event_id":5}\n\n'


def test_without_follow_the_stream_ends_after_the_backlog_and_reads_once() -> None:
    store = FakeStore([stored(1)])

    frames = asyncio.run(collect(store, follow=False))

    assert frames[0] == "retry: 1000\n\n"
    assert [f.split("\n")[0] for f in frames[1:]] == ["id: 1", "event: caught-up"]
    assert store.reads == 1


def test_a_quiet_stream_sends_heartbeat_comments() -> None:
    settings = StreamSettings(poll_seconds=0.001, heartbeat_seconds=0.0)

    frames = asyncio.run(
        collect(
            FakeStore([]), settings=settings, stop_when=lambda f: f.count(": heartbeat\n\n") >= 2
        )
    )

    assert frames[-3:-1] == [": heartbeat\n\n", ": heartbeat\n\n"]


def test_shutting_down_ends_the_stream_with_a_closing_frame_naming_the_last_id() -> None:
    store = FakeStore([stored(1), stored(2)])

    frames = asyncio.run(collect(store, stop_when=lambda f: f[-1].startswith("event: caught-up")))

    assert frames[-1] == (
        'event: closing\ndata: {"reason":"the server is shutting down","last_event_id":2}\n\n'
    )


def test_streams_asking_for_the_same_page_at_once_share_one_read() -> None:
    shared: SharedReads[str] = SharedReads()
    reads: list[int] = []

    async def read() -> str:
        reads.append(1)
        await asyncio.sleep(0.01)
        return "the page"

    async def three_at_once() -> list[str]:
        return await asyncio.gather(*(shared.get("key", 0, 0, read) for _ in range(3)))

    assert asyncio.run(three_at_once()) == ["the page"] * 3
    assert len(reads) == 1


def test_a_stream_woken_by_a_later_append_never_joins_an_older_read() -> None:
    shared: SharedReads[str] = SharedReads()
    signal = {"version": 0}

    async def read() -> str:
        seen = signal["version"]
        await asyncio.sleep(0.01)
        return f"read at version {seen}"

    async def older_then_newer() -> tuple[str, str]:
        older = asyncio.ensure_future(shared.get("key", 0, signal["version"], read))
        await asyncio.sleep(0)  # the older read is under way
        signal["version"] = 1  # the append that wakes the newer stream
        newer = await shared.get("key", 1, signal["version"], read)
        return await older, newer

    assert asyncio.run(older_then_newer()) == ("read at version 0", "read at version 1")


def test_a_finished_read_is_never_shared_a_page_may_have_grown_since() -> None:
    shared: SharedReads[int] = SharedReads()
    reads: list[int] = []

    async def read() -> int:
        reads.append(1)
        return len(reads)

    async def one_after_the_other() -> list[int]:
        return [await shared.get("key", 0, 0, read), await shared.get("key", 0, 0, read)]

    assert asyncio.run(one_after_the_other()) == [1, 2]
