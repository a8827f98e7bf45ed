"""The contract as a table: the functions a submission defines, and what a task is.

Everything that depends on the functions derives from :data:`FUNCTIONS`: the names the kernel
looks up, the calls that tell a stub from an implementation, which task introduces each one
(what "not implemented yet" points to), how a failure names the function it caught. Adding a
function is adding a row; adding a task is adding a folder under ``grader/tasks`` (see
:mod:`grader.tasks`).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from grader.engine.properties import Property


@dataclass(frozen=True)
class Function:
    """One function of the contract.

    Attributes:
        name: what the submission calls it.
        task: the id of the task that introduces it.
        builds: it makes logs (create and append): every task needs it.
        probe: the arguments of its simplest call, ``"$log"`` standing for a log built with
            the functions that build: a stub raises NotImplementedError on it, anything
            else counts as written.
        view: how its result is observed (``none``, ``pair``, ``events``, ``list``).
        promises: its promises, in the order its docstring's ``Promises:`` bullets give them
            (their words are the texts ``promise.<id>``; a test holds the two together).
    """

    name: str
    task: str
    builds: bool = False
    probe: tuple[Any, ...] = ("$log", "a")
    view: str = "list"
    promises: tuple[str, ...] = ()

    @property
    def prefix(self) -> str:
        """What its promise ids start with (``append`` for ``append.event_ids``)."""
        return self.promises[0].split(".")[0] if self.promises else self.name


APPEND_PROMISES = (
    "append.returns_pair", "append.event_attributes", "append.event_ids", "append.event_fields",
    "append.old_log_unchanged", "append.branches", "append.caller_payload_copied",
    "append.payload_read_only", "append.events_are_facts", "append.accepts_valid",
    "append.refuses_bad_input", "append.refusal_leaves_no_trace",
)  # fmt: skip
FUNCTIONS: tuple[Function, ...] = (
    Function("create_event_log", "append_and_ids", builds=True, probe=(), view="none"),
    Function("append_event", "append_and_ids", builds=True,
             probe=("$log", "a", "user_message", {"content": "hi"}), view="pair",
             promises=APPEND_PROMISES),
    Function("get_events_for_session", "read_and_resume", view="events",
             promises=("read.session_only", "read.after", "read.result_is_a_copy")),
    Function("list_sessions", "list_sessions", probe=("$log",),
             promises=("list.sessions", "list.result_is_a_copy")),
    Function("replay_session", "replay",
             promises=("replay.mapping", "replay.merge", "replay.isolated", "replay.fresh")),
)  # fmt: skip
#: The promises made of cases, one sub-promise per case (``refuse.missing_key``).
CASES = {"accept": "append.accepts_valid", "refuse": "append.refuses_bad_input"}
FUNCTIONS_BY_NAME = {function.name: function for function in FUNCTIONS}
#: Which function each promise prefix belongs to (a case's too: ``refuse.missing_key``).
_PREFIXES = {function.prefix: function.name for function in FUNCTIONS} | {
    case: "append_event" for case in CASES
}


def function_of(promise: str) -> str | None:
    """The function whose promise ``promise`` is (None for a ``cause.*``)."""
    return _PREFIXES.get(promise.split(".", 1)[0])


@dataclass(frozen=True)
class Task:
    """One graded task: a unit of its own under ``grader/tasks`` (properties, strategies and
    texts together).

    Attributes:
        id: the fixed identifier (notebooks, hints and results files refer to it).
        number: its place, 1-based (also the exercism ``task_id``).
        points: what passing it is worth.
        functions: the functions it calls; its verdict depends on these alone, and one that is
            not written yet makes it "not implemented yet".
        properties_module: the module that defines its ``PROPERTIES``, checked in order (the
            first that breaks decides the verdict); imported only when a grade needs them (a
            grade from the bank that passes never does: see :mod:`grader.engine.bank`).
        strict: its appends are judged against the oracle (the tasks about appending); other
            tasks judge their own function against what append_event returned.
        promises: the promises its properties check, in their order (a test holds it to
            them): what a results file lists for a task that passed, without importing the
            properties, and hypothesis with them.
    """

    id: str
    number: int
    points: int
    functions: tuple[str, ...]
    properties_module: str
    strict: bool = False
    promises: tuple[str, ...] = ()

    @cached_property
    def properties(self) -> tuple[Property, ...]:
        """Its properties, in order (importing them imports hypothesis and the examples)."""
        found: tuple[Property, ...] = importlib.import_module(self.properties_module).PROPERTIES
        return found

    def property_named(self, name: str) -> Property:
        return next(prop for prop in self.properties if prop.name == name)

    @property
    def own(self) -> tuple[str, ...]:
        """The functions this task introduces."""
        return tuple(name for name in self.functions if FUNCTIONS_BY_NAME[name].task == self.id)


def owner(function: str) -> str:
    """The id of the task that introduces ``function``."""
    return FUNCTIONS_BY_NAME[function].task
