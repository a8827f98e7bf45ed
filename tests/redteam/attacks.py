"""The submissions of the red-team batch: attacks on the grade, and honest controls.

Each attack is what a hostile student would submit to get points without writing the five
functions, or to hurt a classmate, the kit or the instructor's files. The sources are built
from the paths of one batch run (where the kit, the submissions and the output are), because
an attacker who guesses those paths is the strongest attacker.

``EXPECTED`` is each submission's row: its status and score. Every attack must earn 0.
"""

from __future__ import annotations

import json
from pathlib import Path

KIT_ROOT = Path(__file__).resolve().parents[2]
CORRECT = (
    KIT_ROOT / "tests" / "implementations" / "correct" / "c01_namedtuple_events.py"
).read_text()
#: Written into the command line of every process an attack leaves behind, to find survivors.
MARKER = "redteam-surv"  # a process name holds 15 characters at most

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

FULL_MARKS_ROW = "id,score,max_score,status\\n{id},100,100,graded\\n"


def attacks(submissions: Path, out: Path, port: int) -> dict[str, str]:
    """Every attack's source, for a batch over ``submissions`` writing into ``out``."""
    fake = json.dumps({"version": 3, "status": "pass", "score": 500, "max_score": 100, "tests": []})
    victim = submissions / "victim.py"
    return {
        # Importing the answers: the kit's reference, or the grader's own oracle.
        "imports_solutions.py": CORRECT + "\nfrom solutions import *  # noqa\n",
        "imports_the_oracle.py": "from grader.oracle import ModelLog\n" + STUBS,
        "execs_the_solutions_source.py": (
            f"for name in ('event_log', 'sessions', 'replay'):\n"
            f"    exec(open({str(KIT_ROOT / 'solutions')!r} + '/' + name + '.py').read())\n"
        ),
        "execs_a_classmate.py": f"exec(open({str(victim)!r}).read())\n",
        # Patching the grader: whatever of it can be found in this process.
        "patches_the_grader.py": PATCHES_THE_GRADER + STUBS,
        "lies_in_the_call_server.py": LIES_IN_THE_CALL_SERVER + STUBS,
        # Forging results: on the protocol pipe, on stdout, in files where results go.
        "forges_answers_on_the_pipe.py": FORGES_ON_THE_PIPE + STUBS,
        "prints_full_marks.py": f"print({fake!r})\nprint('score: 500')\n" + STUBS,
        "writes_results_files.py": WRITES_RESULTS.format(out=str(out), fake=fake) + STUBS,
        # Reading what it must not: the grader's memory, other processes.
        "reads_the_grader_s_memory.py": READS_MEMORY + STUBS,
        "kills_its_parent.py": "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n" + STUBS,
        # Shadowing the grader for the next run, and writing into the kit.
        "shadows_the_grader.py": SHADOWS.format(kit=str(KIT_ROOT), subs=str(submissions)) + STUBS,
        # Outliving the batch, then rewriting its own row and results.
        "outlives_the_batch.py": OUTLIVES.format(
            marker=MARKER, out=str(out), row=FULL_MARKS_ROW, fake=fake
        )
        + STUBS,
        # Hurting classmates: overwriting one's file.
        "overwrites_a_classmate.py": OVERWRITES.format(victim=str(victim)) + STUBS,
        # Loose ends: a fork bomb, a flood of the pipe, the network.
        "fork_bomb.py": FORK_BOMB.format(marker=MARKER) + STUBS,
        "floods_the_pipe.py": FLOODS + STUBS,
        # Beside correct code (a control: the capped answers lose only their own tasks)...
        "answers_a_hundred_megabytes.py": CORRECT + HUGE_ANSWERS,
        # ...and as the whole submission, hoping the grader gives up or runs out of memory.
        "answers_nothing_but_a_hundred_megabytes.py": EVERY_ANSWER_HUGE,
        "calls_home.py": CALLS_HOME.format(port=port) + STUBS,
    }


PATCHES_THE_GRADER = """
import gc, sys
# Every module or function of the grader this process can find: none, in a sandboxed child.
for module in list(sys.modules.values()):
    name = getattr(module, "__name__", "")
    if "grad" in name and hasattr(module, "grade_task"):
        module.grade_task = lambda *args, **kwargs: None
for thing in gc.get_objects():
    if callable(thing) and getattr(thing, "__name__", "") in ("grade_task", "run_property"):
        thing.__code__ = (lambda *args, **kwargs: None).__code__
"""

LIES_IN_THE_CALL_SERVER = """
import sys
# The call server shares this process: make every call answer a plausible event.
for module in list(sys.modules.values()):
    server = getattr(module, "Server", None)
    if server is not None and hasattr(server, "keep"):
        plausible = {"value": [1, "a", "user_message", {"content": "hi"}]}
        server.keep = lambda self, result, request: plausible
"""

FORGES_ON_THE_PIPE = """
import os
# Find the pipe the grader reads answers from and write forged "all done" answers into it.
for fd in range(3, 64):
    try:
        if os.readlink(f"/proc/self/fd/{fd}").startswith("pipe:"):
            for request_id in range(1, 200):
                forged = '{"id": %d, "ready": true, "done": 0, "value": []}\\\\n' % request_id
                os.write(fd, forged.encode())
    except OSError:
        pass
"""

WRITES_RESULTS = """
import pathlib
fake = {fake!r}
for folder in (pathlib.Path.cwd(), pathlib.Path({out!r}), pathlib.Path({out!r}) / "results"):
    for name in ("results.json", "writes_results_files.json", "gradebook.csv"):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / name).write_text(fake)
        except OSError:
            pass
"""

READS_MEMORY = """
import os
found = []
for pid in os.listdir("/proc"):
    if pid.isdigit():
        try:
            found.append(open(f"/proc/{pid}/cmdline", "rb").read())
            with open(f"/proc/{pid}/mem", "rb") as memory:
                memory.read(1)
        except OSError:
            pass
if any(b"grader" in line and b"callserver" not in line for line in found):
    raise SystemExit("saw the grader")  # would show as a crash, not a quiet 0
"""

SHADOWS = """
import pathlib
shadow = '\\\\nraise SystemExit("shadowed")\\\\n'
for folder in (pathlib.Path.cwd(), pathlib.Path({subs!r}), pathlib.Path({kit!r})):
    for target in (folder / "grader" / "__init__.py", folder / "grader" / "__main__.py"):
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(shadow)
        except OSError:
            pass
"""

OUTLIVES = """
import os, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        # Renamed so a survivor can be found by its command line.
        try:
            open("/proc/self/comm", "w").write({marker!r})
        except OSError:
            pass
        time.sleep(3)
        for path, text in (("{out}/gradebook.csv", {row!r}.format(id="outlives_the_batch")),
                           ("{out}/results/outlives_the_batch.json", {fake!r})):
            try:
                open(path, "w").write(text)
            except OSError:
                pass
        time.sleep(60)
        os._exit(0)
    os._exit(0)
"""

OVERWRITES = """
for path in ({victim!r},):
    try:
        open(path, "w").write("raise SystemExit('overwritten')\\\\n")
    except OSError:
        pass
"""

FORK_BOMB = """
import os, time
children = 0
try:
    for _ in range(2000):
        if os.fork() == 0:
            try:
                open("/proc/self/comm", "w").write({marker!r})
            except OSError:
                pass
            time.sleep(120)
            os._exit(0)
        children += 1
except OSError:
    pass  # the process cap
"""

FLOODS = """
import os
for fd in range(3, 64):
    try:
        if os.readlink(f"/proc/self/fd/{fd}").startswith("pipe:"):
            os.write(fd, b"x" * 50_000_000)  # into the grader's pipe, and never a newline
    except OSError:
        pass
"""

HUGE_ANSWERS = """

def list_sessions(log):
    return ["x" * 1000] * 100_000  # a 100 MB answer


def replay_session(log, session_id):
    return [{"role": "user", "content": "x" * 10_000_000}] * 10
"""

EVERY_ANSWER_HUGE = (
    """
def create_event_log():
    return ["x" * 1000] * 100_000


def append_event(log, session_id, event_type, payload):
    return ["x" * 1000] * 100_000


def get_events_for_session(log, session_id, after_event_id=0):
    return ["x" * 1000] * 100_000
"""
    + HUGE_ANSWERS
)

CALLS_HOME = """
import socket
try:
    socket.create_connection(("127.0.0.1", {port}), timeout=1).sendall(b"reached the host")
except OSError:
    pass
"""

#: submission id -> (status, score). Attacks earn 0; controls earn what they deserve.
EXPECTED: dict[str, tuple[str, int]] = {
    "imports_solutions": ("import_error", 0),
    "imports_the_oracle": ("import_error", 0),
    "execs_the_solutions_source": ("import_error", 0),
    "execs_a_classmate": ("import_error", 0),
    "patches_the_grader": ("graded", 0),
    "lies_in_the_call_server": ("graded", 0),
    "forges_answers_on_the_pipe": ("protocol_error", 0),
    "prints_full_marks": ("graded", 0),
    "writes_results_files": ("graded", 0),
    "reads_the_grader_s_memory": ("graded", 0),
    "kills_its_parent": ("import_error", 0),
    "shadows_the_grader": ("graded", 0),
    "outlives_the_batch": ("graded", 0),
    "overwrites_a_classmate": ("graded", 0),
    "fork_bomb": ("graded", 0),
    "floods_the_pipe": ("protocol_error", 0),
    "answers_a_hundred_megabytes": ("graded", 60),
    "answers_nothing_but_a_hundred_megabytes": ("graded", 0),
    "calls_home": ("graded", 0),
}
