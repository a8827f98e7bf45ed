"""Calling learner code, and saying what happened as plain data.

Every call into learner code goes through :func:`guarded`, which never lets anything out:
a value, an exception (its type, its message, the last line of learner code it passed
through), a ``SystemExit``, a ``KeyboardInterrupt``... each becomes an answer the trusted
side can judge.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from grader.kernel.capture import _ROOTS, _str_exact, _str_startswith
    from grader.kernel.observe import show

#: The longest exception message kept.
MAX_MESSAGE = 2000


def guarded(work: Callable[..., dict[str, Any]], *args: Any) -> dict[str, Any]:
    """Run ``work(*args)`` (which calls learner code); turn whatever it raises into an answer."""
    try:
        return work(*args)
    except NotImplementedError:
        return {"not_implemented": True}
    except SystemExit as error:
        return {"exit": show(error.code)}
    except Exception as error:
        return {"raised": describe(error)}
    except BaseException as error:
        return {"control": type(error).__name__}


def describe(error: BaseException) -> dict[str, Any]:
    """The exception's type, message, whether it is a ValueError, and where it came from."""
    described = {
        "type": _type_name(error),
        "message": _message(error),
        "value_error": isinstance(error, ValueError),
    }
    where = where_raised(error.__traceback__)
    if where is not None:
        described["where"] = where
    return described


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
