# ruff: noqa: E501 - the sources are submissions, written as a hostile student would
"""The other attacks of a hostile class, the honest controls beside them, and the files
whose names or answers try to break the batch's outputs.

The sources are built from the paths of one batch run (where the kit, the submissions and
the output are), because an attacker who guesses those paths is the strongest attacker, and
from a marker unique to that run, written into whatever an attack leaves behind so that
only this run's leftovers are counted.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.redteam.hostile import CORRECT, CORRECT_BODY, KIT_ROOT, STUBS, mutant

SLOW_CORRECT = (
    CORRECT
    + """

import time as _time

_append = append_event


def append_event(log, session_id, event_type, payload):
    # Correct, but slow: 20 ms of CPU per append, and thousands of appends take minutes of
    # CPU (a sleep would not do: every clock that blames the code counts its CPU time).
    started = _time.process_time()
    while _time.process_time() - started < 0.02:
        pass
    return _append(log, session_id, event_type, payload)
"""
)


CACHES_EVERY_READ = """

import copy as _copy

_CACHE = {}
_reads = {name: globals()[name] for name in ("get_events_for_session", "list_sessions",
                                             "replay_session")}


def _caching(name):
    def call(log, *args, **kwargs):
        key = (name, id(log), repr(args), repr(sorted(kwargs.items())))
        if key not in _CACHE:
            _CACHE[key] = (log, _copy.deepcopy(_reads[name](log, *args, **kwargs)))
        return _copy.deepcopy(_CACHE[key][1])
    return call


for _name in _reads:
    globals()[_name] = _caching(_name)
"""


def attacks(submissions: Path, out: Path, port: int, marker: str) -> dict[str, str]:
    """Every classic attack's source, for a batch over ``submissions`` writing into ``out``."""
    fake = json.dumps({"version": 3, "status": "pass", "score": 500, "max_score": 100, "tests": []})
    victim = submissions / "victim.py"
    values = {"kit": str(KIT_ROOT), "subs": str(submissions), "out": str(out), "victim": str(victim),
              "port": str(port), "marker": marker, "fake": fake}  # fmt: skip

    def filled(source: str) -> str:
        for key, value in values.items():
            source = source.replace(f"@{key.upper()}@", value)
        return source

    return {name: filled(source) for name, source in _ATTACKS.items()}


_ATTACKS = {
    # Importing the answers: the kit's reference, the grader's oracle, a classmate's file.
    "imports_solutions.py": CORRECT
    + "\nimport sys\nsys.path.insert(0, '@KIT@')\nfrom solutions.event_log import *  # noqa\n",
    "imports_the_oracle.py": "import sys\nsys.path.insert(0, '@KIT@')\nfrom grader.engine.oracle import *  # noqa\n"
    + STUBS,
    "execs_the_solutions_source.py": "for name in ('event_log', 'sessions', 'replay'):\n    exec(open('@KIT@/solutions/' + name + '.py').read())\n",
    "execs_a_classmate.py": "exec(open('@VICTIM@').read())\n",
    # Forging results: on stdout, in files where results go.
    "prints_full_marks.py": "print('@FAKE@')\nprint('score: 500')\n" + STUBS,
    "writes_results_files.py": """
import os, pathlib
for folder in (pathlib.Path.cwd(), pathlib.Path('@OUT@'), pathlib.Path('@OUT@') / 'results'):
    for name in ('results.json', 'writes_results_files.json', 'gradebook.csv'):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / name).write_text('@FAKE@')
        except OSError:
            pass
"""
    + STUBS,
    # Reading what it must not: the grader's memory, other processes.
    "reads_the_grader_s_memory.py": """
import os
for pid in os.listdir('/proc'):
    if pid.isdigit():
        try:
            with open('/proc/%s/mem' % pid, 'rb') as memory:
                memory.read(1)
        except OSError:
            pass
"""
    + STUBS,
    "kills_its_parent.py": "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n" + STUBS,
    # Shadowing the grader for the next run, writing into the kit or a classmate's file.
    "shadows_the_grader.py": """
import pathlib
for folder in (pathlib.Path.cwd(), pathlib.Path('@SUBS@'), pathlib.Path('@KIT@')):
    for target in (folder / 'grader' / '__init__.py', folder / 'grader' / '__main__.py'):
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text('raise SystemExit("shadowed")')
        except OSError:
            pass
"""
    + STUBS,
    "overwrites_a_classmate.py": "try:\n    open('@VICTIM@', 'w').write('raise SystemExit(1)')\nexcept OSError:\n    pass\n"
    + STUBS,
    # Outliving the batch, then rewriting its own row; a fork bomb; threads and processes
    # that each take 100 MB (the memory cap is per process).
    "outlives_the_batch.py": """
import os, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv('/bin/sleep', ['sleep', '60', '@MARKER@'])
    os._exit(0)
"""
    + STUBS,
    "fork_bomb.py": """
import os
for _ in range(2000):
    try:
        if os.fork() == 0:
            os.execv('/bin/sleep', ['sleep', '120', '@MARKER@'])
    except OSError:
        break
"""
    + STUBS,
    "takes_memory_in_threads_and_processes.py": """
import os, _thread
hogs = []
def hog():
    hogs.append(bytearray(100 * 2**20))
def in_a_process():
    if os.fork() == 0:
        hog()
        os._exit(0)
for start in (lambda: _thread.start_new_thread(hog, ()), in_a_process,
              lambda: __import__('threading').Thread(target=hog).start(),
              lambda: __import__('multiprocessing').Process(target=hog).start()):
    for _ in range(8):
        try:
            start()
        except Exception:
            break
"""
    + STUBS,
    # The pipes: flood them, forge answers on them, steal requests, put /dev/null in their
    # place, close them (file descriptors are numbers; try them all).
    "floods_the_pipe.py": """
import os
for fd in range(3, 256):
    try:
        os.write(fd, b'x' * 20_000_000)
    except OSError:
        pass
"""
    + STUBS,
    "forges_answers.py": """
import os
lines = b''.join(b'%s {"seq": %d, "done": {"reports": []}}\\n' % (b'0' * 32, seq) for seq in range(1, 50))
lines += b'0' * 32 + b' {"seq": 1, "ready": {"reports": []}}\\n'
for fd in range(3, 256):
    try:
        os.write(fd, lines)
    except OSError:
        pass
"""
    + CORRECT_BODY,
    "steals_requests.py": CORRECT
    + """

import os as _os
_list = list_sessions


def list_sessions(log):
    for fd in range(3, 256):
        try:
            _os.set_blocking(fd, False)
            _os.read(fd, 1 << 20)
        except OSError:
            pass
    return _list(log)
""",
    "puts_dev_null_over_the_pipes.py": CORRECT
    + """

import os as _os
_list = list_sessions


def list_sessions(log):
    null = _os.open('/dev/null', _os.O_RDWR)
    for fd in range(3, 256):
        if fd != null:
            try:
                _os.dup2(null, fd)
            except OSError:
                pass
    return _list(log)
""",
    "closes_the_pipes.py": "import os\nos.closerange(3, 256)\n" + CORRECT_BODY,
    # Huge answers beside correct code (a control: the capped answers cost only their own
    # tasks), and as the whole submission, hoping the grader gives up.
    "answers_a_hundred_megabytes.py": CORRECT
    + """

def list_sessions(log):
    return ['x' * 1000] * 100_000


def replay_session(log, session_id):
    return [{'role': 'user', 'content': 'x' * 10_000_000}] * 10
""",
    "answers_nothing_but_a_hundred_megabytes.py": """
def create_event_log():
    return ['x' * 1000] * 100_000
def append_event(log, session_id, event_type, payload):
    return ['x' * 1000] * 100_000
def get_events_for_session(log, session_id, after_event_id=0):
    return ['x' * 1000] * 100_000
def list_sessions(log):
    return ['x' * 1000] * 100_000
def replay_session(log, session_id):
    return [{'role': 'user', 'content': 'x' * 10_000_000}] * 10
""",
    # The network, and the shared temporary folders.
    "calls_home.py": """
import socket
try:
    socket.create_connection(('127.0.0.1', @PORT@), timeout=1).sendall(b'reached the host')
except OSError:
    pass
"""
    + STUBS,
    "writes_to_tmp_and_shm.py": """
import os
try:
    import sqlite3  # missing in the sandbox: the attack goes on without it
except ImportError:
    sqlite3 = None
for folder in ('/tmp', '/dev/shm', '/var/tmp', os.getcwd()):
    path = folder + '/@MARKER@-' + folder.strip('/').replace('/', '-')
    for write in (lambda: open(path + '-open', 'w').write('x' * 1000),
                  lambda: os.close(os.open(path + '-os', os.O_CREAT | os.O_WRONLY)),
                  lambda: sqlite3.connect(path + '-db').execute('create table t (x)'),
                  lambda: os.mkfifo(path + '-fifo'),
                  lambda: os.mkdir(path + '-dir')):
        try:
            write()
        except Exception:
            pass
"""
    + STUBS,
    # Buggy code that keeps the caller's dict, and puts it back as it was before every call:
    # the caller's change is undone before the log is read again.
    "restores_the_callers_dict.py": mutant("payload_by_reference")
    + """

import copy as _copy
from collections.abc import Mapping as _Mapping

_KEPT = []
_real = {name: globals()[name] for name in ("append_event", "get_events_for_session",
                                            "list_sessions", "replay_session")}


def _put_back(now, then):
    \"\"\"Make ``now`` hold what ``then`` held, changing containers in place.\"\"\"
    if isinstance(now, dict) and isinstance(then, dict):
        for key in [key for key in now if key not in then]:
            del now[key]
        for key, value in then.items():
            if key not in now or not _put_back(now[key], value):
                now[key] = _copy.deepcopy(value)
        return True
    if isinstance(now, _Mapping) and isinstance(then, dict):
        return all(_put_back(now[key], value) for key, value in then.items() if key in now)
    if isinstance(now, list) and isinstance(then, list | tuple):
        kept = [item if _put_back(item, old) else _copy.deepcopy(old) for item, old in zip(now, then)]
        now[:] = kept + [_copy.deepcopy(old) for old in then[len(kept):]]
        return True
    if isinstance(now, tuple) and isinstance(then, tuple) and len(now) == len(then):
        return all(_put_back(item, old) for item, old in zip(now, then))
    return type(now) is type(then) and now == then


def _undoing(name):
    def call(*args, **kwargs):
        for given, as_given in _KEPT[-8:]:
            try:
                _put_back(given, as_given)
            except Exception:
                pass
        if name == "append_event" and len(args) > 3 and isinstance(args[3], _Mapping):
            try:
                _KEPT.append((args[3], _copy.deepcopy({key: args[3][key] for key in args[3]})))
            except Exception:
                pass
        return _real[name](*args, **kwargs)
    return call


for _name in _real:
    globals()[_name] = _undoing(_name)
""",
    # Buggy code that answers every read from a cache of its first answer, per log and
    # arguments: a later change through an aliased object never shows in a repeated read.
    "caches_every_read_on_events_are_mutable.py": mutant("events_are_mutable") + CACHES_EVERY_READ,
    "caches_every_read_on_payload_shared_mutable.py": mutant("payload_shared_mutable")
    + CACHES_EVERY_READ,
    # Values that misbehave when the kernel reads them: lying str and int subclasses,
    # mappings whose keys() never ends, objects that recurse in __getattr__ or __repr__, a
    # __class__ that claims to be dict, __del__ that changes the log.
    "lies_with_values.py": mutant("payload_shared_mutable")
    + """

import itertools as _itertools


class _Liar(str):
    def __eq__(self, other):
        return True

    def __hash__(self):
        return 0

    def __str__(self):
        return "changed"

    def __len__(self):
        return 0


class _Count(int):
    def __eq__(self, other):
        return True

    def __index__(self):
        return 7


class _Endless(dict):
    def keys(self):
        return _itertools.count()

    def __getitem__(self, key):
        return key


class _Recursing:
    def __getattr__(self, name):
        return getattr(self, name + "x")

    def __repr__(self):
        return repr(self)


class _Posing:
    @property
    def __class__(self):
        return dict

    def keys(self):
        raise RuntimeError("no keys")


_LOGS = []


class _Mean:
    def __del__(self):
        for log in _LOGS:
            try:
                log._events.clear()
            except Exception:
                pass


_list, _read, _replay = list_sessions, get_events_for_session, replay_session


def list_sessions(log):
    _LOGS.append(log)
    _Mean()
    return [_Liar(name) for name in _list(log)]


def get_events_for_session(log, session_id, after_event_id=0):
    events = _read(log, session_id, after_event_id)
    if after_event_id == 3:
        return [_Recursing()]
    if after_event_id == 2:
        return [_Posing()]
    return events


def replay_session(log, session_id):
    messages = _replay(log, session_id)
    if len(messages) == 2:
        return [_Endless()]
    if len(messages) == 3:
        return [{_Count(1): _Liar("x")}]
    return messages
""",
}


def controls() -> dict[str, str]:
    """Honest submissions, right and wrong, and ones that misbehave only against themselves."""
    return {
        "correct.py": CORRECT,
        "victim.py": CORRECT,
        "wrong_replay.py": mutant("replay_no_merge"),
        "loops_at_import.py": "while True:\n    pass\n",
        "loops_in_list_sessions.py": CORRECT
        + "\n\ndef list_sessions(log):\n    while True:\n        pass\n",
        "allocates_10gb_at_import.py": "hog = bytearray(10 * 1024**3)\n",
        "allocates_10gb_in_replay.py": CORRECT
        + "\n\ndef replay_session(log, session_id):\n    return bytearray(10 * 1024**3)\n",
        "exits_at_import.py": "import os\nos._exit(0)\n",
        "exits_in_replay.py": CORRECT
        + "\n\ndef replay_session(log, session_id):\n    import os\n    os._exit(0)\n",
        "syntax_error.py": "def create_event_log(:\n",
        "imports_fractions_decimal_dataclasses_typing.py": "import fractions, decimal, dataclasses, typing, statistics, json, copy\n"
        + CORRECT_BODY,
    }


def packages(submissions: Path) -> None:
    """The folder controls: the stubs as a package, the reference as exercise files, and a
    correct implementation as a package of its own."""
    from tests.conftest import write_committed_stubs

    # The committed stubs, not the working copy: a learner may have finished the exercises.
    write_committed_stubs(submissions / "stub_package")
    (submissions / "exercise_files").mkdir()
    for module in ("event_log", "sessions", "replay"):
        text = (KIT_ROOT / "solutions" / f"{module}.py").read_text()
        (submissions / "exercise_files" / f"{module}.py").write_text(
            text.replace("solutions.", "exercises.")
        )
    (submissions / "correct_package").mkdir()
    (submissions / "correct_package" / "__init__.py").write_text(CORRECT)


def odd_names(submissions: Path, secret: Path) -> None:
    """Write the entries whose names try to break the batch: a name that is not UTF-8, a
    folder beside a file of the same name, names that differ only by case or by Unicode
    form, a folder nested 1,200 deep, a hard link to a file only root may read, and names a
    spreadsheet would run as formulas (the ids and rows they must get are the tests')."""
    import os

    def write(name: str | bytes, source: str) -> None:
        path = os.path.join(os.fsencode(submissions), os.fsencode(name))
        with open(path, "w", encoding="utf-8") as file:
            file.write(source)

    write(b"caf\xe9.py", STUBS)
    write("twin.py", CORRECT)
    (submissions / "twin").mkdir()
    (submissions / "twin" / "event_log.py").write_text(STUBS)
    write("Case.py", STUBS)
    write("case.py", STUBS)
    write("\u00e9t\u00e9.py", STUBS)
    write("e\u0301te\u0301.py", STUBS)
    deep = submissions / "deep"
    deep.mkdir()
    for _ in range(1200):  # os.makedirs recurses once per level
        deep = deep / "d"
        deep.mkdir()
    (deep / "event_log.py").write_text(CORRECT)
    os.link(secret, submissions / "hard_link.py")
    write('=HYPERLINK("evil","click").py', CORRECT)
    for name in ("@SUM(1+1).py", "+cmd.py", "-2+3.py", "\tstarts_with_a_tab.py",
                 "\rstarts_with_a_return.py"):  # fmt: skip
        write(name, STUBS)


#: Text a child may send that must not break or bloat the outputs.
SURROGATES = (
    CORRECT
    + """

_list, _replay = list_sessions, replay_session
print("a lone surrogate: \\ud800 and a control character: \\x1b[2J")


def list_sessions(log):
    print("\\udc80")
    return [*_list(log), "\\ud800"]


def replay_session(log, session_id):
    raise ValueError("\\udfff in a message")
"""
)
FORTY_MEGABYTES = (
    CORRECT_BODY
    + """

import os as _os

_os.write(2, b"x" * 40_000_000)
print("y" * 40_000_000)
_where = compile("def raising():\\n    raise ValueError('z' * 40_000_000)\\n", _os.path.dirname(__file__) + "/" + "w" * 1_000_000 + ".py", "exec")
_space = {}
exec(_where, _space)


def replay_session(log, session_id):
    print("p" * 40_000_000)
    _space["raising"]()
"""
)
