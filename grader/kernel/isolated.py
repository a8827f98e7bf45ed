"""The kernel's classes that learner code gets hold of, built apart from the kernel.

A method's ``__globals__`` is the namespace its class was defined in. Learner code that is
handed an instance (a payload, a session id, ``sys.stdout``) can reach that namespace through
``type(value).method.__globals__``. So these classes are defined in namespaces of their own,
holding nothing but the class: reaching one reaches nothing of the kernel, and changing one
changes only how learner code sees its own arguments.
"""

from __future__ import annotations

_READ_ONLY_MAPPING = '''
from collections.abc import Mapping

class ReadOnlyMapping(Mapping):
    """A payload that is a Mapping but not a dict: what the contract's "any mapping" allows."""

    def __init__(self, items):
        self._items = dict(items)

    def __getitem__(self, key):
        return self._items[key]

    def __iter__(self):
        return iter(self._items)

    def __len__(self):
        return len(self._items)

    def __repr__(self):
        return f"ReadOnlyMapping({self._items!r})"
'''

_TEXT = '''
class Text(str):
    """A subclass of str: a valid session id, like any other str."""

    __slots__ = ()
'''

_CAPTURE = '''
class Capture:
    """What learner code prints: the first ``limit`` characters since the last take."""

    def __init__(self, limit):
        self.limit = limit
        self.parts = []
        self.size = 0

    def write(self, text):
        text = str(text)
        room = self.limit - self.size
        if room > 0:
            kept = text[:room]
            self.parts.append(kept)
            self.size += len(kept)
        return len(text)

    def flush(self):
        pass

    def writable(self):
        return True

    def isatty(self):
        return False

    def take(self):
        taken = "".join(self.parts)
        self.parts = []
        self.size = 0
        return taken
'''


def _build(source: str, name: str) -> type:
    # A builtins dict of its own too: the kernel's would be reachable (and changeable) from
    # the class's methods otherwise.
    kernel_builtins = __builtins__ if isinstance(__builtins__, dict) else vars(__builtins__)
    space: dict[str, object] = {"__name__": "grading_values", "__builtins__": dict(kernel_builtins)}
    exec(compile(source, f"<grading:{name}>", "exec"), space)
    built = space[name]
    assert isinstance(built, type)
    return built


def _build_functions(source: str, names: dict[str, object]) -> dict[str, object]:
    """The functions ``source`` defines, in a namespace of their own holding only ``names``
    (learner code handed one of them reaches these names and nothing else of the kernel)."""
    kernel_builtins = __builtins__ if isinstance(__builtins__, dict) else vars(__builtins__)
    space: dict[str, object] = {"__name__": "grading_values", "__builtins__": dict(kernel_builtins)}
    space.update(names)
    exec(compile(source, "<grading:functions>", "exec"), space)
    return space


ReadOnlyMapping = _build(_READ_ONLY_MAPPING, "ReadOnlyMapping")
Text = _build(_TEXT, "Text")
Capture = _build(_CAPTURE, "Capture")
