"""How one grading runs: every setting once, with its default and its help.

The command line (``python -m grader``), the batch and the Gradescope autograder build their
options from :data:`FIELDS`, so a setting's default and meaning are written here only.
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from grader.i18n import text


def _setting(default: Any, flag: str, help_id: str, metavar: str | None = None) -> Any:
    return field(default=default, metadata={"flag": flag, "help": help_id, "metavar": metavar})


@dataclass(frozen=True)
class Settings:
    """Time limits (seconds), isolation and resources of one grading.

    Examples, tasks, the whole submission and the import are limited in CPU time, so that a
    grade is the same on a busy machine as on an idle one (see
    :class:`grader.engine.learner.Clock`); the submission's share is a backstop for one
    learner (300 s) and a promise for a class (the batch gives each submission 30 s)."""

    example_seconds: float = _setting(5.0, "--time-limit", "settings.example_seconds", "SECONDS")
    task_seconds: float = _setting(30.0, "--task-time-limit", "settings.task_seconds", "SECONDS")
    submission_seconds: float = _setting(
        300.0, "--submission-time-limit", "settings.submission_seconds", "SECONDS"
    )
    load_seconds: float = _setting(7.0, "--load-time-limit", "settings.load_seconds", "SECONDS")
    isolation: str = _setting("auto", "--isolation", "settings.isolation")
    memory_mb: int = _setting(1024, "--memory-mb", "settings.memory_mb", "MIB")
    cpu_seconds: int = _setting(60, "--cpu-seconds", "settings.cpu_seconds", "SECONDS")

    def replace(self, **changes: Any) -> Settings:
        return dataclasses.replace(self, **changes)


ISOLATIONS = ("auto", "bwrap", "uid", "none")


def add_options(
    parser: argparse.ArgumentParser, names: Iterable[str], defaults: Settings | None = None
) -> None:
    """Add the settings ``names`` to ``parser``, each with its flag, default and help
    (``defaults``: a front end's own, such as the batch's shorter budget per submission)."""
    defaults = defaults or Settings()
    for item in dataclasses.fields(Settings):
        if item.name not in names:
            continue
        default = getattr(defaults, item.name)
        options: dict[str, Any] = {
            "dest": item.name,
            "default": default,
            "help": text(item.metadata["help"], default=default),
        }
        if item.name == "isolation":
            options["choices"] = ISOLATIONS
        else:
            options["type"] = type(default)
            options["metavar"] = item.metadata["metavar"]
        parser.add_argument(item.metadata["flag"], **options)


def from_arguments(arguments: argparse.Namespace) -> Settings:
    """The settings a parsed command line asked for (the others keep their defaults)."""
    names = {item.name for item in dataclasses.fields(Settings)}
    chosen = {name: value for name, value in vars(arguments).items() if name in names}
    return Settings(**chosen)
