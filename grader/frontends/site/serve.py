"""Serving a built site locally: ``python -m grader site --serve``.

Any static host serves the site; this one is for a learner's own machine and for the tests.
It binds 127.0.0.1 only, serves files under the site's folder only, gives ``.mjs`` and
``.wasm`` their types (a browser refuses a module or a streamed WebAssembly file with the
wrong one), and sends a Content-Security-Policy that keeps the page and its workers on this
origin (the page's own ``<meta>`` policy does not reach its workers).
"""

from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path
from typing import Any

#: Every request's headers: only this origin, and revalidate (a rebuilt site shows at once).
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; "
        "style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; "
        "object-src 'none'; base-uri 'none'; form-action 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-cache",
}


#: The types a browser insists on (a module script, a streamed WebAssembly file).
TYPES = {
    **http.server.SimpleHTTPRequestHandler.extensions_map,
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".wasm": "application/wasm",
    ".json": "application/json",
    ".zip": "application/zip",
}


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = TYPES

    def end_headers(self) -> None:
        for name, value in HEADERS.items():
            self.send_header(name, value)
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass  # a learner's terminal shows the address, not every request


class _Listener(http.server.ThreadingHTTPServer):
    #: Connections waiting to be accepted (the standard library's 5 is for a quiet machine):
    #: a page starts a kernel worker per task and a spare beside it, each fetching Python's
    #: files at once, while this process may be busy with other work.
    request_queue_size = 128


class Server:
    """A site served from a thread of this process; :attr:`url` is its address."""

    def __init__(self, site: Path, port: int = 0) -> None:
        handler = functools.partial(_Handler, directory=str(site))
        self._server = _Listener(("127.0.0.1", port), handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/"

    def __enter__(self) -> Server:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()
