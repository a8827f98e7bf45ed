"""The contract as a table: the functions a submission defines, and what a task is.

Everything that depends on the functions derives from :data:`FUNCTIONS`: the names the kernel
looks up, the calls that tell a stub from an implementation, which task introduces each one
(what "not implemented yet" points to), how a failure names the function it caught. Adding a
function is adding a row; adding a task is adding a folder under ``grader/tasks`` (see
:mod:`grader.tasks`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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
        promises: the prefix of its promise ids (``append`` for ``append.event_ids``).
    """

    name: str
    task: str
    builds: bool = False
    probe: tuple[Any, ...] = ("$log", "a")
    view: str = "list"
    promises: str = ""


FUNCTIONS: tuple[Function, ...] = (
    Function("create_event_log", "append_and_ids", builds=True, probe=(), view="none",
             promises="create"),
    Function("append_event", "append_and_ids", builds=True,
             probe=("$log", "a", "user_message", {"content": "hi"}), view="pair", promises="append"),
    Function("get_events_for_session", "read_and_resume", view="events", promises="read"),
    Function("list_sessions", "list_sessions", probe=("$log",), promises="list"),
    Function("replay_session", "replay", promises="replay"),
)  # fmt: skip
FUNCTIONS_BY_NAME = {function.name: function for function in FUNCTIONS}
#: A bad or odd append's promise ids (``refuse.missing_key``) are append_event's too.
_PREFIXES = {function.promises: function.name for function in FUNCTIONS} | {
    "refuse": "append_event",
    "accept": "append_event",
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
        properties: checked in order; the first that breaks decides the verdict.
        strict: its appends are judged against the oracle (the tasks about appending); other
            tasks judge their own function against what append_event returned.
    """

    id: str
    number: int
    points: int
    functions: tuple[str, ...]
    properties: tuple[Property, ...]
    strict: bool = False

    @property
    def own(self) -> tuple[str, ...]:
        """The functions this task introduces."""
        return tuple(name for name in self.functions if FUNCTIONS_BY_NAME[name].task == self.id)


def owner(function: str) -> str:
    """The id of the task that introduces ``function``."""
    return FUNCTIONS_BY_NAME[function].task
