"""Task 1's words: its name, append_event's promises (the docstring's bullets, word for word)
and a hint for each, gentle first."""
# ruff: noqa: RUF001 - the Chinese sentences use Chinese punctuation

from __future__ import annotations

EN = {
    "task.append_and_ids.name": "Appending and event ids",
    "promise.append.returns_pair": "It returns a pair: the new log, then the event.",
    "promise.append.event_attributes": (
        "The event has the attributes event_id (an int), session_id and type (strs) and payload "
        "(a mapping)."
    ),
    "promise.append.event_ids": (
        "Event ids form one sequence shared by all sessions: the first event gets 1, every later "
        "one the previous id + 1, with no gaps, however long the log grows."
    ),
    "promise.append.event_fields": (
        "The event carries the session_id and type it was appended with, and a payload equal to "
        "the one given, type for type (1 is not True nor 1.0), extra keys included."
    ),
    "promise.append.old_log_unchanged": (
        "The log passed in never changes: after the append, appending to it or reading it gives "
        "the same answers as just before."
    ),
    "promise.append.branches": (
        "Logs are independent values: appending to an older log starts a branch (the event gets "
        "that log's next id, and the new log holds that log's events and the new one), and "
        "appending to one log never changes another."
    ),
    "promise.append.caller_payload_copied": (
        "The payload is copied: changing the caller's mapping afterwards, at any depth (a list "
        "inside a tuple, the dict behind a MappingProxyType), changes nothing in the log."
    ),
    "promise.append.payload_read_only": (
        "Nobody can change the log through a payload: changing what ``event.payload`` holds (a "
        "nested list, say) changes nothing that later reads or appends see."
    ),
    "promise.append.events_are_facts": (
        "An event is a fact: assigning to its attributes (where the class allows it) changes "
        "nothing in the log."
    ),
    "hint.append.returns_pair.1": "Return two values, the new log first: return new_log, event.",
    "hint.append.returns_pair.2": (
        "A tuple of two is a pair: build the event, build the new log that holds it, then "
        "return (new_log, event)."
    ),
    "hint.append.event_attributes.1": (
        "Give the event the attributes event_id, session_id, type and payload, with event_id an "
        "int (not a bool, not a float)."
    ),
    "hint.append.event_attributes.2": (
        "A @dataclass(frozen=True) or a typing.NamedTuple with the four fields is enough; payload "
        "must be a mapping (a dict, or a read-only view of one)."
    ),
    "hint.append.event_ids.1": (
        "The new id depends on the log you append to, and on nothing else: one more than the "
        "number of events it holds, whatever their sessions."
    ),
    "hint.append.event_ids.2": (
        "Compute the id from the log itself, as len(events) + 1, as an int: no counter kept "
        "elsewhere, no per-session numbering, no id read back from text."
    ),
    "hint.append.event_fields.1": (
        "Keep session_id and type as they were given, and every payload key with its value, of "
        "the same type: True stays True, 1.0 stays 1.0, -0.0 stays -0.0."
    ),
    "hint.append.event_fields.2": (
        "Copy values, never convert them: no str(), int() or float() on payload values, no "
        "dropping or renaming keys, no normalising text."
    ),
    "hint.append.old_log_unchanged.1": (
        "Treat the log as a value: append_event builds a new log and leaves the one it was "
        "given as it was."
    ),
    "hint.append.old_log_unchanged.2": (
        "Never change a list or dict the old log holds: build a new tuple of events, "
        "new_events = (*log.events, event), and return a new log object holding it."
    ),
    "hint.append.branches.1": (
        "Two appends to the same old log give two independent logs: neither sees the other's event."
    ),
    "hint.append.branches.2": (
        "Keep no state outside the log value (no global counter, no cache keyed by the log's "
        "length or id): everything an append needs is in the log it is given."
    ),
    "hint.append.caller_payload_copied.1": (
        "The caller keeps their mapping and may change it later: store a copy, not the "
        "mapping itself."
    ),
    "hint.append.caller_payload_copied.2": (
        "Copy at every depth, through lists, dicts and tuples alike: walk the value and build "
        "new containers (or copy.deepcopy(dict(payload)); dict() first, since copy.deepcopy "
        "cannot copy a MappingProxyType). json.loads(json.dumps(...)) works too: every int the "
        "contract allows has at most 4,300 digits, which json can write."
    ),
    "hint.append.payload_read_only.1": (
        "What event.payload hands out must not be the log's own data: a reader could change it."
    ),
    "hint.append.payload_read_only.2": (
        "Freeze the stored copy all the way down (dicts into types.MappingProxyType, lists into "
        "tuples), or keep it private and hand out a fresh copy on every read."
    ),
    "hint.append.events_are_facts.1": "Make events immutable, so assigning to an attribute raises.",
    "hint.append.events_are_facts.2": (
        "@dataclass(frozen=True) or a NamedTuple; and never let the log's bookkeeping (the ids "
        "or calls it remembers) read back from an event someone else holds."
    ),
}

#: The Chinese: id -> (fingerprint of the English it translates, translation); see
#: :func:`grader.i18n.fingerprint`. One entry a line, in the order of EN.
# fmt: off
ZH: dict[str, tuple[str, str]] = {
    "task.append_and_ids.name": ("213e907d", "追加与事件 id"),
    "promise.append.returns_pair": ("45378b9f", "返回一个二元组：先是新日志，再是事件。"),
    "promise.append.event_attributes": ("0b1a61be", "事件有 event_id（int）、session_id 和 type（str）以及 payload（映射）这几个属性。"),
    "promise.append.event_ids": ("d06bf46b", "所有会话共用同一个事件 id 序列：第一个事件是 1，之后每个事件都是前一个 id 加 1，中间没有空缺，日志再长也一样。"),
    "promise.append.event_fields": ("124e577a", "事件带着追加时给的 session_id 和 type，payload 与传入的相等，类型也要一样（1 不等于 True，也不等于 1.0），多出来的键也要保留。"),
    "promise.append.old_log_unchanged": ("3649adef", "传入的日志永远不变：这次追加之后，再向它追加或者读取它，结果都和追加之前一样。"),
    "promise.append.branches": ("5bba84a4", "日志是互相独立的值：向一个旧日志追加会开出一个分支（新事件拿到那个日志的下一个 id，新日志里是那个日志的事件加上这个新事件），而向一个日志追加永远不会改变另一个日志。"),
    "promise.append.caller_payload_copied": ("295f1485", "payload 会被复制一份：调用方之后修改自己的映射，不管改在哪一层（元组里的列表、MappingProxyType 背后的字典），日志都不受影响。"),
    "promise.append.payload_read_only": ("a7dfbf3b", "谁都不能通过 payload 改动日志：修改 ``event.payload`` 里的内容（比如嵌套的列表），之后的读取和追加都看不到任何变化。"),
    "promise.append.events_are_facts": ("5d3c3506", "事件是既成事实：给它的属性赋值（如果这个类允许的话）不会改动日志。"),
    "hint.append.returns_pair.1": ("e8c44c48", "返回两个值，新日志在前：return new_log, event。"),
    "hint.append.returns_pair.2": ("f4fc90a9", "两个元素的元组就是二元组：先构造事件，再构造包含它的新日志，然后 return (new_log, event)。"),
    "hint.append.event_attributes.1": ("1c2763c5", "给事件加上 event_id、session_id、type 和 payload 这几个属性，其中 event_id 是 int（不是 bool，也不是 float）。"),
    "hint.append.event_attributes.2": ("ee0d9ccd", "用带这四个字段的 @dataclass(frozen=True) 或 typing.NamedTuple 就够了；payload 必须是映射（dict，或者 dict 的只读视图）。"),
    "hint.append.event_ids.1": ("aa8ad252", "新 id 只取决于你追加的那个日志：等于它已有的事件数加 1，不管这些事件属于哪个会话。"),
    "hint.append.event_ids.2": ("63ccb4f2", "直接从日志算出 id：len(events) + 1，类型是 int。不要在别处维护计数器，不要按会话分别编号，也不要从文本里解析 id。"),
    "hint.append.event_fields.1": ("451f02ae", "session_id 和 type 原样保存，payload 的每个键和值也原样保留，类型不变：True 还是 True，1.0 还是 1.0，-0.0 还是 -0.0。"),
    "hint.append.event_fields.2": ("25c79dcb", "只复制，不转换：不要对 payload 的值调用 str()、int() 或 float()，不要丢掉键或给键改名，也不要对文本做规范化。"),
    "hint.append.old_log_unchanged.1": ("6a3da928", "把日志当作一个值：append_event 构造一个新日志，传进来的那个保持原样。"),
    "hint.append.old_log_unchanged.2": ("21c8f696", "不要修改旧日志里的任何列表或字典：新建一个事件元组 new_events = (*log.events, event)，再返回一个持有它的新日志对象。"),
    "hint.append.branches.1": ("56483981", "对同一个旧日志追加两次，得到的是两个互不相干的日志：谁也看不到对方的事件。"),
    "hint.append.branches.2": ("f8af590a", "不要在日志这个值之外保存状态（没有全局计数器，也没有以日志长度或 id 为键的缓存）：一次追加需要的一切，都在传进来的日志里。"),
    "hint.append.caller_payload_copied.1": ("1ce7cf40", "映射还在调用方手里，之后随时可能被改：要保存一份副本，而不是这个映射本身。"),
    "hint.append.caller_payload_copied.2": ("01a73ac5", "每一层都要复制，列表、字典、元组都一样：遍历这个值，构造新的容器（或者用 copy.deepcopy(dict(payload))；要先 dict()，因为 copy.deepcopy 复制不了 MappingProxyType）。用 json.loads(json.dumps(...)) 也可以：约定允许的每个 int 最多 4,300 位数字，json 都能写出来。"),
    "hint.append.payload_read_only.1": ("d46e999b", "event.payload 交出去的不能是日志自己的数据，否则读取方就能改动它。"),
    "hint.append.payload_read_only.2": ("68ded620", "把保存的副本一路冻结到底（字典换成 types.MappingProxyType，列表换成元组），或者把它藏起来，每次读取都交出一份新副本。"),
    "hint.append.events_are_facts.1": ("1b687739", "把事件做成不可变的，这样给属性赋值就会抛出异常。"),
    "hint.append.events_are_facts.2": ("c16ee67b", "用 @dataclass(frozen=True) 或 NamedTuple；另外，日志自己记的账（它记住的 id 或工具调用）绝不能从别人手里的事件上读回来。"),
}
# fmt: on
