"""The graded suite as pytest tests: ``pytest grader/suite --target T``.

One test per task, running the same properties as ``python -m grader`` but in the pytest
process (no time limit or crash isolation here: use ``python -m grader`` for those).
"""
