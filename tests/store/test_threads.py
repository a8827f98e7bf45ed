"""One store shared by many threads, as in the HTTP service's thread pool."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from sqlite_demo import EventStore

THREADS = 8
APPENDS_EACH = 50


def test_appends_from_many_threads_through_one_store_all_land_with_unique_gap_free_ids(
    fresh_db: EventStore,
) -> None:
    # Without the store's lock, two threads would run BEGIN on the one connection at once.
    for n in range(THREADS):
        fresh_db.create_session(f"thread {n}", session_id=f"t{n}")

    def append_many(session_id: str) -> list[int]:
        return [
            fresh_db.append_event(session_id, "user_message", {"content": f"#{i}"}).event_id
            for i in range(APPENDS_EACH)
        ]

    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        per_thread = list(pool.map(append_many, [f"t{n}" for n in range(THREADS)]))

    all_ids = sorted(event_id for ids in per_thread for event_id in ids)
    assert all_ids == list(range(1, THREADS * APPENDS_EACH + 1))
    for n, ids in enumerate(per_thread):
        assert [event.event_id for event in fresh_db.get_events_for_session(f"t{n}")] == ids
