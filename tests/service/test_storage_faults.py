"""Storage faults as an operator running as root meets them: a read-only mount, a full disk.

``chmod 0444`` does not stop root, so these tests make the faults real for root too:

* a read-only bind mount, in a private mount namespace (``unshare -m``) so that nothing
  outside the test sees it;
* a file without write permission, for a root whose capabilities to override file
  permissions are dropped (``capsh --drop=cap_dac_override,...``);
* a tiny ``tmpfs``, mounted in the server's own private namespace and filled up while the
  server runs; the test reaches into that namespace through ``/proc/PID/root``.

A server refuses to start on a database it cannot write, with one line that says why. A
disk that fills up while it runs gets 503s that say so and that a retry can help, the
connection stays usable, ``/health`` tells, and once space is freed everything works again.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from sqlite_demo import SqliteEventStore
from sqlite_demo.server import ServerProcess

# The mounts are made in a private namespace (unshare -m): the sandbox tier.
pytestmark = [pytest.mark.server, pytest.mark.sandbox]


def _can_make_private_mounts() -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(["unshare", "-m", "true"], capture_output=True, check=False)
    return probe.returncode == 0


needs_mount_namespaces = pytest.mark.skipif(
    not _can_make_private_mounts(), reason="needs root and unshare -m (private mount namespaces)"
)
SERVE = [sys.executable, "-m", "sqlite_demo", "serve", "--port", "0", "--db"]
READ_ONLY_BIND = 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"'


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """A folder holding a valid, cleanly closed database (no -wal or -shm beside it)."""
    folder = tmp_path / "data"
    folder.mkdir()
    SqliteEventStore(folder / "agent.db").close()
    return folder


def _one_line_refusal(command: list[str]) -> str:
    run = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "listening on" not in run.stdout
    (line,) = run.stderr.strip().splitlines()
    return line


@needs_mount_namespaces
def test_serve_refuses_a_database_on_a_read_only_mount_in_one_line(data_dir: Path) -> None:
    db = data_dir / "agent.db"
    line = _one_line_refusal(
        ["unshare", "-m", "sh", "-c", READ_ONLY_BIND, str(data_dir), *SERVE, str(db)]
    )
    assert line.startswith(f"cannot serve {db}:")
    assert "read-only" in line


@pytest.mark.skipif(shutil.which("capsh") is None, reason="needs capsh")
def test_serve_refuses_a_read_only_file_to_a_root_without_its_override(data_dir: Path) -> None:
    db = data_dir / "agent.db"
    db.chmod(0o444)
    drop = "--drop=cap_dac_override,cap_dac_read_search,cap_fowner"
    line = _one_line_refusal(["capsh", drop, "--", "-c", 'exec "$0" "$@"', *SERVE, str(db)])
    assert "read-only" in line


@pytest.fixture
def on_a_tiny_disk(tmp_path: Path) -> ServerProcess:
    """A server whose database lives on a 2 MiB tmpfs that only its namespace sees."""
    folder = tmp_path / "tiny"
    folder.mkdir()
    wrapper = [
        "unshare",
        "-m",
        "sh",
        "-c",
        'mount -t tmpfs -o size=2m tmpfs "$0" && exec "$@"',
        str(folder),
    ]
    return ServerProcess(folder / "agent.db", tmp_path / "server.log", wrapper=wrapper)


def _fill(folder: Path) -> Path:
    filler = folder / "filler"
    with filler.open("wb") as blocks:
        try:
            while True:
                blocks.write(b"\0" * 65536)
                blocks.flush()
        except OSError:
            pass  # ENOSPC: the disk is full
    return filler


@needs_mount_namespaces
def test_a_disk_that_fills_up_gets_retryable_503s_on_a_connection_that_stays_open(
    on_a_tiny_disk: ServerProcess,
) -> None:
    with (
        on_a_tiny_disk as server,
        httpx.Client(base_url=server.url, timeout=10, headers=server.headers) as http,
    ):
        inside = Path(f"/proc/{server.pid}/root") / server.db_path.parent.relative_to("/")
        session = http.post("/sessions", json={"title": "订单客服"}).json()["id"]
        assert (
            http.post(f"/sessions/{session}/messages", json={"content": "你好"}).status_code == 200
        )
        filler = _fill(inside)

        refused = http.post(f"/sessions/{session}/messages", json={"content": "x" * 60000})
        health = http.get("/health")
        filler.unlink()
        healthy = http.get("/health")
        served = http.post(f"/sessions/{session}/messages", json={"content": "你好"})

        # Read through the server: SQLite resolves /proc/PID/root back into our own namespace.
        ids = [e["event_id"] for e in http.get(f"/sessions/{session}/events").json()]

    assert refused.status_code == 503, refused.text
    assert refused.json()["error"]["code"] == "database_disk_full"
    assert refused.json()["error"]["retryable"] is True
    assert refused.headers["retry-after"] == "1"
    assert (health.status_code, health.json()["error"]["code"]) == (503, "database_disk_full")
    assert (healthy.status_code, served.status_code) == (200, 200)
    streams = {r.extensions["network_stream"] for r in (refused, health, healthy, served)}
    assert len(streams) == 1  # one kept-alive connection served all four
    assert ids == list(range(1, len(ids) + 1))
    assert served.json()["events"][-1]["type"] == "assistant_message"
