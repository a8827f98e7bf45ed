"""Entry point: ``python -m grader --help``."""

from __future__ import annotations

from grader.cli import main

# Guarded: where worker processes are spawned rather than forked, they re-import this module.
if __name__ == "__main__":
    raise SystemExit(main())
