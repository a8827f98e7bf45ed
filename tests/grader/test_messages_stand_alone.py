"""Every sentence the grader shows stands alone: none points at text "above" or "below".

A report is read in a terminal, on a page, in a results file and in Gradescope's panel, each
cutting and ordering it its own way, and a hint is shown on its own (``--hint``): a sentence
that sends the reader to "the calls shown above" may point at nothing (issue 27).
"""

from __future__ import annotations

import re

import pytest

from grader.i18n import LANGUAGES, catalog

#: Words that point at other text of the report, per language ("earlier" alone is fine:
#: "this session's earlier events" points at the log, not at the text).
POINTING = {
    "en": re.compile(r"\b(above|below)\b|\b(shown|listed|named) (earlier|before)\b", re.I),
    "zh": re.compile(r"上面|上文|如上|上述|下面|下文"),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_sentence_points_at_text_above_or_below_it(language: str) -> None:
    pointing = {
        message_id: sentence
        for message_id, sentence in catalog(language).items()
        if POINTING[language].search(sentence)
    }
    assert pointing == {}


def test_the_check_catches_the_sentences_issue_27_found() -> None:
    assert POINTING["en"].search("Run the calls shown above yourself.")
    assert POINTING["zh"].search("自己运行一遍上面列出的调用。")
    assert not POINTING["en"].search("look for its call among this session's earlier events")
