"""Submissions that write where no audit event sees it, or where they should not, hoping it
lasts: through SQLite (``ATTACH DATABASE``, ``VACUUM INTO``), ``os.memfd_create``, FIFOs and
``mknod``, named semaphores and shared memory, ``readline``'s history, a folder's descriptor
as ``dir_fd``; into ``/run/lock`` and ``/var/lock``, ``/dev/shm`` past the memory limit and
every other folder any user may write here; a message left for the next submission, and the
next submission looking for it. One reads its own stack with ``faulthandler`` to tell the
grader's checks from its calls. (With the guard on, SQLite, ``faulthandler`` and
``memfd_create`` are missing: those routes fail as on a system without them.)

Each source is built for one run: ``@MARKER@`` (unique to the run, in every name an attack
makes, so only this run's leftovers are counted) and ``@FOLDERS@`` (the folders any user may
write, as :func:`grader.transport.writable.find` found them, ``/var/lock`` and the current
folder) are filled in. Each attack tries every route in turn, whatever the one before it
did, and says on its log (fd 2) what each route did.
"""

from __future__ import annotations

from collections.abc import Iterable

from tests.redteam.hostile import BASE, CORRECT_BODY, mutant

#: What every attack starts with: the folders, the marker, and a way to try and tell.
PREAMBLE = r"""
import os as _os

_MARK = "@MARKER@"
_FOLDERS = [*@FOLDERS@, _os.getcwd()]
_TRIED = []


def _say(text):
    _os.write(2, (str(text) + "\n").encode("utf-8", "replace"))


def _attempt(name, action):
    try:
        action()
        _TRIED.append(name + ": done")
    except BaseException as error:
        _TRIED.append("%s: %s: %s" % (name, type(error).__name__, str(error)[:80]))


def _name(folder, what):
    return "%s/%s-%s" % (folder, _MARK, what)
"""

#: SQLite writes any file the process may write, and no audit event says so.
SQLITE = r"""
def _through_sqlite(folder):
    import sqlite3
    db = sqlite3.connect(":memory:")
    db.execute("create table t (x)")
    db.execute("insert into t values (zeroblob(1000000))")
    db.commit()
    for number in range(8):
        db.execute("attach database ? as a", (_name(folder, "attach-%d.db" % number),))
        db.execute("create table a.t as select * from main.t")
        db.commit()
        db.execute("detach database a")
    db.execute("vacuum into ?", (_name(folder, "vacuum.db"),))


for _folder in _FOLDERS:
    _attempt("sqlite " + _folder, lambda: _through_sqlite(_folder))
"""

#: Files without an ``open``: memory files kept open, FIFOs and nodes, semaphores, shared
#: memory, a history file, and a folder's descriptor that makes a relative name go elsewhere.
NO_OPEN_EVENT = r"""
_KEPT = []


def _memory_files():
    for number in range(40):
        fd = _os.memfd_create(_MARK + "-%d" % number)
        _os.write(fd, b"m" * 2**21)
        _KEPT.append(fd)


def _nodes(folder):
    _os.mkfifo(_name(folder, "fifo"))
    _os.mknod(_name(folder, "node"))


def _semaphore(folder):
    import _multiprocessing
    _KEPT.append(_multiprocessing.SemLock(1, 1, 1, "/" + _MARK + "-sem", False))


def _shared_memory(folder):
    import _posixshmem
    fd = _posixshmem.shm_open("/" + _MARK + "-shm", _os.O_CREAT | _os.O_RDWR, 0o666)
    _os.write(fd, b"s" * 2**20)


def _history(folder):
    import readline
    readline.add_history("carried " + _MARK)
    readline.write_history_file(_name(folder, "history"))


def _through_a_folder_descriptor(folder):
    where = _os.open(folder, _os.O_RDONLY)
    fd = _os.open(_MARK + "-dirfd", _os.O_CREAT | _os.O_WRONLY, 0o666, dir_fd=where)
    _os.write(fd, b"d" * 1000)


_attempt("memfd", _memory_files)
for _folder in _FOLDERS:
    for _route in (_nodes, _semaphore, _shared_memory, _history, _through_a_folder_descriptor):
        _attempt("%s %s" % (_route.__name__, _folder), lambda: _route(_folder))
"""

#: The plain routes: open, os.open, a folder, pathlib.
PLAIN = r"""
def _plainly(folder):
    for number in range(2):
        with open(_name(folder, "open-%d" % number), "w") as file:
            file.write("carried " + _MARK)
    fd = _os.open(_name(folder, "os-open"), _os.O_CREAT | _os.O_WRONLY, 0o666)
    _os.write(fd, b"carried")
    _os.close(fd)
    _os.mkdir(_name(folder, "dir"), 0o777)


for _folder in _FOLDERS:
    _attempt("plain " + _folder, lambda: _plainly(_folder))
"""

#: /dev/shm is memory that the memory limit does not count: fill it past that limit.
FILL_SHM = r"""
def _fill(route, count):
    for number in range(count):
        route(number)


def _by_open(number):
    with open(_name("/dev/shm", "fill-%d" % number), "wb") as file:
        file.write(b"f" * 2**21)


def _by_sqlite(number):
    import sqlite3
    db = sqlite3.connect(":memory:")
    db.execute("attach database ? as a", (_name("/dev/shm", "fill-%d.db" % number),))
    db.execute("create table a.t as select zeroblob(2000000) as x")
    db.commit()
    db.close()


_attempt("fill /dev/shm by open", lambda: _fill(_by_open, 565))
_attempt("fill /dev/shm by sqlite", lambda: _fill(_by_sqlite, 565))
"""

#: Only /run/lock and /var/lock, by every route.
LOCK_FOLDERS = ["/run/lock", "/var/lock"]

TELL = r"""
_say("TRIED %r" % (_TRIED,))
"""

#: The next submission looks for what the others left: every folder any user may write,
#: listed (never opened: listing is allowed, and this file is honest otherwise).
LOOKS_FOR_A_MESSAGE = r"""
def _look():
    found = []
    for folder in _FOLDERS:
        pending = [folder]
        while pending:
            here = pending.pop()
            try:
                names = _os.listdir(here)
            except Exception:
                continue
            for name in names:
                if _MARK in name:
                    found.append(here + "/" + name)
    return found


_say("FOUND %r" % (_look(),))
"""

#: Buggy code (it keeps the caller's payload) that copies only when a traceback dump shows it
#: a deeper stack than its first call had: when it guesses that the grader is checking.
STACK_DUMP = r"""
_DEPTHS = []
_buggy_append = append_event


def _depth():
    import faulthandler
    try:
        fd = _os.memfd_create("dump")
    except Exception:
        fd = _os.open(_os.getcwd() + "/dump", _os.O_CREAT | _os.O_RDWR | _os.O_TRUNC, 0o600)
    faulthandler.dump_traceback(fd, all_threads=False)
    _os.lseek(fd, 0, 0)
    text = _os.read(fd, 1 << 20).decode("utf-8", "replace")
    _os.close(fd)
    return text.count("File ")


def append_event(log, session_id, event_type, payload):
    import copy
    try:
        depth = _depth()
    except BaseException as error:
        _say("dump: %r" % (error,))
        return _buggy_append(log, session_id, event_type, payload)
    _DEPTHS.append(depth)
    if depth > min(_DEPTHS):
        payload = copy.deepcopy(payload)  # honest, when it thinks it is being checked
    return _buggy_append(log, session_id, event_type, payload)
"""


def _filled(source: str, marker: str, folders: Iterable[str]) -> str:
    return source.replace("@MARKER@", marker).replace("@FOLDERS@", repr(list(folders)))


def attacks(marker: str, folders: Iterable[str]) -> dict[str, str]:
    """``file name -> source`` of every attack, for ``folders`` (what any user may write)."""
    everywhere = [*folders, "/var/lock"]
    correct = CORRECT_BODY

    def made(*parts: str, where: Iterable[str] = everywhere) -> str:
        return _filled(PREAMBLE + "".join(parts) + TELL, marker, where) + correct

    return {
        "writes_through_sqlite.py": made(SQLITE),
        "writes_without_an_open_event.py": made(NO_OPEN_EVENT),
        "writes_to_run_lock_and_var_lock.py": made(
            PLAIN, SQLITE, NO_OPEN_EVENT, where=LOCK_FOLDERS
        ),
        "fills_dev_shm_past_the_memory_limit.py": made(FILL_SHM, where=["/dev/shm"]),
        "writes_to_every_writable_folder.py": made(PLAIN, NO_OPEN_EVENT),
        "leaves_a_message_for_the_next_one.py": made(PLAIN, SQLITE, NO_OPEN_EVENT),
        "dumps_its_stack_to_tell_a_check.py": mutant(BASE)
        + _filled(PREAMBLE, marker, everywhere)
        + STACK_DUMP,
    }


def controls(marker: str, folders: Iterable[str]) -> dict[str, str]:
    """Honest files beside the attacks: the correct file, the bug alone, and a correct file
    that lists every folder any user may write looking for what the others left."""
    everywhere = [*folders, "/var/lock"]
    return {
        "correct.py": CORRECT_BODY,
        f"control_{BASE}.py": mutant(BASE),
        "zz_looks_for_a_message.py": _filled(PREAMBLE + LOOKS_FOR_A_MESSAGE, marker, everywhere)
        + CORRECT_BODY,
    }


#: One route into every folder, for the tests with the guard off.
ROUTES = {"plain": PLAIN, "sqlite": SQLITE}


def writer(route: str, marker: str, folders: Iterable[str]) -> str:
    """Correct code that writes into every folder by one route of :data:`ROUTES` (``open``
    and ``os.open``; or SQLite's ``ATTACH`` and ``VACUUM INTO``): what the file system alone
    allows, once the guard is off."""
    return _filled(PREAMBLE + ROUTES[route] + TELL, marker, [*folders, "/var/lock"]) + CORRECT_BODY


def shm_filler(marker: str) -> str:
    """Correct code that writes 1,130 MiB into ``/dev/shm`` by plain ``open``."""
    return _filled(PREAMBLE + FILL_SHM + TELL, marker, ["/dev/shm"]) + CORRECT_BODY
