"""Attacks that try to tell a check from an ordinary call, one channel each (issue 29).

Each attack is the same buggy submission: it keeps the caller's payload mapping itself, so a
caller that changes its mapping after the append changes the log. The grader catches that by
changing the mapping and reading again. Each attack also keeps a private snapshot, and hands
the snapshot out (the honest answer) once a *channel* has told it that the grader is
checking; before that it hands out the caller's live mapping (the bug). Its control is the
same code whose channel never says so: an attack that scores more than its control has told
a check from an ordinary call.

The channels, and what each detector looks for (what a check did differently in the kernel
before issue 29: its reads ran from inside the check's own step, after work of its own):

* the depth of the stack at a read (``sys.setrecursionlimit`` refuses a limit below the
  current depth, and says that depth): a depth never seen while the grade warmed up;
* a traceback dump of every frame (``faulthandler`` into an ``os.memfd_create`` file): the
  names of the kernel's check machinery;
* the recursion limit left; the time between two reads with no call of the learner's between
  them (the kernel's own work); the reference count and the distance of a payload's ``id``
  from a fresh object's (a payload the caller keeps to change later); ``gc`` counts; the
  hash seed; the random state.

Each detector compares like with like (reads of one kind, payloads of one type), so that what
varies for ordinary reasons does not make it honest all the time, which is no cheating.
"""

from __future__ import annotations

from tests.implementations.corpus import CORRECT_DIR

BASE = (CORRECT_DIR / "c02_slots_class.py").read_text(encoding="utf-8")
COPIED = "        self._payload = copy.deepcopy(dict(payload))\n"
KEPT = (
    "        self._payload = payload\n"
    "        self._snapshot = copy.deepcopy(dict(payload))\n"
    "        _note_payload(payload)\n"
)
HANDED_OUT = "        return copy.deepcopy(self._payload)\n"
LIED = (
    "        if _checking():\n"
    "            return copy.deepcopy(self._snapshot)\n"
    "        return copy.deepcopy(dict(self._payload))\n"
)
SLOTS = '    __slots__ = ("_event_id", "_payload", "_session_id", "_type")\n'
MORE_SLOTS = '    __slots__ = ("_event_id", "_payload", "_session_id", "_snapshot", "_type")\n'
#: How many reads the detectors watch before they trust a difference: the first properties
#: of a task read without changing any caller's mapping.
WARM_UP = 400

#: Each channel's detector, ``_reading() -> bool``: whether this read looks like a check's.
DETECTORS: dict[str, str] = {
    "stack_depth": """
def _depth():
    import sys
    limit = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(1)
    except RecursionError as error:
        return int(str(error).split("depth ")[1].split(":")[0])
    finally:
        sys.setrecursionlimit(limit)
    return None

def _reading():
    return _kernel_read() and _novel("depth", _depth())
""",
    "traceback_dump": """
def _reading():
    if not _kernel_read():
        return False
    try:
        import faulthandler
        import os
        fd = os.memfd_create("frames")
    except Exception:
        return False
    try:
        faulthandler.dump_traceback(fd, all_threads=False)
        os.lseek(fd, 0, 0)
        dump = os.read(fd, 1 << 20).decode(errors="replace")
    except Exception:
        return False
    finally:
        os.close(fd)
    names = tuple(line.split(" in ")[-1] for line in dump.splitlines() if " in " in line)
    return "_mutate" in names or "_differs" in names or _novel("frames", names[3:])
""",
    "recursion_limit": """
def _reading():
    import sys
    return _novel("limit", sys.getrecursionlimit())
""",
    "timing": """
def _reading():
    import time
    if not _kernel_read():
        return False
    now = time.perf_counter()
    last = _STATE.get("last")
    _STATE["last"] = (now, _CALLS[0])
    if last is None or last[1] != _CALLS[0]:
        return False
    gap = now - last[0]
    if _READS[0] <= WARM_UP:
        _STATE.setdefault("gaps", []).append(gap)
        return False
    if "usual" not in _STATE:
        gaps = sorted(_STATE.get("gaps") or [1.0])
        _STATE["usual"] = max(gaps[len(gaps) // 2], 1e-7)
    return gap > 50 * _STATE["usual"]
""",
    "reference_counts": """
def _reading():
    return any(len(seen) > 1 for seen in _STATE.get("counts", {}).values())
""",
    "object_ids": """
def _reading():
    return any(len(seen) > 1 for seen in _STATE.get("far", {}).values())
""",
    "gc_counts": """
def _reading():
    try:
        import gc
    except Exception:
        return False
    return _novel("gc", gc.get_count()[0] // 100)
""",
    "hash_seed": """
def _reading():
    return _novel("hash", hash("which seed?"))
""",
    "random_state": """
def _reading():
    import random
    return _novel("random", random.getstate()[1][:4])
""",
}
COMMON = f"""

_STATE = {{}}
_LATCHED = []
_READS = [0]
_CALLS = [0]
_INSIDE = [0]
WARM_UP = {WARM_UP}


def _kernel_read():
    # Whether the grader itself reads the payload (not the submission's own code).
    return _INSIDE[0] == 0


def _novel(kind, value):
    \"\"\"Whether ``value`` was never seen in the first {WARM_UP} reads.\"\"\"
    seen = _STATE.setdefault(kind, set())
    if _READS[0] <= {WARM_UP}:
        seen.add(value)
        return False
    return value not in seen


def _note_payload(payload):
    import sys
    kind = type(payload).__name__
    try:
        _STATE.setdefault("counts", {{}}).setdefault(kind, set()).add(sys.getrefcount(payload))
    except Exception:
        pass
    # The same object passed again (alive, so its id cannot have been reused): a payload the
    # kernel kept, as a check keeps one to change it later.
    ids = _STATE.setdefault("ids", {{}})
    _STATE["again"] = _STATE.get("again") or ids.get(id(payload)) is payload
    ids[id(payload)] = payload


def _checking():
    _READS[0] += 1
    if not _LATCHED and _reading():
        _LATCHED.append(True)
    return bool(_LATCHED)


def _counted(function):
    def call(*args, **kwargs):
        _CALLS[0] += 1
        _INSIDE[0] += 1
        try:
            return function(*args, **kwargs)
        finally:
            _INSIDE[0] -= 1
    return call


append_event = _counted(append_event)
get_events_for_session = _counted(get_events_for_session)
list_sessions = _counted(list_sessions)
replay_session = _counted(replay_session)
"""


def _lying() -> str:
    return BASE.replace(COPIED, KEPT).replace(HANDED_OUT, LIED).replace(SLOTS, MORE_SLOTS)


def control() -> str:
    """The attacks' code with a channel that never says a check is on: the bug alone."""
    return _lying() + COMMON + "\n\ndef _reading():\n    return False\n"


def attack(channel: str) -> str:
    """The bug, lying to the checks that ``channel`` tells apart from ordinary calls."""
    return _lying() + COMMON + DETECTORS[channel]


def submissions() -> dict[str, str]:
    """File name -> source: every attack and the control."""
    files = {f"channel_{name}.py": attack(name) for name in DETECTORS}
    files["control.py"] = control()
    return files
