"""Correct implementations in unusual styles: the grader must give each one full marks."""
