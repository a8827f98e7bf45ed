"""The child's main loop: read one JSON request per line, perform it, answer one JSON line.

Requests (each carries an ``id`` that its answer repeats):

* ``call``: call a learner function. ``args``/``kwargs`` are encoded values (see
  :mod:`.codec`); ``keep`` names the result (a list of two names splits an
  ``append_event`` pair); ``view`` says how to observe it: ``pair`` (the event of a pair),
  ``event``, ``events``, ``list``, ``plain`` or ``none``.
* ``make``: decode a value and keep it under ``name`` (a payload the grader changes later).
* ``view``: observe a kept value again, or a part of it (``path``, see :mod:`.probing`).
* ``batch``: several requests in order; each answer goes out on a line of its own, as
  ``{"id": N, "part": ANSWER}``, the moment it is ready, then ``{"id": N, "done": COUNT}``.
* ``scribble``: change a kept value in place the ways ``modes`` and ``thorough`` select (see
  :func:`.probing.scribble`), and after each change that worked perform the ``then``
  requests; answered with one step per change, up to the first that changed an answer.
* ``reset``: forget every kept value (any request may also carry ``"reset": true``).
* ``output``: what learner code printed since it was last asked.

Inside ``scribble``, a line ``{"id": N, "doing": CODE}`` goes out before each change and
each learner call, so that if one never returns the trusted side knows which; in a ``batch``
the first part that never came says the same.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from .capture import Capture
from .codec import decode
from .loading import describe
from .looking import Unreadable, view
from .probing import follow, scribble
from .text import sanitize, show

#: An answer longer than this is replaced by a note saying so (the trusted side caps too).
MAX_ANSWER = 4 * 1024 * 1024


class Server:
    """The learner's functions, the values kept between requests, and the channel."""

    def __init__(self, config: dict[str, Any], write: Callable[[bytes], object]) -> None:
        self.root: str = config["root"]
        self.functions: dict[str, Callable[..., Any]] = {}
        self.values: dict[str, Any] = {}
        self.capture = Capture(config.get("output_chars", 10_000))
        self._write = write
        self._request_id: Any = None
        self._nested = 0

    def send(self, answer: dict[str, Any]) -> None:
        self._write(_capped(answer) + b"\n")

    def send_part(self, answer: dict[str, Any]) -> None:
        """One answer of a batch, on its own line (capped by itself, keeping its place)."""
        head = b'{"id": ' + json.dumps(self._request_id).encode() + b', "part": '
        self._write(head + _capped(answer) + b"}\n")

    def handle_line(self, line: bytes) -> None:
        request = json.loads(line)
        self._request_id = request.get("id")
        if request.get("reset"):
            self.values.clear()
        self.send({"id": self._request_id, **self.perform(request)})

    def perform(self, request: dict[str, Any]) -> dict[str, Any]:
        """Perform one request and return its answer (without the id)."""
        op = request.get("op")
        if op == "call":
            return self.call(request)
        if op == "make":
            self.values[request["name"]] = self.decode(request["value"])
            return {}
        if op == "view":
            return self.guarded(lambda: self.observe(self.fetch(request), request["view"]))
        if op == "batch":
            return self.stream(request["requests"])
        if op == "scribble":
            return {"steps": self.scribble(request)}
        if op == "reset":
            self.values.clear()
            return {}
        if op == "output":
            return {"output": self.capture.take()}
        return {"error": f"unknown op {op!r}"}

    def stream(self, requests: list[dict[str, Any]]) -> dict[str, Any]:
        """Answer each request on its own line as soon as it is done, then say the batch is."""
        for request in requests:
            self.send_part(self.perform(request))
        return {"done": len(requests)}

    def decode(self, data: Any) -> Any:
        return decode(data, self.values.__getitem__)

    def fetch(self, request: dict[str, Any]) -> Any:
        return follow(self.values[request["ref"]], request.get("path", []))

    def announce(self, code: str) -> None:
        """Say which learner code runs next, inside a request that runs several."""
        if self._nested:
            self.send({"id": self._request_id, "doing": code})

    def call(self, request: dict[str, Any]) -> dict[str, Any]:
        try:
            function = self.functions[request["fn"]]
            args = [self.decode(arg) for arg in request.get("args", [])]
            kwargs = {key: self.decode(arg) for key, arg in request.get("kwargs", {}).items()}
        except KeyError as missing:
            return {"missing": str(missing)}
        self.announce(request.get("code") or request["fn"])
        return self.guarded(lambda: self.keep(function(*args, **kwargs), request))

    def keep(self, result: Any, request: dict[str, Any]) -> dict[str, Any]:
        keep, kind = request.get("keep"), request.get("view", "none")
        if kind == "pair":
            try:
                new_log, event = result
            except Exception:
                return {"not_pair": show(result)}
            if keep:
                self.values[keep[0]], self.values[keep[1]] = new_log, event
            return self.observe(event, "event")
        if keep:
            self.values[keep] = result
        return self.observe(result, kind)

    def observe(self, value: Any, kind: str) -> dict[str, Any]:
        if kind == "none":
            return {}
        try:
            return {"value": view(value, kind)}
        except Unreadable as problem:
            return problem.answer()

    def guarded(self, work: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        """Run learner code; turn what it raises into an answer instead of dying."""
        try:
            return work()
        except NotImplementedError:
            return {"not_implemented": True}
        except SystemExit as error:
            return {"exit": sanitize(repr(error.code))}
        except Exception as error:
            value_error = isinstance(error, ValueError)
            return {"raised": {**describe(error, self.root), "value_error": value_error}}
        except BaseException as error:
            return {"control": type(error).__name__}

    def scribble(self, request: dict[str, Any]) -> list[dict[str, Any]]:
        """One step per change that worked, up to the first after which ``then`` answers
        differently than before any change (the trusted side checks that difference)."""
        root = self.values.get(request["ref"])
        path = request.get("path", [])
        then = request.get("then", [])
        steps: list[dict[str, Any]] = []
        self._nested += 1
        try:
            baseline = [self.perform(read) for read in then]
            changes = scribble(
                lambda: follow(root, path),
                request["code"],
                request.get("thorough", False),
                request.get("modes", ["deep"]),
                announce=self.announce,
            )
            for line in changes:
                answers = [self.perform(read) for read in then]
                if answers != baseline:
                    steps.append({"line": line, "then": answers})
                    break
                steps.append({"line": line, "same": True})
        finally:
            self._nested -= 1
        return steps


def _capped(answer: dict[str, Any]) -> bytes:
    """The answer as JSON, or a note of its size when it is too large to send."""
    line = json.dumps(answer, ensure_ascii=False, allow_nan=False).encode("utf-8")
    if len(line) <= MAX_ANSWER:
        return line
    return json.dumps({"id": answer.get("id"), "too_large": len(line)}).encode()
