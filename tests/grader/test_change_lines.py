"""A change the kernel made is written from the kept value it was made to, through the path
the plan gave and then the change's own: ``p["meta"].clear()``, never ``p.clear()`` (which
reads as a change to a different container, and would not even run on a dict). And a payload
deeper than the kernel's deep walk follows is changed at its innermost container."""

from __future__ import annotations

from typing import Any, cast

from grader.engine.steps import Mutate


def lines_of(path: list[Any], changes: list[Any]) -> str | None:
    step = Mutate("p", path, ["shallow"], [], "append.caller_payload_copied")
    step.changes = changes
    return cast(str | None, step.line(cast(Any, None)))


def test_a_change_below_the_plan_s_path_is_written_from_the_kept_value() -> None:
    assert lines_of([["i", "meta"]], [[[], "clear", None]]) == 'p["meta"].clear()'


def test_the_plan_s_path_and_the_change_s_own_are_joined() -> None:
    changes = [[[["i", 0]], "append", None], [[], "setitem", 1]]
    assert lines_of([["a", "payload"], ["i", "deep"]], changes) == (
        'p.payload["deep"][0].append("changed")\np.payload["deep"][1] = "changed"'
    )


def test_a_change_to_the_kept_value_itself_is_written_from_its_name() -> None:
    assert lines_of([], [[[], "popitem", None]]) == "p.popitem()"


def test_a_payload_s_innermost_container_is_changed_past_where_the_deep_walk_stops() -> None:
    from grader.kernel import mutate
    from grader.tasks.append_and_ids.edges import DEEP_TO_CHANGE
    from grader.tasks.append_and_ids.properties import FOLLOWED_LEVELS, innermost

    assert FOLLOWED_LEVELS == mutate.MAX_PATH
    payload = DEEP_TO_CHANGE.segments[0].payload  # type: ignore[union-attr]
    path = innermost(payload)
    assert len(path) > FOLLOWED_LEVELS
    inner = payload
    for _, key in path:
        inner = inner[key]
    assert inner == ["leaf"]
