"""Read one session's stream to its end with N clients at once, from a process of its own.

``python -m tests.live.stream_readers URL SESSION_ID COUNT`` (the token in the environment,
``SQLITE_DEMO_TOKEN``) opens COUNT streams with ``follow=false`` at the same moment, reads
each to its ``caught-up`` frame and the end, and prints one line: ``COUNT BYTES SECONDS``.

A process of its own, so that the readers' work never delays the test's own measurements
(a thread of the test would take turns with them for the interpreter lock).
"""

from __future__ import annotations

import asyncio
import os
import sys
import time

import httpx


async def read_all(url: str, session_id: str, count: int, token: str) -> tuple[int, int]:
    """Read ``count`` catch-ups at once; return how many ended with caught-up, and the bytes."""
    limits = httpx.Limits(max_connections=count, max_keepalive_connections=0)
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(
        base_url=url, headers=headers, limits=limits, timeout=300
    ) as client:
        results = await asyncio.gather(*(_read_one(client, session_id) for _ in range(count)))
    return sum(done for done, _ in results), sum(size for _, size in results)


async def _read_one(client: httpx.AsyncClient, session_id: str) -> tuple[bool, int]:
    path = f"/sessions/{session_id}/events/stream"
    size, tail = 0, b""
    async with client.stream("GET", path, params={"follow": "false"}) as response:
        response.raise_for_status()
        async for chunk in response.aiter_bytes():
            size += len(chunk)
            tail = (tail + chunk)[-200:]
    return b"event: caught-up" in tail, size


def main(argv: list[str]) -> int:
    url, session_id, count = argv[0], argv[1], int(argv[2])
    began = time.perf_counter()
    done, size = asyncio.run(read_all(url, session_id, count, os.environ["SQLITE_DEMO_TOKEN"]))
    print(f"{done} {size} {time.perf_counter() - began:.3f}", flush=True)
    return 0 if done == count else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
