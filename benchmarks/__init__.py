"""Benchmarks: the SQLite event store against agent frameworks' SQLite stores, its service,
and what grading costs.

Run ``python -m benchmarks`` (about half an hour, a dozen minutes of it grading) or
``python -m benchmarks --quick`` (about a minute, small sizes). Every system is driven
through its public API on the same machine and disk; raw ``sqlite3`` with the store's own
pragmas and schema is the floor. The service is measured over HTTP against a real
``python -m sqlite_demo serve`` process. Systems are interleaved round by round, and ratios
are paired round by round, so load from elsewhere on a shared machine lands on all of them
alike; the numbers still describe this machine on the day they were taken: read them as
ratios, not as promises.
"""
