"""Versions every grade depends on, written once.

hypothesis draws and shrinks every example, so the same seed gives the same examples only
with the same hypothesis: the command line (``pyproject.toml`` pins it), the batch, the
Gradescope autograder (its ``requirements.txt``) and the browser (the site bundles it) all
grade with this version. 6.155.7 is also the last hypothesis that is pure Python, which is
what lets the browser install it by unzipping its wheel.
"""

from __future__ import annotations

HYPOTHESIS = "6.155.7"
