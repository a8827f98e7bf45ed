"""Benchmarks: how the SQLite event store compares with agent frameworks' SQLite stores.

Run ``python -m benchmarks`` (about ten minutes) or ``python -m benchmarks --quick`` (under
a minute, small sizes). Every system is driven through its public API on the same machine
and disk; raw ``sqlite3`` with the store's own pragmas and schema is the floor. The numbers
describe this machine on the day they were taken: read them as ratios, not as promises.
"""
