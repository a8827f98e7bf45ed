"""Asking the learner's child, and turning what it answers (or does not) into verdicts.

:class:`Asker` is the base of every trial: it keeps the transcript (the calls made so far,
written as Python), sends requests through the learner's child, and is the one place where
"the child did not answer in time", "it died" or "it answered something else" becomes a
failure with the call it was making. :class:`grader.harness.Trial` adds the contract's words
(create, append, read) on top.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, NoReturn, TypeVar

from grader import messages
from grader.callserver.text import listing, multiline
from grader.contract import FUNCTION_NAMES
from grader.failures import Failure, PropertyFailure, StopProperty
from grader.remote import Learner, TaskOverrun
from grader.sandbox.child import ChildFailure
from grader.transcript import Raised, call_request
from grader.views import Malformed, unreadable, value_of

T = TypeVar("T")


@dataclass(frozen=True)
class Stopped:
    """Where a batch stopped: the child hung, died or broke the protocol at this request."""

    failure: ChildFailure


def called_function(call: str) -> str:
    """The graded function a line of the transcript calls, else "your code"."""
    return next((name for name in FUNCTION_NAMES if f"{name}(" in call), messages.YOUR_CODE)


class Asker:
    """The transcript of one trial, and the way its calls reach the learner's child.

    Args:
        learner: the submission's child process.
        on_refusal: what a ValueError on a valid append means: ``"skip"`` discards the example
            (refusing valid input is the reject_bad_input task's business, so other tasks do
            not judge it), ``"fail"`` makes it the failure.
        prefix: put before every value name, for a second trial in the same example.
    """

    def __init__(self, learner: Learner, on_refusal: str = "skip", prefix: str = "") -> None:
        self.learner = learner
        self.on_refusal = on_refusal
        self.prefix = prefix
        self.lines: list[str] = []
        self._names: set[str] = set()

    # --- failing ---------------------------------------------------------------------------
    def fail(
        self, sentence: str, call: str | None, outcome: Iterable[str], status: str = ""
    ) -> NoReturn:
        lines = (*self.lines, call) if call else tuple(self.lines)
        status = status or messages.STATUS_FAILED
        hint = messages.hint_for(sentence, status)
        raise PropertyFailure(Failure(sentence, lines, tuple(outcome), status, None, hint))

    def fail_mismatch(
        self, sentence: str, call: str | None, returned: object, expected: object
    ) -> NoReturn:
        """Fail with what came back and what was expected, both laid out the same way.

        Lists (of item texts) go on one line each when both are short, else one item per
        line each, so the two can be read side by side.
        """
        shown: list[object] = [returned, expected]
        if isinstance(returned, list) and isinstance(expected, list):
            lists = [returned, expected]
            one_line = [listing(items, width=10**9) for items in lists]
            long = any(len(text) > 80 for text in one_line) and max(map(len, lists)) > 1
            shown = [
                multiline(items) if long else text
                for items, text in zip(lists, one_line, strict=True)
            ]
        outcome = [
            messages.RETURNED.format(value=shown[0]),
            messages.EXPECTED.format(value=shown[1]),
        ]
        self.fail(sentence, call, outcome)

    # --- asking the child ------------------------------------------------------------------------
    def ask(self, sentence: str, code: str, request: dict[str, Any]) -> dict[str, Any]:
        """Send ``request``; a child that does not answer in time, dies or breaks the protocol
        fails ``sentence`` with the call it was making."""
        try:
            answer = self.learner.ask(request)
        except TaskOverrun:
            raise StopProperty(self._overrun()) from None
        except ChildFailure as failure:
            self._child_failed(sentence, code, failure)
        if "too_large" in answer:
            self.fail(sentence, code, [messages.ANSWER_TOO_LARGE])
        return answer

    def batch(self, sentence: str, code: str, requests: list[dict[str, Any]]) -> list[Any]:
        """Send several requests as one; return their answers, one each, in order.

        When the child hangs, dies or breaks the protocol midway, the answers that came are
        returned as they are, then a :class:`Stopped` where it stopped (and None after), so
        the caller judges what happened first, in order, before the stop.
        """
        try:
            answers = self.learner.ask({"op": "batch", "requests": requests}).get("batch")
        except TaskOverrun:
            raise StopProperty(self._overrun()) from None
        except ChildFailure as failure:
            received = failure.parts[: len(requests)]
            if len(received) == len(requests):
                return received
            padding = [None] * (len(requests) - len(received) - 1)
            return [*received, Stopped(failure), *padding]
        if not isinstance(answers, list) or len(answers) != len(requests):
            self.fail(messages.CHILD_BROKE, code, [], messages.STATUS_ERROR)
        return answers

    def _overrun(self) -> Failure:
        text = messages.TASK_TIMED_OUT.format(seconds=self.learner.clock.task)
        return Failure(text, status=messages.STATUS_TIMED_OUT)

    def stopped(self, sentence: str, code: str, answer: Any) -> None:
        """Fail, as the stop says, if ``answer`` is where a batch stopped."""
        if isinstance(answer, Stopped):
            self._child_failed(sentence, code, answer.failure)

    def _child_failed(self, sentence: str, code: str, failure: ChildFailure) -> NoReturn:
        call = failure.doing or code
        function = called_function(call)
        if failure.kind == "timed_out":
            seconds = self.learner.example_seconds
            text = messages.TIMED_OUT.format(function=function, seconds=seconds)
            self.fail(sentence, call, [text], messages.STATUS_TIMED_OUT)
        if failure.kind == "died":
            text = messages.WORKER_DIED.format(function=function, code=failure.code)
            self.fail(sentence, call, [text], messages.STATUS_ERROR)
        self.fail(sentence, call, [messages.CHILD_BROKE], messages.STATUS_ERROR)

    def interpret(
        self, sentence: str, function: str, code: str, answer: Any
    ) -> dict[str, Any] | Raised:
        """What a call's answer means: a value, a :class:`Raised`, or (for a stub, an exit, a
        control-flow exception) the end of this trial."""
        self.stopped(sentence, code, answer)
        if not isinstance(answer, dict):
            self.fail(messages.CHILD_BROKE, code, [], messages.STATUS_ERROR)
        if answer.get("not_implemented"):
            outcome = messages.NOT_IMPLEMENTED_CALL.format(function=function)
            self.fail(sentence, code, [outcome], messages.STATUS_NOT_IMPLEMENTED)
        if "exit" in answer:
            exited = messages.CALLED_EXIT.format(code=answer["exit"])
            self.fail(sentence, code, [exited], messages.STATUS_ERROR)
        if "control" in answer:
            outcome = messages.RAISED_CONTROL.format(kind=answer["control"])
            self.fail(sentence, code, [outcome], messages.STATUS_ERROR)
        if "raised" in answer:
            return self.guard(lambda: Raised.from_answer(answer["raised"]))
        return answer

    def call(self, sentence: str, function: str, code: str, *args: Any, **options: Any) -> Any:
        """Call a learner function; any exception it raises breaks ``sentence``.

        ``options`` are :func:`grader.transcript.call_request`'s ``kwargs``, ``keep`` and
        ``view``.
        """
        request = call_request(function, code, args, **options)
        return self.returned(sentence, function, code, self.ask(sentence, code, request))

    def returned(self, sentence: str, function: str, code: str, answer: Any) -> dict[str, Any]:
        """What a call's answer says it returned; anything it raised breaks ``sentence``."""
        result = self.interpret(sentence, function, code, answer)
        if isinstance(result, Raised):
            self.fail(sentence, code, [result.describe()])
        return result

    def guard(self, work: Callable[[], T]) -> T:
        """Run ``work`` on the child's answers; an answer out of protocol is the child's error."""
        try:
            return work()
        except (Malformed, KeyError, TypeError, ValueError, AttributeError):
            self.fail(messages.CHILD_BROKE, None, [], messages.STATUS_ERROR)

    def read_answer(self, sentence: str, function: str, code: str, answer: Any, kind: str) -> Any:
        """The value a read function answered, observed as ``kind``; anything it raised, or
        an answer that is not what the contract promises, breaks ``sentence``."""
        return self.read(sentence, code, self.returned(sentence, function, code, answer), kind)

    def read(self, sentence: str, code: str, answer: dict[str, Any], kind: str) -> Any:
        """The value of an answer observed as ``kind``; an unreadable one breaks the
        contract's promise of what the function returns."""
        if "value" in answer:
            return self.guard(lambda: value_of(answer, kind))
        if "too_large" in answer:
            self.fail(sentence, code, [messages.ANSWER_TOO_LARGE])
        failing = messages.EVENT_READABLE if kind in ("event", "events") else sentence
        self.fail(failing, code, [unreadable(answer)])

    def fresh_name(self, name: str) -> str:
        """A name no value of this example has yet (``prefix`` keeps a twin trial apart)."""
        candidate, suffix = self.prefix + name, 1
        while candidate in self._names:
            suffix += 1
            candidate = f"{self.prefix}{name}_{suffix}"
        self._names.add(candidate)
        return candidate
