"""The maintainer's tools: what the kit's own maintainers use, never shipped to learners.

``python -m grader release DEST`` (which reaches :mod:`maintainer.release`) writes the
learner's copy of the kit from the last commit and proves it works on its own.
"""
