"""The open-stream limit, tried as a client that opens streams in a burst would try it.

The app runs in a thread of this process (see ``start_in_thread``), with its settings.
"""

from __future__ import annotations

import asyncio

import httpx

from sqlite_demo.live.event_stream import StreamSettings
from tests.live.conftest import (
    READ_TIMEOUT_SECONDS,
    StartInThread,
    client_of,
    new_session,
    stream_path,
)

BURST = 200


def test_a_burst_of_200_opens_gets_exactly_the_limit_and_the_rest_a_retryable_503(
    start_in_thread: StartInThread,
) -> None:
    url = start_in_thread(StreamSettings(max_open_streams=64))
    with client_of(url) as http:
        session = new_session(http)

    async def burst() -> tuple[list[int], list[httpx.Response]]:
        limits = httpx.Limits(max_connections=BURST + 10, max_keepalive_connections=0)
        async with httpx.AsyncClient(
            base_url=url, timeout=READ_TIMEOUT_SECONDS, limits=limits
        ) as client:
            requests = [client.build_request("GET", stream_path(session)) for _ in range(BURST)]
            responses = await asyncio.gather(*(client.send(r, stream=True) for r in requests))
            refused = [r for r in responses if r.status_code == 503]
            for response in refused:
                await response.aread()
            statuses = [r.status_code for r in responses]
            for response in responses:
                await response.aclose()
            return statuses, refused

    statuses, refused = asyncio.run(burst())

    assert statuses.count(200) == 64, sorted(set(statuses))
    assert statuses.count(503) == BURST - 64
    for response in refused:
        assert response.headers["retry-after"] == "1"
        error = response.json()["error"]
        assert (error["code"], error["retryable"]) == ("too_many_streams", True)
        assert "64 streams are open" in error["message"]
        assert "retry after 1 s" in error["message"]
