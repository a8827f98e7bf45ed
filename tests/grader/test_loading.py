"""Loading targets: files under unique module names, clear errors, nothing left behind."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from grader.loading import TargetError, load_target
from tests.grader.conftest import CORPUS

SOURCE = CORPUS / "correct" / "c07_tuple_log.py"


def test_two_files_with_the_same_name_load_as_two_separate_modules(tmp_path: Path) -> None:
    first, second = tmp_path / "one" / "solution.py", tmp_path / "two" / "solution.py"
    for path, marker in ((first, "first"), (second, "second")):
        path.parent.mkdir()
        source = SOURCE.read_text(encoding="utf-8")
        path.write_text(source + f"\nMARKER = {marker!r}\n", encoding="utf-8")
    one, two = load_target(str(first)), load_target(str(second))
    module_one = sys.modules[one.functions["list_sessions"].__module__]
    module_two = sys.modules[two.functions["list_sessions"].__module__]
    assert (module_one.MARKER, module_two.MARKER) == ("first", "second")
    assert "solution" not in sys.modules


def test_a_missing_function_is_named_in_the_error(
    write_target: Callable[[str, str], Path],
) -> None:
    path = write_target("partial.py", "def create_event_log():\n    return ()\n")
    with pytest.raises(TargetError, match="append_event, get_events_for_session"):
        load_target(str(path))


def test_learner_frames_are_found_in_a_package_target() -> None:
    target = load_target("exercises")
    assert target.owns(str(Path(target.roots[0]) / "event_log.py"))
    assert not target.owns(__file__)
