"""Reading a Server-Sent Events stream in tests, frame by frame, as the spec parses it.

A small parser of our own rather than a library: the tests also check the wire format itself
(one ``id`` per event, comments, no stray fields), so they need every field of every frame.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx


@dataclass
class Frame:
    """One frame: the fields it carried (``data`` lines joined by newlines), and comments."""

    id: str | None = None
    event: str | None = None
    data: str | None = None
    retry: str | None = None
    comments: list[str] = field(default_factory=list)

    @property
    def json(self) -> Any:
        """The ``data`` decoded as JSON."""
        assert self.data is not None, f"frame without data: {self}"
        return json.loads(self.data)

    @property
    def is_log_event(self) -> bool:
        """True for a frame holding one event of the log (``id`` and default event type)."""
        return self.event is None and self.data is not None


def frames(response: httpx.Response) -> Iterator[Frame]:
    """Yield the frames of a streaming response as they arrive; a trailing partial frame is
    dropped (as a browser drops it)."""
    frame = Frame()
    for line in response.iter_lines():
        if line == "":
            if frame != Frame():
                yield frame
            frame = Frame()
        elif line.startswith(":"):
            frame.comments.append(line[1:].strip())
        else:
            name, _, value = line.partition(":")
            _set_field(frame, name, value.removeprefix(" "))


def _set_field(frame: Frame, name: str, value: str) -> None:
    if name == "data":
        frame.data = value if frame.data is None else f"{frame.data}\n{value}"
    elif name in ("id", "event", "retry"):
        assert getattr(frame, name) is None, f"field {name!r} twice in one frame"
        setattr(frame, name, value)
    else:
        raise AssertionError(f"unexpected SSE field {name!r}: {value!r}")


def read_until(stream: Iterator[Frame], done: Any) -> list[Frame]:
    """Read frames until ``done(frames_so_far)`` is true; return them all.

    A stream that ends first fails the test (the client's read timeout guards a hang)."""
    received: list[Frame] = []
    for frame in stream:
        received.append(frame)
        if done(received):
            return received
    raise AssertionError(f"the stream ended before the condition held; got {received}")


def log_events(received: list[Frame]) -> list[dict[str, Any]]:
    """The log events among ``received`` frames, decoded, in arrival order."""
    return [frame.json for frame in received if frame.is_log_event]


def caught_up(received: list[Frame]) -> bool:
    """True once the ``caught-up`` frame has arrived."""
    return any(frame.event == "caught-up" for frame in received)
