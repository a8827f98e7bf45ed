"""The glossary check fails on each synonym the issue found in the kit's Chinese: a word
planted where the glossary's word belongs is caught, by the very check the catalogs, the
READMEs, the docstrings, the notebooks and the pages are held to."""

# ruff: noqa: E501, RUF001 - a table of planted sentences, one a line, in Chinese punctuation

from __future__ import annotations

import pytest

from grader.i18n.glossary import GLOSSARY, NEVER, RULES, problems

#: (what is planted, English, the Chinese as the glossary wants it, the word replaced, the
#: word planted in its place).
PLANTED = [
    ("instructor: 讲师", "Show this to your instructor.", "请把这条信息给教师看。", "教师", "讲师"),
    ("instructor: 老师", "Show this to your instructor.", "请把这条信息给教师看。", "教师", "老师"),
    ("example: 例子", "Each docstring has a small example.", "每个 docstring 都有一个小示例。", "示例", "例子"),
    ("example: 样例", "Each docstring has a small example.", "每个 docstring 都有一个小示例。", "示例", "样例"),
    ("example: 用例", "Each docstring has a small example.", "每个 docstring 都有一个小示例。", "示例", "用例"),
    ("smallest case: 用例", "Smallest case that shows it:", "能复现问题的最小反例：", "反例", "用例"),
    ("failed: 失败", "Each task is passed, failed or error.", "每个任务是通过、未通过或出错。", "未通过", "失败"),
    ("failed: 没通过", "Each task is passed, failed or error.", "每个任务是通过、未通过或出错。", "未通过", "没通过"),
    ("promise: 性质", "Broken promise: the log only grows.", "违反的约定：日志只会变长。", "约定", "性质"),
    ("promise: 承诺", "Broken promise: the log only grows.", "违反的约定：日志只会变长。", "约定", "承诺"),
    ("guard: 运行时防护", "The grader's guard refuses sockets.", "判题器的守卫拒绝套接字。", "守卫", "运行时防护"),
    ("gradebook: 成绩单", "The batch writes a gradebook.", "这一批写出一份成绩册。", "成绩册", "成绩单"),
    ("reference: 参照实现", "It runs its reference implementation.", "它运行自己的参考实现。", "参考实现", "参照实现"),
    ("reference: 参考答案", "It runs its reference implementation.", "它运行自己的参考实现。", "参考实现", "参考答案"),
    ("resume: 续传", "The client resumes after event 4.", "客户端从事件 4 之后断线续传。", "断线续传", "续传"),
    ("resume: 续读", "The client resumes after event 4.", "客户端从事件 4 之后断线续传。", "断线续传", "续读"),
    ("session: 对话", "Create a second session.", "再新建一个会话。", "会话", "对话"),
    ("kernel: 核", "A message without the kernel's key is refused.", "没有内核密钥的消息会被拒绝。", "内核", "核"),
    ("core: 内核", "One lane more than the cores.", "比核数多一条通道。", "核数", "内核数"),
    ("submission: 提交", "Each submission runs in its own sandbox.", "每份作业在自己的沙箱里运行。", "作业", "提交"),
    ("git commit: 提交", "The copy is built from the last commit.", "副本从最近一次 commit 构建。", "commit", "提交"),
    ("stream reader: 读者", "A reader never skips an event.", "读取方从不跳过一个事件。", "读取方", "读者"),
    ("book reader: 读取方", "The chapter sends its readers to the browser.", "本章把读者送到浏览器里。", "读者", "读取方"),
    ("replay: 重放", "Replay the session.", "回放这个会话。", "回放", "重放"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("english", "chinese", "right", "planted"),
    [case[1:] for case in PLANTED],
    ids=[case[0] for case in PLANTED],
)
def test_the_glossary_check_fails_on_a_planted_synonym(
    english: str, chinese: str, right: str, planted: str
) -> None:
    assert problems(english, chinese) == []
    assert right in chinese
    assert problems(english, chinese.replace(right, planted)) != []


def test_every_synonym_the_issue_lists_is_planted() -> None:
    listed = {"讲师", "老师", "例子", "样例", "用例", "失败", "没通过", "性质", "承诺", "运行时防护",
              "成绩单", "参照实现", "参考答案", "续传", "续读", "对话", "核", "内核数", "提交",
              "读者", "读取方", "重放"}  # fmt: skip
    assert listed == {case[4] for case in PLANTED}


def test_the_glossary_says_that_the_chapters_replay_is_the_kits() -> None:
    import grader.i18n.glossary as glossary

    assert "重放" in (glossary.__doc__ or "") and "回放" in (glossary.__doc__ or "")
    assert "重放" in NEVER and GLOSSARY["replay"] == ("回放",)
    assert len(RULES) >= 8
