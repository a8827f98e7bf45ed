"""Every example of a task calls only the functions that task names: a bug in another task's
function, or one not written yet, never costs a task its points (a learner who has not
started replay_session still gets task 5's)."""

from __future__ import annotations

from grader.tasks import TASKS_BY_ID
from tests.grader.dimensions import every_example, plan_of


def test_no_example_calls_a_function_its_task_does_not_name() -> None:
    strays = set()
    for task_id, prop, _, value in every_example():
        task = TASKS_BY_ID[task_id]
        for step in plan_of(task.strict, prop, value).steps:
            if step.function is not None and step.function not in task.functions:
                strays.add((task_id, prop.name, step.function))
    assert sorted(strays) == []
