"""Every sentence the demo prints and the live page shows, in English and Chinese.

``EN`` is the source; ``ZH`` maps each id to ``(fingerprint of the English, translation)``,
as the grader's catalogs do (``tests/translations/`` fails when an English sentence changes
without its translation). Placeholders are ``str.format`` names, filled the same way by
:func:`say` here and by ``live/static/i18n.js`` on the page, which gets both catalogs from
:func:`page_script` (served as ``/static/texts.js``).

The language: ``--lang`` where a command has it, else this copy's (:mod:`sqlite_demo.edition`),
else English. The page starts in the server's language and has a switch of its own.
"""
# ruff: noqa: RUF001 - the Chinese sentences use Chinese punctuation

from __future__ import annotations

import json

from sqlite_demo import edition

LANGUAGES = ("en", "zh")

EN = {
    # --- the demo (python -m sqlite_demo) ------------------------------------------------
    "demo.phase": "Phase {number}: {title}",
    "demo.phase.1": "two turns in the order-service session",
    "demo.phase.2": "SIGKILL the server: no cleanup code runs",
    "demo.phase.3": "restart on the same file and replay",
    "demo.phase.4": "a second session: isolation by the data model",
    "demo.phase.5": "resume: what came after event 4?",
    "demo.check.greeting": "the greeting is answered",
    "demo.check.order_count": "the order count is answered",
    "demo.check.six_events": "the log holds the chapter's six events",
    "demo.check.committed_first": "each reply came with its turn's events, already in the log",
    "demo.check.killed": "the server died of SIGKILL",
    "demo.check.wal_left": "the -wal file is left behind, holding the commits",
    "demo.check.same_events": "the events are exactly those before the kill",
    "demo.check.same_replay": "the replayed conversation is exactly that before the kill",
    "demo.check.assistant_answered": "the document assistant answered: one user_message, one assistant_message",
    "demo.check.eight_events": "8 events in all: sess_a 6 + sess_b 2",
    "demo.check.isolated": "sess_a reads (events, messages, replay) are unchanged",
    "demo.check.projection_slice": "getMessages(sess_a) event_ids are [1, 2, 3, 6]: the projection is a slice",
    "demo.check.resumed": "events after 4 in sess_a are 5 and 6",
    "demo.check.ran_to_end": "the demo ran to the end",
    "demo.killed": "sent SIGKILL to server pid {pid}; its exit status: {status}",
    "demo.file_size": "{name}: {size} bytes",
    "demo.wal_size": "{name}: {size} bytes (the commits, not yet checkpointed)",
    "demo.restarted": "restarted: server pid {pid}, same file, same port",
    "demo.created": "created {label} ({title}): {session_id}",
    "demo.refused": "refusing to run the demo on {path}: {problem}",
    "demo.no_directory": "the directory {directory} does not exist",
    "demo.file_holds_data": "the file already exists and holds data; give a path that does not exist yet",
    "demo.postgres_committed": "{database}: {count} events of session A committed",
    "demo.check.postgres_committed": "PostgreSQL holds the six events, read over another connection",
    "demo.database_holds_sessions": "the database holds sessions; give an empty database",
    "demo.passed": "passed",
    "demo.failed": "FAILED",
    "demo.got_expected": "got {actual}, expected {expected}",
    "demo.verdict": "{phase}: {verdict}",
    "demo.checks_failed": "{failures} of {total} checks FAILED",
    "demo.checks_passed": "all {total} checks passed in {seconds} s",
    "cli.demo_lang": "language of the demo's output: en or zh (default: {default})",
    # --- the live page (static/index.html and its scripts) -------------------------------
    "page.title": "Agent persistence: the event log, live",
    "page.heading": "Agent persistence",
    "page.subheading": "the event log, live",
    "page.language": "Language",
    "page.not_connected": "not connected",
    "page.chat_panel": "Chat with the scripted agent",
    "page.session": "Session",
    "page.title_placeholder": "title",
    "page.new_title": "Title of a new session",
    "page.new_session": "New session",
    "page.conversation": "Conversation",
    "page.your_message": "Your message",
    "page.message_placeholder": "Say hello, or ask: how many orders do I have?",
    "page.send": "Send",
    "page.log_panel": "The session's log",
    "page.tab.events": "Events",
    "page.tab.replay": "Replay",
    "page.tab.projections": "Projections",
    "page.events_hint": "Events: the append-only `events` table, as the stream delivers it.",
    "page.replay_hint": "`GET /sessions/{id}/replay`: the events folded into Chat Completions messages.",
    "page.projections_hint": "Written in the same transaction as each event.",
    "page.connection_log": "Connection log",
    "page.no_session": "no session: create one",
    "page.following": "following {title}",
    "page.connecting": "connecting…",
    "page.unnamed_session": "session",
    "page.session_label": "{title} ({id}…)",
    "page.session_named": '"{title}" ({id})',
    "page.not_here": "event {id} should not be here: {problem}",
    "page.problem.other_session": "it belongs to another session",
    "page.problem.doubled": "it came twice",
    "page.live": "live: {title}",
    "page.missing_doubled": "but missing [{missing}] and doubled [{doubled}]",
    "page.nothing_missing": "nothing missing, nothing doubled",
    "page.not_compared": "not compared with the log ({error})",
    "page.reconnected": "reconnected: resumed after event {id}, {verdict}",
    "page.lost": "connection lost: reconnecting…",
    "page.lost_after_reconnecting": "connection lost after event {id}; reconnecting…",
    "page.lost_after": "connection lost after event {id}",
    "page.retrying": "{reason}: reconnecting in {seconds} s (attempt {attempt})…",
    "page.waiting": "waiting {seconds} s (attempt {attempt}): {reason}",
    "page.refused_retrying": "the server refused the stream: {reason}; retrying in {seconds} s",
    "page.not_following": "not following: {reason}",
    "page.refused_stream": "the server refused the stream ({status}): {reason}",
    "page.closing": "the server is shutting down",
    "page.create_first": "create a session first",
    "page.sending": "sending…",
    "page.send_refused": "refused: {reason}",
    "page.send_unreachable": "not sent: the server is unreachable. Press Send again to retry (same Idempotency-Key).",
    "page.default_title": "session {number}",
    "page.create_failed": "could not create a session: {reason}",
    "page.not_allowed": "not allowed in: {reason}",
    "page.unreachable_retrying": "the server is unreachable: retrying in {seconds} s…",
    "page.unreachable": "the server is unreachable",
    "page.earlier_messages": "// {count} earlier messages not shown",
    "page.no_sessions": "no sessions yet: create one",
    "page.earlier_events": "{count} earlier events: show more",
    "page.tool_call": "tool call {call_id}: {name}({arguments})",
    "page.tool_result": "tool result {call_id}: {content}",
    "page.item_removed": "taken out: event {supersedes}",
    "page.session_cleared": "cleared: every event through {supersedes_through}",
}

#: The Chinese: id -> (fingerprint of the English it translates, translation). One entry a
#: line, in the order of EN.
# fmt: off
ZH: dict[str, tuple[str, str]] = {
    "demo.phase": ("f0babdfb", "第 {number} 阶段：{title}"),
    "demo.phase.1": ("be041670", "在订单客服会话里对话两轮"),
    "demo.phase.2": ("0556c391", "用 SIGKILL 杀掉服务，任何清理代码都来不及运行"),
    "demo.phase.3": ("17562b24", "在同一个文件上重启，然后回放"),
    "demo.phase.4": ("496b57ae", "第二个会话，靠数据模型实现会话隔离"),
    "demo.phase.5": ("bffa6384", "断线续传，取回第 4 个事件之后的事件"),
    "demo.check.greeting": ("f0d8f44e", "问候得到了回复"),
    "demo.check.order_count": ("64a7b0d9", "订单数量得到了回复"),
    "demo.check.six_events": ("bd303260", "日志里正是本章的 6 条事件"),
    "demo.check.committed_first": ("6289c2b3", "每条回复都带着这一轮的事件，而它们已经在日志里了"),
    "demo.check.killed": ("144fc8dc", "服务死于 SIGKILL"),
    "demo.check.wal_left": ("d0a10dba", "-wal 文件留了下来，里面是已提交的事务"),
    "demo.check.same_events": ("27a69779", "事件与被杀之前完全一致"),
    "demo.check.same_replay": ("a424b758", "回放出的对话与被杀之前完全一致"),
    "demo.check.assistant_answered": ("c63e81df", "文档助手作了回复：一条 user_message，一条 assistant_message"),
    "demo.check.eight_events": ("8d73d9fd", "一共 8 条事件：sess_a 6 条 + sess_b 2 条"),
    "demo.check.isolated": ("cf161f1c", "sess_a 的读取结果（事件、消息、回放）没有变化"),
    "demo.check.projection_slice": ("df5ca646", "getMessages(sess_a) 的 event_id 是 [1, 2, 3, 6]：投影只是一个切片"),
    "demo.check.resumed": ("53a81440", "sess_a 中第 4 个之后的事件是 5 和 6"),
    "demo.check.ran_to_end": ("6875a4f5", "demo 完整跑完"),
    "demo.killed": ("b6b2387e", "已向服务进程（pid {pid}）发送 SIGKILL；它的退出状态：{status}"),
    "demo.file_size": ("9b944451", "{name}：{size} 字节"),
    "demo.wal_size": ("214fc701", "{name}：{size} 字节（已提交的事务，还没有做检查点）"),
    "demo.restarted": ("49587778", "已重启：服务进程 pid {pid}，同一个文件，同一个端口"),
    "demo.created": ("0326de11", "已创建 {label}（{title}）：{session_id}"),
    "demo.refused": ("84c9ef39", "拒绝在 {path} 上运行 demo：{problem}"),
    "demo.no_directory": ("53de1caa", "目录 {directory} 不存在"),
    "demo.file_holds_data": ("453c414c", "这个文件已经存在并且有数据；请给一个还不存在的路径"),
    "demo.postgres_committed": ("a74df749", "{database}：会话 A 已提交 {count} 个事件"),
    "demo.check.postgres_committed": ("13f97630", "PostgreSQL 里有这六个事件，经另一个连接读出"),
    "demo.database_holds_sessions": ("1c1832bf", "数据库里已经有会话；请给一个空的数据库"),
    "demo.passed": ("284d1e8c", "通过"),
    "demo.failed": ("02bd3492", "失败"),
    "demo.got_expected": ("983d4eed", "得到 {actual}，应为 {expected}"),
    "demo.verdict": ("4a0d41e2", "{phase}：{verdict}"),
    "demo.checks_failed": ("cd583345", "{total} 项检查中有 {failures} 项失败"),
    "demo.checks_passed": ("bd836e50", "全部 {total} 项检查通过，用时 {seconds} 秒"),
    "cli.demo_lang": ("5b322a6b", "demo 输出的语言：en 或 zh（默认：{default}）"),
    "page.title": ("99bc1f59", "Agent 持久层：实时查看事件日志"),
    "page.heading": ("a5b6883f", "Agent 持久层"),
    "page.subheading": ("5e1f3ed7", "实时查看事件日志"),
    "page.language": ("a4fe6526", "语言"),
    "page.not_connected": ("98b10247", "未连接"),
    "page.chat_panel": ("0cddeb66", "和脚本化的 Agent 对话"),
    "page.session": ("6959b415", "会话"),
    "page.title_placeholder": ("aaf23206", "标题"),
    "page.new_title": ("4a4f7e55", "新会话的标题"),
    "page.new_session": ("cffdba22", "新建会话"),
    "page.conversation": ("ccca1817", "对话"),
    "page.your_message": ("7a057bd9", "你的消息"),
    "page.message_placeholder": ("59eba728", "打个招呼，或者问：我有多少个订单？"),
    "page.send": ("f6f4688f", "发送"),
    "page.log_panel": ("bf316167", "会话的日志"),
    "page.tab.events": ("8d14f6e7", "事件"),
    "page.tab.replay": ("c8dae637", "回放"),
    "page.tab.projections": ("ba821bcf", "投影"),
    "page.events_hint": ("e974c455", "事件：只追加的 `events` 表，按事件流送达的顺序显示。"),
    "page.replay_hint": ("800e8d50", "`GET /sessions/{id}/replay`：把事件折叠成 Chat Completions 消息。"),
    "page.projections_hint": ("4c51a6b9", "与每条事件在同一个事务里写入。"),
    "page.connection_log": ("41d470e9", "连接日志"),
    "page.no_session": ("8f7106e8", "没有会话：请新建一个"),
    "page.following": ("c4555ee7", "正在跟随 {title}"),
    "page.connecting": ("4b639453", "正在连接…"),
    "page.unnamed_session": ("3f3af1ec", "会话"),
    "page.session_label": ("b2beb153", "{title}（{id}…）"),
    "page.session_named": ("7db46b9b", "“{title}”（{id}）"),
    "page.not_here": ("2511311c", "事件 {id} 不该出现在这里：{problem}"),
    "page.problem.other_session": ("0fdfbdfb", "它属于另一个会话"),
    "page.problem.doubled": ("9508c8c3", "它重复到达了"),
    "page.live": ("e837d040", "实时：{title}"),
    "page.missing_doubled": ("100a6101", "但缺少 [{missing}]，重复 [{doubled}]"),
    "page.nothing_missing": ("16e35b79", "不缺不重"),
    "page.not_compared": ("f768ea3a", "没能与日志核对（{error}）"),
    "page.reconnected": ("831a84c9", "已重新连接：从事件 {id} 之后断线续传，{verdict}"),
    "page.lost": ("663fb0ce", "连接断开：正在重连…"),
    "page.lost_after_reconnecting": ("c5f4100b", "连接在事件 {id} 之后断开；正在重连…"),
    "page.lost_after": ("601ade13", "连接在事件 {id} 之后断开"),
    "page.retrying": ("719deb00", "{reason}：{seconds} 秒后重连（第 {attempt} 次）…"),
    "page.waiting": ("7c0aed21", "等待 {seconds} 秒（第 {attempt} 次）：{reason}"),
    "page.refused_retrying": ("473bd5f7", "服务拒绝了事件流：{reason}；{seconds} 秒后重试"),
    "page.not_following": ("c35bedbd", "没有跟随：{reason}"),
    "page.refused_stream": ("4865d100", "服务拒绝了事件流（{status}）：{reason}"),
    "page.closing": ("b7b253ab", "服务正在关闭"),
    "page.create_first": ("6ae665c7", "请先新建一个会话"),
    "page.sending": ("65ea0981", "正在发送…"),
    "page.send_refused": ("8edd7d90", "被拒绝：{reason}"),
    "page.send_unreachable": ("e3fb7008", "没有发出去：连不上服务。再按一次“发送”即可重试（Idempotency-Key 不变）。"),
    "page.default_title": ("2729f4f9", "会话 {number}"),
    "page.create_failed": ("0fed6130", "没能新建会话：{reason}"),
    "page.not_allowed": ("a345f21a", "不允许进入：{reason}"),
    "page.unreachable_retrying": ("eb9ac686", "连不上服务：{seconds} 秒后重试…"),
    "page.unreachable": ("fef3ac95", "连不上服务"),
    "page.earlier_messages": ("da1dda53", "// 更早的 {count} 条消息没有显示"),
    "page.no_sessions": ("8a4495ed", "还没有会话：请新建一个"),
    "page.earlier_events": ("1ecfbb85", "更早的 {count} 条事件：显示更多"),
    "page.tool_call": ("a4b036b9", "工具调用 {call_id}：{name}({arguments})"),
    "page.tool_result": ("db0be53d", "工具结果 {call_id}：{content}"),
    "page.item_removed": ("583e7c0a", "已撤下：事件 {supersedes}"),
    "page.session_cleared": ("1b0e361f", "已清空：事件 {supersedes_through} 及之前的全部事件"),
}
# fmt: on


def default_language() -> str:
    """This copy's language (:mod:`sqlite_demo.edition`), else English."""
    return edition.LANGUAGE or "en"


def catalog(language: str) -> dict[str, str]:
    """Every sentence in ``language``; a missing translation falls back to English."""
    if language == "en":
        return dict(EN)
    return {**EN, **{key: entry[1] for key, entry in ZH.items()}}


def say(message_id: str, language: str | None = None, /, **fields: object) -> str:
    """The sentence for ``message_id`` in ``language`` (default: this copy's), filled in."""
    sentence = catalog(language or default_language()).get(message_id, message_id)
    return sentence.format(**fields) if fields else sentence


def page_script(language: str | None = None) -> str:
    """The live page's strings as a JavaScript module: both catalogs, and the language the
    page starts in."""
    texts = {code: {k: v for k, v in catalog(code).items() if k.startswith("page.")}
             for code in LANGUAGES}  # fmt: skip
    return (
        "// The live page's strings, from sqlite_demo/texts.py (generated by the server).\n"
        f"export const DEFAULT_LANGUAGE = {json.dumps(language or default_language())};\n"
        f"export const TEXTS = {json.dumps(texts, ensure_ascii=False, indent=1)};\n"
    )
