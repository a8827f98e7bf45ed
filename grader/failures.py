"""What a broken property looks like once it has been found: a sentence and a short program."""

from __future__ import annotations

from dataclasses import dataclass, field

from grader import messages


@dataclass(frozen=True)
class Failure:
    """A property that learner code broke, with the calls that show it.

    Attributes:
        sentence: the broken property, one plain sentence.
        lines: Python calls that reproduce it; the last one is the call that went wrong.
        outcome: what that call did and what it should have done, one line each.
        status: ``messages.STATUS_FAILED``, ``STATUS_NOT_IMPLEMENTED`` or ``STATUS_ERROR``.
        note: an extra remark (for instance that the failure is not reproducible).
        hint: what to try, for this property (None: the task's first hint applies).
    """

    sentence: str
    lines: tuple[str, ...] = ()
    outcome: tuple[str, ...] = ()
    status: str = messages.STATUS_FAILED
    note: str | None = field(default=None)
    hint: str | None = field(default=None)

    def render(self) -> str:
        """The failure as plain text, as the pytest suite and the report show it."""
        broken = self.status == messages.STATUS_FAILED
        parts = [messages.REPORT_BROKEN.format(sentence=self.sentence) if broken else self.sentence]
        if self.lines:
            parts.append(messages.REPORT_CASE)
            parts.extend(f"    {line}" for line in self.lines)
        for line in self.outcome:
            # A long value is laid out one item per line; keep it under its arrow.
            parts.append("  -> " + line.replace("\n", "\n     "))
        if self.note:
            parts.append(self.note)
        return "\n".join(parts)


class PropertyFailure(Exception):
    """Raised inside a property test; hypothesis shrinks the example that raised it."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.render())
        self.failure = failure


class StopProperty(BaseException):
    """Ends a property run at once, with this failure: no more examples, no shrinking.

    A ``BaseException`` on purpose: hypothesis shrinks every ``Exception`` a test raises, but
    lets other exceptions through. Raised when the task's time is up, and when expensive
    failures (examples that hang or kill the learner's process) have used up their budget.
    """

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.sentence)
        self.failure = failure
