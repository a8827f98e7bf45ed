"""The agent and its HTTP API, over any store that honours the store contract.

==================  ===========================================================
``model``           the scripted, deterministic stand-in for an LLM
``agent``           one turn: commit every step before replying, decide on a version
``app``             the FastAPI endpoints (``/openapi.json`` is the contract)
``api_schema``      the bodies and their limits, as the schema publishes them
``pages``           list reads a page at a time, ``Link: rel="next"``
``event_json``      an event as the API shows it
``http_errors``     one error shape for every refusal
``access``          the door: the token and the Host check
``body_guard``      JSON, UTF-8 and 1 MiB, before a byte is parsed
``client``          a small synchronous client, one method per endpoint
==================  ===========================================================
"""
