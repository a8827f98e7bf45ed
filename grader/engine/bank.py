"""The examples bank: every property's examples, built once per grader version.

The examples are fixed (hypothesis is pinned, derandomized and seeded per property), so
drawing them, building their plans and working out what a correct implementation answers
happens once, when the grader changes (``python -m maintainer.bank``), not at every grade.
Each task's folder holds its bank: for each property, its examples in order (the boundary
programs first), each as the value its ``build`` takes, the steps its plan sends, and the
digest of what a correct implementation answers at each step (see :mod:`grader.kernel.digest`).
A grade sends a property's examples in one message and compares digests; only an example
whose digests differ is asked again in full and judged (see :mod:`grader.engine.running`).

A bank records the fingerprint of the sources it was built from. A stale one (a contributor
changed the examples, the plans or the kernel) is not used: the grade then draws the
examples live and judges every answer in full, which gives the same verdicts, slower.
"""

from __future__ import annotations

import hashlib
import marshal
import pickle
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any

GRADER = Path(__file__).resolve().parent.parent
#: What a bank depends on: the engine (plans, steps, oracle, examples), the kernel (how answers
#: are observed and digested), the tasks (properties, boundary programs) and the pinned
#: hypothesis (which draws the examples).
SOURCES = ("engine", "kernel", "tasks", "values.py", "pins.py")
BANK_NAME = "bank.z"
FORMAT = 3


@dataclass(frozen=True)
class BankExample:
    """One example of one property, as the builder makes it.

    Attributes:
        value: what the property's ``build`` turns into a plan.
        steps: the plan's request, as the kernel reads it.
        digests: per step, the digest of what a correct implementation answers (hex, 16
            characters a step, concatenated).
    """

    value: Any
    steps: tuple[tuple[Any, ...], ...]
    digests: str


class BankedProperty:
    """One property's examples, stored as a grade uses them: the request already marshalled
    (sent as it is), the digests, and the example values pickled and compressed apart
    (decompressed and unpickled only when an example fails and must be judged in full or
    shrunk). A correct file's grade never reads them: they are half of a bank's bytes, so
    keeping them compressed halves what every grade decompresses."""

    def __init__(self, request: bytes, digests: tuple[str, ...], values: bytes) -> None:
        self.request, self.digests, self._values = request, digests, values

    def __len__(self) -> int:
        return len(self.digests)

    @cached_property
    def values(self) -> list[Any]:
        values: list[Any] = pickle.loads(zlib.decompress(self._values))
        return values

    @classmethod
    def of(cls, examples: Sequence[BankExample]) -> BankedProperty:
        request = marshal.dumps([list(example.steps) for example in examples])
        digests = tuple(example.digests for example in examples)
        values = pickle.dumps([example.value for example in examples], protocol=5)
        return cls(request, digests, zlib.compress(values, 9))


@cache
def fingerprint() -> str:
    """A digest of the sources every bank depends on (the pinned hypothesis among them)."""
    digest = hashlib.sha256(f"format {FORMAT}\n".encode())
    for name in SOURCES:
        root = GRADER / name
        files = sorted(root.rglob("*.py")) if root.is_dir() else [root]
        for path in files:
            digest.update(str(path.relative_to(GRADER)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def path_of(task_id: str) -> Path:
    return GRADER / "tasks" / task_id / BANK_NAME


@cache
def load(task_id: str) -> dict[str, BankedProperty] | None:
    """The task's examples by property name, or None when its bank is missing or stale."""
    try:
        stored = marshal.loads(zlib.decompress(path_of(task_id).read_bytes()))
    except (OSError, zlib.error, ValueError, EOFError, TypeError):
        return None
    if not isinstance(stored, dict) or stored.get("fingerprint") != fingerprint():
        return None
    return {
        name: BankedProperty(request, tuple(digests), values)
        for name, (request, digests, values) in stored["properties"].items()
    }


def save(task_id: str, properties: dict[str, Sequence[BankExample]]) -> Path:
    """Write a task's bank (the maintainer's builder does)."""
    banked = {name: BankedProperty.of(examples) for name, examples in properties.items()}
    stored = {
        "fingerprint": fingerprint(),
        "properties": {
            name: (entry.request, list(entry.digests), entry._values)
            for name, entry in banked.items()
        },
    }
    path = path_of(task_id)
    path.write_bytes(zlib.compress(marshal.dumps(stored), 9))
    return path
