"""Loading the systems: a missing framework is skipped with its reason, never faked."""

from __future__ import annotations

import importlib
from types import ModuleType

from benchmarks.systems import SYSTEMS, SystemEntry, load_systems

_OURS, _FRAMEWORK = SYSTEMS[0], SystemEntry("Framework X", "x_adapter", "framework-x", "framework")


def _import_without_framework_x(name: str) -> ModuleType:
    if name.endswith(".x_adapter"):
        raise ModuleNotFoundError("No module named 'framework_x'", name="framework_x")
    return importlib.import_module(name)


def test_a_system_whose_package_is_missing_is_skipped_with_an_install_hint() -> None:
    loaded, skipped = load_systems([_OURS, _FRAMEWORK], _import_without_framework_x)
    assert [system.name for system in loaded] == [_OURS.name]
    (missing,) = skipped
    assert missing.name == "Framework X"
    assert "framework-x is not installed" in missing.reason
    assert "pip install -e '.[bench]'" in missing.reason


def test_a_system_that_fails_as_it_is_imported_is_skipped_with_the_error() -> None:
    def import_wanting_a_key(name: str) -> ModuleType:
        raise RuntimeError("FRAMEWORK_X_API_KEY is not set")

    _, skipped = load_systems([_FRAMEWORK], import_wanting_a_key)
    assert "FRAMEWORK_X_API_KEY is not set" in skipped[0].reason


def test_ours_and_the_raw_floor_need_no_extra_package() -> None:
    loaded, skipped = load_systems([entry for entry in SYSTEMS if entry.package is None])
    assert not skipped
    assert {system.entry.role for system in loaded} == {"ours", "floor"}
