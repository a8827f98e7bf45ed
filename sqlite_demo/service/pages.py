"""Reading a long session a page at a time: the ``after`` and ``limit`` of every list read.

A read answers at most ``limit`` rows (:data:`MAX_PAGE` by default and at most), and when more
follow it names the next page the way GitHub's API does, in a ``Link`` header::

    Link: </sessions/sess_x/events?after=1000&limit=1000>; rel="next"

so a 20,000-event session is twenty bounded answers, never one 4 MiB one. The position is an
event id, as everywhere in the log: ``after`` the last row of a page is where the next begins.
"""

from __future__ import annotations

from typing import Annotated, Final
from urllib.parse import quote

from fastapi import Query, Request
from fastapi.responses import Response

from sqlite_demo.service.api_schema import MAX_EVENT_ID

#: The most rows one read returns.
MAX_PAGE: Final = 1000

AfterEventId = Annotated[
    int, Query(ge=0, le=MAX_EVENT_ID, description="return rows of events with event_id > after")
]
PageLimit = Annotated[
    int, Query(ge=1, le=MAX_PAGE, description=f"at most this many rows (1 to {MAX_PAGE})")
]
#: The 200 response of a paged read, as the schema shows it: the header that names the next.
NEXT_PAGE_RESPONSE: Final = {
    "headers": {
        "Link": {
            "description": 'The next page, `<PATH?after=N&limit=M>; rel="next"`: sent when'
            " more rows follow this page, absent on the last one.",
            "required": False,
            "schema": {"type": "string"},
        }
    }
}


def name_next_page(request: Request, response: Response, ids: list[int], limit: int) -> Response:
    """Add the ``Link`` to the next page to ``response``, if there is a next page.

    Args:
        ids: the event ids of up to ``limit + 1`` rows read: one more than the page shows
            is how a read knows that more follow, without a second query.
        limit: the rows the page shows.
    """
    if len(ids) > limit:
        next_page = f"{quote(request.url.path)}?after={ids[limit - 1]}&limit={limit}"
        response.headers["Link"] = f'<{next_page}>; rel="next"'
    return response
