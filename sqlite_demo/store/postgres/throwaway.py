"""A throwaway PostgreSQL cluster: its own data folder, reachable only through a Unix socket.

For the tests, the benchmarks, and for trying the service where no PostgreSQL is running:
Debian's ``postgresql`` package provides ``initdb`` and ``pg_ctl``, and nothing else is
needed. ``initdb`` refuses to run as root, so as root the cluster belongs to the
``postgres`` user (``runuser``); as anyone else, to that user. Its socket is in a
temporary folder of its own (``listen_addresses=''``: no TCP port at all, so nothing
outside this machine can reach it, and two clusters never collide), and ``-A trust`` lets
local users in without a password through that socket only.

    cluster = PostgresCluster(find_postgres_binaries())
    cluster.start()
    url = cluster.new_database()   # postgresql://postgres@/kit_...?host=/tmp/kit-postgres-...
    ...
    cluster.remove()
"""

from __future__ import annotations

import contextlib
import itertools
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Final

import psycopg

#: Where Debian installs the server programs, newest version first.
_DEBIAN_BINARIES: Final = "/usr/lib/postgresql/*/bin"
#: The owner of the cluster when the tests run as root (Debian's package creates it).
_CLUSTER_USER: Final = "postgres"


def find_postgres_binaries() -> Path | None:
    """Return the folder holding ``initdb`` and ``pg_ctl``, or None when there is none."""
    on_path = shutil.which("initdb")
    if on_path and shutil.which("pg_ctl"):
        return Path(on_path).parent
    found = sorted(Path("/").glob(_DEBIAN_BINARIES.lstrip("/")), reverse=True)
    return next((folder for folder in found if (folder / "initdb").exists()), None)


class PostgresCluster:
    """One PostgreSQL server on a data folder, reachable only through its socket folder.

    Args:
        binaries: the folder holding ``initdb``, ``pg_ctl`` and ``postgres``.
        fsync: whether the server flushes its WAL to the disk (off for the tests, see start).
    """

    def __init__(self, binaries: Path, *, fsync: bool = False) -> None:
        self.binaries = binaries
        self.fsync = fsync
        # Not pytest's tmp_path: its folders are private to this user, and the server may
        # run as another one, which must be able to reach its socket folder.
        self.folder = Path(tempfile.mkdtemp(prefix="kit-postgres-"))
        self.folder.chmod(0o755)
        self.data = self.folder / "data"
        self.log = self.folder / "server.log"
        self._names = itertools.count(1)
        self._as_user: list[str] = []
        if os.geteuid() == 0:
            self._as_user = ["runuser", "-u", _CLUSTER_USER, "--"]
            shutil.chown(self.folder, user=_CLUSTER_USER)
        self._run("initdb", "-D", str(self.data), "-A", "trust", "--no-sync", "-U", "postgres")

    @property
    def socket_folder(self) -> Path:
        """The folder the server's Unix socket is in (its ``host`` in a URL)."""
        return self.folder

    def url(self, database: str = "postgres") -> str:
        """Return the connection URL of ``database`` in this cluster."""
        return f"postgresql://postgres@/{database}?host={self.socket_folder}"

    def start(self) -> None:
        """Start the server and wait until it accepts connections.

        After a kill, the old server's backends may take a moment to notice and exit, and
        until they have, a new server refuses to start: so a failed start is retried.
        """
        # fsync off: the tests kill the server's processes, never the machine, and a killed
        # process loses nothing the OS already holds, so what they prove is unchanged; the
        # benchmarks, which measure durability's cost, start a cluster that keeps fsync on.
        options = (
            f"-k {self.socket_folder} -c listen_addresses='' -c max_connections=200"
            f" -c fsync={'on' if self.fsync else 'off'}"
        )
        command = ("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.log), "-w")
        for attempt in range(50):
            try:
                self._run(*command, "start")
                return
            except subprocess.CalledProcessError:
                if attempt == 49:
                    raise
                time.sleep(0.2)

    def stop(self, mode: str = "fast") -> None:
        """Stop the server: ``fast`` (clean) or ``immediate`` (like a crash: the WAL is
        replayed at the next start)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def kill(self) -> None:
        """SIGKILL the server's main process, as a crash would; start() recovers from it."""
        pid = int((self.data / "postmaster.pid").read_text().splitlines()[0])
        os.kill(pid, signal.SIGKILL)
        while _alive(pid):
            time.sleep(0.02)

    def new_database(self) -> str:
        """Create an empty database and return its URL."""
        name = f"kit_{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as connection:
            connection.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def remove(self) -> None:
        """Stop the server, if running, and delete its folder."""
        with contextlib.suppress(subprocess.CalledProcessError):
            self.stop("immediate")
        shutil.rmtree(self.folder, ignore_errors=True)

    def _run(self, program: str, *arguments: str, check: bool = True) -> None:
        command = [*self._as_user, str(self.binaries / program), *arguments]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if check and done.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise subprocess.CalledProcessError(
                done.returncode, command, done.stdout, f"{done.stderr}\n{log}"
            )


def _alive(pid: int) -> bool:
    # Our own child is never reaped by us (runuser or pg_ctl started it), so /proc tells.
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return False
    return state != "Z"
