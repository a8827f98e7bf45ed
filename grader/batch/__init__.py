"""Batch grading: every submission in its own sandboxed process, in parallel."""
