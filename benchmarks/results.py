"""Everything one benchmark run measured, in one value the report and the charts read."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from benchmarks.chat_bench import ChatFigures, SkippedSize
from benchmarks.grading import GradingFigures
from benchmarks.http_bench import HttpFigures
from benchmarks.peers import PeerFigures
from benchmarks.postgres_bench import PostgresFigures
from benchmarks.pure_core import CorePoint
from benchmarks.read_paths import ReadPath
from benchmarks.scaling import ReplayPoint
from benchmarks.stream_bench import StreamFigures
from benchmarks.systems import LoadedSystem, SkippedSystem


@dataclass(frozen=True, slots=True)
class Results:
    """One run's figures, plus what is needed to read them honestly.

    Attributes:
        quick: True for ``--quick`` (small sizes: a smoke run, not figures to quote).
        systems: the systems that ran, in table order.
        skipped_systems: systems that could not run here, with the reason.
        chat: append/read figures, one per system and session size.
        skipped_sizes: sizes a system was not asked for (its limit), with the reason.
        read_paths: our store's read paths timed on one session of the largest size.
        replay: replay time of one session against database size.
        core: the pure core's costs against log size.
        seconds: wall time of the whole run.
        load_average: the machine's 1-minute load average at the start and at the end.
        http: the service measured over HTTP; None when that section did not run.
        streams: the event stream measured over HTTP; None when that section did not run.
        postgres: the PostgreSQL section; None when it did not run.
        peers: the peer goals (the SDK's session, the floor, read-all); None when not run.
        grading: what grading costs (the reference, a class, the browser); None when not run.
    """

    quick: bool
    systems: list[LoadedSystem]
    skipped_systems: list[SkippedSystem]
    chat: list[ChatFigures]
    skipped_sizes: list[SkippedSize]
    read_paths: list[ReadPath]
    replay: list[ReplayPoint]
    core: list[CorePoint]
    seconds: float
    load_average: tuple[float, float]
    http: HttpFigures | None = None
    streams: StreamFigures | None = None
    postgres: PostgresFigures | None = None
    peers: PeerFigures | None = None
    grading: GradingFigures | None = None

    def sizes(self) -> list[int]:
        """The session sizes measured, smallest first."""
        return sorted({figures.messages for figures in self.chat})

    def figures(self, system: str, messages: int) -> ChatFigures | None:
        """The figures of ``system`` at ``messages`` messages, or None if it did not run."""
        for figures in self.chat:
            if figures.system == system and figures.messages == messages:
                return figures
        return None

    def ours_like(self, figures: ChatFigures) -> ChatFigures | None:
        """Our figures at the same size and synchronous setting: the fair baseline."""
        for name in self.names_with_role("ours"):
            ours = self.figures(name, figures.messages)
            if ours is not None and ours.durability.synchronous == figures.durability.synchronous:
                return ours
        return None

    def names_with_role(self, role: str) -> list[str]:
        """The names of the systems that ran with this role, in table order."""
        return [system.name for system in self.systems if system.entry.role == role]

    def write_json(self, path: Path) -> None:
        """Write every figure as JSON, for anyone who wants to plot or compare them later."""
        path.write_text(json.dumps(self._as_json(), indent=2) + "\n", encoding="utf-8")

    def _as_json(self) -> dict[str, Any]:
        return {
            "quick": self.quick,
            "systems": [_system_json(system) for system in self.systems],
            "skipped_systems": [asdict(skipped) for skipped in self.skipped_systems],
            "chat": [asdict(figures) for figures in self.chat],
            "skipped_sizes": [asdict(skipped) for skipped in self.skipped_sizes],
            "read_paths": [asdict(path) for path in self.read_paths],
            "replay_scaling": [asdict(point) for point in self.replay],
            "pure_core": [asdict(point) for point in self.core],
            "http": None if self.http is None else asdict(self.http),
            "streams": None if self.streams is None else asdict(self.streams),
            "postgres": None if self.postgres is None else asdict(self.postgres),
            "peers": None if self.peers is None else asdict(self.peers),
            "grading": None if self.grading is None else asdict(self.grading),
            "seconds": self.seconds,
            "load_average": list(self.load_average),
        }


def _system_json(system: LoadedSystem) -> dict[str, Any]:
    return {"name": system.name, "role": system.entry.role, **asdict(system.info)}
