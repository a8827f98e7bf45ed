"""A compact check of every contract clause, task by task, against the reference solution.

``failed_tasks(module)`` appends seeded random events (valid and broken ones mixed) to the
module's log and to the reference ``solutions`` log side by side, compares every answer after
every step, and adds two fixed scenarios for what random runs cannot see (payload copies and
fresh replay objects). It is the corpus's own yardstick, independent of the grader.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Mapping
from types import ModuleType
from typing import Any

import solutions

SESSIONS = ("a", "b", "ab")
CALL_IDS = ("call_1", "call_2", "call_3", "call_4")
SEEDS = range(20)
STEPS = 40


def plain(value: Any) -> Any:
    """Turn mappings into dicts and tuples into lists, recursively, for comparison."""
    if isinstance(value, Mapping):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    return value


def event_view(event: Any) -> list[Any]:
    """Return what the contract says an event shows: its four attributes, payload as a dict."""
    payload = event.payload
    if not isinstance(payload, Mapping):
        raise AssertionError(f"event.payload is a {type(payload).__name__}, not a mapping")
    return [event.event_id, event.session_id, event.type, plain(payload)]


def random_append(rng: random.Random) -> tuple[Any, Any, Any]:
    """Return ``(session_id, event_type, payload)`` for one append, now and then broken."""
    event_type: Any = rng.choice(("user_message", "assistant_message", "tool_call", "tool_result"))
    text = rng.choice(("", "hi"))
    fields: dict[str, Any] = {
        "user_message": {"content": text},
        "assistant_message": {"content": text},
        "tool_call": {"call_id": rng.choice(CALL_IDS), "name": "search", "arguments": "{x"},
        "tool_result": {"call_id": rng.choice(CALL_IDS), "content": text},
    }[event_type]
    if rng.random() < 0.2:
        fields["meta"] = {"tags": ["x"]}
    session_id: Any = rng.choice(SESSIONS)
    key = rng.choice([k for k in fields if k != "meta"])
    match rng.randrange(20):
        case 0:
            event_type = rng.choice(("tool", "User_message", None))
        case 1:
            session_id = rng.choice(("", None, 7))
        case 2:
            return session_id, event_type, rng.choice((None, "content", list(fields.items())))
        case 3:
            del fields[key]
        case 4:
            fields[key] = rng.choice((None, 5, b"x"))
        case 5:
            fields[key] = ""
    return session_id, event_type, fields


def _append(impl: Any, log: Any, op: tuple[Any, Any, Any]) -> Any:
    try:
        return impl.append_event(log, *op)
    except Exception as error:  # the caller judges which errors are allowed
        return error


def _snapshot(impl: Any, log: Any) -> Any:
    reads = [[event_view(e) for e in impl.get_events_for_session(log, s)] for s in SESSIONS]
    return reads, list(impl.list_sessions(log))


def _compare_reads(module: ModuleType, log: Any, ref_log: Any, rng: random.Random) -> str | None:
    def differs(task: str, name: str, *args: Any) -> str | None:
        try:
            got = plain(_call(getattr(module, name), log, *args))
        except Exception as error:
            return f"{task}: {name}{args!r} raised {error!r}"
        want = plain(_call(getattr(solutions, name), ref_log, *args))
        return None if got == want else f"{task}: {name}{args!r} gave {got!r}, expected {want!r}"

    for session in (*SESSIONS, "nobody"):
        for after in (0, rng.randint(0, STEPS)):
            problem = differs("read_and_resume", "get_events_for_session", session, after)
            if problem:
                return problem
        problem = differs("replay", "replay_session", session)
        if problem:
            return problem
    return differs("list_sessions", "list_sessions")


def _call(function: Any, log: Any, *args: Any) -> Any:
    result = function(log, *args)
    if function.__name__ == "get_events_for_session":
        return [event_view(event) for event in result]
    return result


def _check_step(module: ModuleType, log: Any, ref_log: Any, op: Any) -> tuple[str | None, Any]:
    """Append ``op`` to both logs; return (problem, new logs or None to keep the old ones)."""
    before = _snapshot(module, log)
    got, want = _append(module, log, op), _append(solutions, ref_log, op)
    if isinstance(want, ValueError):
        if not isinstance(got, ValueError):
            return f"reject_bad_input: append{op!r} gave {got!r}, expected a ValueError", None
        if _snapshot(module, log) != before:
            return f"reject_bad_input: refused append{op!r} still changed the log", None
        return None, None
    if isinstance(got, ValueError):
        return f"reject_bad_input: valid append{op!r} raised {got!r}", None
    if isinstance(got, Exception):
        return f"append_and_ids: append{op!r} raised {got!r}", None
    if event_view(got[1]) != event_view(want[1]):
        return f"append_and_ids: event {event_view(got[1])} != {event_view(want[1])}", None
    if _snapshot(module, log) != before:
        return f"append_and_ids: append{op!r} changed the old log", None
    return None, (got[0], want[0])


def _random_run(module: ModuleType, seed: int) -> str | None:
    """Run one seeded session side by side; return the first problem, if any."""
    rng = random.Random(seed)
    log, ref_log = module.create_event_log(), solutions.create_event_log()
    for step in range(STEPS):
        op = random_append(rng)
        problem, logs = _check_step(module, log, ref_log, op)
        if logs is not None:
            log, ref_log = logs
        problem = problem or _compare_reads(module, log, ref_log, rng)
        if problem:
            return f"{problem} (seed {seed}, step {step})"
    return None


def payload_isolation_problem(module: ModuleType) -> str | None:
    """append_and_ids: changing the caller's dict or event.payload, even nested, changes nothing."""
    caller = {"content": "hi", "meta": {"tags": ["a"]}}
    log, event = module.append_event(module.create_event_log(), "s", "user_message", caller)
    caller["content"] = "changed"
    caller["meta"]["tags"].append("caller")
    payload = event.payload
    try:
        payload["meta"]["tags"].append("reader")
        payload["content"] = "reader"
    except (TypeError, AttributeError):
        pass  # a read-only payload may refuse the change; that is allowed
    expected = {"content": "hi", "meta": {"tags": ["a"]}}
    seen = [
        plain(event.payload),
        *(plain(e.payload) for e in module.get_events_for_session(log, "s")),
    ]
    return None if seen == [expected, expected] else f"append_and_ids: payload became {seen}"


def replay_freshness_problem(module: ModuleType) -> str | None:
    """replay: changing what replay returned must not change the next replay."""
    log = module.create_event_log()
    for event_type, payload in (
        ("user_message", {"content": "q"}),
        ("tool_call", {"call_id": "c1", "name": "f", "arguments": "{}"}),
        ("tool_call", {"call_id": "c2", "name": "g", "arguments": "{}"}),
        ("tool_result", {"call_id": "c1", "content": "r"}),
    ):
        log, _ = module.append_event(log, "s", event_type, payload)
    first = plain(module.replay_session(log, "s"))
    messages = module.replay_session(log, "s")
    changes = (
        lambda: messages[0].__setitem__("content", "changed"),
        lambda: messages[1]["tool_calls"][0]["function"].__setitem__("name", "changed"),
        lambda: messages[1]["tool_calls"].append("changed"),
        lambda: messages.append("changed"),
    )
    for change in changes:
        # A replay frozen all the way down refuses every change, which is fine too.
        with contextlib.suppress(TypeError, AttributeError):
            change()
    again = plain(module.replay_session(log, "s"))
    return None if again == first else f"replay: after mutating a replay, replay gave {again}"


def failed_tasks(module: ModuleType) -> dict[str, str]:
    """Return ``{task: first problem}`` for every task where the module breaks the contract.

    A check that crashes counts against the task its docstring (or its step) names.
    """
    problems: list[str | None] = []
    for seed in SEEDS:
        try:
            problems.append(_random_run(module, seed))
        except Exception as error:
            problems.append(f"append_and_ids: seed {seed} crashed with {error!r}")
    for scenario in (payload_isolation_problem, replay_freshness_problem):
        try:
            problems.append(scenario(module))
        except Exception as error:
            task = (scenario.__doc__ or "").split(":")[0]
            problems.append(f"{task}: {scenario.__name__} raised {error!r}")
    failed: dict[str, str] = {}
    for problem in filter(None, problems):
        failed.setdefault(problem.split(":")[0], problem)
    return failed
