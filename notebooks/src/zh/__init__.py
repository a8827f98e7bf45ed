"""The notebooks' markdown cells in Chinese, one module per notebook, named as its English one.

Each module's ``CELLS`` maps the fingerprint of an English markdown cell
(:func:`grader.i18n.fingerprint` of its source, as :func:`cells.md` cleans it) to the cell in
Chinese; code cells are never translated. ``python notebooks/build.py`` builds ``notebooks/zh/``
from them, and ``tests/translations/`` fails when an English cell has no translation of its
text as it is now (the message gives the fingerprint to key the new translation by).
"""
