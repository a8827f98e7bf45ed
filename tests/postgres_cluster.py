"""The throwaway PostgreSQL cluster the tests run on, as pytest fixtures.

The cluster itself is :class:`sqlite_demo.store.postgres.throwaway.PostgresCluster` (a
socket in a temporary folder, no TCP, fsync off here: the tests kill processes, never the
machine). Where PostgreSQL is not installed the PostgreSQL tests skip, saying why; with
``REQUIRE_POSTGRES=1`` (which ``.ci/run`` sets) they fail instead.

Fixtures (registered for the whole suite by ``tests/conftest.py``):

* ``postgres_cluster``: the shared cluster, started at the first test that asks for it.
* ``postgres_url``: a new, empty database in it, for one test.
* ``private_postgres_cluster``: a cluster of the test's own, for tests that stop, kill or
  restart the server under load.
"""

from __future__ import annotations

import contextlib
import os
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


@contextlib.contextmanager
def running_cluster() -> Iterator[PostgresCluster]:
    """A started cluster, removed afterwards; skips (or fails in CI) without PostgreSQL."""
    cluster = PostgresCluster(skip_or_fail_without_postgres())
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
def postgres_url(postgres_cluster: PostgresCluster) -> str:
    """The URL of a new, empty database, for this test alone."""
    return postgres_cluster.new_database()


@pytest.fixture
def private_postgres_cluster() -> Iterator[PostgresCluster]:
    """A server of this test's own, to stop, kill and restart without disturbing others."""
    with running_cluster() as cluster:
        yield cluster
