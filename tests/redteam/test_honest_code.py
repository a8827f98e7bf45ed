"""What an honest solution may do still works under the guard, in every isolation.

The guard refuses a great deal, and replaces a few functions of the interpreter (how a
built-in module is built, how a thread starts): a correct file must not notice. This file
imports every module of the standard library a solution might want (built-in ones, which
the guard's replacement builds, and extension ones, among them ``_elementtree``, whose
start-up imports ``pyexpat``), and uses the ones that look at frames (namedtuple, enum,
typing, logging, warnings), and must be graded, not reported. ``faulthandler`` is not among
them: it is refused (see :mod:`grader.kernel.refusals`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.engine.outcomes import Verdict
from grader.run import grade
from grader.settings import Settings
from grader.tasks import select
from tests.redteam.conftest import need, need_bwrap, need_root, uid_usable
from tests.redteam.hostile import CORRECT_BODY

MODULES = (
    "_bisect", "_csv", "_datetime", "_elementtree", "_heapq", "_md5", "_pickle", "_random",
    "_sha256", "_statistics", "_struct", "array", "binascii", "cmath", "math", "pyexpat",
    "unicodedata", "zlib", "errno", "warnings", "uuid", "datetime", "pickle", "csv",
    "xml.etree.ElementTree", "statistics", "hashlib", "random", "struct", "decimal",
    "fractions", "heapq", "bisect", "json", "copy", "dataclasses", "typing", "enum",
    "collections", "functools", "itertools", "operator", "types", "re", "string", "textwrap",
)  # fmt: skip
HONEST = f"""
import collections, enum, importlib, logging, os, typing

failed = []
for name in {MODULES!r}:
    try:
        importlib.import_module(name)
    except Exception as error:
        failed.append((name, repr(error)))
try:
    collections.namedtuple("Pair", "a b")(1, 2)
    enum.Enum("Colour", "RED GREEN").RED
    typing.TypeVar("T")
    logging.getLogger("honest").warning("a warning")
    import uuid, warnings
    uuid.uuid4(), uuid.uuid1()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.warn("deprecated", DeprecationWarning, stacklevel=2)
    assert [str(w.message) for w in caught] == ["deprecated"], caught
except Exception as error:
    failed.append(("frames", repr(error)))
os.write(2, ("FAILED %r\\n" % (failed,)).encode())
"""


@pytest.mark.parametrize("mode", ["none", "bwrap", "uid"])
def test_honest_imports_and_the_stdlib_s_frame_users_work_in_every_isolation(
    mode: str, tmp_path: Path
) -> None:
    if mode == "bwrap":
        need_bwrap()
    if mode == "uid":
        need_root()
        need(uid_usable(), "uid isolation has no interpreter other users can read here")
    target, log = tmp_path / "honest.py", tmp_path / "honest.log"
    target.write_text(HONEST + CORRECT_BODY)
    report = grade(str(target), select(["list_sessions"]), Settings(isolation=mode), log=log)
    assert "FAILED []" in log.read_text(), log.read_text()[-2000:]
    assert (report.verdict, report.reports) == (Verdict.GRADED, ())
