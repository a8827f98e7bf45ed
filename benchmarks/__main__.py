"""Entry point for ``python -m benchmarks``."""

from __future__ import annotations

from benchmarks.cli import main

raise SystemExit(main())
