"""Sizes past every power of two: the boundaries an example must meet, and programs that grow
through them.

Real buffers, caches, windows and pages break at a power of two: at 2**n items exactly, or
one past it (2**n + 1), or one short (2**n - 1), when the code counts from the other end. So
every dimension of an example (events in a log, sessions, open calls, the length of a text,
...) is met at each of the three, for every n up to the dimension's largest example, and
each is met *where the bug would be*: a read that returns exactly k events, a replay of
exactly k messages, k open calls at once when the oldest is answered.

One program that grows through every boundary and looks at each is far cheaper than a
program per size: :func:`growth` cuts a pattern into blocks that end at each boundary.
"""

from __future__ import annotations

from grader.engine.programs import SPREAD, Block


def boundaries(largest: int, smallest: int = 1) -> tuple[int, ...]:
    """``2**n - 1``, ``2**n`` and ``2**n + 1`` for every n >= 1 with ``2**n + 1 <= largest``,
    and ``largest`` itself, from ``smallest`` up, each once, in order.

    Example:
        >>> boundaries(9)
        (1, 2, 3, 4, 5, 7, 8, 9)
    """
    sizes = {largest}
    n = 1
    while 2**n + 1 <= largest:
        sizes |= {2**n - 1, 2**n, 2**n + 1}
        n += 1
    return tuple(size for size in sorted(sizes) if size >= smallest)


def growth(pattern: str, session: str, sizes: tuple[int, ...], label: str) -> tuple[Block, ...]:
    """Blocks of ``pattern`` in ``session`` whose rounds add up to each of ``sizes`` in turn:
    after the i-th block, ``sizes[i]`` rounds have been made. Consecutive blocks continue one
    another (a run of calls stays one run; spread sessions stay distinct: each block names its
    own, ``f"{session}{i}_"`` followed by the round)."""
    blocks, made = [], 0
    for number, size in enumerate(sizes):
        sessions = (f"{session}{number}_",) if pattern == SPREAD else (session,)
        blocks.append(Block(pattern, size - made, sessions, f"{label}{number}"))
        made = size
    return tuple(blocks)
