#!/usr/bin/env python3
"""Prove every file of the red set wrong or right against the reference (``solutions``).

* A file in ``wrong/`` carries a WITNESS in its docstring: a few calls on a probe ``p``. The
  harness runs the witness on the reference and on the file and compares what each observed
  under the contract's notion of equality (see :func:`canon`). The file passes when the two
  differ; a witness that shows no difference is a failure of the red set.
* A file in ``correct/`` is run beside the reference on thousands of random programs and on a
  fixed list of large scenarios (sizes past powers of two, branches, refusals, vandalised
  results). The file passes when nothing differs.

Every file runs in its own interpreter (two at a time) with a time limit. Everything is
seeded: the same run prints the same table. ``python harness.py`` runs it all; ``--one FILE``
checks one file and prints its verdict as JSON; ``--show FILE`` prints both traces of a
witness side by side up to the first difference.

Exit status: 0 when every wrong file differs on its witness and every correct file never
differs, 1 otherwise.
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import json
import os
import random
import subprocess
import sys
import textwrap
import time
from collections import ChainMap, OrderedDict, defaultdict
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import MappingProxyType, ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
REFERENCE = Path(os.environ.get("REDSET_REFERENCE", HERE.parents[2] / "solutions"))
SEED = 20_250_528
SMALL_PROGRAMS = int(os.environ.get("REDSET_PROGRAMS", "2500"))
WRONG_PROBE_PROGRAMS = 150  # informational only: does a small random program catch the bug?
TIME_LIMIT = {"wrong": 120, "correct": 900}
FUNCTIONS = (
    "create_event_log",
    "append_event",
    "get_events_for_session",
    "list_sessions",
    "replay_session",
)


# --------------------------------------------------------------------------- inputs


class Label(str):
    """A ``str`` subclass, as the contract allows wherever a string goes."""

    def __repr__(self) -> str:
        return f"Label({str.__repr__(self)})"


class Record(Mapping):
    """A read-only ``Mapping`` of the caller's own: not a dict, not a MappingProxyType."""

    def __init__(self, items: dict) -> None:
        self._items = items

    def __getitem__(self, key):
        return self._items[key]

    def __iter__(self):
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)


# --------------------------------------------------------------------------- equality


def text(value: str) -> str:
    """A string as JSON counts it: a surrogate pair is the one character it encodes."""
    plain = str.__str__(value)
    if plain.isascii():
        return plain
    try:
        plain.encode("utf-8")
    except UnicodeEncodeError:
        return plain.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
    return plain


def canon(value: Any) -> Any:
    """What the contract lets a caller observe of a value, as a hashable, comparable tree.

    Types count (``True`` is not ``1``, ``1.0`` is not ``1``, ``-0.0`` is not ``0.0``), a
    list and a tuple are interchangeable, any mapping is any mapping, key order is not
    observable, and a ``str`` subclass is a ``str`` with the same characters.
    """
    kind = type(value)
    if kind is str:
        return ("str", text(value))
    if kind is int:
        return ("int", value)
    if kind is tuple or kind is list:
        return ("seq", tuple(canon(item) for item in value))
    if kind is dict or kind is MappingProxyType:
        return _canon_mapping(value)
    if value is None:
        return ("none",)
    if isinstance(value, bool):
        return ("bool", bool(value))
    if isinstance(value, int):
        return ("int", int(value))
    if isinstance(value, float):
        return ("float", float(value).hex())
    if isinstance(value, str):
        return ("str", text(value))
    if isinstance(value, Mapping):
        return _canon_mapping(value)
    if isinstance(value, (list, tuple)):
        return ("seq", tuple(canon(item) for item in value))
    return ("other", type(value).__name__)


def _canon_mapping(value: Mapping) -> tuple:
    items = [(canon(key), canon(item)) for key, item in value.items()]
    return ("map", tuple(sorted(items, key=lambda pair: _order(pair[0]))))


def _order(key: Any) -> tuple:
    return (key[0], key[1]) if key[0] == "str" else (key[0], repr(key))


def canon_event(event: Any) -> Any:
    fields = []
    for name in ("event_id", "session_id", "type", "payload"):
        try:
            value = getattr(event, name)
        except Exception as error:  # noqa: BLE001 - any failure is an observation
            fields.append(("no attribute", name, type(error).__name__))
            continue
        if name == "payload" and not isinstance(value, Mapping):
            fields.append(("payload is not a mapping", type(value).__name__))
        else:
            fields.append(canon(value))
    return ("event", tuple(fields))


def canon_sequence(value: Any, item: Any) -> Any:
    if not isinstance(value, Sequence) or isinstance(value, (str, bytes)):
        return ("not a sequence", type(value).__name__)
    return ("seq", tuple(item(element) for element in value))


def raised(error: BaseException) -> tuple:
    if isinstance(error, ValueError):
        return ("refused",)
    return ("crashed", type(error).__name__)


VANDAL = "VANDAL"


def vandalize(value: Any, depth: int = 0) -> None:
    """Try every way a careless caller could change ``value``, at every depth."""
    if depth > 400 or isinstance(value, (str, int, float, bytes, type(None))):
        return
    if isinstance(value, Mapping):
        inner = list(value.values())
        for item in inner:
            vandalize(item, depth + 1)
        keys = list(value.keys())
        attempts = [lambda k=k: value.__setitem__(k, VANDAL) for k in keys[:3]]
        attempts += [
            lambda: value.__setitem__(VANDAL, VANDAL),
            lambda: value.update({VANDAL + "2": VANDAL}),
            lambda: value.setdefault(VANDAL + "3", VANDAL),
            lambda: value.pop(keys[-1]) if keys else None,
            lambda: value.popitem(),
        ]
        _attempt_all(attempts)
        return
    if isinstance(value, (list, tuple)):
        for item in list(value):
            vandalize(item, depth + 1)
        if isinstance(value, list):
            _attempt_all(
                [
                    lambda: value.append(VANDAL),
                    lambda: value.__setitem__(0, VANDAL),
                    lambda: value.reverse(),
                    lambda: value.pop(),
                ]
            )
        return
    try:
        payload = getattr(value, "payload", None)
    except Exception:  # noqa: BLE001
        payload = None
    if payload is not None:
        vandalize(payload, depth + 1)
    _attempt_all(
        [
            lambda: setattr(value, "event_id", 10**6),
            lambda: setattr(value, "session_id", VANDAL),
            lambda: setattr(value, "type", "user_message"),
            lambda: setattr(value, "payload", {"content": VANDAL}),
        ]
    )


def _attempt_all(attempts: list) -> None:
    for attempt in attempts:
        try:
            attempt()
        except Exception:  # noqa: BLE001, S112 - a refusal to change is the good outcome
            continue


# --------------------------------------------------------------------------- the probe


class Probe:
    """Calls one implementation and records what a caller can observe of every answer."""

    def __init__(self, module: ModuleType) -> None:
        self.m = module
        self.trace: list[Any] = []

    def _call(self, what: str, function: str, *args: Any) -> tuple[bool, Any]:
        try:
            return True, getattr(self.m, function)(*args)
        except Exception as error:  # noqa: BLE001
            self.trace.append((what, raised(error)))
            return False, None

    def new(self) -> Any:
        ok, log = self._call("new", "create_event_log")
        if ok:
            self.trace.append(("new", "ok"))
        return log

    def append(self, log: Any, session_id: Any, event_type: Any, payload: Any) -> tuple:
        """Return ``(new_log, event)``, or ``(log, None)`` when the append was refused."""
        ok, result = self._call("append", "append_event", log, session_id, event_type, payload)
        if not ok:
            return log, None
        if not isinstance(result, (tuple, list)) or len(result) != 2:
            self.trace.append(("append", ("not a pair", type(result).__name__)))
            return log, None
        self.trace.append(("append", canon_event(result[1])))
        return result[0], result[1]

    def read(self, log: Any, session_id: Any, after: int | None = None) -> Any:
        args = (log, session_id) if after is None else (log, session_id, after)
        ok, events = self._call("read", "get_events_for_session", *args)
        if ok:
            self.trace.append(("read", canon_sequence(events, canon_event)))
        return events

    def sessions(self, log: Any) -> Any:
        ok, ids = self._call("sessions", "list_sessions", log)
        if ok:
            self.trace.append(("sessions", canon_sequence(ids, canon)))
        return ids

    def replay(self, log: Any, session_id: Any) -> Any:
        ok, messages = self._call("replay", "replay_session", log, session_id)
        if ok:
            self.trace.append(("replay", canon_sequence(messages, canon)))
        return messages

    def note(self, label: str, value: Any) -> None:
        self.trace.append(("note", label, canon(value)))

    def vandal(self, value: Any) -> None:
        vandalize(value)


# --------------------------------------------------------------------------- loading


def load_reference() -> ModuleType:
    if "solutions" in sys.modules:
        return sys.modules["solutions"]
    spec = importlib.util.spec_from_file_location(
        "solutions", REFERENCE / "__init__.py", submodule_search_locations=[str(REFERENCE)]
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["solutions"] = module
    spec.loader.exec_module(module)
    return module


def load_file(path: Path) -> ModuleType:
    name = f"redset_{path.parent.name}_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    missing = [f for f in FUNCTIONS if not callable(getattr(module, f, None))]
    if missing:
        raise ImportError(f"missing functions: {missing}")
    return module


def non_stdlib_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return sorted(name for name in found if name not in sys.stdlib_module_names)


def docstring_fields(path: Path) -> dict[str, str]:
    """The ``Dimension:``, ``Witness size:`` and ``Witness:`` parts of a file's docstring."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")), clean=False) or ""
    fields: dict[str, str] = {"summary": doc.strip().splitlines()[0] if doc.strip() else ""}
    lines = doc.splitlines()
    for index, line in enumerate(lines):
        stripped = line.strip()
        for key in ("Dimension", "Witness size"):
            if stripped.startswith(key + ":"):
                fields[key] = stripped[len(key) + 1 :].strip()
        if stripped == "Witness:":
            fields["Witness"] = textwrap.dedent("\n".join(lines[index + 1 :]))
            break
    return fields


# --------------------------------------------------------------------------- witnesses


def run_witness(module: ModuleType, code: str) -> list[Any]:
    probe = Probe(module)
    namespace = {
        "p": probe,
        "Label": Label,
        "Record": Record,
        "MappingProxyType": MappingProxyType,
        "OrderedDict": OrderedDict,
        "defaultdict": defaultdict,
        "ChainMap": ChainMap,
    }
    try:
        exec(compile(code, "<witness>", "exec"), namespace)  # noqa: S102 - our own files
    except Exception as error:  # noqa: BLE001
        probe.trace.append(("witness stopped", raised(error)))
    return probe.trace


def first_difference(expected: list[Any], actual: list[Any]) -> str | None:
    for index, (want, got) in enumerate(zip(expected, actual, strict=False)):
        if want != got:
            inner_want, inner_got = innermost(want, got)
            return f"step {index} ({want[0]}): reference {short(inner_want)} / file {short(inner_got)}"
    if len(expected) != len(actual):
        return f"the reference made {len(expected)} observations, the file {len(actual)}"
    return None


def innermost(want: Any, got: Any) -> tuple[Any, Any]:
    """The smallest parts of two observations that still differ (same shape above them)."""
    while (
        isinstance(want, tuple)
        and isinstance(got, tuple)
        and len(want) == len(got)
        and sum(1 for a, b in zip(want, got, strict=True) if a != b) == 1
    ):
        if _is_seq(want) and _is_seq(got) and len(want[1]) != len(got[1]):
            return f"{len(want[1])} items", f"{len(got[1])} items"
        want, got = next((a, b) for a, b in zip(want, got, strict=True) if a != b)
    return want, got


def _is_seq(value: Any) -> bool:
    return isinstance(value, tuple) and len(value) == 2 and value[0] == "seq"


def short(value: Any, limit: int = 160) -> str:
    shown = repr(_shrink(value))
    return shown if len(shown) <= limit else shown[: limit - 3] + "..."


def _shrink(value: Any, depth: int = 0) -> Any:
    """A bounded version of an observation, for messages (no repr of huge texts or ints)."""
    if depth > 6:
        return "…"
    if isinstance(value, str):
        return value if len(value) <= 40 else f"<str of {len(value)} chars: {value[:12]!r}…>"
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"<int of {value.bit_length()} bits>"
    if isinstance(value, tuple):
        items = [_shrink(item, depth + 1) for item in value[:6]]
        return tuple(items + ([f"… {len(value)} items"] if len(value) > 6 else []))
    return value


# --------------------------------------------------------------------------- programs

SESSION_IDS = [
    "a", "b", "A", "ab", "ba", "xa", "a ", " a", "a:1", "a|b", "a\tb", "a\x1fb", "é",
    "e\u0301", "\uff45", "\ud800", "\\ud800", "\udfff", "\x00", "\r\n", "ς", "σ", "İ",
    "i\u0307", "0", "None", "x" * 257, "x" * 256 + "y", Label("a"), Label("ab"),
    Label("\ud800"), "a" * 65, "\ud83d\ude42x",
]  # fmt: skip
CALL_IDS = [
    "c", "C", "c1", "call_1", "Call_1", "c ", " ", "\t", "\ud800", "\\ud800", "\\", "é",
    "e\u0301", Label("c"), "c" * 65, "c" * 64 + "d", "0", "c1 ", "\x00", "\ud83d\ude42",
]  # fmt: skip
NAMES = ["f", "get weather", Label("f"), "\ud800", "n" * 65, "名前", "\\ud800", "a.b-c_d"]
ARGUMENTS = [
    "{}", '{"a": 1, "b": 2}', '{"b":2,"a":1}', "not json", "", '{"q": "\\ud800"}',
    ' { "x" : [1,2] } ', "\ud800", Label('{"k": 1, "j": [true, null]}'), "[1, 2, 3]",
    '{"a": {"b": {"c": 1}}, "d": "e"}',
]  # fmt: skip
CONTENTS = [
    "", "hi", "\ud83d\ude42", "🙂", "\ud800", "\\ud800", "\ud800\\ud800", "\x00\r\n\t",
    Label("hey"), "c" * 300, "\udc80\udcff", "é", "e\u0301", "\ud83d", "\ude42x",
]  # fmt: skip
EXTRA_KEYS = [
    "event_id", "session_id", "type", "payload", "role", "content", "tool_calls",
    "tool_call_id", "name", "arguments", "call_id", "id", "function", "", "\udc80",
    Label("k"), "k" * 300, "é", "e\u0301", "a.b", "0",
]  # fmt: skip
INTS = [0, 1, -1, 2**31, 2**53 + 1, -(2**53) - 1, 2**63 - 1, 2**63, 2**64 + 1, -(2**63) - 1,
        5 + (2**61 - 1), 10**300, -(10**4000) + 7, 255, 256, 65537]  # fmt: skip
FLOATS = [0.0, -0.0, 1.5, -2.25, 1e308, 5e-324, 2.0**53 + 2, 0.1]
BAD_TYPES = ["User_message", "user_message ", "", "system", "tool", "user", "message",
             None, 1, True, ["user_message"], ("tool_call",), b"user_message",
             "assistant_message\n", {"type": "user_message"}, Label("tool")]  # fmt: skip
BAD_SESSIONS = ["", None, 0, 1, True, b"a", ["a"], ("a",), 1.5, {"a": 1}, Label("")]
BAD_VALUES = [None, 1, 0, True, False, 1.5, ("L", ["x"]), ("D", [("a", "b")]), ("T", [])]
REQUIRED = {
    "user_message": ("content",),
    "assistant_message": ("content",),
    "tool_call": ("call_id", "name", "arguments"),
    "tool_result": ("call_id", "content"),
}
MAPPING_KINDS = "DDDDDPRFOC"


def build(spec: Any, containers: list[Any], reused: list[Any]) -> Any:
    """Build a fresh payload from ``spec``; every mutable container goes into ``containers``."""
    if not isinstance(spec, tuple) or not spec or spec[0] not in BUILDERS:
        return spec
    return BUILDERS[spec[0]](spec[1], containers, reused)


def _items(items: list, containers: list, reused: list) -> dict:
    built = {key: build(value, containers, reused) for key, value in items}
    containers.append(built)
    return built


def _chain(items: list, containers: list, reused: list) -> ChainMap:
    half = len(items) // 2
    first, second = _items(items[:half], containers, reused), _items(items[half:], containers, reused)
    return ChainMap(second, first)


def _list(items: list, containers: list, reused: list) -> list:
    built = [build(item, containers, reused) for item in items]
    containers.append(built)
    return built


def _default(items: list, containers: list, reused: list) -> defaultdict:
    built = defaultdict(str, _items(items, containers, reused))
    containers.append(built)
    return built


def _ordered(items: list, containers: list, reused: list) -> OrderedDict:
    built = OrderedDict(_items(items, containers, reused))
    containers.append(built)
    return built


BUILDERS = {
    "D": _items,
    "P": lambda i, c, r: MappingProxyType(_items(i, c, r)),
    "R": lambda i, c, r: Record(_items(i, c, r)),
    "F": _default,
    "O": _ordered,
    "C": _chain,
    "L": _list,
    "T": lambda i, c, r: tuple(build(item, c, r) for item in i),
    "REUSE": lambda index, c, r: r[index],
}


def run_program(module: ModuleType, ops: list[tuple]) -> list[Any]:
    """Run one program (see :class:`ProgramMaker`) and return what the probe observed."""
    probe = Probe(module)
    logs: list[Any] = []
    events: list[Any] = []
    results: list[Any] = []
    payloads: list[Any] = []
    containers: list[list[Any]] = []
    for op in ops:
        kind = op[0]
        if kind == "new":
            logs.append(probe.new())
        elif kind == "append":
            _, handle, session_id, event_type, spec = op
            built: list[Any] = []
            payload = build(spec, built, payloads)
            payloads.append(payload)
            containers.append(built)
            log, event = probe.append(logs[handle], session_id, event_type, payload)
            logs.append(log)
            events.append(event)
        elif kind == "read":
            results.append(probe.read(logs[op[1]], op[2], op[3]))
        elif kind == "sessions":
            results.append(probe.sessions(logs[op[1]]))
        elif kind == "replay":
            results.append(probe.replay(logs[op[1]], op[2]))
        elif kind == "vandal_result" and results:
            vandalize(results[op[1] % len(results)])
        elif kind == "vandal_event" and events:
            vandalize(events[op[1] % len(events)])
        elif kind == "mutate_caller" and containers:
            for container in containers[op[1] % len(containers)]:
                vandalize(container)
    return probe.trace


class ProgramMaker:
    """Random programs: appends (valid and refused, on the newest log or an older one), reads,
    replays, list_sessions, and callers who change what they passed or what they got back.

    A small model of each log (which calls are open or answered, per session) steers the
    appends towards the interesting cases; it only chooses inputs, it never judges.
    """

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def program(self) -> list[tuple]:
        rng = self.rng
        self.sessions = rng.sample(SESSION_IDS, rng.randint(1, 5))
        self.calls = rng.sample(CALL_IDS, rng.randint(1, 5))
        self.models: list[dict] = [{}]
        self.sizes = [0]
        self.ops: list[tuple] = [("new",)]
        for _ in range(rng.randint(4, 60)):
            self.step()
        return self.ops

    def handle(self, newest_bias: float) -> int:
        if self.rng.random() < newest_bias:
            return len(self.models) - 1
        return self.rng.randrange(len(self.models))

    def step(self) -> None:
        rng = self.rng
        roll = rng.random()
        if roll < 0.62:
            self.append()
        elif roll < 0.74:
            after = rng.choice([None, 0, -1, 1, 2, 3, -(2**70), 2**64, self.sizes[-1]])
            self.ops.append(("read", self.handle(0.7), self.session(), after))
        elif roll < 0.80:
            self.ops.append(("sessions", self.handle(0.7)))
        elif roll < 0.90:
            self.ops.append(("replay", self.handle(0.7), self.session()))
        elif roll < 0.94:
            self.ops.append(("vandal_result", rng.randrange(1000)))
        elif roll < 0.97:
            self.ops.append(("vandal_event", rng.randrange(1000)))
        else:
            self.ops.append(("mutate_caller", rng.randrange(1000)))

    def session(self) -> Any:
        if self.rng.random() < 0.1:
            return self.rng.choice(SESSION_IDS)
        return self.rng.choice(self.sessions)

    def append(self) -> None:
        rng = self.rng
        handle = self.handle(0.85)
        model = self.models[handle]
        session_id = self.session()
        event_type = rng.choice(["user_message", "assistant_message", "tool_call", "tool_result", "tool_result"])
        calls = model.get(session_id, {}) if isinstance(session_id, str) else {}
        if event_type == "tool_result" and "open" not in calls.values() and rng.random() < 0.8:
            event_type = "tool_call"
        fields = self.valid_fields(model, session_id, event_type)
        bad = rng.random() < 0.15
        if bad:
            session_id, event_type, fields = self.spoil(model, session_id, event_type, fields)
        spec = self.payload_spec(fields)
        if rng.random() < 0.03 and isinstance(event_type, str):
            event_type = Label(event_type)
        if rng.random() < 0.05:
            spec = rng.choice([None, "content", 5, ("L", [("T", ["content", "x"])]), b"x"])
        if rng.random() < 0.04 and len(self.ops) > 1:
            earlier = sum(1 for op in self.ops if op[0] == "append")
            if earlier:
                spec = ("REUSE", rng.randrange(earlier))
        self.ops.append(("append", handle, session_id, event_type, spec))
        self.record(model, session_id, event_type, fields, handle)

    def valid_fields(self, model: dict, session_id: Any, event_type: str) -> dict:
        rng = self.rng
        calls = model.get(session_id, {}) if isinstance(session_id, str) else {}
        if event_type in ("user_message", "assistant_message"):
            return {"content": self.content()}
        if event_type == "tool_call":
            unused = [c for c in self.calls if c not in calls]
            call_id = rng.choice(unused) if unused else f"k{rng.randrange(10**6)}"
            if rng.random() < 0.1:
                call_id = rng.choice(self.calls)
            return {
                "call_id": call_id,
                "name": rng.choice(NAMES),
                "arguments": rng.choice(ARGUMENTS),
            }
        open_calls = [c for c, state in calls.items() if state == "open"]
        if open_calls and rng.random() < 0.75:
            call_id = rng.choice(open_calls)
        else:
            call_id = rng.choice(self.calls)
        return {"call_id": call_id, "content": self.content()}

    def content(self) -> Any:
        if self.rng.random() < 0.05:
            return self.rng.choice(["a", "\ud800", "é"]) * self.rng.choice([1023, 1025, 4097])
        return self.rng.choice(CONTENTS)

    def spoil(self, model: dict, session_id: Any, event_type: str, fields: dict) -> tuple:
        rng = self.rng
        fields = dict(fields)
        how = rng.randrange(5)
        if how == 0:
            return session_id, rng.choice(BAD_TYPES), fields
        if how == 1:
            return rng.choice(BAD_SESSIONS), event_type, fields
        key = rng.choice(REQUIRED[event_type])
        if how == 2:
            del fields[key]
        elif how == 3:
            fields[key] = rng.choice(BAD_VALUES)
        elif event_type in ("tool_call", "tool_result"):
            fields[rng.choice(["call_id", "name"] if event_type == "tool_call" else ["call_id"])] = ""
        return session_id, event_type, fields

    def payload_spec(self, fields: dict) -> tuple:
        rng = self.rng
        items = list(fields.items())
        for _ in range(rng.choice([0, 0, 0, 1, 2, 3])):
            key = rng.choice(EXTRA_KEYS)
            if key not in fields:
                items.append((key, self.json_value(rng.randint(0, 3))))
        rng.shuffle(items)
        return (rng.choice(MAPPING_KINDS), items)

    def json_value(self, depth: int) -> Any:
        rng = self.rng
        roll = rng.random()
        if depth <= 0 or roll < 0.5:
            return rng.choice(
                [rng.choice(INTS), rng.choice(FLOATS), rng.choice(CONTENTS), True, False, None]
            )
        width = rng.choice([0, 1, 2, 3])
        if roll < 0.75:
            return (rng.choice("LLT"), [self.json_value(depth - 1) for _ in range(width)])
        keys = rng.sample(EXTRA_KEYS, width)
        return (rng.choice(MAPPING_KINDS[:-1]), [(k, self.json_value(depth - 1)) for k in keys])

    def record(self, model: dict, session_id: Any, event_type: Any, fields: dict, handle: int) -> None:
        """Push the model of the log this append makes (the old one if it is refused)."""
        new = model
        valid = (
            isinstance(session_id, str)
            and session_id
            and isinstance(event_type, str)
            and event_type in REQUIRED
            and isinstance(fields, dict)
            and all(isinstance(fields.get(k), str) for k in REQUIRED[event_type])
        )
        if valid and event_type in ("tool_call", "tool_result"):
            call_id = fields["call_id"]
            state = model.get(session_id, {}).get(call_id)
            if call_id and event_type == "tool_call" and state is None and fields["name"]:
                new = {**model, session_id: {**model.get(session_id, {}), call_id: "open"}}
            elif event_type == "tool_result" and state == "open":
                new = {**model, session_id: {**model.get(session_id, {}), call_id: "answered"}}
        self.models.append(new)
        self.sizes.append(self.sizes[handle] + (1 if valid else 0))


# --------------------------------------------------------------------------- large scenarios


def user(handle: int, session_id: Any, content: Any, kind: str = "user_message") -> tuple:
    return ("append", handle, session_id, kind, ("D", [("content", content)]))


def call(handle: int, session_id: Any, call_id: Any, name: Any = "f", arguments: Any = "{}") -> tuple:
    spec = ("D", [("call_id", call_id), ("name", name), ("arguments", arguments)])
    return ("append", handle, session_id, "tool_call", spec)


def result(handle: int, session_id: Any, call_id: Any, content: Any = "ok") -> tuple:
    return ("append", handle, session_id, "tool_result", ("D", [("call_id", call_id), ("content", content)]))


def reads_at(handle: int, session_id: Any, afters: list[int]) -> list[tuple]:
    return [("read", handle, session_id, after) for after in afters]


def edges(*powers: int) -> list[int]:
    return sorted({v for n in powers for v in (2**n - 1, 2**n, 2**n + 1)})


def scenario_long_session(n: int) -> list[tuple]:
    ops: list[tuple] = [("new",)]
    for i in range(n):
        ops.append(user(i, "a", str(i), "user_message" if i % 3 else "assistant_message"))
    ops += reads_at(n, "a", [0, -1, 1, *edges(5, n.bit_length() - 2, n.bit_length() - 1)])
    ops += [("vandal_result", 0), ("read", n, "a", None), ("replay", n, "a"), ("vandal_result", -1)]
    return ops + [("replay", n, "a"), ("sessions", n), ("read", n, "b", 0)]


def scenario_interleaved(n: int, sessions: list[str]) -> list[tuple]:
    ops: list[tuple] = [("new",)]
    for i in range(n):
        ops.append(user(i, sessions[i % len(sessions)], f"m{i}"))
    for index, session_id in enumerate(sessions):
        ops += reads_at(n, session_id, [0, *edges(10, 12)] if index == 0 else [0, 2**11])
        ops.append(("replay", n, session_id))
    return ops + [("sessions", n)]


def scenario_many_sessions(n: int) -> list[tuple]:
    ops: list[tuple] = [("new",)]
    names = []
    for i in range(n):
        family = ["p" * (i // 4 + 1), f"s{i}", f"{i}s", "x" * (i % 7 + 1) + str(i)][i % 4]
        names.append(family)
    for i, name in enumerate(names):
        ops.append(user(i, name, "."))
    checkpoints = [h for h in edges(6, 7, 8, 9, 10, 11) if h <= n]
    for h in checkpoints:
        ops.append(("sessions", h))
    ops += [("vandal_result", -1), ("sessions", n), ("read", n, names[-1], 0)]
    for i in range(0, n, 97):
        ops.append(user(len(names) + i // 97, names[i], "again"))
    last = len(names) + (n - 1) // 97 + 1
    return ops + [("sessions", last)]


def scenario_open_calls(n: int) -> list[tuple]:
    ops: list[tuple] = [("new",)]
    for i in range(n):
        ops.append(call(i, "a", f"c{i}"))
    handle = n
    for i in reversed(range(n)):
        ops.append(result(handle, "a", f"c{i}", str(i)))
        handle += 1
    for i in (0, n // 2, n - 1):
        ops.append(result(handle, "a", f"c{i}"))  # refused: already answered
        ops.append(call(handle + 1, "a", f"c{i}"))  # refused: already used
        handle += 2
    ops += [("replay", handle, "a"), ("vandal_result", -1), ("replay", handle, "a")]
    return ops + [("read", handle, "a", n)]


def scenario_pairs(n: int, gap: int) -> list[tuple]:
    ops: list[tuple] = [("new",)]
    handle = 0
    for i in range(n):
        ops.append(call(handle, "a", f"c{i}"))
        handle += 1
        for j in range(gap):
            ops.append(user(handle, "b" if j % 2 else "a", "gap"))
            handle += 1
        ops.append(result(handle, "a", f"c{i}"))
        handle += 1
    for i in (0, 1, n // 2, n - 1):
        for op in (result(handle, "a", f"c{i}"), result(handle + 1, "a", f"c{i}"),
                   call(handle + 2, "a", f"c{i}"), result(handle + 3, "a", f"c{i}")):
            ops.append(op)
        handle += 4
    ops.append(call(handle, "b", "c0"))
    ops.append(result(handle + 1, "b", "c0"))
    return ops + [("replay", handle + 2, "a"), ("replay", handle + 2, "b")]


def scenario_gap(gap: int, fillers: tuple[str, ...] = ("a", "b", "c")) -> list[tuple]:
    """Calls, then ``gap`` events of ``fillers``, then results and reuses of the old call ids.

    Session "d" has all its history before the gap: a reuse of its answered call id, a second
    result for it, and the result of its still-open call come long after their first use.
    """
    ops: list[tuple] = [("new",), call(0, "a", "g"), call(1, "b", "g")]
    ops += [call(2, "d", "old"), result(3, "d", "old"), call(4, "d", "open")]
    handle = 5
    for i in range(gap):
        ops.append(user(handle, fillers[i % len(fillers)], "."))
        handle += 1
    ops += [result(handle, "a", "g"), result(handle + 1, "a", "g"), result(handle + 2, "b", "g")]
    ops += [call(handle + 3, "a", "g"), call(handle + 4, "c", "g"), result(handle + 5, "c", "g")]
    ops += [call(handle + 6, "d", "old"), result(handle + 7, "d", "old"), result(handle + 8, "d", "open")]
    ops += [result(handle + 9, "d", "open"), call(handle + 10, "d", "open")]
    last = handle + 11
    reads = [("replay", last, s) for s in ("a", "b", "d")] + [("read", last, "c", gap)]
    return ops + reads + [("read", last, "d", 0)]


def scenario_run(n: int, other_between: int) -> list[tuple]:
    ops: list[tuple] = [("new",)]
    handle = 0
    for i in range(n):
        ops.append(call(handle, "a", f"r{i}", f"f{i}", f'{{"i": {i}, "j": "x"}}'))
        handle += 1
        for _ in range(other_between):
            ops.append(user(handle, "b", "."))
            handle += 1
    ops.append(("replay", handle, "a"))
    for i in range(n):
        ops.append(result(handle, "a", f"r{i}"))
        handle += 1
    ops += [call(handle, "a", "tail"), user(handle + 1, "a", "", "assistant_message")]
    ops += [call(handle + 2, "a", "tail2"), ("replay", handle + 3, "a"), ("vandal_result", -1)]
    return ops + [("replay", handle + 3, "a"), ("replay", handle, "a")]


def nest(depth: int, leaf: Any) -> Any:
    value = leaf
    for level in range(depth):
        kind = "LTDPR"[level % 5]
        value = (kind, [value]) if kind in "LT" else (kind, [(f"k{level}", value)])
    return value


def scenario_payloads() -> list[tuple]:
    ops: list[tuple] = [("new",)]
    specs = []
    for n in edges(7, 8, 9, 10, 11, 12):
        specs.append(("D", [("content", "x"), ("items", ("L", [("L", [i]) for i in range(n)]))]))
        specs.append(("D", [("content", "x"), ("wide", ("D", [(f"k{i:05}"[::-1], i) for i in range(n)]))]))
    # The payload itself is level 1, so 198 wrappers around a list reach the contract's 200.
    for depth in (63, 64, 65, 127, 128, 129, 150, 190, 198):
        specs.append(("D", [("content", "x"), ("deep", nest(depth, ("L", [1])))]))
    specs.append(("R", [("content", "x"), *[(k, k) for k in EXTRA_KEYS if k != "content"]]))
    for i, spec in enumerate(specs):
        ops.append(("append", i, "a", "user_message", spec))
    n = len(specs)
    ops += [("mutate_caller", i) for i in range(n)]
    ops += [("read", n, "a", 0), ("vandal_result", 0), ("vandal_event", 3), ("vandal_event", n - 1)]
    return ops + [("read", n, "a", 0), ("replay", n, "a")]


def scenario_texts() -> list[tuple]:
    ops: list[tuple] = [("new",)]
    handle = 0
    for n in edges(8, 10, 12, 15, 16, 17, 18):
        body = ("ab\ud800\\ud800" * (n // 8 + 1))[:n]
        long_id = ("s\udc80" * n)[:n] if n <= 2**13 + 1 else f"big{n}"
        ops += [user(handle, long_id, body), call(handle + 1, long_id, ("c" * n)[: min(n, 8193)], ("n" * n)[:4097], body)]
        ops += [result(handle + 2, long_id, ("c" * n)[: min(n, 8193)], body)]
        handle += 3
        ops += [("read", handle, long_id, 0), ("replay", handle, long_id)]
    return ops + [("sessions", handle)]


def scenario_ints() -> list[tuple]:
    values = [2**n + d for n in (31, 32, 53, 63, 64, 65, 128, 1024) for d in (-1, 0, 1)]
    values += [-v for v in values] + [5, 5 + (2**61 - 1), 5 + 7 * (2**61 - 1), 10**4000, -(10**4000)]
    spec = ("D", [("content", "n"), *[(f"v{i}", v) for i, v in enumerate(values)]])
    nested = ("D", [("content", "m"), ("l", ("L", values)), ("t", ("T", values))])
    ops = [("new",), ("append", 0, "a", "user_message", spec), ("append", 1, "a", "user_message", nested)]
    return ops + [("read", 2, "a", 0), ("read", 2, "a", 2**64), ("read", 2, "a", -(2**64)), ("mutate_caller", 1), ("read", 2, "a", 1)]


def scenario_branches(base: int) -> list[tuple]:
    ops: list[tuple] = [("new",)]
    for i in range(base):
        ops.append(user(i, ["a", "b"][i % 2], str(i)) if i % 5 else call(i, "a", f"c{i}"))
    b = base
    ops += [user(b, "a", "main1"), call(b + 1, "a", "x1"), user(b, "a", "branch1")]  # handles b+1, b+2, b+3
    ops += [result(b + 3, "a", "x1"), result(b + 2, "a", "x1"), call(b + 3, "a", "x1")]  # b+4..b+6
    ops += [result(b, "a", "nope"), call(b, "a", "c0"), ("append", b, "", "user_message", ("D", [("content", "x")]))]
    ops += [("replay", b, "a"), ("replay", b + 2, "a"), ("replay", b + 6, "a"), ("read", b + 2, "a", base - 3)]
    ops += [("read", b + 6, "a", base - 3), ("sessions", b + 6), ("sessions", b + 1), ("read", b, "a", base - 2)]
    return ops


def scenario_refusals() -> list[tuple]:
    ops: list[tuple] = [("new",), user(0, "a", "q"), call(1, "a", "c"), call(2, "a", "d")]
    handle = 3
    bad = []
    for event_type, required in REQUIRED.items():
        for key in required:
            for value in BAD_VALUES:
                fields = {"content": "x", "call_id": "c", "name": "f", "arguments": "{}"}
                fields = {k: fields[k] for k in required}
                fields[key] = value
                bad.append((event_type, ("D", list(fields.items()))))
            fields = {k: "c" if k == "call_id" else "v" for k in required if k != key}
            bad.append((event_type, ("F", list(fields.items()))))
        for session_id in BAD_SESSIONS:
            bad.append(("BADSID", session_id, event_type))
        bad.append((event_type, ["content", "x"]))
    for item in bad:
        for target in (handle, 1, 2):
            if item[0] == "BADSID":
                ops.append(("append", target, item[1], item[2], ("D", [("content", "x"), ("call_id", "c"), ("name", "f"), ("arguments", "")])))
            else:
                ops.append(("append", target, "a", item[0], item[1]))
            ops.append(("replay", target, "a"))
    ops += [("read", 3, "a", 0), result(3, "a", "c"), ("sessions", 3)]
    return ops


SCENARIOS = [
    ("long session 4097", lambda: scenario_long_session(4097)),
    ("long session 2049", lambda: scenario_long_session(2049)),
    ("interleaved 8193", lambda: scenario_interleaved(8193, ["a", "ab", "b"])),
    ("sessions 1025", lambda: scenario_many_sessions(1025)),
    ("sessions 2049", lambda: scenario_many_sessions(2049)),
    ("open calls 1025", lambda: scenario_open_calls(1025)),
    ("open calls 129", lambda: scenario_open_calls(129)),
    ("pairs 1025", lambda: scenario_pairs(1025, 0)),
    ("pairs 513 gap 3", lambda: scenario_pairs(513, 3)),
    ("gap 4097", lambda: scenario_gap(4097)),
    ("gap 1025", lambda: scenario_gap(1025)),
    ("gap 2049 same session", lambda: scenario_gap(2049, ("a",))),
    ("gap 4097 other sessions", lambda: scenario_gap(4097, ("b", "c"))),
    ("run 1025", lambda: scenario_run(1025, 0)),
    ("run 257 between", lambda: scenario_run(257, 5)),
    ("run 129", lambda: scenario_run(129, 0)),
    ("run 3, 1025 between", lambda: scenario_run(3, 1025)),
    ("payloads", scenario_payloads),
    ("texts", scenario_texts),
    ("ints", scenario_ints),
    ("branches 2049", lambda: scenario_branches(2049)),
    ("branches 1025", lambda: scenario_branches(1025)),
    ("branches 513", lambda: scenario_branches(513)),
    ("refusals", scenario_refusals),
]


# --------------------------------------------------------------------------- checks


def check_wrong(path: Path, module: ModuleType, reference: ModuleType) -> dict:
    fields = docstring_fields(path)
    code = fields.get("Witness")
    if not code:
        return {"ok": False, "detail": "no Witness: section in the docstring"}
    expected = run_witness(reference, code)
    if any(step[0] == "witness stopped" for step in expected):
        return {"ok": False, "detail": "the witness fails on the reference itself"}
    actual = run_witness(module, code)
    difference = first_difference(expected, actual)
    caught = random_catches(module, reference, WRONG_PROBE_PROGRAMS)
    return {
        "ok": difference is not None,
        "detail": difference or "no difference on the witness",
        "random": caught,
        "dimension": fields.get("Dimension", "?"),
        "size": fields.get("Witness size", "?"),
    }


def random_catches(module: ModuleType, reference: ModuleType, count: int) -> str:
    maker = ProgramMaker(random.Random(SEED))
    for index in range(count):
        ops = maker.program()
        if run_program(reference, ops) != run_program(module, ops):
            return f"#{index}"
    return "no"


def check_correct(module: ModuleType, reference: ModuleType) -> dict:
    maker = ProgramMaker(random.Random(SEED))
    for index in range(SMALL_PROGRAMS):
        ops = maker.program()
        difference = first_difference(run_program(reference, ops), run_program(module, ops))
        if difference:
            return {"ok": False, "detail": f"random program #{index}: {difference}"}
    for name, make in SCENARIOS:
        ops = make()
        difference = first_difference(run_program(reference, ops), run_program(module, ops))
        if difference:
            return {"ok": False, "detail": f"scenario {name}: {difference}"}
    return {
        "ok": True,
        "detail": f"{SMALL_PROGRAMS} random programs and {len(SCENARIOS)} scenarios agree",
    }


def check_one(path: Path) -> dict:
    kind = path.parent.name
    started = time.process_time()
    outside = non_stdlib_imports(path)
    if outside:
        return {"ok": False, "detail": f"imports outside the standard library: {outside}"}
    reference = load_reference()
    try:
        module = load_file(path)
    except Exception as error:  # noqa: BLE001
        return {"ok": False, "detail": f"does not load: {type(error).__name__}: {error}"}
    verdict = check_wrong(path, module, reference) if kind == "wrong" else check_correct(module, reference)
    verdict["cpu"] = round(time.process_time() - started, 2)
    return verdict


def run_isolated(path: Path) -> dict:
    kind = path.parent.name
    command = [sys.executable, str(Path(__file__).resolve()), "--one", str(path)]
    environment = {**os.environ, "PYTHONHASHSEED": "0"}
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=TIME_LIMIT[kind], check=False, env=environment
        )
    except subprocess.TimeoutExpired:
        return {"ok": False, "detail": f"timed out after {TIME_LIMIT[kind]} s"}
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if not lines:
        return {"ok": False, "detail": f"no verdict (exit {done.returncode}): {done.stderr[-300:]}"}
    return json.loads(lines[-1])


def show(path: Path) -> None:
    code = docstring_fields(path)["Witness"]
    expected = run_witness(load_reference(), code)
    actual = run_witness(load_file(path), code)
    for index, (want, got) in enumerate(zip(expected, actual, strict=False)):
        mark = "  " if want == got else "!="
        print(f"{index:5} {mark} ref  {short(want, 200)}")
        if want != got:
            print(f"{index:5} {mark} file {short(got, 200)}")
            break
    print(f"observations: reference {len(expected)}, file {len(actual)}")


def print_table() -> None:
    print("| file | dimension or mechanism | witness size |")
    print("|---|---|---|")
    for path in sorted(HERE.glob("wrong/*.py")):
        fields = docstring_fields(path)
        print(f"| `{path.name}` | {fields.get('Dimension', '?')} | {fields.get('Witness size', '?')} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--one", type=Path, help="check one file, print its verdict as JSON")
    parser.add_argument("--show", type=Path, help="print a wrong file's witness traces")
    parser.add_argument("--table", action="store_true", help="print the README's table of wrong files")
    parser.add_argument(
        "--battery", type=Path, help="run the correct files' whole battery on one file (JSON verdict)"
    )
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("files", nargs="*", type=Path, help="only these files")
    args = parser.parse_args()
    sys.setrecursionlimit(1000)
    if args.one:
        print(json.dumps(check_one(args.one.resolve())))
        return 0
    if args.show:
        show(args.show.resolve())
        return 0
    if args.table:
        print_table()
        return 0
    if args.battery:
        print(json.dumps(check_correct(load_file(args.battery.resolve()), load_reference())))
        return 0
    files = [f.resolve() for f in args.files] or sorted(HERE.glob("wrong/*.py")) + sorted(HERE.glob("correct/*.py"))
    print(f"reference: {REFERENCE}   load average: {Path('/proc/loadavg').read_text().split()[:3]}")
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        verdicts = list(pool.map(run_isolated, files))
    failures = 0
    print(f"{'file':44} {'verdict':8} {'cpu s':>6} {'random':>7}  detail")
    for path, verdict in zip(files, verdicts, strict=True):
        kind = path.parent.name
        status = ("DIFFERS" if kind == "wrong" else "AGREES") if verdict["ok"] else "FAIL"
        failures += not verdict["ok"]
        print(f"{kind + '/' + path.name:44} {status:8} {verdict.get('cpu', '-'):>6} {verdict.get('random', ''):>7}  {verdict['detail']}")
    wrong = sum(1 for f in files if f.parent.name == "wrong")
    print(f"\n{wrong} wrong files, {len(files) - wrong} correct files, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
