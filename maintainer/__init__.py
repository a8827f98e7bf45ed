"""The maintainer's tools: what the kit's own maintainers use, never shipped to learners.

``python -m maintainer release DEST`` (:mod:`maintainer.release`) writes the learner's copy of
the kit from the last commit and proves it works on its own; ``python -m
maintainer.translations`` keeps the Chinese in step with the English; ``python -m maintainer
new-function NAME`` scaffolds a new exercise function and ``check-function NAME`` says what of
it is left to fill in (:mod:`maintainer.new_function`).

The grader never imports this package (a learner's copy has none): the tools' words join the
grader's catalog from here, when a tool is loaded.
"""

from __future__ import annotations

from grader.i18n import register_words
from maintainer.release import texts as release_texts

register_words(release_texts)
