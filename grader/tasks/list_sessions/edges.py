"""Task 3's examples at the edges (issue 28), listed after every segment like any program of
the ``listing`` property: lists of exactly 2**n - 1, 2**n and 2**n + 1 sessions up to 1,025,
and session ids related by prefix or family, interleaved.
"""

from __future__ import annotations

from grader.engine.programs import SPREAD, Append, Block, Program
from grader.engine.sizes import boundaries, growth

#: The most sessions listed.
MOST_SESSIONS = 1025

#: New sessions, a block ending at each boundary: the list is read after every block.
LIST_SIZES = Program(("s",), growth(SPREAD, "s", boundaries(MOST_SESSIONS), "loop"))

#: Ids related by a prefix or a family (the part before a separator), first seen in an order
#: that keeps no family together and no prefix before its extensions.
FAMILY_IDS = (
    "user.1", "bot.1", "user.2", "a.b", "bot.2", "a", "user", "b.a", "a.c", "user.1.x", "ab",
    "b", "a/b", "bot", "a.b.c",
)  # fmt: skip
FAMILIES = Program(
    FAMILY_IDS,
    (
        *(Append(session, "user_message", {"content": "hi"}) for session in FAMILY_IDS),
        Block("alternate", 3 * len(FAMILY_IDS), tuple(reversed(FAMILY_IDS)), "loop0"),
    ),
)
