"""What keeps the reads fast does not change what they return, nor grow with the session."""

from __future__ import annotations

import dataclasses
import gc
import threading
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path

import pytest

from eventlog import ReadOnlyPayload, StoredEvent
from sqlite_demo import SqliteEventStore
from sqlite_demo.store import reads, rows
from sqlite_demo.store.sqlite.connection import open_connection


def test_an_event_built_by_setting_its_slots_equals_the_constructors_field_for_field() -> None:
    row = (7, "user_message", '{"content":"hi"}', 1_700_000_000_000)
    made = StoredEvent(7, "s", "user_message", ReadOnlyPayload('{"content":"hi"}'), row[3])
    read = rows.stored_events("s", [row])[0]
    written = rows.stored_event(7, "s", "user_message", ReadOnlyPayload(row[2]), row[3])
    # Every field, by the dataclass's own list: a field added to StoredEvent and not set by
    # these fails here, as an AttributeError or an inequality.
    for fast in (read, written):
        for field in dataclasses.fields(StoredEvent):
            assert getattr(fast, field.name) == getattr(made, field.name), field.name
        assert type(fast) is StoredEvent and fast == made


def test_one_decode_of_many_payloads_gives_each_its_own_dict() -> None:
    texts = ['{"a":[1]}', '{"a":[1]}', '{"b":"\\u0000"}']
    decoded = rows.decode_all(texts)
    assert decoded == [{"a": [1]}, {"a": [1]}, {"b": "\x00"}]
    assert decoded[0] is not decoded[1] and decoded[0]["a"] is not decoded[1]["a"]
    assert rows.decode_all([]) == []
    many = [f'{{"n":{n}}}' for n in range(1_500)]  # several calls' worth
    assert rows.decode_all(many) == [{"n": n} for n in range(1_500)]


@pytest.fixture
def filled(tmp_path: Path) -> Iterator[tuple[Path, SqliteEventStore]]:
    """A store whose sessions "short" and "long" hold 60 and 3,000 items, and "cleared" 3,000
    items, cleared after the first 1,500."""
    path = tmp_path / "reads.db"
    with SqliteEventStore(path) as store:
        for session_id, count in (("short", 60), ("long", 3_000), ("cleared", 3_000)):
            store.create_session(session_id, session_id=session_id)
            messages = [("user_message", {"content": f"m{n}"}) for n in range(count)]
            store.append_events(session_id, messages[: count // 2])
            if session_id == "cleared":
                last = store.last_event_id("cleared")
                store.append_event("cleared", "session_cleared", {"supersedes_through": last})
            store.append_events(session_id, messages[count // 2 :])
        yield path, store


def _steps(path: Path, read: Callable[[reads.Fetch], object]) -> int:
    # SQLite's virtual machine calls the progress handler every N instructions: with N = 1,
    # the count of calls is the work the reads did, whatever the machine's speed or load.
    steps = 0

    def count() -> int:
        nonlocal steps
        steps += 1
        return 0

    with closing(open_connection(path)) as connection:
        connection.set_progress_handler(count, 1)
        read(lambda sql, arguments: connection.execute(sql, arguments).fetchall())
    return steps


def _all_items(session_id: str) -> Callable[[reads.Fetch], object]:
    return lambda fetch: fetch(*reads.items_in_force(session_id))


def _newest_items(session_id: str, newest: int) -> Callable[[reads.Fetch], object]:
    return lambda fetch: reads.newest_items(fetch, session_id, newest)


def test_reading_the_newest_items_does_the_same_work_at_60_items_and_at_3000(
    filled: tuple[Path, SqliteEventStore],
) -> None:
    path, store = filled
    assert len(store.get_items_in_force("long", 20)) == 20
    assert _steps(path, _newest_items("long", 20)) == _steps(path, _newest_items("short", 20))


def test_the_walk_from_the_tail_reads_further_only_for_what_was_taken_out(
    filled: tuple[Path, SqliteEventStore],
) -> None:
    path, store = filled
    plain = _steps(path, _newest_items("short", 5))
    for _ in range(3):  # take the three newest out: the walk must step over them
        newest = store.get_items_in_force("short", 1)[0].event_id
        store.append_event("short", "item_removed", {"supersedes": newest})
    assert [e.payload["content"] for e in store.get_items_in_force("short", 2)] == ["m55", "m56"]
    stepped_over = _steps(path, _newest_items("short", 5))
    assert plain < stepped_over < _steps(path, _all_items("short"))


def test_reading_every_item_of_a_cleared_session_visits_only_what_follows_the_clear(
    filled: tuple[Path, SqliteEventStore],
) -> None:
    path, store = filled
    assert len(store.get_items_in_force("cleared")) == 1_500
    # "long" holds as many items, all in force: the cleared half is never walked.
    uncleared = _steps(path, _all_items("long"))
    cleared = _steps(path, _all_items("cleared"))
    assert cleared < uncleared * 0.6


def test_newest_items_now_reads_at_once_or_says_none_while_another_thread_holds_the_store(
    filled: tuple[Path, SqliteEventStore],
) -> None:
    _, store = filled
    read = store.newest_items_now("short", 2)
    assert read is not None and [event.payload["content"] for event in read] == ["m58", "m59"]
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with store._lock:  # what a write in another thread holds
            held.set()
            release.wait(30)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert held.wait(30)
        assert store.newest_items_now("short", 2) is None
    finally:
        release.set()
        holder.join(30)


@pytest.mark.parametrize("enabled_before", [True, False])
def test_a_read_resumes_the_collector_as_it_found_it_even_when_it_fails(
    enabled_before: bool,
) -> None:
    was = gc.isenabled()
    (gc.enable if enabled_before else gc.disable)()
    try:
        with rows.collector_paused():
            assert not gc.isenabled()
        assert gc.isenabled() is enabled_before
        with pytest.raises(RuntimeError), rows.collector_paused():
            raise RuntimeError("the read failed")
        assert gc.isenabled() is enabled_before
    finally:
        (gc.enable if was else gc.disable)()
