"""The kernel's pieces, run in this interpreter: how learner values are observed, changed
in place, and how requests are run (the sandboxed child runs the very same code)."""

from __future__ import annotations

import gc
import itertools
import json
import weakref
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any

import pytest

from grader import kernel
from grader.values import ReadOnlyMapping


@pytest.fixture(scope="module")
def space() -> dict[str, Any]:
    import solutions

    namespace = kernel.namespace()
    for name in (
        "create_event_log",
        "append_event",
        "get_events_for_session",
        "list_sessions",
        "replay_session",
    ):
        namespace["FUNCTIONS"][name] = getattr(solutions, name)
    return namespace


def viewing(space: dict[str, Any]) -> Any:
    """The kernel's full observer, driven by its trampoline as a step's would be."""
    return lambda value, kind: space["_drive"](space["viewed"](value, kind))


def run(space: dict[str, Any], *steps: tuple[Any, ...]) -> list[Any]:
    answers: list[Any] = []
    space["run_request"]({"examples": [list(steps)]}, answers.append)
    return [json.loads(space["encode"](answer)) for answer in answers]


def test_an_observation_keeps_types_apart_and_writes_tuples_as_lists(space: dict[str, Any]) -> None:
    view = viewing(space)
    assert view({"a": (1, 2.0, True, None, -0.0)}, "plain") == {"a": [1, 2.0, True, None, -0.0]}
    encoded = space["encode"](view([1, 1.0, True], "plain"))
    assert encoded == b"[1,1.0,true]"


def test_what_json_cannot_say_is_tagged(space: dict[str, Any]) -> None:
    view = viewing(space)
    assert view(float("nan"), "plain") == {"$float": "nan"}
    assert view({1: "x"}, "plain") == {"$dict": [[1, "x"]]}
    assert view({"$ref": "x"}, "plain") == {"$dict": [["$ref", "x"]]}
    assert view(b"hi", "plain") == {"$bytes": "6869"}


def test_text_holding_surrogates_is_tagged_so_json_cannot_join_a_pair(
    space: dict[str, Any],
) -> None:
    from grader.engine.data import from_observation

    pair, emoji = "\ud83d\ude42", "\U0001f642"
    observed = [
        json.loads(space["encode"](viewing(space)(text, "plain")))
        for text in (pair, emoji, "\ud800")
    ]
    assert observed[0] == {"$str": "eda0bdedb982"} and observed[1] == emoji
    assert [from_observation(item) for item in observed] == [pair, emoji, "\ud800"]
    keyed = json.loads(space["encode"](viewing(space)({pair: 1}, "plain")))
    assert from_observation(keyed) == {pair: 1}


def test_kernel_files_define_each_name_once() -> None:
    """The files run in one namespace: a second definition would silently replace the first."""
    import ast

    seen: dict[str, str] = {}
    for name in dict.fromkeys((*kernel.FILES, *kernel.WORKER_FILES)):
        tree = ast.parse((kernel.HERE / f"{name}.py").read_text(encoding="utf-8"))
        for node in tree.body:
            defined = [node.name] if isinstance(node, ast.FunctionDef | ast.ClassDef) else []
            for found in defined:
                assert found not in seen, f"{found} is defined in {seen[found]} and {name}"
                seen[found] = name


def test_subclasses_are_read_as_their_base_without_running_their_methods(
    space: dict[str, Any],
) -> None:
    class Sneaky(str):
        def __str__(self) -> str:
            return "lie"

    class Count(int):
        def __int__(self) -> int:
            return 99

    assert viewing(space)([Sneaky("true"), Count(3)], "plain") == ["true", 3]


def test_a_value_that_is_not_an_event_is_unreadable(space: dict[str, Any]) -> None:
    with pytest.raises(space["Unreadable"]) as caught:
        viewing(space)({"event_id": 1}, "event")
    assert caught.value.what == "attribute:event_id"


def test_the_run_of_a_request_answers_each_step_and_keeps_values(space: dict[str, Any]) -> None:
    answers = run(
        space,
        ("create", "log0"),
        ("append", ("$ref", "log0"), "a", "user_message", {"content": "hi"}, "log1", "e1"),
        ("call", "get_events_for_session", [("$ref", "log1"), "a"], {}, None, "events"),
        ("append", ("$ref", "log0"), "a", "nope", {"content": "hi"}, None, None),
        ("view", "missing", [], "event"),
    )
    assert answers[1] == {"value": [1, "a", "user_message", {"content": "hi"}]}
    assert answers[2] == {"value": [[1, "a", "user_message", {"content": "hi"}]]}
    assert answers[3]["raised"]["value_error"] is True
    assert "missing" in answers[4]


def test_arguments_arrive_as_the_types_the_grader_sent(space: dict[str, Any]) -> None:
    seen: list[Any] = []
    space["FUNCTIONS"]["spy"] = lambda *args: seen.extend(args) or None
    run(
        space,
        (
            "call",
            "spy",
            [
                ("$tuple", [[1]]),
                ("$proxy", {"a": 1}),
                ("$mapping", {"b": 2}),
                ("$text", "s"),
                ("$defaultdict", {"c": "3"}),
            ],
            {},
            None,
            "none",
        ),
    )
    kinds = [type(value).__name__ for value in seen]
    assert kinds == [
        "tuple",
        "mappingproxy",
        "ReadOnlyMapping",
        "Text",
        "defaultdict",
    ] and isinstance(seen[3], str)
    assert seen[4]["missing"] == "" and "c" in seen[4]


def test_a_change_that_reaches_a_read_is_reported_with_the_changes_before_it(
    space: dict[str, Any],
) -> None:
    shared = {"content": "hi", "meta": [1]}
    space["FUNCTIONS"]["leaky"] = lambda: shared
    read = ("call", "leaky", [], {}, None, "plain")
    answers = run(
        space, ("call", "leaky", [], {}, "p", "none"), ("mutate", "p", [], ["deep"], [read], True)
    )
    assert answers[1]["changes"] == [[[["i", "meta"]], "append", None]]
    assert answers[1]["read"] == 0 and answers[1]["after"]["value"]["meta"] == [1, "changed"]
    assert "batched" not in answers[1]


def test_without_precision_the_reads_wait_for_the_changes_but_never_miss_one(
    space: dict[str, Any],
) -> None:
    """Batched, the reads run before the clear and at the end; the answer says so, and the
    difference is found even where the changes bring an empty container back to empty."""
    for start in ({"content": "hi", "meta": [1]}, {}, []):
        shared = json.loads(json.dumps(start))
        space["FUNCTIONS"]["leaky"] = lambda shared=shared: shared
        read = ("call", "leaky", [], {}, None, "plain")
        answers = run(
            space, ("call", "leaky", [], {}, "p", "none"), ("mutate", "p", [], ["deep"], [read])
        )
        assert answers[1]["batched"] is True and answers[1]["read"] == 0, start
        assert "clear" not in [change[1] for change in answers[1]["changes"]], start
        assert answers[1]["after"]["value"] != start, start


def test_a_copy_survives_batched_changes_with_no_difference(space: dict[str, Any]) -> None:
    import copy

    kept = {"content": "hi", "meta": [1, {"k": (2, [3])}]}
    space["FUNCTIONS"]["fresh"] = lambda: copy.deepcopy(kept)
    answers = run(
        space,
        ("call", "fresh", [], {}, "p", "none"),
        ("mutate", "p", [], ["deep"], [("call", "fresh", [], {}, None, "plain")]),
    )
    assert "read" not in answers[1] and len(answers[1]["changes"]) > 5


def test_a_read_only_value_survives_every_change(space: dict[str, Any]) -> None:
    frozen = MappingProxyType({"content": "hi", "meta": (1,)})
    space["FUNCTIONS"]["frozen"] = lambda: frozen
    answers = run(
        space,
        ("call", "frozen", [], {}, "p", "none"),
        ("mutate", "p", [], ["deep"], [("call", "frozen", [], {}, None, "plain")]),
    )
    assert answers[1] == {"changes": []}


class _EndlessKeys(dict):  # type: ignore[type-arg]
    def keys(self) -> Any:
        return itertools.count()

    def __getitem__(self, key: Any) -> Any:
        return key


class _Backwards(Mapping[str, int]):
    """A mapping of the learner's own, its keys in an order of its own."""

    def __getitem__(self, key: str) -> int:
        return {"b": 1, "a": 2}[key]

    def __iter__(self) -> Iterator[str]:
        return iter(["b", "a"])

    def __len__(self) -> int:
        return 2


def test_a_mapping_is_read_in_its_keys_order_and_endless_keys_are_too_large(
    space: dict[str, Any],
) -> None:
    """Read whole, a keys() that never ends grew until the memory limit or the CPU limit
    stopped it, whichever came first on that machine: the status changed with the load."""
    for mapping in (_Backwards(), MappingProxyType(_Backwards())):
        read = space["_drive"](space["reach_mapping"](mapping))
        assert list(read.items()) == [("b", 1), ("a", 2)]
    for endless in (_EndlessKeys(), MappingProxyType(_EndlessKeys())):
        with pytest.raises(space["TooLarge"]):
            space["_drive"](space["reach_mapping"](endless))


def test_a_digest_writes_nested_placeholders_in_place_whatever_was_written_before(
    space: dict[str, Any],
) -> None:
    """Each depth's encoder is made once and reused: the placeholders of one write never
    reach another, whether the write before it finished, nested or failed."""
    digest = lambda value: space["_drive"](space["digest_text"](value))  # noqa: E731
    held = ReadOnlyMapping  # a learner's own Mapping: written by a call of its own, one depth down
    nested = [
        held({"b": held({"c": [1, held({"d": "x"})]}), "a": 2}),
        MappingProxyType({"e": held({"f": 3.0})}),
    ]
    expected = json.dumps(
        [{"a": 2, "b": {"c": [1, {"d": "x"}]}}, {"e": {"f": 3.0}}],
        sort_keys=True,
        separators=(",", ":"),
    )
    cycle: list[Any] = []
    cycle.append(cycle)
    for before in ([held({"z": 1})], {"n": float("nan")}, cycle, nested):
        digest(before)
        assert digest(nested) == expected
    assert digest(held({"only": "one"})) == '{"only":"one"}'


def test_a_digest_holds_no_learner_value_once_written_even_when_the_write_failed(
    space: dict[str, Any],
) -> None:
    """The encoders outlive each write; the values they left as placeholders must not (a
    learner's ``__del__`` runs when a fresh write's list would have let it go)."""
    digest = lambda value: space["_drive"](space["digest_text"](value))  # noqa: E731
    for after in ((), (float("nan"),)):  # the write succeeds, then fails after the placeholder
        held = ReadOnlyMapping({"a": 1})
        gone = weakref.ref(held)
        digest([held, *after])
        del held
        gc.collect()
        assert gone() is None
