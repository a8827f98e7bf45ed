"""Standalone learner-style implementations that the grader is tested against."""
