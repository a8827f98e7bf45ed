"""Entry point: ``python -m grader --help``."""

from __future__ import annotations

from grader.frontends.cli import main

# Guarded: where processes are spawned rather than forked, they import this module again.
if __name__ == "__main__":
    raise SystemExit(main())
