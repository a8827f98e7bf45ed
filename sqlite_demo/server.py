"""Run the service, in this process or as a child process that can be killed on purpose.

:func:`serve` is what ``python -m sqlite_demo serve`` calls. It binds the socket itself, so
port 0 works: the kernel picks a free port and the first line printed names the real one,
``listening on http://127.0.0.1:PORT``, for a parent to read.

:class:`ServerProcess` is that parent's side, used by the demo and the tests: start the
service as a real subprocess on a database file, ``kill()`` it with ``SIGKILL`` (no cleanup
code runs, exactly like a crash), and ``start()`` it again on the same file and port.
"""

from __future__ import annotations

import ipaddress
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Final

import httpx
import uvicorn

from sqlite_demo.app import create_app
from sqlite_demo.live.event_stream import DEFAULT_MAX_STREAMS, StreamSettings
from sqlite_demo.live.stream_route import StreamClosingServer, configure_streams
from sqlite_demo.service.access import TOKEN_ENVIRONMENT_VARIABLE, AccessPolicy, new_token
from sqlite_demo.service.client import lend_token
from sqlite_demo.store.contract import check_writable_or_busy
from sqlite_demo.store.opening import describe_db, is_postgres_url, open_store
from sqlite_demo.texts import LANGUAGES, say

#: A hang guard, not a speed requirement: a loaded machine can take many seconds to start
#: an interpreter and import the service.
STARTUP_TIMEOUT_SECONDS: Final = 60.0


def _listening_pattern() -> re.Pattern[str]:
    """The banner's first line, in any language: a parent reads the port from it."""
    parts = [say("serve.listening", language, url="URL").split("URL") for language in LANGUAGES]
    before = "|".join(re.escape(part[0]) for part in parts)
    after = "|".join(re.escape(part[1]) for part in parts)
    return re.compile(rf"^(?:{before})(http://\S+:(\d+))(?:{after})$", re.MULTILINE)


_LISTENING = _listening_pattern()


def serve(
    db: str | Path,
    host: str = "127.0.0.1",
    port: int = 0,
    *,
    token: str | None,
    allowed_hosts: Sequence[str] = (),
    max_streams: int = DEFAULT_MAX_STREAMS,
) -> None:
    """Serve the agent on ``host:port`` until interrupted; port 0 picks a free port.

    First proves the database can be written (a service that would refuse every write is
    not started), then prints, flushed, once the socket is bound (in the kit's language)::

        listening on http://ADDRESS:PORT
        live page: http://ADDRESS:PORT/?token=TOKEN

    Args:
        db: a SQLite file, or a ``postgresql://`` URL (see :func:`~sqlite_demo.store.open_store`).
        token: what every route but ``/health`` asks for (see :mod:`sqlite_demo.service.access`);
            None serves without one (``--no-token``), and the banner says so.
        allowed_hosts: Host names accepted besides the address served (``--allow-host``).
        max_streams: event streams open at once (``--max-streams``).

    Raises:
        StoreError: the database cannot be opened or written (read-only, full, corrupt, ...).
        OSError: the address cannot be resolved or bound (in use, not local, not permitted).
    """
    with open_store(db) as store:
        check_writable_or_busy(store)
    sock = _listening_socket(host, port)
    address, bound_port = sock.getsockname()[:2]
    access = AccessPolicy.for_server(token, address, bound_port, allowed_hosts)
    _print_banner(address, bound_port, token)
    # Threads take turns with the interpreter lock every 1 ms rather than 5: a request's
    # few steps between the event loop and a worker thread then wait behind a stream's
    # page encoding for a millisecond at a time, not five.
    sys.setswitchinterval(0.001)
    app = create_app(db, access=access)
    configure_streams(app, StreamSettings(max_open_streams=max_streams))
    config = uvicorn.Config(app, log_level="warning", access_log=False)
    StreamClosingServer(config).run(sockets=[sock])


def _print_banner(address: str, port: int, token: str | None) -> None:
    url = f"http://{f'[{address}]' if ':' in address else address}:{port}"
    print(say("serve.listening", url=url), flush=True)
    if token is None:
        print(say("serve.live_page", url=f"{url}/"), flush=True)
        print(say("serve.no_token"), flush=True)
    else:
        print(say("serve.live_page", url=f"{url}/?token={token}"), flush=True)
        print(say("serve.api_clients"), flush=True)
    if not ipaddress.ip_address(address).is_loopback:
        print(say("serve.plain_http"), file=sys.stderr, flush=True)


def _listening_socket(host: str, port: int) -> socket.socket:
    family, kind, protocol, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    # The protocol matters: asyncio turns Nagle's algorithm off (TCP_NODELAY) only on sockets
    # whose proto is IPPROTO_TCP, and a socket made with proto 0 (what socket() defaults to)
    # passes that on to every accepted connection. With Nagle on, a response written in two
    # parts waits for the client's delayed ACK: about 40 ms added to every request.
    sock = socket.socket(family, kind, protocol)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    # A restarted server must get its port back at once, though the killed one left
    # connections in TIME_WAIT on it.
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(address)
    sock.listen(128)
    return sock


class ServerProcess:
    """A ``python -m sqlite_demo serve`` child process on one database (a file or a URL).

    Its output goes to ``log_path`` (a pipe nobody drains could fill and block the
    server). Use it as a context manager so the child never outlives the caller.

    Args:
        db: the database the server opens: a SQLite file, or a ``postgresql://`` URL.
        log_path: where its output goes (appended to across restarts).
        port: 0 for a free port, chosen at the first start and kept for later starts.
        wrapper: words run before the command, e.g. ``("unshare", "-m", ...)`` to start the
            server in a private mount namespace where its folder is read-only or tiny.
        token: the server's token, kept across restarts; None makes a fresh random one. It
            reaches the child in its environment (:data:`TOKEN_ENVIRONMENT_VARIABLE`), not on
            its command line, which every user of the machine can read.
        no_token: serve with ``--no-token`` instead: no authentication at all.
        allowed_hosts: ``--allow-host`` values, Host names accepted besides loopback's.
        max_streams: ``--max-streams``, event streams open at once; None keeps the default.
    """

    def __init__(
        self,
        db: str | Path,
        log_path: str | Path,
        port: int = 0,
        wrapper: Sequence[str] = (),
        *,
        token: str | None = None,
        no_token: bool = False,
        allowed_hosts: Sequence[str] = (),
        max_streams: int | None = None,
    ) -> None:
        self.db: str | Path = db if is_postgres_url(db) else Path(db)
        self.log_path = Path(log_path)
        self.port = port
        self.wrapper = tuple(wrapper)
        self.token: str | None = None if no_token else (token or new_token())
        self.allowed_hosts = tuple(allowed_hosts)
        self.max_streams = max_streams
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def db_path(self) -> Path:
        """The SQLite file served; a server on PostgreSQL has none (``RuntimeError``)."""
        if not isinstance(self.db, Path):
            raise RuntimeError("this server keeps its events in PostgreSQL, not in a file")
        return self.db

    @property
    def described_db(self) -> str:
        """The database, as messages name it (a URL without its password)."""
        return describe_db(self.db)

    @property
    def url(self) -> str:
        """The base URL, e.g. ``http://127.0.0.1:8123``; valid once started."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def page_url(self) -> str:
        """The live page's address, carrying the token as ``?token=`` (as ``serve`` prints it)."""
        return f"{self.url}/" if self.token is None else f"{self.url}/?token={self.token}"

    @property
    def headers(self) -> dict[str, str]:
        """The headers that carry the token: ``Authorization: Bearer ...`` (none without one)."""
        return {} if self.token is None else {"Authorization": f"Bearer {self.token}"}

    @property
    def pid(self) -> int:
        """The running child's process id."""
        if self._process is None:
            raise RuntimeError("the server is not running")
        return self._process.pid

    def start(self) -> None:
        """Start the child and wait until ``/health`` answers; reuse the port once known.

        Raises:
            RuntimeError: the child exited or did not answer in time (the message holds
                the end of its log), or this server is running already.
        """
        if self._process is not None:
            raise RuntimeError(f"the server on {self.described_db} is running already")
        command = [*self.wrapper, sys.executable, "-m", "sqlite_demo", "serve"]
        command += ["--db", str(self.db)]
        command += ["--port", str(self.port)]
        command += [f"--allow-host={host}" for host in self.allowed_hosts]
        if self.max_streams is not None:
            command.append(f"--max-streams={self.max_streams}")
        environment = {k: v for k, v in os.environ.items() if k != TOKEN_ENVIRONMENT_VARIABLE}
        if self.token is None:
            command.append("--no-token")
        else:
            environment[TOKEN_ENVIRONMENT_VARIABLE] = self.token
        log_start = self.log_path.stat().st_size if self.log_path.exists() else 0
        with self.log_path.open("ab") as log:
            self._process = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, env=environment
            )
        self.port = self._wait_for_port(log_start)
        self._wait_until_healthy()
        if self.token is not None:
            lend_token(self.url, self.token)

    def kill(self) -> int:
        """Send ``SIGKILL``: the child dies at once, no ``finally`` or close runs.

        Returns:
            The child's exit status as ``subprocess`` reports it: ``-9`` for ``SIGKILL``.
        """
        os.kill(self.pid, signal.SIGKILL)
        return self._reap()

    def stop(self) -> None:
        """Stop the child politely (``SIGTERM``), killing it if it will not go."""
        if self._process is None:
            return
        if self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
        self._reap()

    def __enter__(self) -> ServerProcess:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def _reap(self) -> int:
        status = 0
        if self._process is not None:
            status = self._process.wait()
            self._process = None
        return status

    def _wait_for_port(self, log_start: int) -> int:
        deadline = time.monotonic() + STARTUP_TIMEOUT_SECONDS
        while time.monotonic() < deadline:
            match = _LISTENING.search(self._log_since(log_start))
            if match:
                return int(match.group(2))
            self._fail_if_exited()
            time.sleep(0.02)
        raise self._failure("serve.no_address")

    def _wait_until_healthy(self) -> None:
        deadline = time.monotonic() + STARTUP_TIMEOUT_SECONDS
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/health", timeout=1.0).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            self._fail_if_exited()
            time.sleep(0.02)
        raise self._failure("serve.no_health")

    def _fail_if_exited(self) -> None:
        if self._process is not None and self._process.poll() is not None:
            raise self._failure("serve.exited", status=self._process.returncode)

    def _failure(self, message_id: str, **fields: object) -> RuntimeError:
        self.stop()
        tail = self._log_since(0)[-2000:]
        return RuntimeError(say(message_id, database=self.described_db, tail=tail, **fields))

    def _log_since(self, offset: int) -> str:
        with self.log_path.open("rb") as log:
            log.seek(offset)
            return log.read().decode("utf-8", errors="replace")
