"""Running examples: each step's calls, made from one trampoline, each answer plain data.

A request holds one or more *examples*, each a list of steps, and every example starts from
nothing (the values kept by name are forgotten). A step is a tuple naming what to do:

``("create", keep)``
    ``keep = create_event_log()``.
``("append", log, session, type, payload, keep_log, keep_event[, keep_payload])``
    ``keep_log, keep_event = append_event(log, session, type, payload)``; answers the event.
    The payload is kept under ``keep_payload`` for the rest of the example (to be changed
    later, or passed again), the way a caller keeps what it passed.
``("appends", log, [(session, type, payload), ...], keep_log)``
    the same, one append after the other on each new log (a loop in the transcript);
    answers every event, or where it stopped.
``("call", function, args, kwargs, keep, view)``
    any graded function; answers what it returned, observed as ``view``.
``("view", name, path, view)``
    a kept value (or a part of it) observed again.
``("make", name, data)``
    keep a value the trusted side built.
``("mutate", name, path, modes, reads[, precise])``
    change the value in place every way a caller could (see :mod:`.mutate`), repeating the
    ``reads`` (``call`` and ``view`` steps) after changes; stops at the first change after
    which a read answers differently.

Arguments are :mod:`.wire` data; ``("$ref", name)`` is a kept value.

**One trampoline.** Learner code can look at how it is called: the depth of the stack, the
recursion limit left, the order of calls, the time between them. So every step is a
generator that *yields* each call it needs, ``(function, args, kwargs)``, and one loop,
:func:`_drive`, makes every call through :func:`.calls.enter`, always from the same depth.
A read that a check repeats after a change is the same generator as an ordinary read,
delegated to with ``yield from``: from inside, a call that answers a check and one that does
not are made the same way (see :mod:`.calls`).

**Two ways to answer.** In full mode each step's answer is sent whole, values observed by
:mod:`.observe`. In digest mode (``"digest": true``) values are observed by :mod:`.digest`
and each step's answer is reduced to a short digest of what a judge looks at; an example
answers with its steps' digests, and the trusted side compares them with those a correct
implementation gives, asking for the full answers only where one differs.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from grader.kernel.calls import _type_name, describe, enter, set_call_seconds
    from grader.kernel.capture import _list_append, _marshal_loads
    from grader.kernel.digest import judged_digest, seen
    from grader.kernel.mutate import make_change, plan_changes
    from grader.kernel.observe import show, viewed
    from grader.kernel.reach import Raised, TooLarge, Unreadable, reach_follow
    from grader.kernel.wire import decode, encode

#: A step's generator: yields calls, receives their outcomes, returns the step's answer.
StepRun = Generator[tuple[Any, ...], tuple[int, Any], dict[str, Any]]

#: The learner's functions by name, set once the submission is loaded.
FUNCTIONS: dict[str, Callable[..., Any]] = {}
#: Values kept between the steps of one example.
VALUES: dict[str, Any] = {}
#: ``[example, step, call, calls made]``: where the request is, for a trusted side whose
#: deadline passes (in a sandbox, a view of memory the trusted side shares; see :mod:`.serve`).
PROGRESS = memoryview(bytearray(16)).cast("I")
#: How the current request answers: ``[True]`` in digest mode.
DIGEST = [False]
#: An outcome's first item: the call returned, or it raised.
RETURNED, RAISED = 0, 1


def use_progress(view: memoryview) -> None:
    """Keep the progress in ``view`` from now on (memory the trusted side can read)."""
    global PROGRESS
    PROGRESS = view


def run_request(request: dict[str, Any], emit: Callable[[Any], None]) -> None:
    """Answer every example of ``request``, handing each answer to ``emit`` as it is known:
    in full mode one answer per step, in digest mode one ``{"d": hex}`` per example."""
    DIGEST[0] = bool(request.get("digest"))
    set_call_seconds(request.get("seconds"))
    examples = request["examples"]
    if type(examples) is bytes:  # a bank's examples, sent as the bank keeps them
        examples = _marshal_loads(examples)
    for number, steps in enumerate(examples):
        PROGRESS[0] = number
        VALUES.clear()
        if not _run_example(steps, emit):
            break
    VALUES.clear()
    set_call_seconds(None)


def _run_example(steps: list[tuple[Any, ...]], emit: Callable[[Any], None]) -> bool:
    """Answer one example's steps; False when the request ends here (see :data:`TOO_LONG`)."""
    digests: list[str] = []
    for index, step in enumerate(steps):
        PROGRESS[1] = index
        PROGRESS[2] = 0
        answer = _drive(_step(step))
        if not DIGEST[0]:
            emit(answer)
        elif _too_long(answer):
            # Full mode could not send this answer (past the longest line the zygote passes
            # on: a broken answer). A digest that matches nothing makes the trusted side ask
            # this example again in full, and see the same; the examples left are not run, as
            # each would cost as much to observe.
            emit({"d": "".join(digests) + TOO_LONG})
            return False
        else:
            _list_append(digests, judged_digest(answer))
    if DIGEST[0]:
        emit({"d": "".join(digests)})
    return True


#: The longest observed value a digest is taken of, and the longest answer line the zygote
#: passes on whole (``serve.MAX_PENDING``): past it, an answer in full mode is a broken line.
MAX_ANSWER_TEXT = 32 * 1024 * 1024
#: What a digest holds for an answer past :data:`MAX_ANSWER_TEXT` (no hex digest matches it).
TOO_LONG = "!too-long"


def _too_long(answer: Any) -> bool:
    value = answer.get("value") if type(answer) is dict else None
    return type(value) is str and len(value) > MAX_ANSWER_TEXT


def _drive(run: StepRun) -> dict[str, Any]:
    """The trampoline: make each call the step yields, from this one place, and send back
    how it went; return the step's answer."""
    outcome: Any = None
    while True:
        try:
            call = run.send(outcome)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]
        PROGRESS[3] += 1
        outcome = enter(*call)


def _step(step: tuple[Any, ...]) -> StepRun:
    """One step's generator; what goes wrong in it becomes its answer."""
    try:
        answer = yield from STEPS[step[0]](*step[1:])
    except KeyError as missing:
        return {"missing": str(missing)}
    return answer


def _answer(outcome: tuple[int, Any], work: Callable[[Any], StepRun]) -> StepRun:
    """The answer for a call's outcome: ``work(value)`` when it returned, else what it raised
    (described through the trampoline too: an exception's ``__str__`` is learner code)."""
    kind, value = outcome
    if kind == RETURNED:
        return (yield from work(value))
    return (yield from _described(value))


def _described(error: BaseException) -> StepRun:
    """What an exception amounts to (a learner's ``__str__`` may itself fail)."""
    outcome = yield describe, (error,), {}
    if outcome[0] == RETURNED:
        return outcome[1]  # type: ignore[no-any-return]
    value_error = isinstance(error, ValueError)
    return {"raised": {"type": _type_name(error), "message": "", "value_error": value_error}}


def _observed(value: Any, kind: str) -> StepRun:
    """``value`` observed as ``kind`` by this request's observer: canonical JSON in digest
    mode, plain data in full (see the module docstring); what reading it raised (learner code
    in a property, a ``keys()``...) as the answer instead."""
    if kind == "none":
        return {}
    try:
        observed = yield from (seen if DIGEST[0] else viewed)(value, kind)
    except Unreadable as problem:
        shown = yield show, (problem.value,), {}
        return {"unreadable": problem.what, "shown": shown[1] if shown[0] == RETURNED else "?"}
    except Raised as raised:
        if isinstance(raised.error, TooLarge | RecursionError | MemoryError):
            return {"too_large": True}
        return (yield from _described(raised.error))
    except (TooLarge, RecursionError, MemoryError):
        return {"too_large": True}
    return {"value": observed}


def _kept(keep: str | None) -> Callable[[Any], StepRun]:
    def keep_it(value: Any) -> StepRun:
        if keep:
            VALUES[keep] = value
        return {}
        yield  # a generator: it makes no call

    return keep_it


def _create(keep: str) -> StepRun:
    outcome = yield FUNCTIONS["create_event_log"], (), {}
    return (yield from _answer(outcome, _kept(keep)))


def _append(
    log: Any,
    session: Any,
    kind: Any,
    payload: Any,
    keep_log: str | None,
    keep_event: str | None,
    keep_payload: str | None = None,
) -> StepRun:
    kept, passed = _payload_of(payload)
    if keep_payload:
        VALUES[keep_payload] = kept
    args = (decode(log, VALUES), decode(session, VALUES), decode(kind, VALUES), passed)
    outcome = yield FUNCTIONS["append_event"], args, {}
    return (yield from _answer(outcome, _pair(keep_log, keep_event)))


def _payload_of(data: Any) -> tuple[Any, Any]:
    """What the caller keeps and what it passes: the same object, or, for a view (a
    ``MappingProxyType``, a read-only ``Mapping``), the mapping behind it and the view."""
    if type(data) is tuple and data and data[0] in ("$proxy", "$mapping"):
        inner = decode(data[1], VALUES)
        return inner, decode((data[0], ("$ref", "$inner")), {"$inner": inner})
    value = decode(data, VALUES)
    return value, value


def _pair(keep_log: str | None, keep_event: str | None) -> Callable[[Any], StepRun]:
    """What an append's result answers: the event it holds, or why it is not a pair."""

    def answer(result: Any) -> StepRun:
        if type(result) is tuple:  # unpacking an exact tuple runs no learner code: no call
            unpacked: tuple[int, Any] = (RETURNED, result)
        else:
            unpacked = yield tuple, (result,), {}
        if unpacked[0] != RETURNED or len(unpacked[1]) != 2:
            shown = yield show, (result,), {}
            return {"not_pair": shown[1] if shown[0] == RETURNED else "?"}
        new_log, event = unpacked[1]
        if keep_log:
            VALUES[keep_log] = new_log
        if keep_event:
            VALUES[keep_event] = event
        return (yield from _observed(event, "event"))

    return answer


def _appends(log: Any, items: list[Any], keep_log: str) -> StepRun:
    current = decode(log, VALUES)
    append = FUNCTIONS["append_event"]
    events: list[Any] = []
    for number, (session, kind, payload) in enumerate(items):
        PROGRESS[2] = number
        args = (current, decode(session, VALUES), decode(kind, VALUES), decode(payload, VALUES))
        outcome = yield append, args, {}
        answer = yield from _answer(outcome, _pair("$last", None))
        if "value" not in answer:
            return {"events": events, "stop": number, "answer": answer}
        _list_append(events, answer["value"])
        current = VALUES.pop("$last")
    VALUES[keep_log] = current
    return {"events": events}


def _call(
    function: str, args: list[Any], kwargs: dict[str, Any], keep: str | None, kind: str
) -> StepRun:
    target = FUNCTIONS[function]
    values = tuple(decode(arg, VALUES) for arg in args)
    named = {key: decode(arg, VALUES) for key, arg in kwargs.items()}
    outcome = yield target, values, named

    def kept_and_observed(result: Any) -> StepRun:
        if keep:
            VALUES[keep] = result
        return (yield from _observed(result, kind))

    return (yield from _answer(outcome, kept_and_observed))


def _view(name: str, path: list[Any], kind: str) -> StepRun:
    try:
        part = yield from reach_follow(VALUES[name], path)
    except Raised as raised:
        return (yield from _described(raised.error))
    return (yield from _observed(part, kind))


def _make(name: str, data: Any) -> StepRun:
    VALUES[name] = decode(data, VALUES)
    return {}
    yield  # a generator: it makes no call


def _mutate(
    name: str, path: list[Any], modes: list[str], reads: list[Any], precise: bool = False
) -> StepRun:
    """Make every change; run ``reads`` and compare them with how they answered before.

    ``precise`` reads after each change, so the first read that differs follows the one
    change that did the damage. Otherwise the reads run only before a ``clear`` and at the
    end: the other changes add, replace and remove so that together they never leave a
    container as it was, but a ``clear`` can return an empty one to how it was. An answer
    whose reads differ then says ``batched``, and the trusted side runs the example again,
    precisely, to show the one line that did the damage."""
    root = VALUES[name]
    before: list[Any] = []
    for read in reads:
        _list_append(before, (yield from _step(read)))
    baseline = [encode(answer) for answer in before]
    planned = yield from plan_changes(root, path, modes)
    done: list[Any] = []
    for change in [*planned, None]:
        PROGRESS[2] = len(done) + 1
        if not precise and done and (change is None or change[1] == "clear"):
            differs = yield from _differs(reads, before, baseline)
            if differs is not None:
                return {"changes": done, **differs, "batched": True}
        if change is None:
            return {"changes": done}
        made = yield from make_change(root, path, change)
        if made is None:
            continue
        _list_append(done, made)
        if precise:
            differs = yield from _differs(reads, before, baseline)
            if differs is not None:
                return {"changes": done, **differs}
    return {"changes": done}


def _differs(
    reads: list[Any], before: list[Any], baseline: list[bytes]
) -> Generator[tuple[Any, ...], tuple[int, Any], dict[str, Any] | None]:
    for number, read in enumerate(reads):
        after = yield from _step(read)
        # Compared as JSON text: 1 == 1.0 == True in Python, not in an observation.
        if encode(after) != baseline[number]:
            return {"read": number, "before": before[number], "after": after}
    return None


def _output() -> dict[str, Any]:
    return {"output": OUTPUT[0].take() if OUTPUT else ""}


#: Where learner code's prints go (a Capture, set when the submission is loaded).
OUTPUT: list[Any] = []

STEPS: dict[str, Callable[..., StepRun]] = {
    "create": _create,
    "append": _append,
    "appends": _appends,
    "call": _call,
    "view": _view,
    "make": _make,
    "mutate": _mutate,
}
