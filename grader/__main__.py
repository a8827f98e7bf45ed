"""Entry point: ``python -m grader --help``."""

from __future__ import annotations

from grader.cli import main

raise SystemExit(main())
