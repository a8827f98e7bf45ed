"""A Chinese reader's whole path, walked in a fresh clone under ``LANG=zh_CN.UTF-8`` with no
``--lang`` anywhere: ``README.zh-CN.md``'s set-up (its language command included), the grader
on the stubs and on a wrong file, ``python -m sqlite_demo`` (the demo, serve and an API
error, backup, the SDK demo), the ``--help`` of every command, the live page and the browser
site in Chromium, and the Chinese notebooks executed. No English prose is met on the way,
outside identifiers, protocol names and quoted code.

The set-up runs the README's own commands; only the packages they install are shared with
this test's environment (its site-packages go first on ``PYTHONPATH``, so pip finds every
requirement satisfied), so that the walk takes minutes, not a download of JupyterLab.
"""

# ruff: noqa: RUF001 - Chinese marks are what some of these tests look at

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import sysconfig
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from grader.i18n import LOCALE_VARIABLES
from grader.i18n.choice import LANGUAGE_VARIABLE
from maintainer.translations.markdown import english_sections, translated_sections
from maintainer.translations.prose import english_prose
from tests.implementations.corpus import write_mutant
from tests.implementations.mutants import MUTANTS

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]

KIT_ROOT = Path(__file__).resolve().parents[2]
CJK = re.compile(r"[\u3400-\u9fff]")
#: What a line of output may hold that is not prose: commands, options, addresses, paths.
NOT_PROSE = re.compile(
    r"python3? -m [\w.]+(?:[ \t]+[\w./:=@<>-]+)*|pip install \S+(?: \S+)*|https?://\S+"
    r"|--[\w-]+|\S*/\S*"
)
#: A line of code in the output (a case the grader shows, a usage line, a SQL trace).
CODE_LINE = re.compile(
    r"[=(){}\[\]]|^\s*(?:for|if|with|def|return|import|from)\b"
    r"|\b(?:SELECT|INSERT|CREATE|UPDATE|DELETE|PRAGMA|EXPLAIN|SEARCH|SCAN|ORDER BY|LIMIT"
    r"|RETURNING)\b"
)
#: SQL, or SQLite's plan of a query, up to the next Chinese word: quoted code.
SQL = re.compile(
    r"\b(?:SEARCH|SCAN|SELECT|INSERT|UPDATE|DELETE|CREATE|PRAGMA|EXPLAIN|FROM|WHERE|AND|ORDER BY)\b"
    r"[^\u3400-\u9fff]*"
)
WAIT = 120.0  # a hang guard for a process to say something, not a speed requirement


def english_in(output: str) -> list[str]:
    """The English prose in ``output``: lines of code without a Chinese word are skipped,
    and commands, options, addresses, paths and SQL are names or code."""
    kept = [line for line in output.splitlines() if CJK.search(line) or not CODE_LINE.search(line)]
    return english_prose(SQL.sub(" ", NOT_PROSE.sub(" ", "\n".join(kept))))


def test_the_english_check_sees_prose_and_leaves_code_and_commands_alone() -> None:
    assert english_in("判题：exercises\n这是 the log we keep。") == ["the log we keep"]
    assert english_in("for i in range(120):\n    log, _ = append_event(log)") == []
    assert english_in("运行 python -m grader lang zh --leave-exercises 即可") == []
    assert english_in("  SCAN events USING INDEX idx_events_session") == []
    assert english_in("整个会话 SEARCH events USING INDEX idx (session_id=?)") == []
    # A statement a trace prints across lines: its last line is still SQL.
    trace = "  SELECT event_id FROM events WHERE session_id = ?\n  ORDER BY event_id"
    assert english_in(trace) == []


def the_readme_set_up() -> list[str]:
    """The commands ``README.zh-CN.md`` gives under its set-up heading, in order."""
    readme = (KIT_ROOT / "README.zh-CN.md").read_text(encoding="utf-8")
    english = english_sections((KIT_ROOT / "README.md").read_text(encoding="utf-8"))
    assert "## Set up" in english
    (section,) = [s.text for s in translated_sections(readme) if s.heading == "## Set up"]
    blocks = re.findall(r"```bash\n(.*?)```", section, flags=re.DOTALL)
    return [line for block in blocks for line in block.splitlines() if line.strip()]


@dataclass
class Clone:
    """A clone of the kit's last commit, set up as its Chinese README says."""

    root: Path
    environment: dict[str, str]
    said: str = ""  # what the set-up printed

    def run(self, command: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
        """``command`` in bash, in the clone, its virtual environment active."""
        return subprocess.run(
            ["bash", "-c", f". .venv/bin/activate && {command}"],
            cwd=self.root,
            env=self.environment,
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=timeout,
            check=False,
        )

    def start(self, command: str) -> subprocess.Popen[str]:
        return subprocess.Popen(
            ["bash", "-c", f". .venv/bin/activate && exec {command}"],
            cwd=self.root,
            env=self.environment,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            encoding="utf-8",
        )


def shared_packages(folder: Path) -> Path:
    """A view of this environment's installed packages without the kit itself: its editable
    install's finder would otherwise load this checkout's code, not the clone's."""
    folder.mkdir()
    for entry in Path(sysconfig.get_paths()["purelib"]).iterdir():
        if not entry.name.startswith(("__editable__", "agent_persistence_kit")):
            (folder / entry.name).symlink_to(entry)
    return folder


def chinese_environment(packages: Path) -> dict[str, str]:
    """This environment with a Chinese locale and nothing else choosing a language, its
    packages shared (pip fetches only the build backend the kit's pyproject asks for)."""
    dropped = {*LOCALE_VARIABLES, LANGUAGE_VARIABLE, "VIRTUAL_ENV", "PYTHONPATH"}
    kept = {key: value for key, value in os.environ.items() if key not in dropped}
    return {
        **kept,
        "LANG": "zh_CN.UTF-8",
        "PYTHONPATH": str(packages),
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "PIP_QUIET": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
    }


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Clone:
    folder = tmp_path_factory.mktemp("reader")
    root = folder / "agent-persistence-kit"
    subprocess.run(["git", "clone", "-q", str(KIT_ROOT), str(root)], check=True)
    found = Clone(root, chinese_environment(shared_packages(folder / "site-packages")))
    commands = the_readme_set_up()
    assert any("pip install -e ." in line for line in commands)
    assert "python -m grader lang zh" in commands
    for command in commands:  # one at a time: the kit's own tools are what is read
        done = subprocess.run(
            ["bash", "-c", command if "venv" in command else f". .venv/bin/activate && {command}"],
            cwd=root, env=found.environment, capture_output=True, text=True, encoding="utf-8",
            timeout=1200,
        )  # fmt: skip
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        if command.startswith("python -m "):  # pip's own words are pip's, not the kit's
            found.said += done.stdout + done.stderr
    return found


def test_the_readmes_set_up_chooses_chinese_for_the_kit_and_its_stubs(clone: Clone) -> None:
    assert (clone.root / ".kit-language").read_text(encoding="utf-8") == "zh\n"
    stub = (clone.root / "exercises" / "replay.py").read_text(encoding="utf-8")
    assert "尚未实现" in stub and "示例" in stub
    assert "中文" in clone.said
    assert english_in(clone.said) == []


def test_the_grader_on_the_stubs_speaks_chinese(clone: Clone) -> None:
    done = clone.run("python -m grader")
    assert done.returncode == 1, done.stderr
    assert "尚未实现" in done.stdout and "总分：0/100" in done.stdout
    assert english_in(done.stdout + done.stderr) == []


def test_the_grader_on_a_wrong_file_speaks_chinese(clone: Clone) -> None:
    wrong = write_mutant(next(m for m in MUTANTS if m.name == "replay_camelcase_key"), clone.root)
    done = clone.run(f"python -m grader --target {wrong.name}")
    assert done.returncode == 1, done.stderr
    assert "违反的约定" in done.stdout and "最小反例" in done.stdout and "未通过" in done.stdout
    assert english_in(done.stdout + done.stderr) == []


def test_a_comment_in_a_shown_case_is_chinese(clone: Clone) -> None:
    wrong = write_mutant(next(m for m in MUTANTS if m.name == "accepts_unknown_type"), clone.root)
    done = clone.run(f"python -m grader --target {wrong.name} --task reject_bad_input")
    assert done.returncode == 1, done.stderr
    comments = [line.split("#", 1)[1] for line in done.stdout.splitlines() if "  # " in line]
    assert comments
    assert [comment for comment in comments if not CJK.search(comment)] == []


COMMANDS = [
    "python -m grader", "python -m grader lang", "python -m grader batch",
    "python -m grader gradescope", "python -m grader site",
    "python -m sqlite_demo", "python -m sqlite_demo demo", "python -m sqlite_demo sdk",
    "python -m sqlite_demo serve", "python -m sqlite_demo backup",
]  # fmt: skip


def test_release_in_a_learners_copy_says_in_chinese_where_it_lives(clone: Clone) -> None:
    done = clone.run("python -m grader release --help", timeout=120)
    assert done.returncode == 2
    assert "python -m maintainer release" in done.stderr and CJK.search(done.stderr)
    assert english_in(done.stderr) == []


@pytest.mark.parametrize("command", COMMANDS)
def test_every_help_is_chinese_argparses_own_words_included(clone: Clone, command: str) -> None:
    done = clone.run(f"{command} --help", timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("用法：") and "显示这段帮助，然后退出" in done.stdout
    assert "usage:" not in done.stdout and "options:" not in done.stdout
    assert english_in(done.stdout) == []


def test_a_wrong_option_is_refused_in_chinese(clone: Clone) -> None:
    done = clone.run("python -m sqlite_demo serve --db x.db --port nine")
    assert done.returncode == 2
    assert "错误" in done.stderr and english_in(done.stderr) == []


def test_the_demo_speaks_chinese(clone: Clone) -> None:
    done = clone.run("python -m sqlite_demo")
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "第 5 阶段" in done.stdout and "检查通过" in done.stdout
    assert english_in(done.stdout + done.stderr) == []


def read_until(process: subprocess.Popen[str], pattern: str) -> tuple[list[str], re.Match[str]]:
    """Lines ``process`` printed up to the first that matches ``pattern``."""
    assert process.stdout is not None
    lines: list[str] = []
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        lines.append(line.rstrip("\n"))
        found = re.search(pattern, line)
        if found:
            return lines, found
    raise AssertionError(f"no line matching {pattern!r}: {lines}")


@dataclass
class Served:
    """``serve --crashable`` on a file in the clone."""

    process: subprocess.Popen[str]
    said: list[str]  # its first lines
    url: str
    page: str  # the live page's address, carrying the token


@pytest.fixture(scope="module")
def served(clone: Clone) -> Iterator[Served]:
    process = clone.start("python -m sqlite_demo serve --db chat.db --crashable")
    try:
        lines, listening = read_until(process, r"正在监听 (http://\S+)")
        more, page = read_until(process, r"实时页面：(http://[^\s（]+)")
        rest, _ = read_until(process, r"按回车")
        yield Served(process, [*lines, *more, *rest], listening[1], page[1])
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=60)


def test_serve_says_where_and_how_in_chinese(served: Served) -> None:
    assert english_in("\n".join(served.said)) == []


def test_an_api_error_is_worded_in_chinese(served: Served) -> None:
    url, page = served.url, served.page
    refused = httpx.get(f"{url}/sessions")  # no token, no Accept-Language: the kit's language
    assert refused.status_code == 401
    error = refused.json()["error"]
    assert error["code"] == "unauthorized" and CJK.search(error["message"])
    token = page.split("token=", 1)[1]
    headers = {"Authorization": f"Bearer {token}", "Accept-Language": "zh-CN,zh;q=0.9"}
    missing = httpx.get(f"{url}/sessions/nope/events", headers=headers)
    assert missing.status_code == 404
    assert missing.json()["error"]["message"] == "没有 id 为 'nope' 的会话"
    bad = httpx.post(f"{url}/sessions", headers=headers, json={"title": 3})
    assert bad.status_code == 422
    for message in (error["message"], bad.json()["error"]["message"]):
        assert english_in(message) == []
    english = httpx.get(f"{url}/sessions/nope/events", headers={**headers, "Accept-Language": "en"})
    assert english.json()["error"]["message"] == "no session with id 'nope'"


@pytest.mark.browser
def test_the_live_page_rewords_its_connection_log_in_chinese_after_a_switch(
    served: Served,
) -> None:
    with browser_page() as page:
        from playwright.sync_api import expect

        expect.set_options(timeout=int(WAIT * 1000))  # a restart on a busy machine takes a while
        page.goto(served.page + "&lang=en")  # the page starts in English, as a reader left it
        page.fill("#new-title", "订单客服")
        page.click("#new-session")
        expect(page.locator("#connection")).to_have_attribute("data-state", "live")
        page.fill("#message", "帮我查一下订单数量")
        page.press("#message", "Enter")
        expect(page.locator("#chat")).to_contain_text("query_order_count")
        assert served.process.stdin is not None
        served.process.stdin.write("\n")  # Enter: SIGKILL the server, start it again
        served.process.stdin.flush()
        log = page.locator("#connection-log")
        expect(log).to_contain_text("reconnected: resumed after event 4")  # in English
        page.select_option("#language", "zh")
        expect(log).to_contain_text("已重新连接：从事件 4 之后断线续传")
        expect(page.locator("#chat")).to_contain_text("已重新连接")
        expect(page.locator("html")).to_have_attribute("lang", "zh-CN")
        assert english_in(visible_text(page)) == []


@pytest.mark.browser
def test_the_browser_site_opens_in_chinese_and_grades_in_chinese(clone: Clone) -> None:
    from tests.site.conftest import LOAD_MS, require_browser

    require_browser()
    server = clone.start(f"python -m grader site --serve --port {free_port()}")
    try:
        lines, found = read_until(server, r"正在提供 (http://[^\s（]+)")
        assert english_in("\n".join(lines)) == []
        with browser_page() as page:
            from playwright.sync_api import expect

            page.goto(found[1])
            status = page.locator("#status")
            expect(status).to_have_attribute("data-state", "ready", timeout=LOAD_MS)
            assert page.title() == "Agent 持久层：练习"
            expect(page.locator("#docs h4").first).to_have_text("示例")
            page.click("#check-all")
            expect(page.locator("#report")).to_have_attribute("data-score", "0", timeout=LOAD_MS)
            expect(status).to_have_text("判题完成：0/100 分。")
            assert english_in(visible_text(page)) == []
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def browser_page() -> Any:
    """A page in a fresh headless Chromium (a context manager), or a skip where there is none."""
    from contextlib import contextmanager

    from tests.live.browser import CHROMIUM, LAUNCH_FLAGS, _why_no_browser

    missing = _why_no_browser()
    if missing is not None:
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail(f"REQUIRE_BROWSER=1, but {missing}")
        pytest.skip(missing)
    from playwright.sync_api import sync_playwright

    @contextmanager
    def opened() -> Iterator[Any]:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_FLAGS)
            try:
                page = browser.new_page(viewport={"width": 1600, "height": 1000})
                page.set_default_timeout(60_000)
                yield page
            finally:
                browser.close()

    return opened()


def visible_text(page: Any) -> str:
    """What a reader reads on the page, the editor's code and other code left out."""
    text: str = page.evaluate(
        """() => {
          const copy = document.body.cloneNode(true);
          const code = ".cm-editor, pre, code, script, style, select";
          for (const node of copy.querySelectorAll(code)) node.remove();
          return copy.innerText;
        }"""
    )
    return text


def test_the_sdk_demo_speaks_chinese(clone: Clone) -> None:
    done = clone.run("python -m sqlite_demo sdk")
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "其中 7 个已经发货" in done.stdout
    assert english_in(done.stdout + done.stderr) == []


def test_backup_speaks_chinese(clone: Clone, served: Served) -> None:
    done = clone.run("python -m sqlite_demo backup chat.db chat-backup.db")
    assert done.returncode == 0, done.stderr
    assert "已把 chat.db 备份到 chat-backup.db" in done.stdout
    refused = clone.run("python -m sqlite_demo backup chat.db chat-backup.db")  # it exists
    assert refused.returncode != 0
    for said in (done.stdout, refused.stdout + refused.stderr):
        assert english_in(said) == []


EXECUTE = """
import json, sys
from pathlib import Path
import nbformat
from nbclient import NotebookClient

out = {}
for path in sorted(Path("notebooks/zh").glob("*.ipynb")):
    notebook = nbformat.read(path, as_version=4)
    NotebookClient(notebook, timeout=180, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    out[path.name] = [
        [o.get("text", "") if o.output_type == "stream" else o.get("data", {}).get("text/plain", "")
         for o in cell.get("outputs", [])]
        for cell in notebook.cells if cell.cell_type == "code"
    ]
print(json.dumps(out, ensure_ascii=False))
"""


def test_the_chinese_notebooks_run_and_print_chinese(clone: Clone) -> None:
    done = clone.run(f"python - <<'EOF'\n{EXECUTE}\nEOF", timeout=1500)
    assert done.returncode == 0, done.stderr[-4000:]
    outputs = json.loads(done.stdout.splitlines()[-1])
    assert len(outputs) == 6
    printed = {
        f"{name} cell {number}": "\n".join(cell)
        for name, cells in outputs.items()
        for number, cell in enumerate(cells, start=1)
    }
    assert any("尚未实现" in text for text in printed.values())  # notebook 3, on the stubs
    left = {where: found for where, text in printed.items() if (found := english_in(text))}
    assert left == {}


def test_the_clone_runs_its_own_code_on_this_pythons_packages(clone: Clone) -> None:
    probe = "import sys, exercises; print(sys.version_info[:2], exercises.__file__)"
    done = clone.run(f"cd notebooks/zh && python -c '{probe}'")
    assert done.stdout.split(") ")[0] + ")" == str(sys.version_info[:2])
    assert done.stdout.split(") ")[1].strip() == str(clone.root / "exercises" / "__init__.py")
