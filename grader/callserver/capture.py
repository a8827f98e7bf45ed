"""What learner code prints, kept (up to a limit) for the results file's ``output`` field."""

from __future__ import annotations

import io


class Capture(io.TextIOBase):
    """A text stream that keeps the first ``limit`` characters written since the last take."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self._limit = limit
        self._parts: list[str] = []
        self._size = 0

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        room = self._limit - self._size
        if room > 0:
            kept = str(text)[:room]
            self._parts.append(kept)
            self._size += len(kept)
        return len(text)

    def take(self) -> str:
        """Return what was kept and start again from nothing."""
        taken = "".join(self._parts)
        self._parts, self._size = [], 0
        return taken
