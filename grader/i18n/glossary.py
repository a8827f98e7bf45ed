"""The words every Chinese text of the kit uses: the chapter's own terms, and the kit's.

One glossary for every translation: the grader's messages, the exercises' docstrings, the
READMEs, the notebooks and their diagrams, the demo, the live page and the browser site. A
reader who learnt 回放 and 投影 in the chapter meets the same words everywhere. Two rules:

* **One word per concept.** Where the English names a concept, the Chinese uses the word
  :data:`GLOSSARY` gives it (or one of its listed forms).
* **One concept per word.** A word never names two things: :data:`RULES` say where a word
  must or must not be used beyond the simple terms, and :data:`NEVER` lists the words no
  Chinese text uses at all (other renderings of the concepts, and phrases of an older
  catalog that read as translated rather than written).

The chapter says both 重放 and 回放 for replay; the kit says 回放 only, and
``docs/chapter-bridge.zh-CN.md`` tells a reader of the chapter so. :func:`problems` checks one
translation against all of this; the tests run it over every catalog, docstring, README,
notebook and page (``tests/learner_tools/test_catalogs.py`` and ``tests/translations/``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: English term -> the Chinese every translation uses for it (any one of them). A sentence
#: whose English uses the term (as a word, not inside code) has a translation that uses one
#: of its Chinese words.
GLOSSARY: dict[str, tuple[str, ...]] = {
    # the chapter's terms
    "event sourcing": ("事件溯源",),
    "snapshot": ("快照",),
    "append-only": ("只追加",),
    "append": ("追加",),
    "event log": ("事件日志",),
    "log": ("日志",),
    "session isolation": ("会话隔离",),
    "session": ("会话",),  # never 对话, which is a conversation
    "replay": ("回放",),  # the chapter's 重放 too: the kit says 回放 only
    "write before reply": ("先落库再回复",),
    "projection": ("投影",),
    "tool call": ("工具调用",),
    "tool result": ("工具结果",),
    "payload": ("payload",),  # kept in English, as the code names it
    "event id": ("事件 id",),
    "write-ahead log": ("预写日志",),
    "fold": ("折叠", "并回"),  # a replay folds; SQLite folds the WAL back in (并回)
    "transaction": ("事务", "交易"),  # a database's, or a bank's (交易)
    "foreign key": ("外键",),
    "checkpoint": ("检查点",),
    "pitfall": ("坑",),
    # the grader's own
    "grader": ("判题器",),
    # What a learner breaks is a 约定 (never 性质 or 承诺); what WAL promises is a 保证.
    "promise": ("约定", "保证"),
    "hint": ("提示",),
    "task": ("任务",),
    "stub": ("桩代码",),
    "submission": ("作业",),  # a student's: 提交 is a database's commit
    "learner": ("学习者",),
    "instructor": ("教师",),
    "gradebook": ("成绩册",),
    "reference implementation": ("参考实现",),
    "kernel": ("内核",),  # the grader's or Jupyter's; a CPU's core is 核
    "sandbox": ("沙箱",),
    "isolation": ("隔离",),
    "docstring": ("docstring",),
    "mapping": ("映射", "Mapping"),
    "timed out": ("超时",),
    "not implemented": ("尚未实现",),
    "standard library": ("标准库",),
    "exit code": ("退出码",),
    # the kit's own
    "exercise": ("练习", "exercises"),  # or the folder, named as it is
    "notebook": ("notebook",),  # kept in English, as Jupyter names it
    "live page": ("实时页面",),
    "idempotency key": ("幂等键", "Idempotency-Key"),
}

#: Words no Chinese text uses, as regular expressions: other renderings of the terms above,
#: and phrases of an older catalog that read as translated rather than written.
NEVER: tuple[str, ...] = (
    "重放", "重演", "重播", "载荷", "负载", "评分器", "学员", "练习桩", "文档字符串",
    "事件ID", "事件 ID", "事件编号", "不是非空", "先检查所有东西", "构造任何东西",
    "笔记本", "快照法", "只附加", "附加到",
    # one word per concept: the glossary's word, not these
    "讲师", "老师", "例子", "样例", "用例", "没通过", "性质", "承诺", "运行时防护", "成绩单",
    "参照实现", "参考答案", "(?<!断线)续传", "续读", "智能体",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Rule:
    """Where the English matches ``english`` (and not ``unless``), the Chinese holds one of
    ``words`` (when any are given) and none of ``never``: a word kept to one concept."""

    concept: str
    english: str
    words: tuple[str, ...] = ()
    never: tuple[str, ...] = ()
    unless: str | None = None


#: One concept per word, where a word is right for one concept and wrong for another.
RULES: tuple[Rule, ...] = (
    # The statuses are the grader's words everywhere: 通过, 未通过, 尚未实现, 超时, 出错.
    Rule("the failed status",
         r"\bFAILED\b|\bpassed\b[^.]{0,80}\bfailed\b|\bfailed\b[^.]{0,80}\bpassed\b",
         words=("未通过",), never=("失败",)),
    # 提交 is a database's commit, as in the chapter (已提交的事务); a git commit keeps its
    # English name, and a student's submission is a 作业.
    Rule("a git commit",
         r"\bgit commit\b|\bthe last commit\b(?! record)|\bas committed\b|\bcommitted stubs?\b",
         words=("commit",)),
    Rule("a submission", r"\bsubmissions?\b", never=("提交",), unless=r"\bcommit"),
    # 核 is a CPU's core (2 核, 核数); the grader's kernel is 内核.
    Rule("a CPU core", r"\bcores?\b", words=("核",), never=("内核",), unless=r"\bkernel"),
    # An example is a 示例; the smallest one that breaks a promise is a 最小反例 (the chapter's
    # 反例), never 例子, 样例 or 用例.
    Rule("an example", r"\bexamples?\b", words=("示例",), unless=r"\bsmallest examples?\b"),
    Rule("the smallest case", r"\bsmallest (?:case|example)s?\b", words=("最小反例",)),
    # The grader's guard is a 守卫 (a trigger that guards against mistakes is not).
    Rule("the grader's guard", r"\bguards?\b(?! against)", words=("守卫",)),
    # Resuming after an event id is 断线续传; a process that carries on a run is not that.
    Rule("resume after an event id", r"\bresum(?:e|es|ed|ing)\b", words=("断线续传",),
         unless=r"\b(?:process|processes|SDK|agent)\b"),
    # 读者 reads the book; what reads a stream or a table is a 读取方.
    Rule("a stream's reader", r"\breaders?\b", words=("读取方",), never=("读者",),
         unless=r"\b(?:chapter|book)\b"),
    Rule("the book's reader",
         r"\b(?:chapter|book)\b[^.]{0,80}\breaders?\b|\breaders?\b[^.]{0,80}\b(?:chapter|book)\b",
         words=("读者",)),
)  # fmt: skip


def term_pattern(term: str) -> re.Pattern[str]:
    """The term as a word, inflected (replay, replays, replaying; resume, resuming)."""
    stem = term[:-1] if term.endswith("e") else term
    words = re.escape(stem).replace(r"\ ", "[ -]")
    return re.compile(rf"\b{words}(?:e|es|s|ed|d|ing)?\b", re.IGNORECASE)


def ruled_out(chinese: str) -> list[str]:
    """The words of :data:`NEVER` that ``chinese`` uses."""
    return [word for word in NEVER if re.search(word, chinese)]


def problems(english: str, chinese: str) -> list[str]:
    """Where a translation departs from the glossary: a term not in its word, a word used
    for another concept, a word ruled out. ``english`` is the prose only (code, options and
    placeholders dropped), so a name in code is not a term."""
    found = [
        f"{term!r} is {' or '.join(words)}"
        for term, words in GLOSSARY.items()
        if term_pattern(term).search(english) and not any(word in chinese for word in words)
    ]
    for rule in RULES:
        if not re.search(rule.english, english) or (
            rule.unless and re.search(rule.unless, english)
        ):
            continue
        if rule.words and not any(word in chinese for word in rule.words):
            found.append(f"{rule.concept} is {' or '.join(rule.words)}")
        found += [f"{rule.concept} is never {word}" for word in rule.never if word in chinese]
    return found + [f"never {word}" for word in ruled_out(chinese)]
