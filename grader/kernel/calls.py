"""The one door into learner code, and what happened there as plain data.

Every call that may run learner code (a graded function, an attribute of an event, a method
of a payload, an exception's ``__str__``) goes through :func:`enter`, made by the one loop
in :mod:`.plans`. From inside, every call therefore looks the same: the same frames above
it, the same recursion limit left, the same time since the last call (the clocks learner
code can read are the kernel's, see :mod:`.clock`), whether it answers a check or an
ordinary call. A check that needs a read makes an ordinary read.

Where the kernel can measure CPU time, each call gets a budget of it
(:func:`set_call_seconds`): an interval timer on the process's own CPU time, whose signal
ends the process. The trusted side sees the kernel die of that signal and knows the call
ran out of time: the verdict rests on the learner's own CPU time, whatever else the machine
was doing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from grader.kernel.capture import (
        _ITIMER_PROF,
        _ROOTS,
        _setitimer,
        _setrecursionlimit,
        _str_exact,
        _str_startswith,
    )
    from grader.kernel.clock import tick
    from grader.kernel.observe import show

#: The longest exception message kept.
MAX_MESSAGE = 2000
#: The recursion limit every call starts with (the kernel's own frames above it are always
#: the same, so learner code always has the same depth left).
RECURSION_LIMIT = 1000
#: CPU seconds one call may use (None: no timer, where none can be set).
_CALL_SECONDS: list[float | None] = [None]
#: Whether the timer was armed during this request.
_ARMED: list[bool] = [False]
#: The learner's graded functions (their calls move the kernel's clock on: the reads of
#: their answers happen at the moment they returned, however many the kernel makes).
GRADED: list[Any] = []
#: Exceptions a call lets out instead of answering with them: the in-process transport's
#: own "time is up" (a sandboxed kernel has none: its timer's signal ends the process).
PASS_THROUGH: list[type[BaseException]] = []


def set_call_seconds(seconds: float | None) -> None:
    """Give each call from now on ``seconds`` of CPU time (None: no limit, and the timer
    stopped)."""
    _CALL_SECONDS[0] = seconds if _setitimer is not None else None
    _ARMED[0] = False
    if _setitimer is not None and seconds is None:
        _setitimer(_ITIMER_PROF, 0)


def enter(
    function: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[int, Any]:
    """Call ``function(*args, **kwargs)``: ``(0, value)`` when it returned, ``(1, error)``
    when it raised (anything, ``SystemExit`` and ``KeyboardInterrupt`` included)."""
    _setrecursionlimit(RECURSION_LIMIT)
    graded = function in GRADED
    if graded:
        tick()
    if _CALL_SECONDS[0] is not None and (graded or not _ARMED[0]):
        # Armed afresh for every graded call; the reads of its answer that follow share
        # its time (they are tiny, and a learner's property that spins in one still stops
        # there); disarmed once the request is answered (see :func:`set_call_seconds`).
        _setitimer(_ITIMER_PROF, _CALL_SECONDS[0])
        _ARMED[0] = True
    try:
        return (0, function(*args, **kwargs))
    except BaseException as error:
        if PASS_THROUGH and type(error) in PASS_THROUGH:
            raise
        return (1, error)


def describe(error: BaseException) -> dict[str, Any]:
    """The answer for an exception learner code raised."""
    if isinstance(error, NotImplementedError):
        return {"not_implemented": True}
    if isinstance(error, SystemExit):
        return {"exit": show(error.code)}
    if not isinstance(error, Exception):
        return {"control": _type_name(error)}
    described = {
        "type": _type_name(error),
        "message": _message(error),
        "value_error": isinstance(error, ValueError),
    }
    where = where_raised(error.__traceback__)
    if where is not None:
        described["where"] = where
    return {"raised": described}


def _type_name(error: BaseException) -> str:
    name = type(error).__name__
    return name if type(name) is str else "?"


def _message(error: BaseException) -> str:
    """The message, cut short (the trusted side makes it printable)."""
    try:
        text = str(error)
    except Exception:
        return ""
    return _str_exact(text)[:MAX_MESSAGE] if isinstance(text, str) else ""


def where_raised(traceback: Any) -> str | None:
    """``file:line`` of the last frame of learner code the exception passed through.

    Reading a traceback's frames is what the guard denies everyone else: this function's
    code is the one it lets through (see :mod:`.guard`).
    """
    found = None
    while traceback is not None:
        filename = traceback.tb_frame.f_code.co_filename
        for root in _ROOTS:
            if _str_startswith(filename, root + "/"):
                found = f"{filename[len(root) + 1 :]}:{traceback.tb_lineno}"
        traceback = traceback.tb_next
    return found
