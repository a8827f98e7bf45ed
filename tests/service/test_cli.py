"""The command line and the demo, run as a learner runs them: ``python -m sqlite_demo``."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from sqlite_demo.server import ServerProcess
from sqlite_demo.service.client import AgentClient
from sqlite_demo.texts import EN, say
from tests.server_fixtures import StartServer
from tests.service.helpers import query

# The demo and serve run as real processes (some only to be refused their arguments).
pytestmark = pytest.mark.server

PHASES = 5
#: The demo's closing summary: one line per phase, "Phase 3: <title>: passed".
VERDICT = re.compile(r"^Phase (\d): [^─\n]*: (passed|FAILED)$", re.MULTILINE)


def run_kit(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run ``python -m sqlite_demo ARGS`` to the end (bounded) and capture its output."""
    command = [sys.executable, "-m", "sqlite_demo", *args]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=120)


def test_the_demo_runs_end_to_end_and_every_phase_passes(tmp_path: Path) -> None:
    result = run_kit(cwd=tmp_path)

    assert result.returncode == 0, result.stdout + result.stderr
    for phase in range(1, PHASES + 1):
        assert f"Phase {phase}:" in result.stdout
    verdicts = VERDICT.findall(result.stdout)
    assert verdicts == [(str(phase), "passed") for phase in range(1, PHASES + 1)]
    assert "FAILED" not in result.stdout


def test_the_demo_in_chinese_passes_every_phase_and_says_so_in_chinese_only(
    tmp_path: Path,
) -> None:
    result = run_kit("demo", "--lang", "zh", cwd=tmp_path)

    assert result.returncode == 0, result.stdout + result.stderr
    for number in range(1, PHASES + 1):
        phase = say("demo.phase", "zh", number=number, title=say(f"demo.phase.{number}", "zh"))
        assert say("demo.verdict", "zh", phase=phase, verdict=say("demo.passed", "zh")) in (
            result.stdout
        )
    # Every check a passing run on a SQLite file states ("ran to the end" is said only when it
    # did not; the PostgreSQL check only on PostgreSQL).
    unsaid = {"demo.check.ran_to_end", "demo.check.postgres_committed"}
    checks = [key for key in EN if key.startswith("demo.check.") and key not in unsaid]
    assert [key for key in checks if say(key, "zh") not in result.stdout] == []
    assert [key for key in checks if say(key, "en") in result.stdout] == []


def test_the_demo_on_a_given_path_leaves_the_eight_events_there(tmp_path: Path) -> None:
    db = tmp_path / "demo.db"

    result = run_kit("demo", "--db", str(db), cwd=tmp_path)

    assert result.returncode == 0, result.stdout + result.stderr
    assert query(db, "SELECT count(*) FROM events") == [(8,)]


def test_the_demo_refuses_a_database_that_holds_data(tmp_path: Path) -> None:
    db = tmp_path / "demo.db"
    db.write_bytes(b"not empty")

    result = run_kit("demo", "--db", str(db), cwd=tmp_path)

    assert result.returncode == 2
    assert "refusing" in result.stdout
    assert db.read_bytes() == b"not empty"


def test_the_demo_on_postgresql_passes_every_phase_and_then_refuses_the_same_database(
    postgres_url: str, tmp_path: Path
) -> None:
    result = run_kit("demo", "--db", postgres_url, cwd=tmp_path)
    again = run_kit("demo", "--db", postgres_url, cwd=tmp_path)

    assert result.returncode == 0, result.stdout + result.stderr
    verdicts = VERDICT.findall(result.stdout)
    assert verdicts == [(str(phase), "passed") for phase in range(1, PHASES + 1)]
    assert "PostgreSQL holds the six events" in result.stdout
    assert query(postgres_url, "SELECT count(*) FROM events") == [(8,)]
    assert again.returncode == 2 and "holds sessions" in again.stdout
    assert query(postgres_url, "SELECT count(*) FROM events") == [(8,)]


def test_backup_copies_a_live_database_with_its_wal(
    start_server: StartServer, db_path: Path, tmp_path: Path
) -> None:
    server = start_server(db_path)
    with AgentClient(server.url, token=server.token) as client:
        session = client.create_session("订单客服")["id"]
        client.send_message(session, "帮我查一下订单数量")
    copy = tmp_path / "copy.db"

    result = run_kit("backup", str(db_path), str(copy), cwd=tmp_path)

    assert result.returncode == 0, result.stderr
    assert "1 sessions, 4 events" in result.stdout
    assert query(copy, "SELECT event_id, type FROM events") == query(
        db_path, "SELECT event_id, type FROM events"
    )


@pytest.mark.parametrize(
    ("args", "complaint"),
    [
        (["serve"], "--db"),
        (["serve", "--db", "x.db", "--port", "70000"], "between 0 and 65535"),
        (["serve", "--db", "x.db", "--port", "http"], "not a port number"),
        (["backup", "missing.db", "copy.db"], "no database file at missing.db"),
        (["backup", "x.db", "no/such/folder/copy.db"], "no folder no/such/folder"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_bad_arguments_exit_2_with_a_clear_message(
    tmp_path: Path, args: list[str], complaint: str
) -> None:
    (tmp_path / "x.db").write_bytes(b"")

    result = run_kit(*args, cwd=tmp_path)

    assert result.returncode == 2
    assert complaint in result.stderr
    assert "Traceback" not in result.stderr


def test_backing_up_a_file_that_is_not_a_database_fails_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "notes.db").write_text("not a database " * 100)

    result = run_kit("backup", "notes.db", "copy.db", cwd=tmp_path)

    assert result.returncode == 1
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("cannot back up notes.db to copy.db:") and "not a database" in line
    assert sorted(path.name for path in tmp_path.iterdir()) == ["notes.db"]


def test_backup_refuses_to_overwrite_an_existing_file(tmp_path: Path) -> None:
    (tmp_path / "a.db").write_bytes(b"")
    (tmp_path / "b.db").write_bytes(b"keep me")

    result = run_kit("backup", "a.db", "b.db", cwd=tmp_path)

    assert result.returncode == 2
    assert "already exists" in result.stderr
    assert (tmp_path / "b.db").read_bytes() == b"keep me"


def test_serve_prints_the_address_it_listens_on(server: ServerProcess) -> None:
    log = server.log_path.read_text(encoding="utf-8")

    assert f"listening on http://127.0.0.1:{server.port}" in log


def test_the_demo_refuses_a_path_in_a_missing_directory(tmp_path: Path) -> None:
    result = run_kit("demo", "--db", str(tmp_path / "missing" / "demo.db"), cwd=tmp_path)

    assert result.returncode == 2
    assert "does not exist" in result.stdout
