"""Build the examples banks: ``python -m maintainer.bank`` (after changing the examples, the
plans, the oracle or the kernel; a test says when a bank is stale). It also stores the
kernel's files compiled for the Python that runs it (``grader/kernel/compiled.marshal``): a
grade on that Python then skips compiling them.

For every task and property: draw its examples (:mod:`grader.engine.drawing`), build each
one's plan, run the plans against the reference (``solutions``) in this interpreter, in
full and by digest, and keep the digests of what it answered. A digest is only kept once
the full answers it stands for pass the grader's own judge, example by example: the bank
says what a correct implementation answers because the oracle agrees, not because the
reference says so.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from grader import kernel
from grader.engine import bank
from grader.engine.bank import BankExample
from grader.engine.contract import Task
from grader.engine.drawing import draw_examples
from grader.engine.judge import judge
from grader.engine.learner import Clock, Learner
from grader.engine.plan import Plan
from grader.engine.properties import Property
from grader.tasks import TASKS, select
from grader.transport.inprocess import InProcessTransport

REFERENCE = "solutions"


class ReferenceFails(Exception):
    """The reference does not pass one of the examples: the bank would be wrong."""


def build_task(task: Task, reference: str = REFERENCE) -> dict[str, list[BankExample]]:
    """Every property's examples of ``task``, with the reference's digests."""
    learner = Learner(InProcessTransport(reference), Clock(example=60.0, task=3600.0))
    learner.begin_task()
    try:
        return {prop.name: _build_property(task, prop, learner) for prop in task.properties}
    finally:
        learner.close()


def _build_property(task: Task, prop: Property, learner: Learner) -> list[BankExample]:
    examples: list[BankExample] = []
    for number, value in enumerate(draw_examples(task.id, prop)):
        plan = Plan(task.strict)
        prop.build(plan, value)
        steps = tuple(plan.request())
        answers, stop = learner.run([list(steps)])
        found = judge(plan, answers) if stop is None else (0, stop)
        if found is not None:
            raise ReferenceFails(f"{task.id}/{prop.name} example {number}: {found}")
        digested, stop = learner.run([list(steps)], digest=True)
        if stop is not None or len(digested) != 1:
            raise ReferenceFails(f"{task.id}/{prop.name} example {number}: digest run {stop}")
        examples.append(BankExample(value, steps, str(digested[0]["d"])))
    return examples


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m maintainer.bank", description=__doc__)
    parser.add_argument("tasks", nargs="*", help="task ids or numbers (default: every task)")
    arguments = parser.parse_args(argv)
    for task in select(arguments.tasks) if arguments.tasks else TASKS:
        started = time.process_time()
        examples = build_task(task)
        path = bank.save(task.id, examples)
        count = sum(len(found) for found in examples.values())
        spent = time.process_time() - started
        print(f"{task.id}: {count} examples, {path.stat().st_size:,} bytes, {spent:.1f} s")
    compiled = kernel.store_compiled()
    print(f"kernel: compiled for this Python, {compiled.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
