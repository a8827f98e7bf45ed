"""The workers take the dearest test files first: durations read from a run's output, files
ordered by them (a new file by its tiers), each file kept whole and in its own order."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests import scheduling

LOG = """\
============================= slowest durations ==============================
259.37s setup    tests/grader/test_smallest_case.py::test_no_reduction[ids_start_at_zero]
1.50s call     tests/grader/test_smallest_case.py::test_no_reduction[ids_start_at_zero]
0.75s teardown tests/store/test_x.py::test_y
2.00s call     tests/store/test_x.py::TestClass::test_z[sqlite]
= 3821 passed in 1708.52s (0:28:28) =
"""


@dataclass
class FakeItem:
    nodeid: str
    marks: tuple[str, ...] = ()
    path: Path = field(default_factory=Path)

    def iter_markers(self) -> list[pytest.Mark]:
        return [pytest.Mark(name, (), {}) for name in self.marks]


def test_durations_sum_every_phase_of_every_test_of_a_file() -> None:
    assert scheduling.durations_of(LOG) == {
        "tests/grader/test_smallest_case.py": 260.9,
        "tests/store/test_x.py": 2.8,
    }


def test_the_dearest_file_goes_first_and_each_file_keeps_its_order(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    durations = tmp_path / "durations.json"
    durations.write_text(json.dumps({"tests/cheap.py": 1.0, "tests/dear.py": 300.0}))
    monkeypatch.setattr(scheduling, "DURATIONS", durations)
    items: list[Any] = [
        FakeItem("tests/cheap.py::test_a"),
        FakeItem("tests/cheap.py::test_b"),
        FakeItem("tests/new.py::test_c", ("slow",)),  # unnamed: 30 s by its tier
        FakeItem("tests/dear.py::test_d"),
        FakeItem("tests/dear.py::test_e"),
        FakeItem("tests/plain_new.py::test_f"),
    ]
    scheduling.pytest_collection_modifyitems(items)
    assert [item.nodeid for item in items] == [
        "tests/dear.py::test_d",
        "tests/dear.py::test_e",
        "tests/new.py::test_c",
        "tests/cheap.py::test_a",
        "tests/cheap.py::test_b",
        "tests/plain_new.py::test_f",
    ]


def test_xdist_keeps_the_order_made(pytestconfig: pytest.Config) -> None:
    if not hasattr(pytestconfig.option, "loadscopereorder"):
        pytest.skip("xdist is not installed")
    assert pytestconfig.option.loadscopereorder is False


def test_the_kept_durations_name_files_that_exist() -> None:
    root = Path(scheduling.__file__).resolve().parents[1]
    kept = json.loads(scheduling.DURATIONS.read_text())
    assert sorted(name for name in kept if not (root / name).is_file()) == []
