"""The learner loop: progress, the next task and its first hint, and grading on every save."""

from __future__ import annotations

from dataclasses import dataclass

from grader import watch
from grader.i18n import using_language

PASSED = "passed"


@dataclass(frozen=True)
class Outcome:
    task_id: str
    number: int
    name: str
    status: str
    hints: tuple[str, ...] = ()

    @property
    def hint(self) -> str | None:
        return self.hints[0] if self.hints else None


RESULTS = [
    Outcome("first", 1, "First task", PASSED),
    Outcome("second", 2, "Second task", "failed", ("gentle hint", "strong hint")),
    Outcome("third", 3, "Third task", "not implemented yet", ("third hint",)),
]


def test_progress_counts_done_tasks_and_names_the_next_one_with_its_first_hint():
    with using_language("en"):
        shown = watch.render_progress(RESULTS, PASSED)
    assert shown.splitlines() == [
        "Progress: 1 of 3 tasks done.",
        "Next: task 2, Second task.",
        "Hint: gentle hint",
    ]


def test_progress_congratulates_when_every_task_passes():
    done = [Outcome("first", 1, "First task", PASSED)]
    with using_language("en"):
        assert watch.render_progress(done, PASSED).splitlines()[-1] == (
            "Every task is done. Well done!"
        )


def test_progress_speaks_chinese_when_asked():
    with using_language("zh"):
        first_line = watch.render_progress(RESULTS, PASSED).splitlines()[0]
    assert first_line == "进度：3 个任务中已完成 1 个。"  # noqa: RUF001 - Chinese punctuation


def test_the_first_unfinished_task_is_the_first_in_task_order_that_does_not_pass():
    unfinished = watch.first_unfinished(RESULTS, PASSED)
    assert unfinished is not None
    assert unfinished.task_id == "second"


def test_watching_grades_once_and_again_after_every_save(tmp_path, capsys):
    gradings = []
    watch.watch_and_grade([tmp_path], lambda: gradings.append(len(gradings)), saves=[{1}, {2}])
    assert gradings == [0, 1, 2]
