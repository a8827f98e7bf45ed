"""Styles and bugs the corpus does not cover, written here as thin wrappers over a correct file.

The grader's choices on style (see :mod:`grader.views`): tuples count as lists and read-only
mappings as dicts, deep inside payloads and messages too, because deep-freezing is a fair way
to keep a log read-only. The bugs: state shared between log values, which only shows when a
refused append or a later read looks at it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from grader import messages
from grader.grading import grade_task
from grader.loading import load_target
from grader.tasks import TASKS
from tests.grader.conftest import CORPUS

BASE = CORPUS / "correct" / "c07_tuple_log.py"
LOAD_BASE = f"""\
import importlib.util
import sys
from types import MappingProxyType

_spec = importlib.util.spec_from_file_location("_wrapped_base_" + __name__, {str(BASE)!r})
base = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = base  # dataclasses look their module up there
_spec.loader.exec_module(base)
"""

DEEP_FROZEN = """
def freeze(value):
    if isinstance(value, dict):
        return MappingProxyType({key: freeze(item) for key, item in value.items()})
    if isinstance(value, list | tuple):
        return tuple(freeze(item) for item in value)
    return value


class Frozen:
    __slots__ = ("_event",)

    def __init__(self, event):
        self._event = event

    event_id = property(lambda self: self._event.event_id)
    session_id = property(lambda self: self._event.session_id)
    type = property(lambda self: self._event.type)
    payload = property(lambda self: freeze(self._event.payload))


create_event_log = base.create_event_log


def append_event(log, session_id, event_type, payload):
    new_log, event = base.append_event(log, session_id, event_type, payload)
    return [new_log, Frozen(event)]


def get_events_for_session(log, session_id, after_event_id=0):
    return [Frozen(e) for e in base.get_events_for_session(log, session_id, after_event_id)]


list_sessions = base.list_sessions


def replay_session(log, session_id):
    return tuple(freeze(dict(m)) for m in base.replay_session(log, session_id))
"""

SHARED_SESSION_INDEX = """
def create_event_log():
    return (base.create_event_log(), {})  # BUG: one registry shared by every later log


def append_event(log, session_id, event_type, payload):
    events, registry = log
    if isinstance(session_id, str):
        registry.setdefault(session_id, None)  # BUG: registered before the append is checked
    new_events, event = base.append_event(events, session_id, event_type, payload)
    return (new_events, registry), event


def get_events_for_session(log, session_id, after_event_id=0):
    return base.get_events_for_session(log[0], session_id, after_event_id)


def list_sessions(log):
    return tuple(log[1])


def replay_session(log, session_id):
    return base.replay_session(log[0], session_id)
"""


def lost(write_target: Callable[[str, str], Path], name: str, body: str) -> set[str]:
    target = load_target(str(write_target(name, LOAD_BASE + body)))
    results = [grade_task(task, target) for task in TASKS]
    return {r.task_id for r in results if r.status != messages.STATUS_PASSED}


def test_deep_frozen_payloads_and_messages_get_full_marks(
    write_target: Callable[[str, str], Path],
) -> None:
    assert lost(write_target, "deep_frozen.py", DEEP_FROZEN) == set()


def test_a_session_listed_after_its_only_append_was_refused_loses_list_sessions(
    write_target: Callable[[str, str], Path],
) -> None:
    assert "list_sessions" in lost(write_target, "shared_index.py", SHARED_SESSION_INDEX)
