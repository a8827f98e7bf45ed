"""Calls planned ahead and sent in one request, then judged in order as their answers came.

Learner code runs exactly as it would call by call: the same calls, in the same order, in the
same child. The trusted side only stops waiting for each answer before sending the next call,
which saves a round trip per call. What a learner sees does not change: the answers are judged
in order, each adding its line to the transcript, and when the child hangs or dies at the
fifth call, the four answers before it are judged first (see :meth:`Trial.batch`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from grader.harness import Trial
from grader.observing import Observation, Read, judge_reads
from grader.programs import Append
from grader.transcript import EventVar, LogVar


@dataclass(frozen=True)
class _Step:
    """Some requests, and how to judge their answers."""

    requests: list[dict[str, Any]]
    code: str
    judge: Callable[[list[Any]], None]


class Script:
    """A plan of calls for one trial; :meth:`run` sends it and judges the answers in order.

    Args:
        trial: the trial whose transcript the answers extend.
        sentence: the property a hang or a crash is reported under.
    """

    def __init__(self, trial: Trial, sentence: str) -> None:
        self.trial = trial
        self.sentence = sentence
        self._steps: list[_Step] = []

    def append(
        self, log: LogVar, append: Append, then: Callable[[EventVar], None] | None = None
    ) -> LogVar:
        """Plan a valid append to ``log``; return the new log (``then`` gets the event)."""
        plan = self.trial.plan_append(log, append)

        def judge(answers: list[Any]) -> None:
            _, event = self.trial.settle_append(plan, answers[0])
            if then is not None:
                then(event)

        self._steps.append(_Step([plan.request], plan.code, judge))
        return plan.log

    def refusal(self, sentence: str, log: LogVar, session: str) -> None:
        """Plan an append every implementation must refuse (see :meth:`Trial.plan_refusal`)."""
        code, request = self.trial.plan_refusal(log, session)
        judge = lambda answers: self.trial.settle_refusal(sentence, code, answers[0])  # noqa: E731
        self._steps.append(_Step([request], code, judge))

    def call(self, code: str, request: dict[str, Any], judge: Callable[[Any], None]) -> None:
        """Plan one request; ``judge`` gets its answer."""
        self._steps.append(_Step([request], code, lambda answers: judge(answers[0])))

    def reads(self, reads: list[Read], judge: Callable[[Observation], None]) -> None:
        """Plan some reads; ``judge`` gets them as one observation."""
        if not reads:
            self._steps.append(_Step([], "", lambda answers: judge([])))
            return

        def judge_all(answers: list[Any]) -> None:
            judge(judge_reads(self.trial, self.sentence, reads, answers))

        self._steps.append(_Step([read.request for read in reads], reads[0].code, judge_all))

    def run(self) -> None:
        """Send every planned request at once, then judge the answers, step by step."""
        requests = [request for step in self._steps for request in step.requests]
        if not requests:
            for step in self._steps:
                step.judge([])
            return
        answers = self.trial.batch(self.sentence, self._steps[0].code, requests)
        start = 0
        for step in self._steps:
            chunk = answers[start : start + len(step.requests)]
            start += len(step.requests)
            step.judge(chunk)
