"""No translation drifts from its English: every English sentence, docstring, README section
and notebook cell has a Chinese counterpart made from that very English, and editing one
English sentence without its translation is caught, whatever kind of text it sits in."""

from __future__ import annotations

import re
import shutil
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest

from grader.i18n import fingerprint
from maintainer.translations import markdown
from maintainer.translations.catalogs import (
    DOCUMENTS,
    Catalog,
    all_catalogs,
    document_catalog,
    drift,
    renames,
)
from maintainer.translations.docstrings import KIT_ROOT, english_docstrings
from maintainer.translations.notebooks import notebook_catalog, notebook_tool

CATALOGS = all_catalogs()


@pytest.mark.parametrize("catalog", CATALOGS, ids=[catalog.file for catalog in CATALOGS])
def test_every_english_text_has_a_translation_of_that_very_text(catalog: Catalog) -> None:
    assert drift(catalog) == [], "re-translate, then: python -m maintainer.translations stamp"


def test_every_kind_of_text_is_watched() -> None:
    files = {catalog.file for catalog in CATALOGS}
    assert {"sqlite_demo/texts.py", "maintainer/translations/exercises_zh.py"} <= files
    assert set(DOCUMENTS.values()) <= files
    assert len([f for f in files if f.startswith("notebooks/src/zh/")]) >= 6
    assert all(catalog.english and catalog.chinese for catalog in CATALOGS)


def edited(text: str) -> str:
    """``text`` with one sentence changed: its first word repeated."""
    first = re.search(r"[A-Za-z]{3,}", text)
    assert first is not None
    return text[: first.end()] + " " + first[0] + text[first.end() :]


def test_a_catalog_sentence_edited_without_its_translation_is_caught() -> None:
    demo = next(catalog for catalog in CATALOGS if catalog.file == "sqlite_demo/texts.py")
    key = "demo.check.killed"
    changed = replace(demo, english={**demo.english, key: edited(demo.english[key])})
    assert drift(changed) == [f"'{key}': translated from other English (now "
                              f"{fingerprint(changed.english[key])})"]  # fmt: skip
    added = replace(demo, english={**demo.english, "demo.new": "A new sentence."})
    assert drift(added) == ["'demo.new': no translation"]


def test_a_docstring_edited_without_its_translation_is_caught(
    committed_stubs: Path, tmp_path: Path
) -> None:
    stubs = tmp_path / "exercises"
    shutil.copytree(committed_stubs, stubs)
    path = stubs / "replay.py"
    path.write_text(path.read_text(encoding="utf-8").replace(
        "Replay is a fold", "Replay is a left fold"), encoding="utf-8")  # fmt: skip
    exercises = next(c for c in CATALOGS if c.file.endswith("exercises_zh.py"))
    changed = replace(exercises, english=english_docstrings(stubs))
    assert [line.split(":")[0] for line in drift(changed)] == ["'replay.replay_session'"]


def test_a_promise_bullet_is_not_the_docstrings_to_translate_but_the_graders() -> None:
    # The bullets are left out of the fingerprint: the grader's own catalog answers for them.
    english = english_docstrings()["event_log.append_event"]
    assert "Promises:" in english and "It returns a pair" not in english


def test_a_readme_section_edited_without_its_translation_is_caught(tmp_path: Path) -> None:
    (tmp_path / "docs" / "learner" / "zh").mkdir(parents=True)
    for english, chinese in DOCUMENTS.items():
        for name in (english, chinese):
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(KIT_ROOT / name, tmp_path / name)
    readme = tmp_path / "docs" / "learner" / "README.md"
    text = readme.read_text(encoding="utf-8")
    section = text.split("## The demo", 1)[1]
    readme.write_text(text.replace(section, edited(section)), encoding="utf-8")
    problems = drift(document_catalog("docs/learner/README.md", tmp_path))
    assert [line.split(": ")[0] for line in problems] == ["section '## The demo'"]
    assert drift(document_catalog("README.md", tmp_path)) == []


def test_a_notebook_cell_edited_or_added_without_its_translation_is_caught() -> None:
    build, cells = notebook_tool("build"), notebook_tool("cells")
    module = build.cell_modules()[0]
    first = module.CELLS[0]
    changed = SimpleNamespace(__name__=module.__name__, CELLS=[
        cells.md(edited(first.source)), *module.CELLS[1:], cells.md("## A new section"),
    ])  # fmt: skip
    problems = drift(notebook_catalog(changed))
    last = len([cell for cell in changed.CELLS if cell.kind == "markdown"])
    assert [p.split(" (")[0] for p in problems] == [
        "markdown cell 1", f"markdown cell {last}",
        f"the translation keyed {fingerprint(first.source)!r}: translates English that is gone",
    ]  # fmt: skip


def test_stamping_after_a_retranslation_records_the_english_as_it_is_now(tmp_path: Path) -> None:
    english = "# Title\n\nHello.\n\n## Part\n\nText.\n"
    chinese = tmp_path / "zh.md"
    chinese.write_text(
        f"{markdown.marker('# Title', fingerprint('# Title' + chr(10) * 2 + 'Hello.'))}\n"
        "# 标题\n\n你好。\n\n"
        f"{markdown.marker('## Part', 'deadbeef')}\n## 部分\n\n正文。\n",
        encoding="utf-8",
    )
    sections = markdown.english_sections(english)
    markdown.restamp(chinese, {"## Part": fingerprint(sections["## Part"])})
    stamped = {s.heading: s.fingerprint for s in markdown.translated_sections(chinese.read_text())}
    assert stamped == {key: fingerprint(text) for key, text in sections.items()}
    assert markdown.rendered(chinese.read_text()) == "# 标题\n\n你好。\n\n## 部分\n\n正文。\n"


def test_an_edited_cell_is_paired_with_its_old_translation_for_stamping() -> None:
    catalog = Catalog("x.py", {"new1": "a", "k": "b"}, {"old1": ("old1", "甲"), "k": ("k0", "乙")})
    assert renames(catalog) == {"old1": fingerprint("a"), "k0": fingerprint("b")}
