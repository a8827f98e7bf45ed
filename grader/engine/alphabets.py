"""The values examples are made of: texts, ids and payload data, where bugs live.

Bugs in this contract hide at the edges of the alphabet, not in ``"hi"``: ids that differ only
in case, by a prefix, by a trailing space or by their Unicode form; separators a learner might
join keys with (``:``, a tab, ``|``); control characters, ``\\r\\n``, lone surrogates and
direction overrides; texts past 4,096 or 65,536 characters; payloads nested 60 deep, with
tuples holding lists, ``True`` where ``1`` would pass, ``-0.0`` and integers past 2**63.

Each strategy draws a few integers and builds its value from them: cheap for hypothesis (a
whole grade has a few seconds), and each integer shrinks towards the plainest choice, so a
failure shrinks to the one odd thing that matters.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

#: Texts for contents, results and extra values: the first is the plainest.
TEXTS = (
    "hi", "", " ", "a b", "\r\n", "line 1\r\nline 2\n", "\t", "\x00", "\x1b[31mred", "\u202eevil",
    "\u200b", "é", "e\u0301", "中文", "🙂", '"quoted" \\ back', '{"n": 1}', '{"n":1}', "42",
    "null", "None", "[1,2]", ' {"b": 1, "a": 2} ', '"\\u00e9"', "1.0e3", "\ud800", "a\ud800b",
    "\ud83d\ude42", "ﬁ", "\u2028", "\u2029", "\x85", "a" * 4097, "ab" * 3000, "x" * 70_000,
    "\r\n" * 1000,
)  # fmt: skip
#: Session ids to start a family from: the first is the plainest.
SESSION_BASES = (
    "a", "b", "sess_a", "A", "ab", "a ", " a", "a:b", "a\tb", "a|b", "a/b", "é", "e\u0301",
    "Å", "Å", "ﬁ", "会话", "🙂", "a\x00", "a\nb", "\u202ea", "x" * 300, "\ud800", "null", "None",
)  # fmt: skip
#: Call ids and tool names besides the plain ``call_N``: spaces, case, any script.
CALL_IDS = (
    "call_1", "Call_1", "CALL_1", "call_1 ", " call_1", "call 1", "c:1", "a:b", "b", "é",
    "e\u0301", "呼叫", "\x00", "call_1\n", "x" * 500, "c" * 60 + "1", "c" * 60 + "2", "null",
)  # fmt: skip
NAMES = ("search", "get weather", "query_order_count", "工具", "a.b", "x" * 200, " ")
#: Tool arguments are stored as given: JSON in any spelling, and text that is not JSON.
ARGUMENTS = (
    "{}", '{"city": "Paris"}', '{"n":1}', '{"b": 2, "a": 1}', ' {"q": "\\u4e2d"}\n', "",
    "not json", "{", "[1,", "null", '{"deep": ' * 30 + "1" + "}" * 30, "x" * 5000,
    '{"text": "' + "y" * 70_000 + '"}',
)  # fmt: skip
#: Keys of extra payload entries: some are the keys of a chat message, which replay must not
#: copy; some look like the kernel's tags; ``call_id`` on a message is no call.
EXTRA_KEYS = (
    "meta", "name", "role", "tool_calls", "id", "type", "function", "tool_call_id", "call_id",
    "", "$ref", "$tuple", "é", "k\x00", "x" * 100, "Meta", "KEY",
)  # fmt: skip
_INTS = (0, 1, -1, 7, 2**31, 2**63, 2**70, -(2**63) - 1, 10**30)
_FLOATS = (1.5, 0.0, -0.0, 0.1, 1e300, -2.5e-300, 3.0)
_LEAVES: tuple[Any, ...] = (*_INTS, *_FLOATS, True, False, None, "v", "", "\r\n", "\ud800")


def unwrapped(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """The strategy a lazy one stands for: hypothesis would otherwise unwrap it again at
    every draw (it keeps what it unwrapped only while one draw lasts)."""
    return getattr(strategy, "wrapped_strategy", strategy)


@functools.cache
def ints(low: int, high: int) -> st.SearchStrategy[int]:
    """``st.integers(low, high)``, built once: inside a composite strategy, building a new
    strategy at every draw costs hypothesis more than the draw itself."""
    return unwrapped(st.integers(low, high))


def index(options: tuple[Any, ...] | list[Any]) -> st.SearchStrategy[int]:
    """An index into ``options``; 0, the plainest, is what it shrinks to."""
    return st.integers(0, len(options) - 1)


_TEXT_CHOICE = st.integers(0, len(TEXTS) + 3)
_ANY_TEXT = st.text(max_size=8)


def draw_text(draw: st.DrawFn) -> str:
    """A content: from :data:`TEXTS` mostly (one draw), any short text now and then."""
    choice = draw(_TEXT_CHOICE)
    return TEXTS[choice] if choice < len(TEXTS) else draw(_ANY_TEXT)


# --- session ids: families of near twins ------------------------------------------------
def _nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


def _nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


#: Ways to make an id that is almost ``text``: each is a different session.
TWINS: tuple[Callable[[str], str], ...] = (
    lambda text: text.upper() if text.upper() != text else text.lower() or text + "A",
    lambda text: text + "b",
    lambda text: text[:-1] if len(text) > 1 else text + text,
    lambda text: text + " ",
    lambda text: " " + text,
    lambda text: (
        _nfd(text) if _nfd(text) != text else _nfc(text) if _nfc(text) != text else text + "\u0301"
    ),
    lambda text: text + ":x",
    lambda text: text + "\t",
    lambda text: text + "\x00",
    lambda text: text + "/x",
    lambda text: text + "|x",
    lambda text: text + "x",
    lambda text: text + "y" * 64,
    lambda text: text.casefold() + "ß" if "ß" not in text else text.replace("ß", "ss"),
)


@st.composite
def session_family(draw: st.DrawFn, most: int = 4) -> list[str]:
    """One to ``most`` distinct session ids, often twins of each other.

    Each id costs the same three draws whatever they give (an id that is already taken is
    made new by a suffix, not drawn again), so generating one never loops.
    """
    family: list[str] = []
    for _ in range(draw(ints(1, most))):
        how = draw(ints(0, 3))
        choice = draw(ints(0, 63))
        if how == 0 or not family:
            candidate = SESSION_BASES[choice % len(SESSION_BASES)]
        elif how == 3:
            candidate = "".join(
                chr(0x20 + (choice * 7 + n * 13) % 0x2F0) for n in range(1 + choice % 6)
            )
        else:
            base = family[choice % len(family)]
            candidate = TWINS[(choice // 4) % len(TWINS)](base)
        while not candidate or candidate in family:
            candidate += "'"
        family.append(candidate)
    return family


# --- payload data -----------------------------------------------------------------------
#: How wide each level of a nested value is: mostly a few items, sometimes 300 (past the
#: 50, 100, 128 and 256 where a copy that gives up on long lists would stop).
WIDTHS = (1, 2, 3, 300)


def data(deep: bool = False) -> st.SearchStrategy[Any]:
    """One JSON-like value from a single draw: a leaf, or containers (list, tuple, dict)
    nested up to 8 deep, or (``deep``) up to 150. The draw's digits are, lowest first: the
    depth, the width, the leaf, the container at each level (two bits each)."""
    depths = 151 if deep else 9
    size = depths * len(WIDTHS) * len(_LEAVES) * 2**12
    return st.integers(0, size - 1).map(lambda n: _value(n, depths))


def _value(number: int, depths: int) -> Any:
    number, depth = divmod(number, depths)
    number, width = divmod(number, len(WIDTHS))
    kinds, leaf = divmod(number, len(_LEAVES))
    return nested(depth, kinds, _LEAVES[leaf], WIDTHS[width])


def nested(depth: int, kinds: int, leaf: Any, width: int) -> Any:
    """``leaf`` inside ``depth`` containers, each ``width`` wide; bits of ``kinds`` pick each
    level's container: a list, a tuple holding lists, a dict with keys of mixed case."""
    value = leaf
    for level in range(depth):
        kind = (kinds >> (2 * (level % 6))) & 3
        if kind == 0:
            value = [value, *["x"] * (width - 1)]
        elif kind == 1:
            value = (value, *([] for _ in range(width - 1)))  # a tuple holding lists
        else:
            value = {"D" if kind == 3 else "d": value, **{f"Key{n}": n for n in range(width - 1)}}
    return value


@st.composite
def extras(draw: st.DrawFn, most: int = 3, deep: bool = False) -> dict[str, Any]:
    """Extra payload entries: 0 to ``most`` keys, each from :data:`EXTRA_KEYS` (or, now and
    then, any text), each with a :func:`data` value."""
    entries: dict[str, Any] = {}
    values = _DEEP_DATA if deep else _DATA
    for _ in range(draw(ints(0, most))):
        choice = draw(_KEY_CHOICE)
        key = EXTRA_KEYS[choice] if choice < len(EXTRA_KEYS) else draw(_ANY_TEXT)
        entries[key] = draw(values)
    return entries


_KEY_CHOICE = st.integers(0, len(EXTRA_KEYS))
_DATA = unwrapped(data())
_DEEP_DATA = unwrapped(data(deep=True))


#: What :func:`lightened` keeps: the characters that make a text odd sit at its start.
LIGHT_TEXT = 64
LIGHT_ITEMS = 3


def lightened(value: Any, cut_texts: bool = True) -> Any:
    """``value`` cut short: texts to their first :data:`LIGHT_TEXT` characters (unless not
    ``cut_texts``), containers to their first :data:`LIGHT_ITEMS` items, at every depth;
    types and odd characters stay."""
    if isinstance(value, str):
        return value[:LIGHT_TEXT] if cut_texts else value
    if isinstance(value, dict):
        items = list(value.items())[:LIGHT_ITEMS]
        return {key: lightened(item, cut_texts) for key, item in items}
    if isinstance(value, list | tuple):
        return type(value)(lightened(item, cut_texts) for item in value[:LIGHT_ITEMS])
    return value


@functools.cache
def extras_of(deep: bool) -> st.SearchStrategy[dict[str, Any]]:
    """:func:`extras`, built once for each depth."""
    return unwrapped(extras(deep=deep))
