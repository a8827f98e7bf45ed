"""The live page and the event stream it reads.

==================  ===========================================================
``page``            the page's routes, its files (``static/``), the tool-call read
``stream_route``    ``GET /sessions/{id}/events/stream``: limits, resume, shutdown
``event_stream``    one session's events as a stream: read by id, page by page
``shared_reads``    one read for every stream asking for the same page at once
``sse``             the Server-Sent Events wire format
==================  ===========================================================
"""
