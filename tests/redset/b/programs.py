"""Seeded random programs for the differential run, and the unusual inputs they (and the
witnesses) are built from.

A program is data: a list of operations on numbered logs, whose payloads are specs that are
built afresh for every run (so the reference and the file under test each get their own
objects to keep, change or be changed through). The generator steers with the reference:
it runs each append on it to know which calls are open, so most appends are valid and
tool results find their calls; a share of appends is corrupted on purpose.
"""

from __future__ import annotations

import random
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Iterator, Mapping
from types import MappingProxyType
from typing import Any

PROGRAMS = 2000

TYPES = ("user_message", "assistant_message", "tool_call", "tool_result")
REQUIRED = {
    "user_message": ("content",),
    "assistant_message": ("content",),
    "tool_call": ("call_id", "name", "arguments"),
    "tool_result": ("call_id", "content"),
}


class Text(str):
    """A str subclass, as a learner's framework might hand one in."""

    __slots__ = ()


class Bag(Mapping):  # type: ignore[type-arg]
    """A mapping that is not a dict: reads go through the Mapping interface only."""

    def __init__(self, items: Any) -> None:
        self._items = dict(items)

    def __getitem__(self, key: Any) -> Any:
        return self._items[key]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __setitem__(self, key: Any, value: Any) -> None:  # lets a caller change it later
        self._items[key] = value


# --------------------------------------------------------------------------- specs


def build(spec: Any) -> Any:
    """Materialize a spec: ('v', x) is x itself; containers are built new every time."""
    tag = spec[0]
    if tag == "v":
        return spec[1]
    if tag == "s":
        return Text(spec[1])
    if tag == "l":
        return [build(item) for item in spec[1]]
    if tag == "t":
        return tuple(build(item) for item in spec[1])
    pairs = [(build(key), build(value)) for key, value in spec[1]]
    if tag == "d":
        return dict(pairs)
    if tag == "p":
        return MappingProxyType(dict(pairs))
    if tag == "b":
        return Bag(pairs)
    if tag == "o":
        return OrderedDict(pairs)
    if tag == "dd":
        return defaultdict(list, pairs)
    raise AssertionError(tag)


def v(x: Any) -> tuple[str, Any]:
    return ("v", x)


def obj(items: Mapping[str, Any], tag: str = "d") -> tuple[str, Any]:
    return (tag, tuple((v(k), val if isinstance(val, tuple) else v(val))
                       for k, val in items.items()))


# --------------------------------------------------------------------------- alphabets

POW = [2**n + d for n in range(1, 12) for d in (-1, 0, 1)]
SMALL_POW = [n for n in POW if n <= 65]
TEXT_LENGTHS = [0, 1, 2, 3, 7, 8, 9, 31, 32, 33, 63, 64, 65, 255, 256, 257, 1023, 1024, 1025,
                4097, 65535, 65536, 65537, 131071, 131072, 131073]
FAMILY = ["a", "A", "ab", "a ", " a", "a\t", "a:b", "a/b", "a|b", "a\x1eb", "a\x00", "ａ",
          "\u00e9", "e\u0301", "\U0001f642", "\ud83d\ude42", "\ud83d", "\ude42", "\ud800",
          "a\ud800", "a?", "a\ufffd", "a\\ud800", "a&#55296;", "0", "00", "s1", "s10", "s100",
          "\r\n", "\n", "a" * 64, "a" * 64 + "b", "a" * 64 + "c", "a" * 255 + "x",
          "a" * 255 + "y", "a" * 256 + "x"]
CALL_IDS = ["c", "b/c", "b:c", "b|c", "b\x1ec", "C", "c1", "call_1", "Call_1", "call_1 ", "c:1", "c/1", "\ud800", "c\udfff",
            "c\ufffd", "c?", "\U0001f642", "\ud83d\ude42", "x" * 256, "x" * 256 + "1",
            "x" * 256 + "2", "x" * 1024 + "z", "\x00", "c\n1"]
EXTRA_KEYS = ["role", "content", "tool_calls", "tool_call_id", "name", "id", "type", "function",
              "arguments", "event_id", "session_id", "payload", "call_id", "refusal", "audio",
              "meta", "x", "\ud800", "\U0001f642", ""]
CHARS = ["a", "Z", " ", "\n", "\r\n", "\t", "\x00", "\x7f", "\u00e9", "e\u0301", "\u4e2d",
         "\U0001f642", "\ud83d", "\ude42", "\ud800", "\udfff", "\udc80", "?", "\ufffd", "\\",
         '"', "{", "}", ":", ",", "|", "/", "\u2028", "\ufeff"]
INTS = [0, 1, -1, 2, 255, 256, 2**31 - 1, 2**31, 2**32, 2**53 + 1, 2**63 - 1, 2**63, 2**63 + 1,
        -(2**63), -(2**63) - 1, 2**64 - 1, 2**64, 2**64 + 1, 2**71, 10**4299, 10**4300,
        -(10**4300), 7**6000]
FLOATS = [0.0, -0.0, 1.0, -1.0, 0.1, 1e308, -1e308, 5e-324, 2.0**53, 1.5]
ARGUMENTS = ["{}", '{"a":1}', '{"b":1,"a":2}', '{"a": 1, "b": [1, 2]}', '{"a":1,"a":2}',
             '{\n  "z": 0,\n  "y": 1\n}', "not json", "", '{"x":1e2}', "[1,2]", '"s"', "null",
             '{"k":"\\ud800"}', '{"q":1.0,"p":-0.0}']


class Generator:
    def __init__(self, seed: int, reference: Any) -> None:
        self.rng = random.Random(seed)
        self.ref = reference
        self.logs = [reference.create_event_log()]
        self.ops: list[tuple[Any, ...]] = []
        self.fresh = 0
        self.long_text = ""
        self.sizes = [0]  # events in each log, to aim resume reads
        family = self.rng.sample(FAMILY, self.rng.choice([1, 2, 3, 4, 6]))
        self.sids = family + [f"s{self.rng.randrange(100)}" for _ in range(2)]

    # ---- text and values

    def text(self, big: bool = True) -> Any:
        rng = self.rng
        r = rng.random()
        if r < 0.3:
            s = rng.choice(["", "hello", "42", "ok", "{}", "None", "\ud800", "\U0001f642"])
        elif r < 0.9 or not big:
            s = "".join(rng.choice(CHARS) for _ in range(rng.choice(SMALL_POW)))
        elif self.long_text and rng.random() < 0.4:  # the same length, one character changed
            n = len(self.long_text)
            at = rng.randrange(n // 2, n)
            s = self.long_text[:at] + rng.choice(CHARS[:3]) + self.long_text[at + 1:]
        else:
            n = rng.choice(TEXT_LENGTHS)
            s = rng.choice(CHARS) * n if rng.random() < 0.5 else "ab" * (n // 2) + "c" * (n % 2)
            self.long_text = s if n > 1 else self.long_text
        return ("s", s) if rng.random() < 0.15 else v(s)

    def value(self, depth: int) -> Any:
        rng = self.rng
        r = rng.random()
        if depth <= 0 or r < 0.55:
            pick = rng.random()
            if pick < 0.3:
                return v(rng.choice(INTS))
            if pick < 0.5:
                return v(rng.choice(FLOATS))
            if pick < 0.6:
                return v(rng.choice([True, False, None]))
            return self.text(big=False)
        if r < 0.62 and depth >= 3:  # an extra key's value: the payload stays within 200 levels
            return self.deep(rng.choice([2, 8, 63, 64, 65, 127, 128, 129, 150, 151, 160, 192,
                                         193, 198]))
        width = rng.choice(SMALL_POW[:8]) if rng.random() < 0.93 else rng.choice(POW)
        width = min(width, 1025)
        if r < 0.8:
            tag = rng.choice(["l", "t"])
            if width >= 20 and rng.random() < 0.4:
                return (tag, self.mostly_flat(width))
            return (tag, tuple(self.value(depth - 1 if width < 20 else 0) for _ in range(width)))
        tag = rng.choice(["d", "d", "p", "b", "o", "dd"])
        return (tag, tuple((v(f"k{i}" if rng.random() < 0.8 else rng.choice(EXTRA_KEYS) + str(i)),
                            self.value(depth - 1 if width < 20 else 0)) for i in range(width)))

    def mostly_flat(self, width: int) -> tuple[Any, ...]:
        """Scalars, with a few small containers at random places (the last one included)."""
        items = [self.value(0) for _ in range(width)]
        for at in {width - 1, self.rng.randrange(width), self.rng.randrange(width // 2, width)}:
            items[at] = self.rng.choice([("l", (v(at),)), ("d", ((v("k"), v(at)),)),
                                         ("t", (("l", (v(at),)),))])
        return tuple(items)

    def deep(self, levels: int) -> Any:
        spec: Any = self.value(0)
        for level in range(levels - 1):
            kind = self.rng.choice(["l", "t", "d", "p", "b"])
            spec = (kind, (spec,)) if kind in "lt" else (kind, ((v(f"n{level}"), spec),))
        return spec

    # ---- payloads

    def sid(self) -> Any:
        s = self.rng.choice(self.sids)
        return ("s", s) if self.rng.random() < 0.1 else v(s)

    def calls(self, h: int, sid: str) -> tuple[set[str], set[str]]:
        open_calls: set[str] = set()
        used: set[str] = set()
        for event in self.ref.get_events_for_session(self.logs[h], sid):
            if event.type == "tool_call":
                open_calls.add(event.payload["call_id"])
                used.add(event.payload["call_id"])
            elif event.type == "tool_result":
                open_calls.discard(event.payload["call_id"])
        return open_calls, used

    def call_id(self, h: int, sid: str, kind: str) -> Any:
        rng = self.rng
        open_calls, used = self.calls(h, sid)
        if kind == "tool_result" and open_calls and rng.random() < 0.85:
            return v(rng.choice(sorted(open_calls)))
        if kind == "tool_call" and rng.random() < 0.75:
            self.fresh += 1
            return v(rng.choice(["k", "call_", "x" * 300]) + str(self.fresh))
        pool = CALL_IDS + sorted(used)
        cid = rng.choice(pool)
        return ("s", cid) if rng.random() < 0.1 else v(cid)

    def payload(self, h: int, sid: str, kind: str) -> list[tuple[Any, Any]]:
        rng = self.rng
        items: list[tuple[Any, Any]] = []
        for key in REQUIRED[kind]:
            if key == "call_id":
                value = self.call_id(h, sid, kind)
            elif key == "arguments":
                value = v(rng.choice(ARGUMENTS)) if rng.random() < 0.7 else self.text()
            elif key == "name":
                value = v(rng.choice(["f", "query_order_count", " ", "名字", "a.b-c"]))
                if rng.random() < 0.2:
                    value = self.text(big=False) if rng.random() < 0.9 else v(rng.choice(CHARS))
            else:
                value = self.text()
            items.append((v(key), value))
        for _ in range(rng.choice([0, 0, 0, 1, 2, 3])):
            key = rng.choice(EXTRA_KEYS)
            if key not in REQUIRED[kind]:
                items.append((("s", key) if rng.random() < 0.1 else v(key), self.value(3)))
        rng.shuffle(items)
        return items

    def corrupt(self, sid: Any, kind: Any, items: list[tuple[Any, Any]], container: str
                ) -> tuple[Any, Any, Any]:
        rng = self.rng
        how = rng.randrange(6)
        if how == 0:
            kind = v(rng.choice(["User_message", "user_message ", "", "message", None, 1,
                                 ["user_message"], b"tool_call", {"t": 1}, ("tool_call",)]))
        elif how == 1:
            sid = v(rng.choice(["", None, 0, b"a", ["a"], 1.5]))
        elif how == 2:
            return sid, kind, v(rng.choice([[], "content", None, 1,
                                            [("content", "x")], (("content", "x"),)]))
        else:
            required = [i for i, item in enumerate(items) if item[0][1] in REQUIRED.get(build(kind), ())]
            if not required:
                return sid, kind, (container, tuple(items))
            index = rng.choice(required)
            if how == 3:
                del items[index]
            else:
                bad = rng.choice([None, 1, 0, True, 1.0, b"x", [], ["x"], {"x": 1}, ("x",), ""])
                items[index] = (items[index][0], v(bad))
        return sid, kind, (container, tuple(items))

    # ---- operations

    def handle(self) -> int:
        if self.rng.random() < 0.75:
            return len(self.logs) - 1
        return self.rng.randrange(len(self.logs))

    def op_add(self) -> None:
        rng = self.rng
        h = self.handle()
        sid_spec = self.sid()
        kind = rng.choice(TYPES)
        if rng.random() < 0.3:
            kind = rng.choice(["tool_call", "tool_result"])
        items = self.payload(h, build(sid_spec), kind)
        container = rng.choice(["d"] * 6 + ["p", "b", "o", "dd"])
        kind_spec: Any = ("s", kind) if rng.random() < 0.08 else v(kind)
        spec: Any = (container, tuple(items))
        valid = (sid_spec, kind_spec, spec)
        if rng.random() < 0.18:
            sid_spec, kind_spec, spec = self.corrupt(sid_spec, kind_spec, list(items), container)
        self.ops.append(("add", h, sid_spec, kind_spec, spec))
        self.step(h, build(sid_spec), build(kind_spec), build(spec))
        if (sid_spec, kind_spec, spec) != valid and rng.random() < 0.5:
            self.ops.append(("add", h, *valid))  # the refused append, now valid: no trace left?
            self.step(h, *map(build, valid))

    def step(self, h: int, sid: Any, kind: Any, payload: Any) -> None:
        try:
            new, _ = self.ref.append_event(self.logs[h], sid, kind, payload)
        except ValueError:
            new = self.logs[h]
        self.logs.append(new)
        self.sizes.append(self.sizes[h] + (new is not self.logs[h]))

    def op_again(self) -> None:
        """The same payload object appended once more (after it may have been changed)."""
        adds = [i for i, op in enumerate(self.ops) if op[0] == "add"]
        if not adds:
            return
        index = self.rng.choice(adds)
        number = sum(1 for op in self.ops[: index + 1] if op[0] in ("add", "again")) - 1
        _, _, sid, kind, spec = self.ops[index]
        h = self.handle()
        self.ops.append(("again", h, sid, kind, number))
        self.step(h, build(sid), build(kind), build(spec))

    def op_bulk(self) -> None:
        rng = self.rng
        h = self.handle()
        r = rng.random()  # mostly small; one bulk in ten reaches 1023 to 2049 events
        n = rng.choice([n for n in POW if (n <= 65 if r < 0.7 else n <= 513 if r < 0.9 else n >= 1023)])
        shape = rng.choice(["users", "sessions", "calls", "gap", "pairs"])
        if shape in ("calls", "pairs"):
            n = min(n, 257 if rng.random() < 0.9 else 1025)
        self.fresh += 1
        sid = build(self.sid())
        op = ("bulk", h, shape, n, sid, f"b{self.fresh}_", rng.random() < 0.5)
        self.ops.append(op)
        log, size = self.logs[h], self.sizes[h]
        for args in bulk_steps(*op[2:]):
            try:
                log, _ = self.ref.append_event(log, *args)
                size += 1
            except ValueError:
                pass
        self.logs.append(log)
        self.sizes.append(size)

    def after(self, h: int) -> Any:
        rng = self.rng
        top = self.sizes[h]
        near = [n for n in POW if n <= top + 1] or [1]
        return rng.choice([None, 0, -1, 1, rng.randrange(-2, top + 3), rng.randrange(top + 3),
                           top - 1, top, top + 1, rng.choice(near), rng.choice(near[-6:]),
                           rng.choice(near[-6:]),
                           2**31, 2**32, 2**63 - 1, 2**63, 2**64 + 1, -(2**70), 10**400])

    def generate(self) -> list[tuple[Any, ...]]:
        rng = self.rng
        length = rng.choice([1, 2, 3, 5, 8, 12, 20, 30, 45])
        if rng.random() < 0.2:
            self.op_bulk()
        for _ in range(length):
            r = rng.random()
            if r < 0.5:
                self.op_add()
            elif r < 0.53:
                self.op_again()
            elif r < 0.56:
                self.op_bulk() if rng.random() < 0.3 else self.op_add()
            elif r < 0.68:
                h = self.handle()
                self.ops.append(("get", h, self.sid(), self.after(h)))
            elif r < 0.74:
                self.ops.append(("list", self.handle()))
            elif r < 0.84:
                self.ops.append(("replay", self.handle(), self.sid()))
            elif r < 0.93:
                self.ops.append(("poke_last",))
            else:
                count = sum(1 for op in self.ops if op[0] in ("add", "again"))
                if count:
                    self.ops.append(("poke_input", rng.randrange(count)))
        for h in {len(self.logs) - 1, rng.randrange(len(self.logs))}:
            reads: list[tuple[Any, ...]] = [("list", h)]
            for sid in self.sids:
                reads += [("get", h, v(sid), None), ("replay", h, v(sid))]
            for read in reads:
                self.ops.append(read)
                if rng.random() < 0.5:  # the caller changes what it got: the next read must not see it
                    self.ops += [("poke_last",), read]
        return self.ops


def bulk_steps(shape: str, n: int, sid: str, prefix: str, flag: bool
               ) -> Iterator[tuple[Any, str, Any]]:
    """The appends of a bulk operation: many events of one simple shape."""
    if shape == "users":
        for i in range(n):
            kind = "user_message" if (i % 2 == 0 or not flag) else "assistant_message"
            yield sid, kind, {"content": f"{prefix}{i}"}
    elif shape == "sessions":
        for i in range(n):
            yield f"{prefix}{i}" if flag else f"{prefix}{i % 7}{'x' * (i // 7)}", \
                "user_message", {"content": str(i)}
    elif shape in ("calls", "pairs"):
        ids = [f"{prefix}{i}" for i in range(n)]
        for cid in ids:
            yield sid, "tool_call", {"call_id": cid, "name": "f", "arguments": "{}"}
            if shape == "pairs":
                yield sid, "tool_result", {"call_id": cid, "content": "r"}
        if shape == "calls":
            for cid in reversed(ids) if flag else ids:
                yield sid, "tool_result", {"call_id": cid, "content": cid}
        yield sid, "tool_result", {"call_id": ids[0], "content": "again"}
        yield sid, "tool_call", {"call_id": ids[0], "name": "f", "arguments": "{}"}
    else:  # gap: a call, n other events, its result
        cid = f"{prefix}gap"
        yield sid, "tool_call", {"call_id": cid, "name": "f", "arguments": "{}"}
        for i in range(n):
            yield (sid if i % 3 else f"{prefix}other"), "user_message", {"content": str(i)}
        yield sid, "tool_result", {"call_id": cid, "content": "late"}
        yield sid, "tool_call", {"call_id": cid, "name": "f", "arguments": "{}"}


def execute(ops: list[tuple[Any, ...]]) -> Callable[[Any], None]:
    def program(t: Any) -> None:
        logs = [t.new()]
        inputs: list[Any] = []
        last: Any = None
        for op in ops:
            kind = op[0]
            if kind in ("add", "again"):
                _, h, sid, event_type, spec = op
                payload = build(spec) if kind == "add" else inputs[spec]
                inputs.append(payload)
                log, last = t.add(logs[h], build(sid), build(event_type), payload)
                logs.append(log)
            elif kind == "bulk":
                log = logs[op[1]]
                for args in bulk_steps(*op[2:]):
                    log, _ = t.add(log, *args, quiet=True)
                logs.append(log)
            elif kind == "get":
                last = t.get(logs[op[1]], build(op[2]), op[3])
            elif kind == "list":
                last = t.sessions(logs[op[1]])
            elif kind == "replay":
                last = t.replay(logs[op[1]], build(op[2]))
            elif kind == "poke_last":
                t.poke(last)
            elif kind == "poke_input":
                t.poke(inputs[op[1]])

    return program


def random_program(seed: int, reference: Any) -> Callable[[Any], None]:
    return execute(Generator(seed, reference).generate())
