"""Implementations with exactly one clause broken: the grader must fail the named task."""
