"""No reader ever skips an event: one writer's commit held open while another commits.

A reader tails a session by id: it reads "the events after N", moves N to the last id it
got, and reads again. That is what ``GET /sessions/{id}/events?after=N`` and the live
stream do. It is only safe if no event with a smaller id ever becomes visible after one
with a larger id did.

The scenario, the same for both designs:

1. writer A appends and stops just before its COMMIT (its id is taken, its row written);
2. writer B appends to the same session (it either commits, or waits for A);
3. the reader reads after 0 and moves its cursor to the last id it saw;
4. A commits, then B (if it was waiting); the reader reads after its cursor again.

The reader must have seen every committed event. On the store, B waits for A on the log's
head row, so at step 3 the reader sees nothing, and then both, in order. On the naive
IDENTITY design (``naive_log.py``), B commits id 2 first, the reader's cursor jumps to 2,
and id 1, committed a moment later, is never read: the test proves it catches that.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import psycopg

from sqlite_demo.store.postgres import PostgresEventStore
from tests.store.postgres.naive_log import NaiveIdentityLog

#: A hang guard only: how long a step may take before the test calls it stuck.
HANG_GUARD_SECONDS = 30.0


class TailedLog(Protocol):
    """What the scenario needs of a design: append (committing), and read after an id."""

    def append(self, session_id: str, content: str) -> int: ...

    def read_after(self, session_id: str, after_event_id: int) -> list[int]: ...


class _Hold:
    """Stops the first append that reaches the point before COMMIT, until released."""

    #: Backends waiting on a lock while held: none (the hold is in this process).
    waiting = 0

    def __init__(self) -> None:
        self.reached = threading.Event()
        self.release = threading.Event()
        self._holder: threading.Thread | None = None

    def hold_this_thread(self) -> None:
        self._holder = threading.current_thread()

    def before_commit(self) -> None:
        if threading.current_thread() is self._holder:
            self.reached.set()
            assert self.release.wait(HANG_GUARD_SECONDS)


class _DatabaseHold:
    """Stops the real store's append of "A" where it writes the projection row (the last
    step of its transaction before the NOTIFY and COMMIT), until released.

    The append runs inside the database (``kit_append``), so the hold is there too: a
    trigger on ``messages`` waits for an advisory lock that this object holds on a
    connection of its own.
    """

    LOCK = 0x686F6C64  # "hold"
    #: Backends waiting on a lock while held: the held append itself.
    waiting = 1

    def __init__(self, url: str) -> None:
        self._url = url
        self._holder = psycopg.connect(url, autocommit=True)
        self._holder.execute(
            "CREATE FUNCTION hold_here() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
            f" PERFORM pg_advisory_xact_lock_shared({self.LOCK}); RETURN NEW; END $$"
        )
        self._holder.execute(
            "CREATE TRIGGER hold_here AFTER INSERT ON messages FOR EACH ROW"
            " WHEN (NEW.content = 'A') EXECUTE FUNCTION hold_here()"
        )
        self._holder.execute("SELECT pg_advisory_lock(%s)", (self.LOCK,))
        self.reached = self
        self.release = self

    def hold_this_thread(self) -> None:
        """Nothing to do: the trigger holds whichever append writes "A"."""

    def wait(self, timeout: float) -> bool:
        """Wait until the append of "A" waits on the hold's lock."""
        deadline = time.monotonic() + timeout
        while _backends_waiting_on_a_lock(self._url) < self.waiting:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.01)
        return True

    def set(self) -> None:
        """Let the held append go on to its COMMIT."""
        self._holder.execute("SELECT pg_advisory_unlock(%s)", (self.LOCK,))
        self._holder.close()


class _Store:
    """The real store, appending user messages to session ``s``."""

    def __init__(self, store: PostgresEventStore) -> None:
        self.store = store
        store.create_session("tailed", session_id="s")

    def append(self, session_id: str, content: str) -> int:
        return self.store.append_event(session_id, "user_message", {"content": content}).event_id

    def read_after(self, session_id: str, after_event_id: int) -> list[int]:
        return [e.event_id for e in self.store.get_events_for_session(session_id, after_event_id)]


@dataclass
class Tailing:
    """What the reader saw, and what was committed in the end."""

    read_while_held: list[int]
    read_after_release: list[int]
    committed: list[int]

    @property
    def everything_the_reader_saw(self) -> list[int]:
        return self.read_while_held + self.read_after_release


def tail_while_one_commit_is_held(log: TailedLog, hold: _Hold | _DatabaseHold, url: str) -> Tailing:
    """Run the scenario of the module's docstring on ``log``."""
    errors: list[BaseException] = []

    def append(content: str, held: bool) -> None:
        try:
            if held:
                hold.hold_this_thread()
            log.append("s", content)
        except BaseException as error:  # reported below, not lost in the thread
            errors.append(error)

    writer_a = threading.Thread(target=append, args=("A", True))
    writer_a.start()
    assert hold.reached.wait(HANG_GUARD_SECONDS), errors
    writer_b = threading.Thread(target=append, args=("B", False))
    writer_b.start()
    # B has either committed (the naive design) or is waiting on a lock A holds (the store).
    _until(lambda: not writer_b.is_alive() or _backends_waiting_on_a_lock(url) > hold.waiting)

    read_while_held = log.read_after("s", 0)
    cursor = read_while_held[-1] if read_while_held else 0
    hold.release.set()
    writer_a.join(HANG_GUARD_SECONDS)
    writer_b.join(HANG_GUARD_SECONDS)
    assert errors == []
    return Tailing(read_while_held, log.read_after("s", cursor), log.read_after("s", 0))


def test_the_store_makes_the_second_writer_wait_so_the_reader_skips_nothing(
    postgres_url: str,
) -> None:
    with PostgresEventStore(postgres_url) as store:
        hold = _DatabaseHold(postgres_url)
        tailing = tail_while_one_commit_is_held(_Store(store), hold, postgres_url)

    assert tailing.committed == [1, 2]
    assert tailing.read_while_held == []  # B waited for A: nothing was visible yet
    assert tailing.everything_the_reader_saw == tailing.committed


def test_the_naive_identity_design_lets_the_reader_skip_the_held_event(postgres_url: str) -> None:
    hold = _Hold()
    naive = NaiveIdentityLog(postgres_url, hold.before_commit)

    tailing = tail_while_one_commit_is_held(naive, hold, postgres_url)

    assert tailing.committed == [1, 2]
    assert tailing.read_while_held == [2]  # B's id 2 committed while A's id 1 was held
    assert tailing.everything_the_reader_saw == [2]  # and id 1 was skipped for good


def _backends_waiting_on_a_lock(url: str) -> int:
    with psycopg.connect(url, autocommit=True) as connection:
        row = connection.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND wait_event_type = 'Lock'"
        ).fetchone()
    return 0 if row is None else int(row[0])


def _until(condition: Callable[[], bool]) -> None:
    deadline = time.monotonic() + HANG_GUARD_SECONDS
    while not condition():
        assert time.monotonic() < deadline, "the scenario is stuck"
        time.sleep(0.01)
