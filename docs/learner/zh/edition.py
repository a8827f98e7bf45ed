"""这份副本默认使用的语言：中文。

判题器的反馈、demo 的输出和实时页面都用中文。``python -m grader lang en`` 让整份副本改用英文，
``python -m grader --lang en`` 之类的 ``--lang`` 选项只为一次运行改用英文。实时页面上也有语言切换。
"""
# ruff: noqa: RUF002 - 中文标点

from __future__ import annotations

LANGUAGE: str | None = "zh"
