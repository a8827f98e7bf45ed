"""The graded suite as pytest tests: ``pytest grader/suite --target T``.

One test per task, graded exactly as ``python -m grader`` grades it: learner code runs in a
separate, sandboxed interpreter, never in the pytest process.
"""
