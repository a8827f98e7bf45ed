"""The kit's layers, written once: which modules form each layer, and whom each may import.

Read a row as "modules under these prefixes may import their own layer and the layers named
in ``may_import``, and nothing else of the kit". A module belongs to the layer with the
longest prefix that matches it; a module no row claims is itself a failure (a new package
says where it stands). Libraries are allowed unless a row forbids them.

The rules the rows encode:

* the pure core (``eventlog``, ``exercises``, ``solutions``) imports no I/O: no ``sqlite3``,
  ``http``, ``os`` and the like (:data:`IO_LIBRARIES`), and nothing of the rest of the kit;
* the grader's kernel runs alone in the learner's interpreter: it imports nothing of the kit
  but itself;
* the grader's engine judges: it never imports a transport, the tasks' words or a front end;
  a transport implements the engine's ports, so it may import the engine;
* base layers never import front ends (the command lines, the server, the site, the batch);
* ``grader`` never imports ``sqlite_demo``; of the grader, ``sqlite_demo`` imports only
  ``grader.i18n``, the kit's one language machinery (a choice of language holds for both);
* nothing but ``maintainer`` (and the tests) imports ``maintainer``, at run time or for types:
  a learner's copy has no ``maintainer/``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

#: What the pure core must not import: files, processes, sockets, clocks and databases.
IO_LIBRARIES: Final = frozenset(
    {
        "asyncio", "datetime", "http", "io", "multiprocessing", "os", "pathlib", "random",
        "shutil", "socket", "sqlite3", "ssl", "subprocess", "sys", "tempfile", "threading",
        "time", "urllib",
    }
)  # fmt: skip


@dataclass(frozen=True)
class Layer:
    """One row of the table.

    Attributes:
        name: how failures name the layer.
        prefixes: the dotted module names (and everything under them) it holds.
        may_import: the other layers its modules may import.
        forbidden_libraries: top-level library names its modules must not import.
    """

    name: str
    prefixes: tuple[str, ...]
    may_import: tuple[str, ...] = ()
    forbidden_libraries: frozenset[str] = frozenset()


GRADER_BELOW_FRONTENDS: Final = (
    "grader words", "grader engine", "grader tasks", "grader i18n", "grader settings",
    "grader transport", "grader run",
)  # fmt: skip

LAYERS: Final = (
    # The pure core: the rules and the fold, the learner's stubs, the reference.
    Layer("eventlog", ("eventlog",), (), IO_LIBRARIES),
    Layer("exercises", ("exercises",), ("eventlog",), IO_LIBRARIES),
    Layer("solutions", ("solutions",), ("eventlog",), IO_LIBRARIES),
    # The grader, bottom up.
    Layer(
        "grader words",
        (
            "grader.values",
            "grader.pins",
            "grader.i18n.texts",
            "grader.i18n.glossary",
            "grader.i18n.edition",
        ),
    ),
    Layer("grader kernel", ("grader.kernel",)),
    Layer("grader engine", ("grader.engine",), ("grader words",)),
    Layer("grader tasks", ("grader.tasks",), ("grader engine", "grader words")),
    # The catalog gathers each task's words from its folder.
    Layer("grader i18n", ("grader.i18n",), ("grader words", "grader tasks")),
    Layer("grader settings", ("grader.settings",), ("grader i18n",)),
    # A transport is an adapter of the engine's ports (``engine.learner``): it may import the
    # engine; the engine never imports it.
    Layer("grader transport", ("grader.transport",), ("grader kernel", "grader engine")),
    Layer(
        "grader run",
        ("grader.run",),
        ("grader engine", "grader tasks", "grader settings", "grader transport", "grader words"),
    ),
    Layer("grader frontends", ("grader.frontends",), GRADER_BELOW_FRONTENDS),
    Layer(
        "grader entry",
        ("grader", "grader.__main__", "grader.suite"),
        (*GRADER_BELOW_FRONTENDS, "grader frontends"),
    ),
    # The store and what stands on it.
    Layer("store", ("sqlite_demo.store",), ("eventlog",)),
    # The demo's words are a catalog of the kit's one language machinery (grader.i18n): one
    # choice of language (python -m grader lang) holds for the grader and the demo alike.
    Layer("demo words", ("sqlite_demo.texts",), ("eventlog", "grader i18n")),
    Layer(
        "sdk adapter",
        (
            "sqlite_demo.agent_items",
            "sqlite_demo.call_pairing",
            "sqlite_demo.agents_session",
            "sqlite_demo.sdk_agent",
        ),
        ("eventlog", "store", "demo words"),
    ),
    Layer(
        "web",
        ("sqlite_demo.service", "sqlite_demo.live"),
        ("eventlog", "store", "demo words", "grader i18n"),
    ),
    Layer("demo facade", ("sqlite_demo",), ("eventlog", "store", "sdk adapter")),
    Layer(
        "demo entry",
        (
            "sqlite_demo.__main__",
            "sqlite_demo.app",
            "sqlite_demo.cli",
            "sqlite_demo.server",
            "sqlite_demo.demo",
            "sqlite_demo.demo_output",
            "sqlite_demo.crash_loop",
            "sqlite_demo.sdk_demo",
        ),
        ("eventlog", "store", "demo words", "grader i18n", "sdk adapter", "web", "demo facade"),
    ),
    # The benchmarks time the grader too: a grade in process (grader.run) and the browser
    # site (grader.frontends.site), besides the command lines they run as processes; they
    # take the grader's own tables (its functions, its exercise files) rather than copies.
    Layer(
        "benchmarks",
        ("benchmarks",),
        (
            "eventlog",
            "solutions",
            "store",
            "sdk adapter",
            "web",
            "demo facade",
            "demo entry",
            *GRADER_BELOW_FRONTENDS,
            "grader frontends",
        ),
    ),
    # The maintainer's tools may use anything; nothing uses them.
    Layer(
        "maintainer",
        ("maintainer",),
        tuple(
            name
            for name in (
                "eventlog",
                "exercises",
                "solutions",
                *GRADER_BELOW_FRONTENDS,
                "grader kernel",
                "grader frontends",
                "grader entry",
                "store",
                "demo words",
                "sdk adapter",
                "web",
                "demo facade",
                "demo entry",
                "benchmarks",
            )
        ),
    ),
)
