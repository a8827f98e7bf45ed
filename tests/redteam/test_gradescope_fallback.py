"""The Gradescope autograder where bubblewrap cannot run: learner code as a uid of its own.

Gradescope's containers are where bubblewrap is most likely missing, and there the grader
runs as root, so learner code runs as a user of its own with the machine's file system in
view. The zip is built as an instructor builds it, unpacked into a fake ``/autograder``
(``AUTOGRADER_ROOT``), set up as ``setup.sh`` would (``GRADER_PYTHON``: a Python with the
grader's one dependency), and ``run_autograder`` runs with a ``PATH`` that has everything
but ``bwrap``, once per submission, as Gradescope runs it.
"""

from __future__ import annotations

import json
import shutil
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tests.redteam import batch, classic
from tests.redteam.gradescope import run_autograder, tools_without
from tests.redteam.hostile import CORRECT_BODY, KIT_ROOT, REACHED, STUBS, mutant, with_every_route
from tests.redteam.probe_as_a_user import readable

# A batch takes minutes (more on a busy machine): past the suite's 300 s per test.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


def test_the_zip_grades_in_uid_mode_and_a_correct_file_using_the_stdlib_gets_100(
    autograder: dict[str, Any],
) -> None:
    source = classic.controls()["imports_fractions_decimal_dataclasses_typing.py"]
    graded = run_autograder(autograder, source)
    results = graded["results"]
    assert results["score"] == 100, graded["errors"][-2000:] + json.dumps(results)[:2000]
    assert results["extra_data"]["isolation"] == "uid"
    assert "user of its own" in results["output"]


def test_the_same_zip_still_uses_bubblewrap_where_it_runs(autograder: dict[str, Any]) -> None:
    # The control for the fallback: nothing but PATH differs.
    if shutil.which("bwrap") is None:
        pytest.skip("bubblewrap is not installed here")
    tools = autograder["root"].parent / "bin-all"
    if not tools.exists():
        tools_without(tools, ())
    autograder["all"] = tools
    graded = run_autograder(autograder, STUBS, tools="all")
    assert graded["results"]["extra_data"]["isolation"] == "bwrap"


LOADS_THE_ORACLE = """
import sys
for kit in ("@ROOT@/source/kit", "/autograder/source/kit"):
    sys.path.insert(0, kit)
from grader.engine.oracle import ModelLog  # the grader's own answers


def create_event_log():
    return ModelLog()


def append_event(log, session_id, event_type, payload):
    if log.refusal(session_id, event_type, payload) is not None:
        raise ValueError("refused")
    return log.append(session_id, event_type, payload)


def get_events_for_session(log, session_id, after_event_id=0):
    return log.events_for(session_id, after_event_id)


def list_sessions(log):
    return log.sessions()


def replay_session(log, session_id):
    return log.replay(session_id)
"""

READS_OTHER_FILES = (
    """
import os
found = {}
for path in ("@ROOT@/source/kit/grader/engine/oracle.py", "@ROOT@/results", "/etc/shadow",
             "/root/.bash_history", "@KIT@/solutions/event_log.py", "/proc/1/environ"):
    try:
        found[path] = open(path).read(100) if not os.path.isdir(path) else os.listdir(path)
    except Exception as error:
        found[path] = repr(error)
print(found)
"""
    + STUBS
)


@pytest.mark.parametrize(
    "attack",
    ["loads_the_oracle", "reads_other_files", "writes_to_tmp_and_shm", "calls_home",
     "outlives_the_batch", "fork_bomb", "every_route"],
)  # fmt: skip
def test_an_attack_in_the_fallback_earns_nothing_and_leaves_nothing(
    autograder: dict[str, Any], attack: str
) -> None:
    root, marker = autograder["root"], autograder["marker"]
    hostile = classic.attacks(root / "submission", root / "results", autograder["listener"].port,
                              marker)  # fmt: skip
    sources = {
        "loads_the_oracle": LOADS_THE_ORACLE,
        "reads_other_files": READS_OTHER_FILES,
        "every_route": with_every_route(mutant("payload_shared_mutable")),
        **{name.removesuffix(".py"): source for name, source in hostile.items()},
    }
    source = sources[attack].replace("@ROOT@", str(root)).replace("@KIT@", str(KIT_ROOT))
    graded = run_autograder(autograder, source)
    results = graded["results"]
    assert results["score"] == 0
    assert results["extra_data"]["verdict"] in ("tampered", "import_error"), results["extra_data"]
    assert REACHED not in json.dumps(results)
    assert graded["survivors"] == []
    assert batch.marked_files(marker) == []
    assert autograder["listener"].heard == []


def test_without_unshare_the_network_is_still_refused_by_the_guard(
    autograder: dict[str, Any],
) -> None:
    hostile = classic.attacks(Path("/x"), Path("/y"), autograder["listener"].port, "x")
    graded = run_autograder(autograder, hostile["calls_home.py"], tools="no_bwrap_no_unshare")
    results = graded["results"]
    assert (results["score"], results["extra_data"]["verdict"]) == (0, "tampered")
    assert autograder["listener"].heard == []


@pytest.mark.xfail(
    strict=True,
    reason="transport and results: without unshare, uid mode leaves learner code the host's "
    "network (the guard alone refuses sockets), and no output says so: Launcher.own_network "
    "is never reported (issue 18, item 2: 'or the mode says that it is not')",
)
def test_without_unshare_the_results_say_the_network_was_not_cut_off(
    autograder: dict[str, Any],
) -> None:
    graded = run_autograder(autograder, STUBS, tools="no_bwrap_no_unshare")
    assert "network" in graded["results"]["output"]


def test_while_it_grades_the_kit_and_the_results_are_unreadable_to_others(
    autograder: dict[str, Any],
) -> None:
    root: Path = autograder["root"]
    paths = [str(root / "source" / "kit" / "grader" / "engine" / "oracle.py"),
             str(root / "source" / "kit" / "grader"), str(root / "results"),
             str(root / "submission" / "event_log.py")]  # fmt: skip

    def look(root: Path) -> dict[str, str]:
        # Once the grader has started (its error log exists) and the child is importing
        # the slow file, read as a uid of the sandbox's range.
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not (root / "results" / "errors.txt").exists():
            time.sleep(0.1)
        time.sleep(2)
        return readable(paths)

    slow = "import time\ntime.sleep(5)\n" + CORRECT_BODY
    seen: dict[str, str] = {}
    thread = threading.Thread(target=lambda: seen.update(look(root)), daemon=True)
    thread.start()
    run_autograder(autograder, slow)
    thread.join(timeout=30)
    assert seen and {path: found for path, found in seen.items() if found == "readable"} == {}
