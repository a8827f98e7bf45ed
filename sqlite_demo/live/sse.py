"""The Server-Sent Events wire format: how one event of the log becomes text on the stream.

An SSE stream is UTF-8 text made of frames, each a few ``field: value`` lines ended by a
blank line. A browser's ``EventSource`` dispatches each frame that has ``data``; it remembers
the last ``id`` it saw and, when it reconnects, sends it back as the ``Last-Event-ID`` header.
Lines starting with ``:`` are comments: the browser ignores them, which makes them the
heartbeat that keeps idle connections (and the proxies between) from timing out.

Every value here is one line on purpose: a newline inside a value would end the field, and a
blank line would end the frame, letting stored text forge events of its own. JSON escapes
every line break (``\\n``, ``\\r``) inside strings, so an event serialised as JSON is one line
whatever its payload holds.
"""

from __future__ import annotations

import json
import re
from typing import Any, Final

from sqlite_demo.service.api_schema import MAX_EVENT_ID

#: What a ``Last-Event-ID`` header may hold, as the OpenAPI schema states it: up to 19 ASCII
#: digits, or nothing. (``int()`` would also take ``" 7"``, ``"+7"``, ``"7_0"`` and non-ASCII
#: digits, none of which is an id we sent.)
LAST_EVENT_ID_PATTERN: Final = r"^[0-9]{0,19}$"


def event_frame(event_id: int, data: dict[str, Any]) -> str:
    """Return one log event as an SSE frame: ``id: N`` then the event as one line of JSON.

    The frame has no ``event:`` field, so a browser delivers it to ``onmessage``.
    """
    return f"id: {event_id}\ndata: {_one_line_json(data)}\n\n"


def json_event_frame(event_id: int, json_text: str) -> str:
    """Return :func:`event_frame` for an event already encoded as one line of JSON.

    Raises:
        ValueError: ``json_text`` holds a line break, which would end the frame early and
            let the text forge frames of its own.
    """
    if "\n" in json_text or "\r" in json_text:
        raise ValueError("an SSE data line holds no line break")
    return f"id: {int(event_id)}\ndata: {json_text}\n\n"


def named_frame(name: str, data: dict[str, Any]) -> str:
    """Return a control frame (``event: NAME``) that carries no ``id``.

    Without an ``id`` field the client's last event id stays the last LOG event's id, so a
    reconnect still resumes after the right event.
    """
    if not re.fullmatch(r"[a-z-]+", name):
        raise ValueError(f"an SSE event name here is lowercase letters and dashes: {name!r}")
    return f"event: {name}\ndata: {_one_line_json(data)}\n\n"


def comment_frame(text: str) -> str:
    """Return a comment line (a heartbeat, a note): clients ignore it, proxies see traffic."""
    if "\n" in text or "\r" in text:
        raise ValueError("an SSE comment is one line")
    return f": {text}\n\n"


def retry_frame(milliseconds: int) -> str:
    """Return a frame that tells an ``EventSource`` how long to wait before reconnecting."""
    return f"retry: {milliseconds}\n\n"


def parse_last_event_id(header: str | None) -> int | None:
    """Return the event id a ``Last-Event-ID`` header names, or None when it names none.

    An empty header counts as absent: an ``EventSource`` that never received an id sends
    none, and an empty value can mean nothing else. A number above the API's ``MAX_EVENT_ID`` (19
    digits can reach past it) is read as ``MAX_EVENT_ID``: both mean "after every event".

    Raises:
        ValueError: the header is not up to 19 ASCII digits; the message says what was
            received.
    """
    if header is None or header == "":
        return None
    if not re.fullmatch(LAST_EVENT_ID_PATTERN, header):
        shown = header if len(header) <= 40 else header[:40] + "..."
        raise ValueError(f"Last-Event-ID must be an event id: up to 19 ASCII digits, got {shown!r}")
    return min(int(header), MAX_EVENT_ID)


def _one_line_json(data: dict[str, Any]) -> str:
    # ensure_ascii=False keeps Chinese readable on the wire; json still escapes \n, \r and
    # every other control character, so the result cannot contain a line break.
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
