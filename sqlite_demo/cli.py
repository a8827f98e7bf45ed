"""The command line: ``python -m sqlite_demo [demo | sdk | serve | backup]``.

* ``python -m sqlite_demo`` or ``python -m sqlite_demo demo [--db PATH|URL]``: the five-phase
  crash-and-replay demo against a real server subprocess (see :mod:`sqlite_demo.demo`).
* ``python -m sqlite_demo sdk [--db PATH]``: an OpenAI Agents SDK agent, its session kept in
  the log, SIGKILLed mid-run and resumed by a new process (see :mod:`sqlite_demo.sdk_demo`;
  needs the ``agents`` extra; SQLite only: :class:`sqlite_demo.EventLogSession` keeps a file).
* ``python -m sqlite_demo serve --db PATH|URL [--host 127.0.0.1] [--port 0]``: run the agent
  service; port 0 picks a free port, and the first line printed is its address, the second
  the live page's, carrying the token (``--token``, else ``$SQLITE_DEMO_TOKEN``, else a
  random one; ``--no-token`` for none, on loopback only). ``--allow-host NAME`` accepts
  another Host name than the address served (see :mod:`sqlite_demo.service.access`).
  ``--crashable`` (or ``--kill-every SECONDS``) serves it from a child process that Enter
  (or the timer) SIGKILLs and restarts, to watch the live page resume (see
  :mod:`sqlite_demo.crash_loop`).
* ``--db`` is a SQLite file, or a ``postgresql://`` URL for a PostgreSQL database: the same
  service on either (see :func:`sqlite_demo.store.open_store`).
* ``python -m sqlite_demo backup SRC DEST``: copy a live database, WAL included, with
  SQLite's online backup API (copying only the main file would lose commits still in -wal),
  into a new single file that needs no ``-wal`` of its own.

Every line, the help included, is in the kit's language (``python -m grader lang``, else the
locale); ``--lang en|zh`` chooses one for a run, and the processes it starts.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path

from eventlog import StorageError, StoreError
from grader.i18n import apply_language, language_option
from grader.i18n.arguments import Parser
from sqlite_demo.live.event_stream import DEFAULT_MAX_STREAMS
from sqlite_demo.service.access import TOKEN_ENVIRONMENT_VARIABLE
from sqlite_demo.texts import LANGUAGES, default_language, say, say_refusal


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command ``argv`` names (the demo when it names none); return the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    # The language comes first: the help is in it. The processes started later (the demo's
    # server, the SDK demo's agents) speak it too.
    apply_language(language_option(argv))
    parser = _build_parser()
    args = parser.parse_args(argv)
    if args.command in (None, "demo"):
        from sqlite_demo.demo import run_demo

        return run_demo(db_path=getattr(args, "db", None), language=default_language())
    if args.command == "sdk":
        from sqlite_demo.sdk_demo import run_sdk_demo

        return run_sdk_demo(db_path=args.db)
    if args.command == "serve" and (args.crashable or args.kill_every is not None):
        return _serve_crashable(parser, args)
    if args.command == "serve":
        return _serve(args, _token(parser, args))
    return _backup(parser, Path(args.src), Path(args.dest))


def _build_parser() -> argparse.ArgumentParser:
    language = Parser(add_help=False)
    language.add_argument(
        "--lang", choices=LANGUAGES, help=say("cli.lang", default=default_language())
    )
    parser = Parser(
        prog="python -m sqlite_demo", description=say("cli.description"), parents=[language]
    )
    commands = parser.add_subparsers(dest="command", metavar="{demo,sdk,serve,backup}")
    demo = commands.add_parser("demo", help=say("cli.demo"), parents=[language])
    demo.add_argument("--db", type=_database, help=say("cli.demo_db"))
    sdk = commands.add_parser("sdk", help=say("cli.sdk"), parents=[language])
    sdk.add_argument("--db", type=Path, help=say("cli.sdk_db"))
    _add_serve_options(commands.add_parser("serve", help=say("cli.serve"), parents=[language]))
    backup = commands.add_parser("backup", help=say("cli.backup"), parents=[language])
    backup.add_argument("src", help=say("cli.backup_src"))
    backup.add_argument("dest", help=say("cli.backup_dest"))
    return parser


def _add_serve_options(serve: argparse.ArgumentParser) -> None:
    serve.add_argument("--db", type=_database, required=True, help=say("cli.serve_db"))
    serve.add_argument("--host", default="127.0.0.1", help=say("cli.host"))
    serve.add_argument("--port", type=_port, default=0, help=say("cli.port"))
    door = serve.add_mutually_exclusive_group()
    door.add_argument("--token", help=say("cli.token", variable=TOKEN_ENVIRONMENT_VARIABLE))
    door.add_argument("--no-token", action="store_true", help=say("cli.no_token"))
    serve.add_argument(
        "--max-streams",
        type=_stream_count,
        default=DEFAULT_MAX_STREAMS,
        metavar="N",
        help=say("cli.max_streams", default=DEFAULT_MAX_STREAMS),
    )
    serve.add_argument(
        "--allow-host", action="append", default=[], metavar="NAME", help=say("cli.allow_host")
    )
    serve.add_argument("--crashable", action="store_true", help=say("cli.crashable"))
    serve.add_argument("--kill-every", type=_seconds, metavar="SECONDS", help=say("cli.kill_every"))


def _database(text: str) -> str | Path:
    """A ``--db``: a ``postgresql://`` URL as it is, anything else a file path."""
    from sqlite_demo.store.opening import is_postgres_url

    return text if is_postgres_url(text) else Path(text)


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(say("cli.bad_port", value=text)) from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(say("cli.port_range", port=port))
    return port


def _stream_count(text: str) -> int:
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(say("cli.bad_streams", value=text)) from None
    if not 1 <= count <= 10_000:
        raise argparse.ArgumentTypeError(say("cli.streams_range", count=count))
    return count


def _seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(say("cli.bad_seconds", value=text)) from None
    if not 0.5 <= seconds <= 86400:
        raise argparse.ArgumentTypeError(say("cli.seconds_range", value=text))
    return seconds


def _token(parser: argparse.ArgumentParser, args: argparse.Namespace) -> str | None:
    """The token to serve with: ``--token``, the environment's, a new one; None for none."""
    from sqlite_demo.service.access import check_token, new_token

    if args.no_token:
        if not _is_loopback(args.host):
            parser.error(say("cli.no_token_loopback"))
        return None
    token = args.token or os.environ.get(TOKEN_ENVIRONMENT_VARIABLE) or new_token()
    try:
        return check_token(token)
    except ValueError:
        parser.error(say("cli.bad_token"))


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def _serve_crashable(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    if args.host != "127.0.0.1":
        parser.error(say("cli.crashable_loopback"))
    from sqlite_demo.crash_loop import run_crash_loop

    token = _token(parser, args)
    return run_crash_loop(
        args.db,
        port=args.port,
        kill_every=args.kill_every,
        token=token,
        allowed_hosts=args.allow_host,
    )


def _serve(args: argparse.Namespace, token: str | None) -> int:
    from sqlite_demo.server import serve
    from sqlite_demo.store.opening import describe_db

    db, host, port = args.db, args.host, args.port
    try:
        serve(
            db,
            host=host,
            port=port,
            token=token,
            allowed_hosts=args.allow_host,
            max_streams=args.max_streams,
        )
    except StoreError as error:
        said = say_refusal(error)
        print(say("cli.cannot_serve_db", database=describe_db(db), error=said), file=sys.stderr)
        return 1
    except OSError as error:
        print(say("cli.cannot_serve_on", address=f"{host}:{port}", error=error), file=sys.stderr)
        return 1
    return 0


def _backup(parser: argparse.ArgumentParser, src: Path, dest: Path) -> int:
    from sqlite_demo.store.sqlite.backup import backup_database

    try:
        backup_database(src, dest)
    except StorageError as error:
        print(say("cli.cannot_back_up", src=src, dest=dest, error=error), file=sys.stderr)
        return 1
    except StoreError as error:
        parser.error(say_refusal(error))  # a wrong argument: exit status 2, as argparse does
    sessions, events = _count_rows(dest)
    size = dest.stat().st_size
    print(say("cli.backed_up", src=src, dest=dest, sessions=sessions, events=events, size=size))
    return 0


def _count_rows(path: Path) -> tuple[int, int]:
    # immutable=1: read the fresh copy without locks or a -shm file, so counting its rows
    # leaves no trace; nothing else can be writing to a file we just created.
    connection = sqlite3.connect(f"{path.resolve().as_uri()}?immutable=1", uri=True)
    try:
        sessions = connection.execute("SELECT count(*) FROM sessions").fetchone()[0]
        events = connection.execute("SELECT count(*) FROM events").fetchone()[0]
    finally:
        connection.close()
    return int(sessions), int(events)


if __name__ == "__main__":
    sys.exit(main())
