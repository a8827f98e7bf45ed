"""The words every Chinese text of the kit uses: the chapter's own terms, and the kit's.

One glossary for every translation: the grader's messages, the exercises' docstrings, the
READMEs, the notebooks and their diagrams, the demo and the live page. A reader who learnt
回放 and 投影 in the chapter meets the same words everywhere; a test holds each translation to
this list (``tests/learner_tools/test_catalogs.py`` and ``tests/translations/``).
"""

from __future__ import annotations

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
    "session": ("会话",),
    "replay": ("回放",),
    "resume": ("断线续传", "之后续读", "续传"),
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
    "promise": ("约定", "承诺"),  # the contract's promises, or what WAL promises (承诺)
    "hint": ("提示",),
    "task": ("任务",),
    "stub": ("桩代码",),
    "submission": ("提交",),
    "learner": ("学习者",),
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
#: Words no Chinese text uses: other renderings of the terms above, and phrases of an older
#: catalog that read as translated rather than written.
NEVER: tuple[str, ...] = (
    "重放", "重演", "重播", "载荷", "负载", "评分器", "学员", "练习桩", "文档字符串",
    "事件ID", "事件 ID", "事件编号", "不是非空", "先检查所有东西", "构造任何东西",
    "笔记本", "快照法", "只附加", "附加到",
)  # fmt: skip
