"""``python -m sqlite_demo``: see :mod:`sqlite_demo.cli` for the commands."""

from __future__ import annotations

import sys

from sqlite_demo.cli import main

sys.exit(main())
