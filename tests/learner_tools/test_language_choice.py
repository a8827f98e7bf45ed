"""Which language the grader speaks: ``--lang`` first, then the locale variables."""

from __future__ import annotations

import pytest

from grader import i18n


@pytest.mark.parametrize(
    ("environment", "expected"),
    [
        ({}, "en"),
        ({"LANG": "zh_CN.UTF-8"}, "zh"),
        ({"LANG": "zh_TW.Big5"}, "zh"),
        ({"LC_MESSAGES": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, "zh"),
        ({"LC_ALL": "en_GB.UTF-8", "LANG": "zh_CN.UTF-8"}, "en"),
        ({"LANGUAGE": "zh_CN:en", "LC_ALL": "en_US.UTF-8"}, "zh"),
        ({"LANGUAGE": "fr:zh"}, "zh"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({"LC_ALL": "C.UTF-8", "LANG": "zh_CN.UTF-8"}, "en"),
        ({"LANGUAGE": "", "LANG": "zh-Hans"}, "zh"),
    ],
)
def test_the_first_locale_variable_naming_a_language_decides(environment, expected):
    assert i18n.detect_language(environment) == expected


def test_a_chosen_language_beats_the_locale(monkeypatch):
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    with i18n.using_language("zh"):
        assert i18n.current_language() == "zh"
    assert i18n.current_language() == "en"


def test_choosing_a_language_without_a_catalog_is_refused():
    with pytest.raises(ValueError, match="no catalog"):
        i18n.use_language("fr")


def test_text_fills_placeholders_in_the_language_asked_for():
    assert i18n.text("release.copied", "en", count=2, path="out") == "Copied 2 files to out."
    assert i18n.text("release.copied", "zh", count=2, path="out") == "已复制 2 个文件到 out。"
