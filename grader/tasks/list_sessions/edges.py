"""Task 3's examples at the edges (issue 28): lists of exactly 2**n - 1, 2**n and 2**n + 1
sessions up to 1,025, each changed by its caller; session ids related by prefix or
family, interleaved (listed after every segment, like any program of ``listing``); and ids
joined by every separator, then their pieces.
"""

from __future__ import annotations

from hypothesis import strategies as st

from grader.engine.boundaries import boundaries, growth
from grader.engine.plan import Plan
from grader.engine.programs import SPREAD, Append, Block, Program
from grader.engine.properties import Property
from grader.tasks.reject_bad_input.bad_input import SEPARATORS

#: The most sessions listed.
MOST_SESSIONS = 1025

#: New sessions, a block ending at each boundary: the list is read after every block.
LIST_SIZES = Program(("s",), growth(SPREAD, "s", boundaries(MOST_SESSIONS), "loop"))


def list_at_every_size(plan: Plan, program: Program) -> None:
    """After every segment, the list kept, changed every way a caller could, and read again:
    the same list, whatever its length."""
    log = plan.create()
    for number, segment in enumerate(program.segments):
        log = (
            plan.block(log, segment) if isinstance(segment, Block) else plan.append(log, segment)[0]
        )
        name = f"sessions{number}"
        again = plan.reads_of(Plan.list_sessions, log)
        plan.list_sessions(log, keep=name).shown = True
        plan.mutate(name, [], ["shallow"], again, "list.result_is_a_copy")


#: Ids related by a prefix or a family (the part before a separator), first seen in an order
#: that keeps no family together and no prefix before its extensions; and a surrogate pair
#: beside the character it encodes: two ids, as Python compares them (the contract says so),
#: though JSON text would make them one.
FAMILY_IDS = (
    "user.1", "bot.1", "user.2", "a.b", "bot.2", "a", "user", "b.a", "a.c", "user.1.x", "ab",
    "\ud83d\ude42", "b", "a/b", "bot", "a.b.c", "🙂",
)  # fmt: skip
FAMILIES = Program(
    FAMILY_IDS,
    (
        *(Append(session, "user_message", {"content": "hi"}) for session in FAMILY_IDS),
        Block("alternate", 3 * len(FAMILY_IDS), tuple(reversed(FAMILY_IDS)), "loop0"),
    ),
)

#: For every separator a learner might join ids with (a record separator, a tab, a comma,
#: ...), an id of two pieces joined by it; then the two pieces, two sessions of their own.
#: Code that keeps the ids seen in one joined text, and calls an id seen when it occurs there
#: between separators, never lists a piece. The id joined by "." comes between the pieces,
#: so that its family ("j") is first seen where listing by family would put it anyway: an
#: order by family is FAMILIES' to catch.
JOINED_IDS = (*(f"j{sep}k" for sep in SEPARATORS if sep not in ("", ".")), "k", "j.k", "j")
JOINED = Program(JOINED_IDS, (Block("alternate", len(JOINED_IDS), JOINED_IDS, "loop0"),))

PROPERTIES = (
    Property(
        "sizes",
        st.nothing(),
        list_at_every_size,
        0,
        (LIST_SIZES,),
        ("list.sessions", "list.result_is_a_copy"),
    ),
)
