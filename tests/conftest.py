"""Fixtures shared across test folders, registered once for the whole suite."""

# The service's and the live page's tests both start real servers on real files.
pytest_plugins = ["tests.server_fixtures"]
