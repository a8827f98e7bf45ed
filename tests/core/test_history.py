"""The fold with corrections: taking the newest item out goes back to the chat before it."""

from __future__ import annotations

from typing import Any

import pytest

from eventlog import (
    EMPTY_HISTORY,
    CorrectionError,
    Event,
    ReadOnlyPayload,
    apply_event,
    apply_to_history,
    fold_history,
    replay_events,
    validate_append,
)


def events(*steps: tuple[str, dict[str, Any]]) -> list[Event]:
    return [
        Event(n, "s", kind, validate_append("s", kind, payload))
        for n, (kind, payload) in enumerate(steps, start=1)
    ]


def call(call_id: str) -> tuple[str, dict[str, Any]]:
    return "tool_call", {"call_id": call_id, "name": "f", "arguments": "{}"}


def test_removing_the_second_of_two_parallel_calls_leaves_the_first_in_its_message() -> None:
    log = events(("user_message", {"content": "hi"}), call("a"), call("b"),
                 ("item_removed", {"supersedes": 3}))  # fmt: skip
    assert replay_events(log) == replay_events(log[:2])
    assert [m.get("tool_calls", [{}])[0].get("id") for m in replay_events(log)] == [None, "a"]


def test_the_fold_leaves_the_history_it_was_given_as_it_was() -> None:
    log = events(("user_message", {"content": "hi"}), ("item_removed", {"supersedes": 1}))
    before = apply_to_history(EMPTY_HISTORY, log[0])
    after = apply_to_history(before, log[1])
    assert [e.event_id for e in before.item_events()] == [1]
    assert after.item_events() == [] and after.conversation is None


def test_a_kept_item_counts_as_an_item_but_adds_no_message() -> None:
    log = events(("user_message", {"content": "hi"}), ("agent_item", {"item": {"type": "x"}}))
    history = fold_history(log)
    assert history.newest_item is log[1]
    assert replay_events(log) == [{"role": "user", "content": "hi"}]


def test_clearing_empties_the_history_and_the_fold_goes_on_after_it() -> None:
    log = events(("user_message", {"content": "a"}), ("session_cleared", {"supersedes_through": 1}),
                 ("user_message", {"content": "b"}))  # fmt: skip
    assert replay_events(log) == [{"role": "user", "content": "b"}]


@pytest.mark.parametrize(
    "correction",
    [("item_removed", {"supersedes": 1}), ("session_cleared", {"supersedes_through": 1})],
)
def test_a_correction_that_points_elsewhere_is_refused_by_the_fold(
    correction: tuple[str, dict[str, Any]],
) -> None:
    log = events(("user_message", {"content": "a"}), ("user_message", {"content": "b"}), correction)
    with pytest.raises(CorrectionError):
        fold_history(log)


def test_the_chat_fold_alone_refuses_a_correction_and_says_which_fold_takes_it() -> None:
    removal = Event(2, "s", "item_removed", ReadOnlyPayload('{"supersedes":1}'))
    with pytest.raises(ValueError, match="apply_to_history"):
        apply_event(None, removal)
