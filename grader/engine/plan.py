"""Building a plan: an example's calls, in the contract's words, each with what it must give.

A property builds a :class:`Plan` from its example (create a log, append a program, read a
session, change a payload and read again); the runner sends the whole plan to the kernel in
one request and hands the answers to :mod:`grader.engine.judge`. Calls never depend on
answers, so one round trip serves a whole example.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from grader.engine.answers import EventView
from grader.engine.data import MAX_SHOWN, literal, shortened
from grader.engine.oracle import ModelEvent, ModelLog
from grader.engine.programs import Append, Block, Program, Segment
from grader.engine.steps import (
    AppendStep,
    BlockStep,
    Context,
    Create,
    EventRef,
    EventVar,
    LogVar,
    Make,
    Mutate,
    Read,
    Refuse,
    Step,
    View,
    replay_expected,
)
from grader.engine.transcript import IMPORTS
from grader.engine.wire import Ref
from grader.values import Text

PROBE = Append("probe", "user_message", {"content": "probe"})


class Plan:
    """The steps of one example.

    Args:
        strict: judge every append against the oracle (tasks about appending); otherwise an
            append only has to give a readable event, and readers are judged against what
            the learner's own append_event returned.
    """

    def __init__(self, strict: bool = True) -> None:
        self.strict = strict
        self.steps: list[Step] = []
        self.imports: list[str] = []
        self.block_models: dict[int, list[ModelEvent]] = {}
        self.changes_break: dict[Any, str] = {}
        self.context: Context | None = None
        self._names: set[str] = set()
        self._payloads: set[str] = set()

    def request(self) -> list[tuple[Any, ...]]:
        return [step.request() for step in self.steps]

    def _add(self, step: Step) -> int:
        self.steps.append(step)
        return len(self.steps) - 1

    def name(self, base: str) -> str:
        """A name no value of this example has yet."""
        candidate, suffix = base, 1
        while candidate in self._names:
            suffix += 1
            candidate = f"{base}_{suffix}"
        self._names.add(candidate)
        return candidate

    # --- building logs -------------------------------------------------------------------
    def create(self) -> LogVar:
        name = self.name("log0")
        self._add(Create(name))
        return LogVar(name, ModelLog())

    def append(
        self,
        log: LogVar,
        append: Append,
        role: str = "event_ids",
        payload_ref: str | None = None,
        strict: bool | None = None,
    ) -> tuple[LogVar, EventVar]:
        """Append a valid event to ``log``; the step is judged as :class:`AppendStep` says.

        Args:
            role: what a wrong id means (see :class:`AppendStep`).
            payload_ref: pass the payload kept under this name instead of a literal.
            strict: judge against the oracle (default: the plan's own strictness).
        """
        model, event = log.model.append(append.session_id, append.event_type, append.payload)
        new_name = self.name(f"log{len(model.events)}")
        event_name = self.name(f"e{event.event_id}")
        self._note_imports(append)
        strict = self.strict if strict is None else strict
        defines = payload_ref is None or payload_ref not in self._payloads
        if payload_ref is not None:
            self._payloads.add(payload_ref)
        step = AppendStep(log, append, event, new_name, event_name, strict, role,
                          payload_ref=payload_ref, defines_payload=defines,
                          keep_payload=self.name("p"))  # fmt: skip
        index = self._add(step)
        ref = EventRef(index, None, event)
        return LogVar(new_name, model, (*log.events, ref)), EventVar(event_name, ref)

    def _note_imports(self, append: Append) -> None:
        if append.wrapper != "dict":
            self.imports.append(IMPORTS[append.wrapper])
        if isinstance(append.session_id, Text):
            self.imports.append(IMPORTS["text"])

    def block(self, log: LogVar, block: Block, role: str = "event_ids") -> LogVar:
        """A loop of appends; the log after it. ``role``: what a wrong first id means."""
        model, models = log.model.extended(block.appends())
        name = self.name(f"log{len(model.events)}")
        step = BlockStep(log, block, name, self.strict, role=role)
        index = self._add(step)
        self.block_models[id(step)] = models
        refs = tuple(EventRef(index, position, event) for position, event in enumerate(models))
        return LogVar(name, model, log.events + refs)

    def program(
        self, log: LogVar, program: Program | list[Segment]
    ) -> tuple[LogVar, list[LogVar], list[EventVar]]:
        """Every segment of ``program`` on ``log``: the last log, each log made, each event
        kept by name (those of single appends)."""
        segments = program.segments if isinstance(program, Program) else program
        logs, events = [log], []
        for segment in segments:
            if isinstance(segment, Block):
                log = self.block(log, segment)
            else:
                log, event = self.append(log, segment)
                events.append(event)
            logs.append(log)
        return log, logs, events

    def probe(self, log: LogVar) -> EventVar:
        """Append :data:`PROBE` to ``log``: a log that never changes gives the same event every
        time (its next id), so a different one shows it was changed. Judged strictly."""
        _, event = log.model.append(PROBE.session_id, PROBE.event_type, PROBE.payload)
        name = self.name("probe")
        step = AppendStep(log, PROBE, event, None, name, True, "probe", shown=False)
        index = self._add(step)
        return EventVar(name, EventRef(index, None, event))

    # --- reading -------------------------------------------------------------------------
    def read_events(
        self,
        log: LogVar,
        session: str,
        after: int | None = None,
        keep: str | None = None,
        repeat: str | None = None,
        promise: str | None = None,
    ) -> Read:
        """``get_events_for_session(log, session[, after_event_id=after])``, judged against the
        log's events as the learner's append_event returned them.

        ``repeat``: the promise broken if a later identical read answers differently.
        ``promise``: the one broken by a wrong answer (default: the reader's own), for reads
        that look for what something else left behind.
        """
        kwargs = {} if after is None else {"after_event_id": after}
        diagnose = None
        if promise is None:
            promise = "read.session_only" if after is None else "read.after"
            diagnose = _read_diagnosis(session, promise)
        key = ("events", log.name, _key(session), after, repeat)
        step = Read(
            "get_events_for_session",
            (Ref(log.name), session),
            kwargs,
            "events",
            promise,
            lambda context: expected_events(context, log, session, after),
            keep,
            key,
            show=_show_events,
            raw=lambda context: raw_events(context, log, session, after),
            diagnose=diagnose,
        )
        self._remember(key, repeat)
        self._add(step)
        return step

    def list_sessions(
        self, log: LogVar, keep: str | None = None, repeat: str | None = None
    ) -> Read:
        key = ("sessions", log.name, repeat)
        step = Read("list_sessions", (Ref(log.name),), {}, "list", "list.sessions",
                    lambda context: expected_sessions(context, log), keep, key)  # fmt: skip
        self._remember(key, repeat)
        self._add(step)
        return step

    def replay(self, log: LogVar, session: str, keep: str | None = None, repeat: str | None = None,
               diagnose: Callable[..., str] | None = None) -> Read:  # fmt: skip
        key = ("replay", log.name, _key(session), repeat)
        step = Read("replay_session", (Ref(log.name), session), {}, "list", "replay.mapping",
                    lambda context: expected_replay(context, log, session), keep, key,
                    show=_show_messages, diagnose=diagnose)  # fmt: skip
        self._remember(key, repeat)
        self._add(step)
        return step

    def _remember(self, key: Any, repeat: str | None) -> None:
        if repeat is not None:
            self.changes_break.setdefault(key, repeat)

    def view(self, event: EventVar, promise: str, against: str = "model") -> View:
        """Observe a kept event again: it must read as the model says (``model``) or as it
        read when append_event returned it (``seen``)."""

        def expected(context: Context) -> EventView | None:
            if against == "seen":
                return context.seen(event.ref)
            model = event.ref.model
            return EventView(model.event_id, str(model.session_id), model.type, model.payload)

        step = View(event, expected, promise)
        self._add(step)
        return step

    # --- changing things -----------------------------------------------------------------
    def make(self, base: str, data: Any) -> str:
        name = self.name(base)
        self._add(Make(name, data))
        return name

    def keep_payload(self, append: Append) -> str:
        """A name for ``append``'s payload, to pass to :meth:`append` as ``payload_ref``: the
        first append with it makes the payload (``p1 = {...}``), any later one passes that
        same object again, and a change can name it (a ``defaultdict`` is kept as one; views
        such as a proxy wrap it when it is passed)."""
        return self.name("p")

    def mutate(
        self, name: str, path: list[Any], modes: list[str], reads: list[Step], promise: str
    ) -> None:
        """Change the part of the value kept as ``name`` that ``path`` leads to, every way a
        caller could; ``reads`` (steps not added to the plan) are repeated after each change
        and must answer as before."""
        self._add(Mutate(name, path, modes, reads, promise))

    def refuse(self, log: LogVar, session: Any, event_type: Any, payload: Any, reason: str) -> None:
        """An append that must raise ValueError; in a lenient plan, one that does not only
        skips the example."""
        self._add(Refuse(log, session, event_type, payload, reason, lenient=not self.strict))

    def reads_of(self, build: Callable[..., object], *args: Any) -> list[Step]:
        """The steps ``build(self, *args)`` adds, taken out of this plan (to repeat inside a
        change): ``plan.reads_of(Plan.replay, log, "a")``."""
        start = len(self.steps)
        build(self, *args)
        taken = self.steps[start:]
        del self.steps[start:]
        return taken


def _read_diagnosis(session: Any, promise: str) -> Callable[[Any, Any, Context], str]:
    """A wrong read that returned another session's event breaks ``read.session_only``,
    whatever ``after_event_id`` it was given; otherwise ``promise``."""

    def diagnose(got: Any, expected: Any, context: Context) -> str:
        items = got if isinstance(got, list) else []
        strangers = [
            item for item in items if isinstance(item, EventView) and item.session_id != session
        ]
        return "read.session_only" if strangers else promise

    return diagnose


def _key(session: Any) -> tuple[str, str]:
    return (type(session).__name__, str(session))


def _views(context: Context, refs: list[EventRef]) -> list[EventView]:
    views = [context.seen(ref) for ref in refs]
    readable = [view for view in views if view is not None]
    ids = [view.event_id for view in readable]
    learner_ids = (
        len(readable) == len(views)
        and all(type(i) is int for i in ids)
        and len(set(ids)) == len(ids)
    )
    result = []
    for ref, view in zip(refs, views, strict=True):
        model = ref.model
        if view is None:
            view = EventView(model.event_id, str(model.session_id), model.type, model.payload)
        elif not learner_ids:
            view = EventView(model.event_id, view.session_id, view.type, view.payload)
        result.append(view)
    return result


def expected_events(
    context: Context, log: LogVar, session: str, after: int | None
) -> list[EventView]:
    """The session's events in ``log`` after ``after``, as the learner's append_event returned
    them (its own ids, when they are distinct ints; the contract's otherwise)."""
    own = [ref for ref in log.events if ref.model.session_id == session]
    return [view for view in _views(context, own) if view.event_id > (after or 0)]


def raw_events(context: Context, log: LogVar, session: str, after: int | None) -> list[Any] | None:
    """The session's events after ``after`` as append_event's answers held them, when their
    ids are the contract's own (else None: only the slower check can judge)."""
    raw = []
    for ref in log.events:
        if ref.model.session_id != session or ref.model.event_id <= (after or 0):
            continue
        observed = context.raw(ref)
        if observed is None or type(observed[0]) is not int or observed[0] != ref.model.event_id:
            return None
        raw.append(observed)
    return raw


def expected_sessions(context: Context, log: LogVar) -> list[Any]:
    sessions = []
    for ref in log.events:
        view = context.seen(ref)
        named = (
            view.session_id
            if view is not None and isinstance(view.session_id, str)
            else str(ref.model.session_id)
        )
        sessions.append(named)
    return list(dict.fromkeys(sessions))


def expected_replay(context: Context, log: LogVar, session: str) -> list[Any]:
    own = [ref for ref in log.events if ref.model.session_id == session]
    return replay_expected([context.seen(ref) for ref in own], [ref.model for ref in own])


def _show_events(value: Any) -> str:
    """A list of events as code, cut like any value shown (:func:`shortened`): a read of 2,049
    events is not printed whole, twice; where it first differs is said beside it."""
    if isinstance(value, list):
        from grader.engine.answers import event_view

        texts = []
        length = 1
        for item in value:
            text = item.code() if isinstance(item, EventView) else _event_text(item, event_view)
            texts.append(text)
            length += len(text) + 2
            if length > MAX_SHOWN:
                return shortened("[" + ", ".join(texts))  # the rest would be cut anyway
        return "[" + ", ".join(texts) + "]"
    return literal(value)


def _event_text(item: Any, event_view: Callable[[Any], EventView]) -> str:
    try:
        return event_view(item).code()
    except Exception:
        return literal(item)


def _show_messages(value: Any) -> str:
    return literal(value)
