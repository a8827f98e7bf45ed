"""Smaller versions of plain values: the steps the shrinker takes inside an example's data.

Each function gives candidates for one value, the biggest cut first, and only values that
are strictly simpler (see :func:`grader.engine.shrink.measure`): a string halved, an int
with fewer bits, a container flattened or with fewer items, a ``str`` subclass as a plain
``str``, a read-only mapping as a ``dict``. Nothing here knows what an example means: whether
a candidate is still a valid example is decided by the caller (the oracle, for programs).

Candidates inside data come as *builders* (functions of no arguments): a payload nested 150
deep has hundreds of candidates, and only the few that are tried need to be built.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

Item = TypeVar("Item")
Builder = Callable[[], Any]

#: How deep into nested data single items are shrunk: deeper down, a value is only
#: flattened or cut as a whole (walking 150 levels for every candidate would cost more than
#: the runs it saves; halving the nesting first brings the rest within reach).
LEVELS = 8
#: Past this many items, a sequence of data is cut by halves and quarters and shorter tails
#: only, and only its first items are shrunk one by one: trying each of the 300 items of a
#: wide list would cost 300 runs of the learner's code.
FEW = 16


def shorter_texts(text: str) -> Iterator[str]:
    """A subclass of ``str`` as a plain one; then the first half, the second half; then, for
    a long text, prefixes that each drop less (3/4, 7/8, ...) down to one character less, so
    that a failure that needs N characters shrinks to N, not to a power of two above it; and
    the text without its middle (its first and last quarter, eighth, ..., character), which
    keeps what frames it: ``'{"text": "yyyy"}'`` becomes ``'{"text": "yy"}'``, still JSON."""
    kind = type(text)
    if kind is not str:
        yield str.__str__(text)
    size = len(text)
    if size == 0:
        return
    cuts = [text[: size // 2], text[size // 2 :]]
    if size >= FEW:
        powers = range(2, size.bit_length() + 1)
        cuts += [text[: size - size // 2**power] for power in powers]
        cuts.append(text[:-1])
        cuts += [text[: size // 2**power] + text[size - size // 2**power :] for power in powers]
    for cut in dict.fromkeys(cuts):
        if len(cut) < size:
            yield cut if kind is str else kind(cut)


def smaller_ints(number: int) -> Iterator[int]:
    """Zero; then the plainest number as long (its highest bit alone: a bug that needs 4,097
    bits is shown as ``2**4096``, in one step, not one bit at a time); then the number
    without one of its set bits (a mask without one of its flags), highest first; then its
    magnitude with half its bits (``2**70`` -> ``2**35``)."""
    if number == 0:
        return
    yield 0
    magnitude, sign = abs(number), (1 if number > 0 else -1)
    bits = [bit for bit in range(magnitude.bit_length()) if magnitude >> bit & 1]
    if len(bits) > 1:
        yield sign * (1 << bits[-1])
        for bit in reversed(bits):
            yield sign * (magnitude & ~(1 << bit))
    halved = magnitude >> ((magnitude.bit_length() + 1) // 2)
    if halved:
        yield sign * halved


def cuts(size: int, every_item: bool = False) -> list[tuple[int, int]]:
    """The ranges ``[start, end)`` to cut from a sequence of ``size`` items: each half, each
    quarter, and so on down to each single item (the only one, too). A long sequence of data
    (past :data:`FEW` items, unless ``every_item``) loses only its halves and quarters, then
    shorter and shorter tails, down to its last item."""
    if size == 1:
        return [(0, 1)]
    found: list[tuple[int, int]] = []
    chunk = size // 2
    while chunk >= 1:
        found += [(start, min(size, start + chunk)) for start in range(0, size, chunk)]
        if size > FEW and not every_item and chunk <= size // 4:
            found += [(size - size // 2**power, size) for power in range(3, size.bit_length())]
            found.append((size - 1, size))
            break
        chunk //= 2
    return [cut for cut in dict.fromkeys(found) if cut[1] - cut[0] < size or size == 1]


def shorter_sequences(items: Sequence[Item], every_item: bool = False) -> Iterator[list[Item]]:
    """``items`` without each of its :func:`cuts`."""
    for start, end in cuts(len(items), every_item):
        yield [*items[:start], *items[end:]]


def simpler_data(value: Any) -> Iterator[Any]:
    """Simpler versions of one JSON-like value (see :func:`data_builders`)."""
    for build in data_builders(value):
        built = build()
        if built is not None:
            yield built


def data_builders(value: Any, levels: int = LEVELS) -> Iterator[Builder]:
    """Builders of simpler versions of one JSON-like value (payload data): flattened, with
    fewer items or keys, with its texts and numbers shrunk; a list stays a list and a tuple
    a tuple, a read-only mapping becomes a ``dict``. A builder may give None (no such
    version: a container without children has nothing to flatten to)."""
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, str):
        yield from (_just(text) for text in shorter_texts(value))
    elif isinstance(value, int):
        yield from (_just(number) for number in smaller_ints(value))
    elif isinstance(value, float):
        if value != 0.0 or str(value).startswith("-"):
            yield _just(0.0)
    elif isinstance(value, list | tuple):
        yield from _sequence_builders(value, levels)
    elif isinstance(value, Mapping):
        yield from _mapping_builders(value, levels)


def _just(value: Any) -> Builder:
    return lambda: value


def depth(value: Any) -> int:
    """How many containers deep ``value``'s deepest leaf is."""
    children = _children(value)
    return 1 + max(map(depth, children), default=0) if children is not None else 0


def _children(value: Any) -> list[Any] | None:
    """A container's items (a mapping's values); None for a leaf."""
    if isinstance(value, Mapping):
        return list(value.values())
    return list(value) if isinstance(value, list | tuple) else None


def _deepest_child(value: Any) -> Any:
    """One level of nesting less: the container replaced by its deepest child."""
    children = _children(value) or []
    return max(children, key=depth) if children else None


def _halfway(value: Any) -> Any:  # tried before _deepest_child: the bigger cut first
    """Half the nesting: the container found halfway down towards its deepest leaf."""
    inner, steps, levels = value, 0, depth(value)
    while steps < levels // 2 and _children(inner):
        inner, steps = _deepest_child(inner), steps + 1
    return inner if steps > 1 else None


def _sequence_builders(value: list[Any] | tuple[Any, ...], levels: int) -> Iterator[Builder]:
    kind = type(value)
    yield lambda: _halfway(value)
    yield lambda: _deepest_child(value)
    for start, end in cuts(len(value)):
        yield lambda start=start, end=end: kind([*value[:start], *value[end:]])  # type: ignore[misc]
    for index, item in enumerate(value[:FEW] if levels else ()):
        for build in data_builders(item, levels - 1):
            yield _replaced_item(value, index, build)


def _replaced_item(value: list[Any] | tuple[Any, ...], index: int, build: Builder) -> Builder:
    def replaced() -> Any:
        item = build()
        return None if item is None else type(value)([*value[:index], item, *value[index + 1 :]])

    return replaced


def _mapping_builders(value: Mapping[Any, Any], levels: int) -> Iterator[Builder]:
    if type(value) is not dict:
        yield lambda: dict(value)
    yield lambda: _halfway(value)
    yield lambda: _deepest_child(value)
    keys = list(value)
    for start, end in cuts(len(keys)):
        kept = keys[:start] + keys[end:]
        yield lambda kept=kept: {key: value[key] for key in kept}  # type: ignore[misc]
    for key in keys[:FEW] if levels else ():
        if isinstance(key, str):
            for renamed in shorter_texts(key):
                if renamed not in value:
                    yield _renamed_key(value, key, renamed)
        for build in data_builders(value[key], levels - 1):
            yield _replaced_value(value, key, build)


def _renamed_key(value: Mapping[Any, Any], old: Any, new: Any) -> Builder:
    return lambda: {(new if key == old else key): item for key, item in value.items()}


def _replaced_value(value: Mapping[Any, Any], key: Any, build: Builder) -> Builder:
    def replaced() -> Any:
        item = build()
        return None if item is None else {**value, key: item}

    return replaced


def short_names(count: int, taken: set[str]) -> list[str]:
    """``count`` distinct names, shortest first, none of them ``taken``."""
    alphabet = "0123456789abcdefghijklmnopqrstuvwxyz"
    names: list[str] = []
    length = 0
    while len(names) < count:
        length += 1
        for number in range(len(alphabet) ** length):
            name = "".join(
                alphabet[number // len(alphabet) ** i % len(alphabet)] for i in range(length)
            )
            if name not in taken:
                names.append(name)
                if len(names) == count:
                    break
    return names
