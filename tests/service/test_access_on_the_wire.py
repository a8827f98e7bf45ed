"""The door as ``serve`` sets it up: on the port it really binds, with the banner it prints,
refusing the flags that would leave it open.

``test_access.py`` attacks the door itself, in this process; what only a real start-up shows
is here: the token and the Host names are those of the port the kernel picked, the banner
names them, and ``--no-token`` says what it gives up.
"""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from sqlite_demo import cli, server
from tests.server_fixtures import StartServer

NO_TOKEN_WARNING = "warning: --no-token: no authentication at all"


@pytest.mark.parametrize("no_token", [False, True], ids=["with a token", "without a token"])
def test_serve_binds_a_port_and_keeps_its_door_on_that_port_as_its_banner_says(
    start_server: StartServer, db_path: Path, no_token: bool
) -> None:
    served = start_server(db_path, no_token=no_token, allowed_hosts=["chat.internal"])
    banner = served.log_path.read_text(encoding="utf-8")
    token = served.token

    assert served.port > 0 and served.url == f"http://127.0.0.1:{served.port}"
    assert f"listening on {served.url}\n" in banner
    with httpx.Client(base_url=served.url, timeout=10) as stranger:
        assert stranger.get("/health").json() == {"status": "ok", "database": "writable"}
        anonymous = stranger.get("/sessions")
        evil, internal = f"evil.example:{served.port}", f"chat.internal:{served.port}"
        foreign = stranger.get("/sessions", headers={**served.headers, "Host": evil})
        allowed = stranger.get("/sessions", headers={**served.headers, "Host": internal})
        page = stranger.get("/", params={"token": token} if token else {})
    assert (foreign.status_code, foreign.json()["error"]["code"]) == (403, "forbidden_host")
    assert allowed.status_code == 200
    assert page.status_code == 200
    if no_token:
        assert token is None
        assert f"live page: {served.url}/\n" in banner and NO_TOKEN_WARNING in banner
        assert anonymous.status_code == 200
        assert "set-cookie" not in page.headers
    else:
        assert token is not None
        assert f"live page: {served.url}/?token={token}\n" in banner
        assert NO_TOKEN_WARNING not in banner
        assert (anonymous.status_code, anonymous.json()["error"]["code"]) == (401, "unauthorized")
        assert page.headers["set-cookie"].startswith(f"sqlite_demo_token_{served.port}={token};")


@pytest.mark.parametrize(
    ("flags", "complaint"),
    [
        (["--no-token", "--host", "0.0.0.0"], "--no-token serves on loopback only"),
        (["--no-token", "--token", "abc"], "not allowed with argument"),
        (["--token", "has space"], "a token is 1 to 256 letters"),
        (["--token", "a;b=c"], "a token is 1 to 256 letters"),
    ],
)
def test_serve_refuses_a_door_it_cannot_keep(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    flags: list[str],
    complaint: str,
) -> None:
    def served(*arguments: object, **options: object) -> None:
        raise AssertionError(f"served despite {flags}")

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(server, "serve", served)

    with pytest.raises(SystemExit) as exited:
        cli.main(["serve", "--db", "x.db", *flags])

    stderr = capsys.readouterr().err
    assert exited.value.code == 2, stderr
    assert complaint in stderr
    assert "has space" not in stderr and "a;b=c" not in stderr
    assert not (tmp_path / "x.db").exists()
