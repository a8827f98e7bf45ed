"""The throwaway PostgreSQL cluster the tests run on, as pytest fixtures.

The cluster itself is :class:`sqlite_demo.store.postgres.throwaway.PostgresCluster` (a
socket in a temporary folder, no TCP, fsync off here: the tests kill processes, never the
machine). Where PostgreSQL is not installed the PostgreSQL tests skip, saying why; with
``REQUIRE_POSTGRES=1`` (which ``.ci/run`` sets) they fail instead.

Fixtures (registered for the whole suite by ``tests/conftest.py``):

* ``postgres_cluster``: the shared cluster, started at the first test that asks for it.
* ``postgres_url``: a new, empty database in it, for one test (dropped after it).
* ``private_postgres_cluster``: a cluster of the test's own, for tests that stop, kill or
  restart the server under load.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from sqlite_demo.store.postgres.throwaway import PostgresCluster, find_postgres_binaries

__all__ = ["PostgresCluster", "postgres_cluster", "postgres_url", "private_postgres_cluster"]


def postgres_required() -> bool:
    """Whether a missing PostgreSQL must fail the run (CI) rather than skip its tests."""
    return os.environ.get("REQUIRE_POSTGRES") == "1"


def skip_or_fail_without_postgres() -> Path:
    """Return the binaries' folder; skip the test (or fail it in CI) when there is none."""
    binaries = find_postgres_binaries()
    if binaries is not None:
        return binaries
    reason = (
        "PostgreSQL is not installed (initdb and pg_ctl: apt-get install postgresql);"
        " REQUIRE_POSTGRES=1 makes this a failure"
    )
    if postgres_required():
        pytest.fail(reason.replace("REQUIRE_POSTGRES=1 makes this a failure", "REQUIRE_POSTGRES=1"))
    pytest.skip(reason)


#: Where a cluster's files go when this machine has a memory file system: a run creates
#: hundreds of databases of about 8 MB each, and on this kit's CI disk writing them and then
#: deleting 3 GB took minutes (300 databases: 48 s to create and 105 s to delete on disk,
#: 21 s and 2 s in memory).
MEMORY_FOLDER = Path("/dev/shm")


@contextlib.contextmanager
def in_memory_where_possible() -> Iterator[None]:
    """Make temporary folders in :data:`MEMORY_FOLDER` inside the block, where it is usable."""
    if not (MEMORY_FOLDER.is_dir() and os.access(MEMORY_FOLDER, os.W_OK | os.X_OK)):
        yield
        return
    before = tempfile.tempdir
    tempfile.tempdir = str(MEMORY_FOLDER)
    try:
        yield
    finally:
        tempfile.tempdir = before


@contextlib.contextmanager
def running_cluster() -> Iterator[PostgresCluster]:
    """A started cluster, removed afterwards; skips (or fails in CI) without PostgreSQL."""
    binaries = skip_or_fail_without_postgres()
    with in_memory_where_possible():  # the cluster takes its folder from tempfile
        cluster = PostgresCluster(binaries)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.remove()


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[PostgresCluster]:
    """The suite's PostgreSQL server, started once, at the first test that needs it."""
    with running_cluster() as cluster:
        yield cluster


@pytest.fixture
def postgres_url(postgres_cluster: PostgresCluster) -> Iterator[str]:
    """The URL of a new, empty database, for this test alone; dropped after it, so a run's
    databases do not pile up (``FORCE`` ends the connections a test left open)."""
    url = postgres_cluster.new_database()
    yield url
    import psycopg

    name = url.split("/")[-1].split("?")[0]
    with (
        contextlib.suppress(psycopg.Error),
        psycopg.connect(postgres_cluster.url(), autocommit=True) as connection,
    ):
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'.encode())


@pytest.fixture
def private_postgres_cluster() -> Iterator[PostgresCluster]:
    """A server of this test's own, to stop, kill and restart without disturbing others."""
    with running_cluster() as cluster:
        yield cluster
