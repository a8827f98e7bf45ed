"""Calls written as Python: the lines a failure shows, which a learner can paste and run.

Lines are built only when a failure is reported: an example makes hundreds of calls, and
most examples pass.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from grader.engine.data import literal
from grader.engine.programs import Block
from grader.engine.wire import Ref
from grader.values import ReadOnlyMapping, Text

#: The line a transcript needs first when it passes a payload of that kind.
IMPORTS = {
    "proxy": "from types import MappingProxyType",
    "mapping": "from grader.values import ReadOnlyMapping",
    "text": "from grader.values import Text",
    "defaultdict": "from collections import defaultdict",
}


class Raw:
    """A kept value passed the way ``wrapper`` says: ``p1`` or ``MappingProxyType(p1)``."""

    def __init__(self, name: str, wrapper: str) -> None:
        self.name, self.wrapper = name, wrapper


def source(value: Any) -> str:
    """``value`` as an argument in a call: a kept value by its name, data as a literal."""
    if isinstance(value, Ref):
        return value.name
    if isinstance(value, Raw):
        names = {"proxy": "MappingProxyType", "mapping": "ReadOnlyMapping"}
        return f"{names[value.wrapper]}({value.name})" if value.wrapper in names else value.name
    if isinstance(value, Text):
        return f"Text({literal(str.__str__(value))})"
    if isinstance(value, MappingProxyType):
        return f"MappingProxyType({source(dict(value))})"
    if isinstance(value, ReadOnlyMapping):
        return f"ReadOnlyMapping({source(dict(value))})"
    if isinstance(value, defaultdict):
        return f"defaultdict(str, {source(dict(value))})"
    if type(value) is dict:
        return "{" + ", ".join(f"{_key(k)}: {source(v)}" for k, v in value.items()) + "}"
    return literal(value, limit=None)


def _key(key: Any) -> str:
    """A mapping's key as a literal; a subclass of str as the call that makes it."""
    return source(key) if isinstance(key, Text) else literal(key)


def wrap(payload: dict[str, Any], wrapper: str) -> Any:
    """The payload as the transcript passes it (see :mod:`grader.engine.programs`)."""
    if wrapper == "proxy":
        return MappingProxyType(payload)
    if wrapper == "mapping":
        return ReadOnlyMapping(payload)
    if wrapper == "defaultdict":
        return defaultdict(str, payload)
    return payload


def imports_for(values: Sequence[Any]) -> list[str]:
    """The import lines the values of a transcript need."""
    needed = []
    for value in values:
        if isinstance(value, MappingProxyType):
            needed.append(IMPORTS["proxy"])
        elif isinstance(value, ReadOnlyMapping):
            needed.append(IMPORTS["mapping"])
        elif isinstance(value, Text):
            needed.append(IMPORTS["text"])
        elif isinstance(value, defaultdict):
            needed.append(IMPORTS["defaultdict"])
    return needed


def call(function: str, args: Sequence[Any], kwargs: Mapping[str, Any] | None = None) -> str:
    """``function(arg, ..., key=value)``."""
    parts = [source(arg) for arg in args]
    parts += [f"{key}={source(value)}" for key, value in (kwargs or {}).items()]
    return f"{function}({', '.join(parts)})"


def assign(names: Sequence[str | None], code: str) -> str:
    """``a, b = code``, with ``_`` for a value nobody keeps."""
    targets = ", ".join(name or "_" for name in names)
    return f"{targets} = {code}" if targets else code


def loop(block: Block, log: str) -> str:
    """A block as the loop that makes it, appending to ``log`` (already bound)."""
    lines = []
    for rounds, body in _loops(block, log):
        lines += [f"for i in {rounds}:", *(f"    {log}, _ = {call}" for call in body)]
    return "\n".join(lines)


#: Between a loop's rounds and its calls in a one-line summary: the multiplication sign.
TIMES = "\u00d7"


def loop_summary(block: Block, log: str) -> str:
    """A block in one line, as a loop still: ``1,005 TIMES append_event(log1, "a", ...)``;
    a loop of two calls a round, ``40 TIMES (append_event(...); append_event(...))``."""
    parts = []
    for _, body in _loops(block, log):
        calls = body[0] if len(body) == 1 else "(" + "; ".join(body) + ")"
        parts.append(f"{block.count:,} {TIMES} {calls}")
    return ", ".join(parts)


def _loops(block: Block, log: str) -> list[tuple[str, list[str]]]:
    """The loops that make a block: each one's rounds (``range(40)``) and the calls of its
    body, written with ``i``."""
    session = source(block.sessions[0])
    call_id = f'f"{block.label}_{{i}}"'
    call_payload = f'{{"call_id": {call_id}, "name": "search", "arguments": "{{}}"}}'
    result_payload = f'{{"call_id": {call_id}, "content": "ok"}}'
    rounds = f"range({block.count})"
    message = '"user_message", {"content": "x"})'
    if block.pattern == "filler":
        body = [f"append_event({log}, {session}, {message}"]
    elif block.pattern == "spread":
        base = block.sessions[0].replace("{", "{{").replace("}", "}}")
        body = [f"append_event({log}, f{source(base + '{i}')}, {message}"]
    elif block.pattern == "alternate":
        sessions = "[" + ", ".join(source(s) for s in block.sessions) + "]"
        body = [f"append_event({log}, {sessions}[i % {len(block.sessions)}], {message}"]
    elif block.pattern == "pairs":
        body = [
            f'append_event({log}, {session}, "tool_call", {call_payload})',
            f'append_event({log}, {session}, "tool_result", {result_payload})',
        ]
    else:
        body = [f'append_event({log}, {session}, "tool_call", {call_payload})']
    loops = [(rounds, body)]
    if block.pattern in ("calls_answered", "calls_reversed"):
        order = rounds if block.pattern == "calls_answered" else f"reversed({rounds})"
        loops.append((order, [f'append_event({log}, {session}, "tool_result", {result_payload})']))
    return loops


def path_code(root: str, path: Sequence[Any]) -> str:
    """``root[0].payload["meta"]`` for a kernel path (see :mod:`grader.kernel.mutate`)."""
    text = root
    for step in path:
        kind, key = step
        text += f".{key}" if kind == "a" else f"[{literal(key, limit=None)}]"
    return text


#: How the kernel's change operations are written (see :mod:`grader.kernel.mutate`).
CHANGES = {
    "setitem": '{target}[{argument}] = "changed"',
    "delitem": "del {target}[{argument}]",
    "reverse": "{target}.reverse()",
    "append": '{target}.append("changed")',
    "extend": '{target}.extend(["changed"])',
    "insert": '{target}.insert(0, "changed")',
    "pop": "{target}.pop()",
    "clear": "{target}.clear()",
    "update": '{target}.update({{"added_too": "changed"}})',
    "setdefault": '{target}.setdefault("set_default", "changed")',
    "popkey": "{target}.pop({argument})",
    "popitem": "{target}.popitem()",
    "setattr": "{target}.{name} = {value}",
}
#: What assigning to each attribute of an event puts there.
NEW_FIELDS = {"event_id": "99", "session_id": '"changed"', "type": '"changed"', "payload": "{}"}


def change(root: str, descriptor: Any) -> str:
    """One change the kernel made, ``[path, operation, argument]``, as a line of Python."""
    path, operation, argument = descriptor
    target = path_code(root, path)
    if operation == "setattr":
        return CHANGES["setattr"].format(
            target=target, name=argument, value=NEW_FIELDS.get(str(argument), '"changed"')
        )
    template = CHANGES.get(str(operation), "{target}  # ?")
    return template.format(target=target, argument=literal(argument, limit=None))
