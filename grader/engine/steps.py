"""The steps of a plan: what each asks the kernel, how the transcript writes it, and how its
answer is judged.

Every step judges its own answer against the oracle, or against what the learner's own
``append_event`` returned when the step belongs to a task about another function (a reader
is judged on what it reads, not on the ids append_event gave). A step that passes says
nothing; the first that does not is the failure.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from grader.engine import transcript
from grader.engine.answers import EventView, Problem, Skip, event_view, raised, trouble, value
from grader.engine.data import Malformed, literal, same
from grader.engine.difference import first_change, first_difference
from grader.engine.oracle import ModelEvent, ModelLog, replay_of
from grader.engine.outcomes import Commented, Line, Said, Status
from grader.engine.programs import Append, Block
from grader.engine.wire import Ref, blob, encode, wrapped


@dataclass(frozen=True)
class EventRef:
    """Where the learner's event for one model event is: a step's answer (and the position in
    a block's answer)."""

    step: int
    position: int | None
    model: ModelEvent


@dataclass(frozen=True)
class LogVar:
    """A learner log: its name, the model's twin, and where each of its events came from."""

    name: str
    model: ModelLog
    events: tuple[EventRef, ...] = ()


@dataclass(frozen=True)
class EventVar:
    """A learner event kept under ``name``."""

    name: str
    ref: EventRef


class Context(Protocol):
    """What a step may ask of the judge while it walks the answers (the judge's
    :class:`grader.engine.judge.Walk` is the one that answers): a port, so that the steps and
    the plan need not import the judge that imports them."""

    #: Lines shown after the failing call (see :meth:`extra_line`).
    extra: list[Line]
    #: The steps of those lines.
    extra_steps: list[Step]

    def seen(self, ref: EventRef) -> EventView | None:
        """The learner's event for ``ref`` as append_event returned it (None: unreadable)."""
        ...

    def raw(self, ref: EventRef) -> Any:
        """The learner's event for ``ref`` as the kernel observed it (None: not there)."""
        ...

    def models_of(self, step: BlockStep) -> list[ModelEvent]:
        """The model's events of a block step."""
        ...

    def recall(self, key: Any) -> Any:
        """The value first read under ``key``, or None; remembers nothing."""
        ...

    def remember(self, key: Any, value: Any) -> Any:
        """The value first read under ``key`` (None, and remembered, the first time)."""
        ...

    def changed_promise(self, key: Any) -> str:
        """The promise a read that changed between two calls breaks."""
        ...

    def extra_line(self, step: Step) -> None:
        """Show ``step`` after the failing one (the read a change was caught by)."""
        ...


class Step:
    """One thing the kernel does for an example.

    Every step has ``function`` (the graded function it calls, or None) and ``shown``
    (whether a transcript shows it when a later step fails, for what it made).
    ``changes_state``: the step may change what it uses (an append to a log that shares its
    list with another, a change in place): a transcript shows it whenever it touched a value
    the failing step depends on, shown or not, or the transcript would not fail when run.
    """

    function: str | None
    shown: bool
    changes_state = False

    def request(self) -> tuple[Any, ...]:
        raise NotImplementedError

    def line(self, context: Context) -> Line | None:
        return None

    def judge(self, answer: Any, context: Context) -> Problem | None:
        return trouble(answer, "cause.broken")

    def uses(self) -> set[str]:
        """The names of kept values this step reads (a transcript needs their making)."""
        return set()

    def defines(self) -> set[str]:
        """The names of values this step keeps."""
        return set()

    def imports(self) -> list[str]:
        """The import lines its line needs."""
        return []


@dataclass
class Create(Step):
    keep: str
    function: str | None = "create_event_log"
    shown: bool = True

    def request(self) -> tuple[Any, ...]:
        return ("create", self.keep)

    def line(self, context: Context) -> str:
        return f"{self.keep} = create_event_log()"

    def defines(self) -> set[str]:
        return {self.keep}

    def judge(self, answer: Any, context: Context) -> Problem | None:
        return trouble(answer, "append.accepts_valid")


@dataclass
class AppendStep(Step):
    """``log1, e1 = append_event(log0, ...)`` with a valid append.

    ``strict``: judge the event against the oracle (its id, its fields); else only that it is
    a readable event, and a refusal skips the example (accepting valid input is judged by
    the tasks about appending). ``role`` names what a wrong id means: a fresh append
    (``event_ids``), a probe of an old log (``old_log_unchanged``), a branch (``branches``).
    """

    changes_state = True

    log: LogVar
    append: Append
    model: ModelEvent
    keep_log: str | None
    keep_event: str | None
    strict: bool = True
    role: str = "event_ids"
    function: str | None = "append_event"
    shown: bool = True
    #: The name the payload is shown under (``p1 = {...}``), when a later step uses it: a
    #: change in place, or a second append of the same object. Named or not, every append
    #: keeps its payload in the kernel under ``keep_payload``, the way a caller holds what it
    #: passed, so that an append a check follows looks like any other from inside.
    payload_ref: str | None = None
    #: Whether this append makes the payload named ``payload_ref`` (else it passes it again).
    defines_payload: bool = True
    keep_payload: str | None = None
    #: A probe: the first answer under its key (the same append on the same log) is judged
    #: against the oracle, breaking ``first_role``'s promise if wrong; each later one against
    #: that first answer, breaking ``role``'s if it differs.
    key: Any = None
    first_role: str | None = None

    def request(self) -> tuple[Any, ...]:
        if self.payload_ref is not None and not self.defines_payload:
            ref = ("$ref", self.payload_ref)
            views = ("proxy", "mapping")  # a defaultdict is kept as one: passed as it is
            payload = (f"${self.append.wrapper}", ref) if self.append.wrapper in views else ref
        else:
            payload = wrapped(self.append.payload, self.append.wrapper)
        session, event_type = encode(self.append.session_id), encode(self.append.event_type)
        keep = self.payload_ref or self.keep_payload
        return ("append", ("$ref", self.log.name), session, event_type, payload,
                self.keep_log, self.keep_event, keep)  # fmt: skip

    def code(self) -> str:
        payload: Any = transcript.wrap(self.append.payload, self.append.wrapper)
        if self.payload_ref is not None:
            payload = transcript.Raw(self.payload_ref, self.append.wrapper)
        args = (Ref(self.log.name), self.append.session_id, self.append.event_type, payload)
        return transcript.call("append_event", args)

    def line(self, context: Context) -> str:
        call = transcript.assign([self.keep_log, self.keep_event], self.code())
        if self.payload_ref is None or not self.defines_payload:
            return call
        data: Any = self.append.payload
        if self.append.wrapper == "defaultdict":
            data = defaultdict(str, data)
        return f"{self.payload_ref} = {transcript.source(data)}\n{call}"

    def uses(self) -> set[str]:
        reused = self.payload_ref is not None and not self.defines_payload
        return {self.log.name} | ({self.payload_ref} if reused and self.payload_ref else set())

    def defines(self) -> set[str]:
        names = {name for name in (self.keep_log, self.keep_event) if name}
        if self.payload_ref is not None and self.defines_payload:
            names.add(self.payload_ref)
        return names

    def imports(self) -> list[str]:
        wanted = [transcript.IMPORTS[self.append.wrapper]] if self.append.wrapper != "dict" else []
        return wanted + transcript.imports_for([self.append.session_id, self.append.event_type])

    def judge(self, answer: Any, context: Context) -> Problem | None:
        if self.key is None:
            return judge_appended(answer, self.append, self.model, self.strict, self.role)
        earlier = context.recall(self.key)
        if earlier is None:  # the first probe of this log: judged like any append
            problem = judge_appended(
                answer, self.append, self.model, self.strict, self.first_role or self.role
            )
            if problem is None:
                context.remember(self.key, (json.dumps(answer.get("value")), answer))
            return problem
        problem = judge_appended(
            answer, self.append, self.model, self.strict, self.role, against_model=False
        )
        if problem is not None:
            # Accepted the first time, refused (or unreadable) now: the log is not what it was.
            return Problem(f"append.{self.role}", problem.outcome, problem.status)
        if earlier[0] == json.dumps(answer.get("value")):
            return None
        before, after = (event_view(seen["value"]) for seen in (earlier[1], answer))
        shown = changed(before.code(), after.code(), first_change(before, after))
        return Problem(f"append.{self.role}", shown)


#: Roles of appends made on a log after something else was done to it: a plain append
#: refused there shows that something changed the log, not that the append was unusual.
_AFTERMATH_ROLES = ("branches", "refusal_leaves_no_trace")


def _refusal_promise(append: Append, role: str) -> str:
    """The promise a refused valid append breaks: accepting its unusual trait (the first,
    where a hand-written table gives each append one), or, for a plain append on a branch
    or after a refusal, that promise."""
    if append.features:
        return f"accept.{append.features[0]}"
    return f"append.{role}" if role in _AFTERMATH_ROLES else "accept.plain"


def judge_appended(
    answer: Any,
    append: Append,
    model: ModelEvent,
    strict: bool,
    role: str,
    against_model: bool = True,
) -> Problem | None:
    """Judge one valid append's answer (see :class:`AppendStep`); ``against_model=False``
    checks only that it was accepted and gave a readable event."""
    if isinstance(answer, dict) and "raised" in answer:
        if not strict:
            raise Skip()
        outcome = Said("outcome.refused_valid") if answer["raised"].get("value_error") else None
        return Problem(
            _refusal_promise(append, role), tuple(o for o in (raised(answer), outcome) if o)
        )
    problem = trouble(answer, "append.accepts_valid", shape="append.event_attributes")
    if problem is not None:
        return problem
    if not strict or not against_model:
        return None
    seen = event_view(answer["value"])
    promise = {"event_ids": "append.event_ids", "probe": "append.old_log_unchanged"}.get(
        role, f"append.{role}"
    )
    if type(seen.event_id) is not int or seen.event_id != model.event_id:
        return Problem(
            promise, mismatch(literal(seen.event_id), literal(model.event_id)), Status.FAILED
        )
    expected = EventView(model.event_id, str(model.session_id), model.type, model.payload)
    if not (same(seen.session_id, expected.session_id) and same(seen.type, expected.type)
            and same(seen.payload, expected.payload)):  # fmt: skip
        # The new event's own fields are its append's business, whatever came before it.
        shown = mismatch(seen.code(), expected.code(), first_difference(seen, expected))
        return Problem("append.event_fields", shown)
    return None


def mismatch(returned: str, expected: str, difference: Said | None = None) -> tuple[Said, ...]:
    """What came back and what should have, and where they first differ (when known)."""
    shown = (
        Said("outcome.returned", {"value": returned}),
        Said("outcome.expected", {"value": expected}),
    )
    return shown + ((difference,) if difference is not None else ())


def changed(before: str, after: str, difference: Said | None = None) -> tuple[Said, ...]:
    """What a read gave before and after, and where it first changed (when known)."""
    shown = (
        Said("outcome.read_before", {"value": before}),
        Said("outcome.read_after", {"value": after}),
    )
    return shown + ((difference,) if difference is not None else ())


@dataclass
class BlockStep(Step):
    """A loop of valid appends (see :class:`grader.engine.programs.Block`)."""

    changes_state = True

    log: LogVar
    block: Block
    keep_log: str
    strict: bool = True
    function: str | None = "append_event"
    shown: bool = True
    #: What a wrong first id means (see :class:`AppendStep`); the later ones are the block's.
    role: str = "event_ids"

    def request(self) -> tuple[Any, ...]:
        items = [
            (encode(a.session_id), a.event_type, blob(a.payload)) for a in self.block.appends()
        ]
        return ("appends", ("$ref", self.log.name), items, self.keep_log)

    def line(self, context: Context) -> str:
        return f"{self.keep_log} = {self.log.name}\n" + transcript.loop(self.block, self.keep_log)

    def uses(self) -> set[str]:
        return {self.log.name}

    def defines(self) -> set[str]:
        return {self.keep_log}

    def judge(self, answer: Any, context: Context) -> Problem | None:
        if not isinstance(answer, dict) or not isinstance(answer.get("events"), list):
            return trouble(answer, "append.accepts_valid")
        models = context.models_of(self)
        appends = self.block.appends()
        for position, observed in enumerate(answer["events"]):
            role = self.role if position == 0 else "event_ids"
            problem = judge_appended({"value": observed}, appends[position], models[position],
                                     self.strict, role)  # fmt: skip
            if problem is not None:
                return _in_round(problem, position, self)
        if "stop" in answer:
            position = int(answer["stop"])
            role = self.role if position == 0 else "event_ids"
            problem = judge_appended(answer.get("answer"), appends[position], models[position],
                                     self.strict, role)  # fmt: skip
            return (
                _in_round(problem, position, self)
                if problem
                else Problem("cause.broken", (), Status.ERROR)
            )
        return None


def _in_round(problem: Problem, position: int, step: BlockStep) -> Problem:
    """The problem of one append of a loop, saying which: the loop in one line, as a loop."""
    loop = transcript.loop_summary(step.block, step.keep_log)
    at = Said("outcome.in_loop", {"number": position + 1, "loop": loop})
    return Problem(problem.promise, (at, *problem.outcome), problem.status)


@dataclass
class Read(Step):
    """A call of a reader, judged against what it should return.

    ``expect`` computes the expected value from the context (the learner's own events, or the
    model); ``key`` makes a read that is repeated later comparable with its first answer (a
    log that changed between the two broke append_event's promise, not the reader's).
    """

    function: str | None
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    view: str
    promise: str
    expect: Callable[[Context], Any] | None = None
    keep: str | None = None
    key: Any = None
    show: Callable[[Any], str] = literal
    shown: bool = False
    diagnose: Callable[[Any, Any, Context], str] | None = None
    #: The answer's value exactly as it should come, as raw observations (when known): a
    #: fast first check before the field-by-field one.
    raw: Callable[[Context], Any] | None = None

    def request(self) -> tuple[Any, ...]:
        args = [encode(arg) for arg in self.args]
        kwargs = {key: encode(arg) for key, arg in self.kwargs.items()}
        return ("call", self.function, args, kwargs, self.keep, self.view)

    def code(self) -> str:
        assert self.function is not None
        return transcript.call(self.function, self.args, self.kwargs)

    def line(self, context: Context) -> str:
        return transcript.assign([self.keep], self.code())

    def uses(self) -> set[str]:
        return {arg.name for arg in self.args if isinstance(arg, Ref)}

    def defines(self) -> set[str]:
        return {self.keep} if self.keep else set()

    def imports(self) -> list[str]:
        return transcript.imports_for(self.args)

    def judge(self, answer: Any, context: Context) -> Problem | None:
        problem = trouble(answer, self.promise)
        if problem is not None:
            return problem
        text = json.dumps(answer.get("value"))  # JSON keeps types apart: 1 is not 1.0 nor true
        if self.key is not None:
            earlier = context.remember(self.key, (text, answer))
            if earlier is not None and earlier[0] != text:
                before, after = self._value(earlier[1]), self._value(answer)
                if not _equal(before, after):
                    shown = changed(self.show(before), self.show(after),
                                    first_change(before, after))  # fmt: skip
                    return Problem(context.changed_promise(self.key), shown)
        if self.raw is not None:
            expected_raw = self.raw(context)
            if expected_raw is not None and text == json.dumps(expected_raw):
                return None  # the common case, checked in C: exactly what append_event returned
        if self.expect is None:
            return None
        got, expected = self._value(answer), self.expect(context)
        if _equal(got, expected):
            return None
        promise = self.diagnose(got, expected, context) if self.diagnose else self.promise
        difference = first_difference(got, expected)
        return Problem(promise, mismatch(self.show(got), self.show(expected), difference))

    def _value(self, answer: dict[str, Any]) -> Any:
        return views_of(answer["value"]) if self.view == "events" else value(answer)


def _same_text(got: Any, expected: Any) -> bool:
    """Whether two raw observations are the same JSON (types included: ``1`` is not ``1.0``)."""
    return expected is not None and json.dumps(got) == json.dumps(expected)


def _equal(got: Any, expected: Any) -> bool:
    """Equal as the contract says; events field by field."""
    if _all_events(got) and _all_events(expected):
        return len(got) == len(expected) and all(
            _same_event(mine, theirs) for mine, theirs in zip(got, expected, strict=True)
        )
    return same(got, expected)


def _all_events(values: Any) -> bool:
    return isinstance(values, list) and all(isinstance(item, EventView) for item in values)


def _same_event(got: EventView, expected: EventView) -> bool:
    return (
        same(got.event_id, expected.event_id)
        and same(got.session_id, expected.session_id)
        and same(got.type, expected.type)
        and same(got.payload, expected.payload)
    )


@dataclass
class View(Step):
    """A kept event observed again: it must still read as ``expected``."""

    event: EventVar
    expected: Callable[[Context], EventView | None]
    promise: str
    function: str | None = None
    shown: bool = False

    def request(self) -> tuple[Any, ...]:
        return ("view", self.event.name, [], "event")

    def line(self, context: Context) -> str:
        return self.event.name

    def uses(self) -> set[str]:
        return {self.event.name}

    def judge(self, answer: Any, context: Context) -> Problem | None:
        problem = trouble(answer, self.promise, shape=self.promise)
        if problem is not None:
            return problem
        seen = event_view(answer["value"])
        expected = self.expected(context)
        if expected is None or _equal([seen], [expected]):
            return None
        difference = first_difference(seen, expected)
        return Problem(self.promise, mismatch(seen.code(), expected.code(), difference))


@dataclass
class Make(Step):
    """``p1 = {...}``: a payload the learner will get, kept to be changed later."""

    name: str
    data: Any
    function: str | None = None
    shown: bool = True

    def request(self) -> tuple[Any, ...]:
        return ("make", self.name, encode(self.data))

    def line(self, context: Context) -> str:
        return f"{self.name} = {transcript.source(self.data)}"

    def defines(self) -> set[str]:
        return {self.name}

    def judge(self, answer: Any, context: Context) -> Problem | None:
        return None


@dataclass
class Mutate(Step):
    """Change a kept value in place every way a caller could; the ``reads`` (repeated after
    each change, in the kernel) must answer as before."""

    changes_state = True

    name: str
    path: list[Any]
    modes: list[str]
    reads: list[Step]
    promise: str
    changes: list[Any] = field(default_factory=list)
    function: str | None = None
    shown: bool = True
    #: Read after every change (see ``_mutate`` in :mod:`grader.kernel.plans`): asked for
    #: when a cheaper run found a difference, to show the one change that did it.
    precise: bool = False

    def request(self) -> tuple[Any, ...]:
        reads = [read.request() for read in self.reads]
        return ("mutate", self.name, self.path, self.modes, reads, self.precise)

    def line(self, context: Context) -> Line | None:
        # A change's path starts where ``path`` ends; written from the kept value itself.
        lines = [
            transcript.change(self.name, [[*self.path, *inner], operation, argument])
            for inner, operation, argument in self.changes
        ]
        return "\n".join(lines) if lines else None

    def uses(self) -> set[str]:
        return {self.name}.union(*(read.uses() for read in self.reads))

    def judge(self, answer: Any, context: Context) -> Problem | None:
        if not isinstance(answer, dict) or not isinstance(answer.get("changes"), list):
            return trouble(answer, self.promise)
        self.changes = answer["changes"]
        if "stopped" in answer:
            return trouble(answer["stopped"], self.promise)
        if "read" not in answer:
            return None
        if answer.get("batched") and not self.precise:
            raise Imprecise()
        read = self.reads[int(answer["read"])]
        problem = trouble(answer.get("after"), self.promise)
        if problem is not None:
            return problem
        (before, old), (after, new) = (_shown(read, answer.get(key)) for key in ("before", "after"))
        context.extra_line(read)
        return Problem(self.promise, changed(before, after, first_change(old, new)))


def _shown(read: Step, answer: Any) -> tuple[str, Any]:
    """What a read answered, as shown and as a value (None when it holds none)."""
    if not isinstance(answer, dict) or "value" not in answer:
        return "?", None
    if isinstance(read, View):
        seen = event_view(answer["value"])
        return seen.code(), seen
    if isinstance(read, Read):
        got = views_of(answer["value"]) if read.view == "events" else value(answer)
        return read.show(got), got
    got = value(answer)
    return literal(got), got


class Imprecise(Exception):
    """A change reached a read, but the answer cannot say which change: run it precisely."""


@dataclass
class Refuse(Step):
    """An append the contract says must raise ValueError (and leave no trace)."""

    changes_state = True

    log: LogVar
    session_id: Any
    event_type: Any
    payload: Any
    reason: str
    function: str | None = "append_event"
    shown: bool = False
    #: In a task about another function, an append that is not refused only makes the
    #: example useless there (refusing is task 5's business): skip it.
    lenient: bool = False

    def request(self) -> tuple[Any, ...]:
        return ("append", ("$ref", self.log.name), encode(self.session_id), encode(self.event_type),
                encode(self.payload), None, None)  # fmt: skip

    def line(self, context: Context) -> Commented:
        code = transcript.call(
            "append_event", (Ref(self.log.name), self.session_id, self.event_type, self.payload)
        )
        # The comment is prose: the reader's language, not the code's.
        return Commented(code, Said("outcome.raises", {"error": "ValueError"}))

    def uses(self) -> set[str]:
        return {self.log.name}

    def judge(self, answer: Any, context: Context) -> Problem | None:
        promise = f"refuse.{self.reason}"
        if isinstance(answer, dict) and "raised" in answer:
            if answer["raised"].get("value_error"):
                return None
            if self.lenient:
                raise Skip()
            return Problem(promise, (raised(answer), Said("outcome.expected_value_error")))
        if isinstance(answer, dict) and (
            "value" in answer or "not_pair" in answer or "unreadable" in answer
        ):
            if self.lenient:
                raise Skip()
            outcome = (
                Said("outcome.returned_instead_of_raising"),
                Said("outcome.expected_value_error"),
            )
            return Problem(promise, outcome)
        return trouble(answer, promise)


def views_of(events: Any) -> list[EventView]:
    """Events a reader returned, as views.

    Raises:
        Malformed: it is not a list of event observations.
    """
    if not isinstance(events, list):
        raise Malformed()
    return [event_view(item) for item in events]


def replay_expected(views: list[EventView | None], models: list[ModelEvent]) -> list[Any]:
    """What replaying these events gives: from the learner's own events where readable."""
    pairs: list[tuple[str, Mapping[str, Any]]] = []
    for seen, model in zip(views, models, strict=True):
        if seen is not None and isinstance(seen.payload, dict) and isinstance(seen.type, str):
            pairs.append((seen.type, seen.payload))
        else:
            pairs.append((model.type, model.payload))
    try:
        return replay_of(pairs)
    except (KeyError, TypeError):
        return replay_of([(model.type, model.payload) for model in models])


__all__ = ["Malformed"]
