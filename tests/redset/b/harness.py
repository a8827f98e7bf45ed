"""Prove every file of the red set right or wrong against the reference, the kit's ``solutions``.

    python harness.py             # every file
    python harness.py w07 c03     # only the files whose names start with these prefixes
    python harness.py --quick     # fewer random programs (for development)
    python harness.py --random-on-wrong   # also say which random program (if any) finds each wrong file

A wrong file is proven wrong by its WITNESS (``witnesses.py``): a short program of calls
whose observable trace differs from the reference's trace under the contract's notion of
equality. A correct file is checked by a broad randomized differential run (seeded random
programs over every mechanism and many sizes, refusals included) and by every witness of
the wrong set: none may show a difference.

Exit status 0 when every wrong file differs on its witness and no correct file differs
anywhere; 1 otherwise.

Equality (``exercises/event_log.py``, "What equal means"): strings by their characters with
surrogate pairs joined (a str subclass is a str); int, float, bool and None by type and value
(``-0.0`` is not ``0.0``, ``True`` is not ``1``); lists and tuples interchangeable; any
mapping interchangeable, key order ignored. Every append records whether it was accepted,
refused with a ValueError, or failed with another exception (which the contract forbids).
"""

from __future__ import annotations

import importlib.util
import os
import signal
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REFERENCE = Path(__file__).resolve().parents[3] / "solutions"
FILE_SECONDS = 600  # a file that takes longer than this counts as failed (a hang)

if os.environ.get("PYTHONHASHSEED") != "0":
    # Set iteration order must not decide anything: rerun with a fixed hash seed.
    os.environ["PYTHONHASHSEED"] = "0"
    os.execv(sys.executable, [sys.executable, *sys.argv])

sys.setrecursionlimit(1000)  # the default: what a learner's interpreter has
sys.path.insert(0, str(HERE))


# --------------------------------------------------------------------------- loading


def load_reference() -> Any:
    spec = importlib.util.spec_from_file_location(
        "solutions", REFERENCE / "__init__.py", submodule_search_locations=[str(REFERENCE)]
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["solutions"] = module
    spec.loader.exec_module(module)
    return module


def load_file(path: Path) -> Any:
    name = f"redset_{path.parent.name}_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


# --------------------------------------------------------------------------- equality


def text(value: str) -> str:
    """The characters of a string as JSON counts them: a surrogate pair is one character."""
    plain = str.__getitem__(value, slice(None))
    if plain.isascii():
        return plain
    return plain.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def norm(value: Any) -> Any:
    """A hashable key that is equal for two values exactly when the contract calls them equal."""
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
    if isinstance(value, (list, tuple)):
        return ("seq", tuple(norm(item) for item in value))
    if isinstance(value, Mapping):
        pairs = [(norm(key), norm(item)) for key, item in value.items()]
        return ("map", len(pairs), frozenset(pairs))
    return ("other", type(value).__name__)


def norm_event(event: Any) -> Any:
    try:
        event_id, session_id = event.event_id, event.session_id
        kind, payload = event.type, event.payload
    except Exception as problem:  # noqa: BLE001 - any failure is an observation
        return ("bad-event", type(problem).__name__)
    id_ok = isinstance(event_id, int) and not isinstance(event_id, bool)
    return (
        "event",
        ("int", int(event_id)) if id_ok else ("bad-id", type(event_id).__name__),
        ("str", text(session_id)) if isinstance(session_id, str) else ("bad-sid",),
        ("str", text(kind)) if isinstance(kind, str) else ("bad-type",),
        norm(payload) if isinstance(payload, Mapping) else ("bad-payload",),
    )


def norm_sequence(result: Any, each: Callable[[Any], Any]) -> Any:
    if not isinstance(result, Sequence) or isinstance(result, (str, bytes)):
        return ("not-a-sequence", type(result).__name__)
    return ("seq", tuple(each(item) for item in result))


def norm_message(message: Any) -> Any:
    return norm(message) if isinstance(message, Mapping) else ("not-a-mapping",)


# --------------------------------------------------------------------------- a run


POKED = "\x00poked"


def poke(thing: Any, depth: int = 0) -> None:
    """Try to change ``thing`` at every depth; whatever refuses to change is left alone."""
    if depth > 450 or isinstance(thing, (str, bytes, int, float, type(None))):
        return
    if isinstance(thing, Mapping):
        _poke_mapping(thing, depth)
    elif isinstance(thing, list):
        for item in list(thing):
            poke(item, depth + 1)
        thing.append(POKED)
        thing[0] = POKED
    elif isinstance(thing, Sequence):
        for item in list(thing):
            poke(item, depth + 1)
    else:
        _poke_object(thing, depth)


def _poke_mapping(mapping: Any, depth: int) -> None:
    keys = list(mapping.keys())
    for key in keys:
        poke(mapping[key], depth + 1)
    for key in keys:
        try:
            mapping[key] = POKED
        except Exception:  # noqa: BLE001, S110 - read-only is the point
            pass
    try:
        mapping[POKED] = POKED
    except Exception:  # noqa: BLE001, S110
        pass


def _poke_object(thing: Any, depth: int) -> None:
    replacements = {"payload": {POKED: POKED}, "event_id": 10**6, "session_id": POKED,
                    "type": "user_message"}
    for attribute, replacement in replacements.items():
        try:
            poke(getattr(thing, attribute), depth + 1)
        except Exception:  # noqa: BLE001, S110
            pass
        try:
            setattr(thing, attribute, replacement)
        except Exception:  # noqa: BLE001, S110
            pass


class Trace:
    """One implementation under one program: every call goes through here and is recorded."""

    def __init__(self, impl: Any) -> None:
        self.impl = impl
        self.seen: list[Any] = []

    def record(self, what: str, observation: Any) -> None:
        self.seen.append((what, observation))

    def new(self) -> Any:
        return self.impl.create_event_log()

    def add(self, log: Any, session_id: Any, kind: Any, payload: Any, *, quiet: bool = False
            ) -> tuple[Any, Any]:
        """Append; returns (new log, event), or (the same log, None) when refused."""
        try:
            result = self.impl.append_event(log, session_id, kind, payload)
        except ValueError:
            self.record("add", ("refused",))
            return log, None
        except Exception as problem:  # noqa: BLE001
            self.record("add", ("error", type(problem).__name__))
            return log, None
        if not isinstance(result, tuple) or len(result) != 2:
            self.record("add", ("not-a-pair",))
            return log, None
        new_log, event = result
        self.record("add", ("ok", ("quiet",) if quiet else norm_event(event)))
        return new_log, event

    def _read(self, what: str, call: Callable[[], Any], each: Callable[[Any], Any]) -> Any:
        try:
            result = call()
        except Exception as problem:  # noqa: BLE001
            self.record(what, ("error", type(problem).__name__))
            return None
        self.record(what, norm_sequence(result, each))
        return result

    def get(self, log: Any, session_id: Any, after: Any = None) -> Any:
        impl = self.impl
        if after is None:
            return self._read("get", lambda: impl.get_events_for_session(log, session_id),
                              norm_event)
        return self._read(
            "get", lambda: impl.get_events_for_session(log, session_id, after), norm_event
        )

    def sessions(self, log: Any) -> Any:
        return self._read("list", lambda: self.impl.list_sessions(log), norm)

    def replay(self, log: Any, session_id: Any) -> Any:
        return self._read("replay", lambda: self.impl.replay_session(log, session_id),
                          norm_message)

    def note(self, value: Any) -> None:
        self.record("note", norm(value))

    poke = staticmethod(poke)


def run(impl: Any, program: Callable[[Trace], None]) -> list[Any]:
    trace = Trace(impl)
    try:
        program(trace)
    except Exception as problem:  # noqa: BLE001 - a crash of the program is an observation
        trace.record("crash", (type(problem).__name__,))
    return trace.seen


def first_difference(left: list[Any], right: list[Any]) -> str | None:
    for index, (a, b) in enumerate(zip(left, right, strict=False)):
        if a != b:
            where, a_leaf, b_leaf = leaf_difference(a[1], b[1])
            return (f"step {index} ({a[0]}) at {where or 'top'}: "
                    f"reference {short(a_leaf)} / file {short(b_leaf)}")
    if len(left) != len(right):
        return f"trace lengths {len(left)} / {len(right)}"
    return None


def leaf_difference(a: Any, b: Any, path: str = "") -> tuple[str, Any, Any]:
    """Descend into two observations to the first place they differ."""
    if not (isinstance(a, tuple) and isinstance(b, tuple) and a and b and a[0] == b[0]):
        return path, summary(a), summary(b)
    if a[0] == "str" and isinstance(a[1], str) and isinstance(b[1], str):
        i = next((i for i, (x, y) in enumerate(zip(a[1], b[1])) if x != y), min(map(len, (a[1], b[1]))))
        return f"{path} char {i} (lengths {len(a[1])}/{len(b[1])})", a[1][i:i + 8], b[1][i:i + 8]
    if a[0] == "map" and len(a) == len(b) == 3:
        keys_a = dict(a[2] - b[2])
        for key, item in b[2] - a[2]:
            if key in keys_a:
                return leaf_difference(keys_a[key], item, f"{path}[{short(key[1], 30)}]")
        return f"{path} keys", sorted(map(short, a[2] - b[2]))[:2], sorted(map(short, b[2] - a[2]))[:2]
    if a[0] == "seq" and len(a) == len(b) == 2 and isinstance(a[1], tuple):
        for i, (x, y) in enumerate(zip(a[1], b[1], strict=False)):
            if x != y:
                return leaf_difference(x, y, f"{path}[{i}]")
        return f"{path} length", len(a[1]), len(b[1])
    if len(a) == len(b):
        names = ("", ".event_id", ".session_id", ".type", ".payload") if a[0] == "event" else ()
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return leaf_difference(x, y, path + (names[i] if names else ""))
    return path, a, b


def summary(observation: Any) -> Any:
    """An outcome in words where one is enough: accepted, refused, raised, n items."""
    if not isinstance(observation, tuple) or not observation:
        return observation
    tag = observation[0]
    if tag == "ok":
        event = observation[1]
        if event[0] == "event" and event[1][0] == "int":
            return f"accepted as event {event[1][1]}"
        return "accepted"
    if tag == "refused":
        return "refused (ValueError)"
    if tag == "error":
        return f"raised {observation[1]}"
    if tag == "seq" and len(observation) == 2 and isinstance(observation[1], tuple):
        return f"a sequence of {len(observation[1])}"
    return observation


def short(observation: Any, limit: int = 160) -> str:
    def shrink(value: Any, depth: int = 0) -> Any:
        if depth > 6:
            return "…"
        if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 200:
            return f"<int of {value.bit_length()} bits>"
        if isinstance(value, str) and len(value) > 40:
            return value[:30] + f"…<{len(value)}>"
        if isinstance(value, (tuple, frozenset)):
            items = list(value)
            shown = [shrink(item, depth + 1) for item in items[:6]]
            return tuple(shown) + (("…", len(items)) if len(items) > 6 else ())
        return value

    rendered = repr(shrink(observation))
    return rendered if len(rendered) <= limit else rendered[:limit] + "…"


# --------------------------------------------------------------------------- the verdicts


class Timeout(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise Timeout


def check_wrong(path: Path, reference: Any, witnesses: Mapping[str, Any]) -> tuple[bool, str]:
    entry = witnesses.get(path.stem)
    if entry is None:
        return False, "no witness"
    impl = load_file(path)
    expected = run(reference, entry.program)
    again = run(reference, entry.program)
    if expected != again:
        return False, "the witness is not deterministic on the reference"
    found = first_difference(expected, run(impl, entry.program))
    return (found is not None), (found or "NO DIFFERENCE on its witness")


def check_correct(path: Path, reference: Any, cases: Sequence[tuple[str, Any, list[Any]]]
                  ) -> tuple[bool, str]:
    impl = load_file(path)
    for name, program, expected in cases:
        found = first_difference(expected, run(impl, program))
        if found is not None:
            return False, f"{name}: {found}"
    return True, f"no difference in {len(cases)} programs"


def random_finds(path: Path, cases: Sequence[tuple[str, Any, list[Any]]]) -> str:
    """Informational: the first random program (if any) on which a wrong file differs."""
    impl = load_file(path)
    for name, program, expected in cases:
        if name.startswith("witness"):
            break
        if first_difference(expected, run(impl, program)) is not None:
            return f"random: {name.split()[-1]}"
    return "random: none"


def main(argv: list[str]) -> int:
    import programs
    import witnesses

    quick = "--quick" in argv
    random_too = "--random-on-wrong" in argv  # also report which random program finds a wrong file
    prefixes = [arg for arg in argv if not arg.startswith("--")]
    reference = load_reference()
    started = time.process_time()

    wrong = sorted((HERE / "wrong").glob("*.py"))
    correct = sorted((HERE / "correct").glob("*.py"))
    chosen = [p for p in wrong + correct if not prefixes or p.stem.startswith(tuple(prefixes))]
    print(f"load {open('/proc/loadavg').read().split()[:3]}")  # noqa: SIM115, PTH123

    cases: list[tuple[str, Any, list[Any]]] = []
    if random_too or any(p in correct for p in chosen):
        count = 300 if quick else programs.PROGRAMS
        for seed in range(count):
            program = programs.random_program(seed, reference)
            cases.append((f"random program {seed}", program, run(reference, program)))
        for stem, entry in sorted(witnesses.WITNESSES.items()):
            cases.append((f"witness of {stem}", entry.program, run(reference, entry.program)))
        print(f"{len(cases)} programs ready ({time.process_time() - started:.1f} s CPU)")

    signal.signal(signal.SIGALRM, _alarm)
    failures = 0
    print(f"{'file':44} {'verdict':8} {'cpu s':>6}  detail")
    for path in chosen:
        began = time.process_time()
        signal.alarm(FILE_SECONDS)
        try:
            if path in wrong:
                ok, detail = check_wrong(path, reference, witnesses.WITNESSES)
                verdict = "WRONG" if ok else "FAIL"
                if ok and random_too:
                    detail = f"{random_finds(path, cases)} | {detail}"
            else:
                ok, detail = check_correct(path, reference, cases)
                verdict = "RIGHT" if ok else "FAIL"
        except Timeout:
            ok, verdict, detail = False, "FAIL", f"took longer than {FILE_SECONDS} s"
        finally:
            signal.alarm(0)
        failures += not ok
        label = f"{path.parent.name}/{path.name}"
        print(f"{label:44} {verdict:8} {time.process_time() - began:6.2f}  {detail}",
              flush=True)
    extra = set(witnesses.WITNESSES) - {p.stem for p in wrong}
    if extra and not prefixes:
        print(f"witnesses without a file: {sorted(extra)}")
        failures += 1
    print(f"{len(chosen)} files, {failures} failing, "
          f"{time.process_time() - started:.0f} s CPU, load {open('/proc/loadavg').read().split()[:3]}")  # noqa: SIM115, PTH123, E501
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
