"""The store's refusals reach a Chinese reader in Chinese: the command line in the kit's
language, the API in the request's (``Accept-Language``). The store keeps each refusal as a
sentence id and its fields (:mod:`eventlog.messages`), ``str(error)`` stays the English, and
the database's triggers keep a stable English sentence that the store maps to an id."""

# ruff: noqa: RUF001 - Chinese marks are what some of these tests look at

from __future__ import annotations

import ast
import re
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from eventlog import CallState, EventLogError, check_call_id, validate_append
from eventlog.messages import EN, TRIGGERS
from maintainer.translations.prose import english_prose
from sqlite_demo.service.http_errors import install_error_handlers
from sqlite_demo.store.sqlite.backup import backup_database
from sqlite_demo.store.sqlite.faults import translated
from sqlite_demo.texts import Said, refusal, say_refusal

KIT_ROOT = Path(__file__).resolve().parents[2]
CJK = re.compile(r"[\u3400-\u9fff]")
#: A value the sentence quotes (a repr, a path, a placeholder's code): not prose.
QUOTED = re.compile(r"'[^']*'|\S*/\S*|\b\w+\[[^\]]*\]|\b\w*_\w*\b|\b(?:int|list|str|set)\b")


def named_sentences() -> set[str]:
    """The sentence ids the store's and the rules' code names: ``sentence("id", ...)``."""
    named = set(TRIGGERS.values())
    for folder in ("eventlog", "sqlite_demo"):
        for path in (KIT_ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "sentence":
                    first = node.args[0] if node.args else None
                    if isinstance(first, ast.Constant):  # else a choice of two, named below
                        named.add(first.value)
    return named


def test_every_sentence_the_code_names_exists_and_every_one_is_named() -> None:
    named = named_sentences() | {"text.not_a_non_empty_string", "text.not_a_string"}
    assert sorted(named - set(EN)) == []
    assert sorted(set(EN) - named) == []


@pytest.mark.parametrize("schema", ["sqlite", "postgres"])
def test_every_trigger_says_a_sentence_the_store_maps(schema: str) -> None:
    sql = (KIT_ROOT / "sqlite_demo" / "store" / schema / "schema.sql").read_text(encoding="utf-8")
    said = re.findall(r"RAISE(?:\(ABORT,| EXCEPTION)\s*'([^']*)'", sql)
    assert said
    assert [text for text in said if not any(text.startswith(key) for key in TRIGGERS)] == []


def refused(call: Callable[[], object]) -> EventLogError:
    with pytest.raises(EventLogError) as caught:
        call()
    return caught.value


def a_trigger_refusing(statement: str) -> EventLogError:
    """What the store makes of SQLite's own refusal of ``statement`` (its schema's trigger)."""
    connection = sqlite3.connect(":memory:")
    schema = (KIT_ROOT / "sqlite_demo" / "store" / "sqlite" / "schema.sql").read_text("utf-8")
    connection.executescript(schema)
    connection.execute("INSERT INTO sessions (id, title, created_at) VALUES ('s', 't', 0)")
    connection.execute(
        "INSERT INTO events (session_id, type, payload, created_at)"
        " VALUES ('s', 'user_message', '{\"text\": \"hi\"}', 0)"
    )
    with pytest.raises(sqlite3.IntegrityError) as caught:
        connection.execute(statement)
    return translated(caught.value)


REFUSALS: dict[str, Callable[[], EventLogError]] = {
    "unknown event type": lambda: refused(lambda: validate_append("s", "shout", {})),
    "empty session id": lambda: refused(lambda: validate_append("", "user_message", {})),
    "payload not a mapping": lambda: refused(lambda: validate_append("s", "user_message", [])),
    "missing key": lambda: refused(lambda: validate_append("s", "user_message", {})),
    "a tuple in the payload": lambda: refused(
        lambda: validate_append("s", "user_message", {"content": "hi", "x": (1,)})
    ),
    "a set in the payload": lambda: refused(
        lambda: validate_append("s", "user_message", {"content": "hi", "x": {1}})
    ),
    "call id used": lambda: refused(lambda: check_call_id("tool_call", "c1", CallState.OPEN)),
    "result never called": lambda: refused(
        lambda: check_call_id("tool_result", "c1", CallState.UNUSED)
    ),
    "backup without a source": lambda: refused(lambda: backup_database("no.db", "copy.db")),
    "an update of an event": lambda: a_trigger_refusing("UPDATE events SET type = 'x'"),
    "a delete of an event": lambda: a_trigger_refusing("DELETE FROM events"),
}


@pytest.mark.parametrize("case", REFUSALS)
def test_a_refusal_is_english_as_it_was_and_chinese_for_a_chinese_reader(case: str) -> None:
    error = REFUSALS[case]()
    assert isinstance(refusal(error), Said)
    assert say_refusal(error, "en") == str(error)
    chinese = say_refusal(error, "zh")
    assert CJK.search(chinese), chinese
    assert english_prose(QUOTED.sub(" ", chinese)) == [], chinese


def test_the_triggers_english_is_the_store_english_it_always_was() -> None:
    error = a_trigger_refusing("UPDATE events SET type = 'x'")
    assert str(error) == (
        "the database refused the write: events are append-only:"
        " append a correcting event instead of updating"
    )
    assert say_refusal(error, "zh").startswith("数据库拒绝了这次写入：事件只追加")


def test_the_api_words_a_store_refusal_in_the_language_the_request_asks_for() -> None:
    app = FastAPI()
    install_error_handlers(app)

    @app.get("/refuse")
    def refuse() -> None:
        validate_append("s", "user_message", {"content": 1})

    client = TestClient(app)
    chinese = client.get("/refuse", headers={"Accept-Language": "zh-CN"}).json()["error"]
    english = client.get("/refuse", headers={"Accept-Language": "en"}).json()["error"]
    assert chinese["code"] == english["code"] == "invalid_request"
    assert english["message"] == "user_message payload['content'] must be a string, got int"
    assert chinese["message"] == "user_message 的 payload['content'] 必须是字符串，这里是 int"


def test_backup_says_the_stores_refusal_in_the_kits_language(tmp_path: Path) -> None:
    (tmp_path / "a.db").write_bytes(b"")
    sqlite3.connect(tmp_path / "a.db").close()
    (tmp_path / "b.db").write_text("keep me", encoding="utf-8")
    command = [sys.executable, "-m", "sqlite_demo", "--lang", "zh", "backup", "a.db", "b.db"]
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert "b.db 已经存在：请换一个新的文件名" in done.stderr
    assert (tmp_path / "b.db").read_text(encoding="utf-8") == "keep me"
