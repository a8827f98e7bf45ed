"""The grading section as tables: the reference's three grades, the class, the browser."""

from __future__ import annotations

from benchmarks.grading import ClassFigures, GradingFigures, ReferenceFigures, Spread
from benchmarks.grading_browser import BrowserFigures
from benchmarks.tables import Table


def grading_tables(figures: GradingFigures) -> list[Table]:
    """The three tables of the grading section, in the order they ran."""
    return [
        reference_table(figures.reference),
        class_table(figures.klass),
        browser_table(figures.browser),
    ]


def reference_table(reference: ReferenceFigures) -> Table:
    """The reference graded whole: in its sandbox, in process, and its own work."""
    low, high = _load_range(reference.loads)
    rounds = len(reference.sandbox_cpu.samples)
    load = f"{low:.2f}-{high:.2f}"
    sandbox = reference.sandbox_cpu.median
    rows = [
        (f"python -m grader --target solutions (isolation: {reference.isolation})",
         "CPU, every process", _seconds(reference.sandbox_cpu), "1.00", load),
        ("the same, elapsed", "wall", _seconds(reference.sandbox_wall),
         f"{reference.sandbox_wall.median / sandbox:.2f}", load),
        ("the same examples, in-process transport", "CPU, this process",
         _seconds(reference.in_process_cpu), f"{reference.in_process_cpu.median / sandbox:.2f}",
         load),
        ("inside the five reference functions", "CPU, this process",
         _seconds(reference.reference_cpu), f"{reference.reference_cpu.median / sandbox:.2f}",
         load),
    ]  # fmt: skip
    scores = sorted(set(reference.scores))
    notes = [
        f"{rounds} interleaved rounds (each round: the sandboxed grade, in process, the"
        " reference's work); seconds are the median of the rounds, with their middle half."
        " Of the sandboxed grade: the fraction of its CPU each figure is.",
        f"CPU of every process counted by {reference.clock}: the grader, the sandbox and each"
        " learner interpreter it started. The isolation is the grader's default choice"
        " (bwrap: bubblewrap).",
        "In process: the same engine and examples, the kernel in the benchmark's own"
        " interpreter (grader/transport/inprocess.py): no sandbox, no second process.",
        "The reference's work: the CPU of the outermost calls of the five functions in that"
        " in-process grade, each call timed on its own.",
        f"Scores seen: {', '.join(scores)}. Load: the 1-minute load average, lowest before"
        " and highest after a round (2 cores, shared).",
    ]
    headers = ("Grade of the reference", "Clock", "Seconds (median, middle half)",
               "Of the sandboxed grade", "Load")  # fmt: skip
    return Table("Grading the reference, all five tasks", headers, rows, notes)


def class_table(klass: ClassFigures) -> Table:
    """Each grading of the class: wall, CPU, the load, the statuses, the same gradebook."""
    rows = [
        (
            str(number),
            f"{run.wall_seconds:.0f}",
            f"{run.cpu_seconds:.0f}",
            f"{run.load[0]:.2f}-{run.load[1]:.2f}",
            ", ".join(f"{status} {count}" for status, count in run.statuses.items()),
            "n/a" if run.same_as_previous is None else "yes" if run.same_as_previous else "NO",
            str(run.returncode),
        )
        for number, run in enumerate(klass.runs, start=1)
    ]
    clock = klass.runs[0].clock if klass.runs else "n/a"
    isolation = klass.runs[0].isolation if klass.runs else "n/a"
    notes = [
        f"A class of {klass.size}: five hostile files (every route to the kernel, a fork bomb,"
        " a loop at import, 10 GB asked for, a flood of the pipes), the rest correct files"
        " and mutants of the corpus (tests/redteam/measure_class_of_100.py builds it).",
        f"python -m grader batch with its defaults (isolation: {isolation}; one submission at"
        f" a time per core, 30 s each). CPU of every process counted by {clock}.",
        "Load: the 1-minute load average before and after the run (it counts the batch's own"
        " workers).",
    ]
    if klass.skipped is not None:
        notes.insert(0, f"skipped: {klass.skipped}")
    headers = ("Run", "Wall (s)", "CPU (s)", "Load", "Statuses", "Same gradebook", "Exit")
    return Table(f"Grading a class of {klass.size}", headers, rows, notes)


def browser_table(browser: BrowserFigures) -> Table:
    """The page's first report, cold and warm, and its two gradings."""
    rows = [
        (timing.what, f"{timing.seconds:.1f}", timing.score or "-",
         f"{timing.load[0]:.2f}-{timing.load[1]:.2f}")
        for timing in browser.timings
    ]  # fmt: skip
    notes = [
        "Wall-clock seconds, Debian's Chromium headless, the site served on 127.0.0.1."
        " First report: from opening the page to the report of 'Check all tasks' on the"
        " stubs, with an empty profile (cold), then the same profile (warm), five visits"
        " in a row.",
        "The gradings: window.kit.grade(files, {}) from an open page; the while True file is"
        " the reference with create_event_log redefined as a loop.",
        "Load: the 1-minute load average before and after each step.",
    ]
    if browser.skipped is not None:
        notes.insert(0, browser.skipped)
    headers = ("In the browser", "Seconds", "Score", "Load")
    return Table("Grading in the browser", headers, rows, notes)


def _seconds(spread: Spread) -> str:
    low, high = spread.middle_half
    if low == high:
        return f"{spread.median:.3f}"
    return f"{spread.median:.3f} ({low:.3f}-{high:.3f})"


def _load_range(loads: list[tuple[float, float]]) -> tuple[float, float]:
    if not loads:
        return 0.0, 0.0
    return min(before for before, _ in loads), max(after for _, after in loads)
