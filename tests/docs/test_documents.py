"""The documents by audience: a short landing page that sends each reader to their page,
links that lead somewhere, and every page covered by the doc tests and mirrored in Chinese."""

from __future__ import annotations

import re

import pytest

from maintainer.translations.catalogs import DOCUMENTS as TRANSLATED
from tests.docs.documents import DOCUMENTS, ROOT, read

#: A markdown link or image to a file of the kit (not a web address, not an anchor).
LOCAL_LINK = re.compile(r"\]\((?!https?://|mailto:|#)([^)\s#]+)(?:#[^)]*)?\)")
CHINESE = tuple(TRANSLATED[name] for name in DOCUMENTS)


def test_the_readme_is_a_landing_page_of_at_most_150_lines() -> None:
    assert len(read("README.md").splitlines()) <= 150


def test_the_readme_sends_every_reader_to_their_page() -> None:
    readme = read("README.md")
    assert [name for name in DOCUMENTS[1:] if f"]({name})" not in readme] == []


def test_every_markdown_page_of_docs_is_a_listed_document_or_a_mirror() -> None:
    pages = {f"docs/{path.name}" for path in (ROOT / "docs").glob("*.md")}
    assert pages == {name for name in (*DOCUMENTS, *CHINESE) if name.startswith("docs/")}


def test_every_document_has_a_chinese_mirror_the_drift_test_watches() -> None:
    assert [name for name in DOCUMENTS if name not in TRANSLATED] == []
    assert [name for name in CHINESE if not (ROOT / name).is_file()] == []


@pytest.mark.parametrize("document", [*DOCUMENTS, *CHINESE])
def test_every_link_to_a_file_of_the_kit_leads_to_one(document: str) -> None:
    folder = (ROOT / document).parent
    targets = LOCAL_LINK.findall(read(document))
    assert [target for target in targets if not (folder / target).exists()] == []


def test_the_link_check_finds_a_broken_link_and_passes_a_good_one() -> None:
    text = "[a](docs/learner.md) [b](https://x.org/y) [c](#here) ![d](docs/nothing.png)"
    assert LOCAL_LINK.findall(text) == ["docs/learner.md", "docs/nothing.png"]
