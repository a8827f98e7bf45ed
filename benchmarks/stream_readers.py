"""Readers of one session's event stream, in a process of their own: ``python -m
benchmarks.stream_readers MODE URL SESSION_ID COUNT [EVENTS]``, the token in
``$SQLITE_DEMO_TOKEN``.

* ``follow``: open COUNT streams, print ``ready`` once every one has caught up, then read
  until each has received EVENTS new events; the delay of each (arrival time less the
  event's ``created_at``) is reported.
* ``catch-up``: print ``ready``, then open COUNT streams with ``follow=false`` at once and
  read each to its end.

The last line printed is a JSON report: ``{"delays": [seconds...], "caught_up": n,
"bytes": n, "seconds": s}``; the exit status is 0 only if every stream did what it should.

The client is a few lines over asyncio's streams rather than an HTTP library: with 200
streams, a library's per-chunk work would be most of what a delay measured. Each chunk
the server writes is one or more whole frames (it sends a page or a frame per write), so
frames are read chunk by chunk from the chunked body.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit


@dataclass
class Tally:
    """What every stream of this process received."""

    delays: list[float] = field(default_factory=list)
    caught_up: int = 0
    bytes: int = 0
    ready: asyncio.Event = field(default_factory=asyncio.Event)


async def read_stream(
    url: str, path: str, token: str, tally: Tally, count: int, events: int
) -> bool:
    """Read one stream; return True once it caught up and (following) got ``events`` events."""
    parts = urlsplit(url)
    reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
    request = (
        f"GET {path} HTTP/1.1\r\nHost: {parts.netloc}\r\nAuthorization: Bearer {token}\r\n"
        "Accept: text/event-stream\r\n\r\n"
    )
    writer.write(request.encode())
    try:
        status = await reader.readline()
        if b" 200 " not in status:
            return False
        while (await reader.readline()) not in (b"\r\n", b""):
            pass  # the headers
        return await _read_frames(reader, tally, count, events)
    finally:
        writer.close()


async def _read_frames(reader: asyncio.StreamReader, tally: Tally, count: int, events: int) -> bool:
    got, caught_up = 0, False
    while True:
        size = int((await reader.readline()).strip() or b"0", 16)
        if size == 0:
            return caught_up and got >= events
        chunk = await reader.readexactly(size + 2)
        arrived = time.time()
        tally.bytes += size
        for frame in chunk[:-2].split(b"\n\n"):
            if frame.startswith(b"event: caught-up"):
                caught_up = True
                tally.caught_up += 1
                if tally.caught_up == count:
                    tally.ready.set()
            elif frame.startswith(b"id: ") and caught_up:
                data = frame.split(b"\ndata: ", 1)[1]
                tally.delays.append(arrived - json.loads(data)["created_at"] / 1000)
                got += 1
        if caught_up and events and got >= events:
            return True


async def main(mode: str, url: str, session: str, count: int, events: int) -> int:
    token = os.environ.get("SQLITE_DEMO_TOKEN", "")
    follow = mode == "follow"
    path = f"/sessions/{session}/events/stream" + ("" if follow else "?follow=false")
    tally = Tally()
    if not follow:
        print("ready", flush=True)
    began = time.perf_counter()
    tasks = [
        asyncio.create_task(read_stream(url, path, token, tally, count, events if follow else 0))
        for _ in range(count)
    ]
    if follow:
        await asyncio.wait_for(tally.ready.wait(), 120)
        print("ready", flush=True)
    results = await asyncio.wait_for(asyncio.gather(*tasks), 600)
    report = {
        "delays": tally.delays,
        "caught_up": tally.caught_up,
        "bytes": tally.bytes,
        "seconds": time.perf_counter() - began,
    }
    print(json.dumps(report), flush=True)
    return 0 if all(results) else 1


if __name__ == "__main__":
    mode, url, session, count = sys.argv[1:5]
    events = int(sys.argv[5]) if len(sys.argv) > 5 else 0
    sys.exit(asyncio.run(main(mode, url, session, int(count), events)))
