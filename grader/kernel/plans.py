"""Running a plan: the steps of one example, in order, each answered as plain data.

A request holds the steps of one example. Each step is a tuple naming what to do:

``("create", keep)``
    ``keep = create_event_log()``.
``("append", log, session, type, payload, keep_log, keep_event)``
    ``keep_log, keep_event = append_event(log, session, type, payload)``; answers the event.
``("appends", log, [(session, type, payload), ...], keep_log)``
    the same, one append after the other on each new log (a loop in the transcript);
    answers every event, or where it stopped.
``("call", function, args, kwargs, keep, view)``
    any graded function; answers what it returned, observed as ``view``.
``("view", name, path, view)``
    a kept value (or a part of it) observed again.
``("make", name, data)``
    keep a value the trusted side built (a payload it will change later).
``("mutate", name, path, modes, reads)``
    change the value in place every way a caller could (see :mod:`.mutate`), repeating the
    ``reads`` (``call`` and ``view`` steps) after each change; stops at the first change after
    which a read answers differently.
``("output",)``
    what learner code printed since the last time.

Arguments are :mod:`.wire` data; ``("$ref", name)`` is a kept value. Values are forgotten
when a request says ``reset`` (every example starts from nothing).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from grader.kernel.calls import guarded
    from grader.kernel.capture import _list_append
    from grader.kernel.mutate import changes_of, follow, make_change
    from grader.kernel.observe import TooLarge, Unreadable, show, view
    from grader.kernel.wire import decode, encode

#: The learner's functions by name, set once the submission is loaded.
FUNCTIONS: dict[str, Callable[..., Any]] = {}
#: Values kept between the steps of one example.
VALUES: dict[str, Any] = {}
#: ``[step, call]``: where the plan is, for a trusted side whose deadline passes (in a
#: sandbox, a view of memory the trusted side shares; see :mod:`.serve`).
PROGRESS = memoryview(bytearray(8)).cast("I")


def use_progress(view: memoryview) -> None:
    """Keep the progress in ``view`` from now on (memory the trusted side can read)."""
    global PROGRESS
    PROGRESS = view


def run_request(request: dict[str, Any], emit: Callable[[Any], None]) -> None:
    """Run every step of ``request``, handing each answer to ``emit`` as soon as it is known."""
    if request.get("reset"):
        VALUES.clear()
    for number, step in enumerate(request["steps"]):
        PROGRESS[0] = number
        PROGRESS[1] = 0
        emit(run_step(step))


def run_step(step: tuple[Any, ...]) -> dict[str, Any]:
    """One step's answer; nothing learner code does escapes as an exception."""
    try:
        return STEPS[step[0]](*step[1:])
    except KeyError as missing:
        return {"missing": str(missing)}
    except (TooLarge, RecursionError, MemoryError):
        return {"too_large": True}


def _create(keep: str) -> dict[str, Any]:
    function = FUNCTIONS["create_event_log"]
    return guarded(lambda: _keep(keep, function()))


def _keep(name: str | None, value: Any) -> dict[str, Any]:
    if name:
        VALUES[name] = value
    return {}


def _append(
    log: Any, session: Any, kind: Any, payload: Any, keep_log: str, keep_event: str
) -> dict[str, Any]:
    args = (
        decode(log, VALUES),
        decode(session, VALUES),
        decode(kind, VALUES),
        decode(payload, VALUES),
    )
    return guarded(lambda: _pair(FUNCTIONS["append_event"](*args), keep_log, keep_event))


def _pair(result: Any, keep_log: str | None, keep_event: str | None) -> dict[str, Any]:
    try:
        new_log, event = result
    except Exception:
        return {"not_pair": show(result)}
    if keep_log:
        VALUES[keep_log] = new_log
    if keep_event:
        VALUES[keep_event] = event
    return _observed(event, "event")


def _observed(value: Any, kind: str) -> dict[str, Any]:
    if kind == "none":
        return {}
    try:
        return {"value": view(value, kind)}
    except Unreadable as problem:
        return {"unreadable": problem.what, "shown": show(problem.value)}


def _appended(append: Callable[..., Any], args: tuple[Any, ...]) -> dict[str, Any]:
    return _pair(append(*args), "$last", None)


def _appends(log: Any, items: list[Any], keep_log: str) -> dict[str, Any]:
    current = decode(log, VALUES)
    append = FUNCTIONS["append_event"]
    events: list[Any] = []
    for number, (session, kind, payload) in enumerate(items):
        PROGRESS[1] = number
        args = (current, decode(session, VALUES), decode(kind, VALUES), decode(payload, VALUES))
        answer = guarded(_appended, append, args)
        if "value" not in answer:
            return {"events": events, "stop": number, "answer": answer}
        _list_append(events, answer["value"])
        current = VALUES.pop("$last")
    VALUES[keep_log] = current
    return {"events": events}


def _call(
    function: str, args: list[Any], kwargs: dict[str, Any], keep: str | None, kind: str
) -> dict[str, Any]:
    target = FUNCTIONS[function]
    values = [decode(arg, VALUES) for arg in args]
    named = {key: decode(arg, VALUES) for key, arg in kwargs.items()}

    def work() -> dict[str, Any]:
        result = target(*values, **named)
        if keep:
            VALUES[keep] = result
        return _observed(result, kind)

    return guarded(work)


def _view(name: str, path: list[Any], kind: str) -> dict[str, Any]:
    root = VALUES[name]
    return guarded(lambda: _observed(follow(root, path), kind))


def _make(name: str, data: Any) -> dict[str, Any]:
    VALUES[name] = decode(data, VALUES)
    return {}


def _mutate(
    name: str, path: list[Any], modes: list[str], reads: list[Any], precise: bool = False
) -> dict[str, Any]:
    """Make every change; run ``reads`` and compare them with how they answered before.

    ``precise`` reads after each change, so the first read that differs follows the one
    change that did the damage. Otherwise the reads run only before a ``clear`` and at the
    end: the other changes add, replace and remove so that together they never leave a
    container as it was, but a ``clear`` can return an empty one to how it was. An answer
    whose reads differ then says ``batched``, and the trusted side runs the example again,
    precisely, to show the one line that did the damage."""
    root = VALUES[name]

    def get_root() -> Any:
        return follow(root, path)

    before = [run_step(read) for read in reads]
    baseline = [encode(answer) for answer in before]
    done: list[Any] = []
    changes = changes_of(get_root, modes)
    while True:
        PROGRESS[1] = len(done) + 1
        planned = guarded(lambda: {"change": next(changes, None)})
        if "change" not in planned:
            return {"changes": done, "stopped": planned}
        change = planned["change"]
        if not precise and done and (change is None or change[1] == "clear"):
            differs = _differs(reads, before, baseline)
            if differs is not None:
                return {"changes": done, **differs, "batched": True}
        if change is None:
            return {"changes": done}
        made = guarded(_made, get_root, change)
        if "made" not in made:
            return {"changes": done, "stopped": made}
        if made["made"] is None:
            continue
        _list_append(done, made["made"])
        if precise:
            differs = _differs(reads, before, baseline)
            if differs is not None:
                return {"changes": done, **differs}


def _made(get_root: Callable[[], Any], change: tuple[list[Any], str, Any]) -> dict[str, Any]:
    return {"made": make_change(get_root, change)}


def _differs(reads: list[Any], before: list[Any], baseline: list[bytes]) -> dict[str, Any] | None:
    for number, read in enumerate(reads):
        after = run_step(read)
        # Compared as JSON text: 1 == 1.0 == True in Python, not in an observation.
        if encode(after) != baseline[number]:
            return {"read": number, "before": before[number], "after": after}
    return None


def _output() -> dict[str, Any]:
    return {"output": OUTPUT[0].take() if OUTPUT else ""}


#: Where learner code's prints go (a Capture, set when the submission is loaded).
OUTPUT: list[Any] = []

STEPS: dict[str, Callable[..., dict[str, Any]]] = {
    "create": _create,
    "append": _append,
    "appends": _appends,
    "call": _call,
    "view": _view,
    "make": _make,
    "mutate": _mutate,
    "output": _output,
}
