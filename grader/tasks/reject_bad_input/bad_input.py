"""Bad appends: every way the contract says append_event must refuse, the hard way.

A refusal is easy to get right next to the call it is about and wrong far from it, so the
call-id refusals here reach back: the oldest call of the session, a result answered long
ago, an id only *another* session called, an id that differs from a called one only by case,
a space or its Unicode form, and ids that collide with a session id when both are joined
with ``:``.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from grader.engine.alphabets import TWINS
from grader.engine.oracle import ANSWERED, EVENT_TYPES, OPEN, REQUIRED_KEYS, ModelLog, Refusal
from grader.engine.programs import fresh_call_id

#: Event types that are none of the four: near misses, other types, unhashable ones.
BAD_TYPES: tuple[Any, ...] = (
    "system", "", "User_message", "user_message ", "tool-call", "tool", None, 7,
    b"user_message", ["user_message"], {"user_message": 1}, ("user_message",),
)  # fmt: skip
BAD_SESSIONS: tuple[Any, ...] = ("", None, 7, b"a", ["a"], {"a": 1}, 1.5, True)
NOT_MAPPINGS: tuple[Any, ...] = (
    None,
    "hi",
    [("content", "hi")],
    ["content"],
    42,
    b"{}",
    ("content",),
)
WRONG_VALUES: tuple[Any, ...] = (None, 1, True, b"x", ["x"], {"x": "y"}, 1.5, ("x",))


@dataclass(frozen=True)
class BadAppend:
    """Arguments append_event must refuse, and why (a :class:`Refusal` value)."""

    session_id: Any
    event_type: Any
    payload: Any
    reason: str


def valid_payload(event_type: str, model: ModelLog, session: str) -> dict[str, Any]:
    """A payload that would be valid for ``event_type`` in ``session`` of ``model``."""
    if event_type == "tool_call":
        return {"call_id": fresh_call_id(model, session), "name": "search", "arguments": "{}"}
    if event_type == "tool_result":
        open_calls = model.calls_in(session, OPEN)
        return {"call_id": open_calls[0] if open_calls else "call_1", "content": "42"}
    return {"content": "hi"}


def history_free(session: str, model: ModelLog, pick: int) -> list[BadAppend]:
    """One bad append for each rule that needs no history, the ``pick``-th variant of each."""
    kind = EVENT_TYPES[pick % 4]
    payload = valid_payload(kind, model, session)
    key = list(REQUIRED_KEYS[kind])[pick % len(REQUIRED_KEYS[kind])]
    rows = [
        BadAppend(
            session, BAD_TYPES[pick % len(BAD_TYPES)], {"content": "hi"}, Refusal.UNKNOWN_TYPE.value
        ),
        BadAppend(
            BAD_SESSIONS[pick % len(BAD_SESSIONS)],
            "user_message",
            {"content": "hi"},
            Refusal.BAD_SESSION_ID.value,
        ),
        BadAppend(
            session, kind, NOT_MAPPINGS[pick % len(NOT_MAPPINGS)], Refusal.PAYLOAD_NOT_MAPPING.value
        ),
        BadAppend(
            session, kind, {k: v for k, v in payload.items() if k != key}, Refusal.MISSING_KEY.value
        ),
        BadAppend(
            session,
            kind,
            {**payload, key: WRONG_VALUES[pick % len(WRONG_VALUES)]},
            Refusal.WRONG_VALUE_TYPE.value,
        ),
    ]
    tool = "tool_call" if pick % 2 or not model.calls_in(session, OPEN) else "tool_result"
    empty = "name" if tool == "tool_call" and pick % 3 == 0 else "call_id"
    rows.append(
        BadAppend(
            session,
            tool,
            {**valid_payload(tool, model, session), empty: ""},
            Refusal.EMPTY_VALUE.value,
        )
    )
    return [
        row
        for row in rows
        if model.refusal(row.session_id, row.event_type, row.payload) is not None
    ]


def every_rule(session: str, model: ModelLog) -> list[BadAppend]:
    """Every bad append that needs no history, each variant once: every bad event type and
    session id, every non-mapping, every required key of every type missing (from a dict and
    from a ``defaultdict``, where the missing key still reads as ""), every required key of
    every type holding every wrong type of value, and every empty id or name."""
    rows = [
        BadAppend(session, bad, {"content": "hi"}, Refusal.UNKNOWN_TYPE.value) for bad in BAD_TYPES
    ]
    rows += [
        BadAppend(bad, "user_message", {"content": "hi"}, Refusal.BAD_SESSION_ID.value)
        for bad in BAD_SESSIONS
    ]
    rows += [
        BadAppend(session, EVENT_TYPES[number % 4], bad, Refusal.PAYLOAD_NOT_MAPPING.value)
        for number, bad in enumerate(NOT_MAPPINGS)
    ]
    for kind in EVENT_TYPES:
        payload = valid_payload(kind, model, session)
        for key, must_be_non_empty in REQUIRED_KEYS[kind].items():
            missing = {k: v for k, v in payload.items() if k != key}
            rows.append(BadAppend(session, kind, missing, Refusal.MISSING_KEY.value))
            rows.append(
                BadAppend(session, kind, defaultdict(str, missing), Refusal.MISSING_KEY.value)
            )
            rows += [
                BadAppend(session, kind, {**payload, key: wrong}, Refusal.WRONG_VALUE_TYPE.value)
                for wrong in WRONG_VALUES
            ]
            if must_be_non_empty:
                rows.append(
                    BadAppend(session, kind, {**payload, key: ""}, Refusal.EMPTY_VALUE.value)
                )
    return [
        row
        for row in rows
        if model.refusal(row.session_id, row.event_type, row.payload) is not None
    ]  # fmt: skip


def call_trouble(model: ModelLog, sessions: list[str], pick: int) -> list[BadAppend]:
    """The call-id refusals this history makes possible, reaching as far back as it can."""
    rows: list[BadAppend] = []
    for session in sessions:
        called = [call for (owner, call) in model.calls if owner == session]
        answered = model.calls_in(session, ANSWERED)
        if called:
            reused = called[0] if pick % 2 == 0 else called[-1]
            rows.append(
                BadAppend(
                    session,
                    "tool_call",
                    {"call_id": reused, "name": "search", "arguments": "{}"},
                    Refusal.CALL_ID_REUSED.value,
                )
            )
        if answered:
            again = answered[0] if pick % 2 == 0 else answered[-1]
            rows.append(BadAppend(session, "tool_result", {"call_id": again, "content": "again"},
                                  Refusal.RESULT_ALREADY_GIVEN.value))  # fmt: skip
        for stranger in _strangers(model, session, called, pick):
            rows.append(BadAppend(session, "tool_result", {"call_id": stranger, "content": "42"},
                                  Refusal.RESULT_WITHOUT_CALL.value))  # fmt: skip
    return [
        row
        for row in rows
        if model.refusal(row.session_id, row.event_type, row.payload) is not None
    ]


#: What a learner might join a session id and a call id with to make one key: ``a`` asking
#: for ``b<sep>c`` collides with ``a<sep>b`` having called ``c``.
SEPARATORS = ("", ":", "\t", "|", "/", " ", "-", "_", ".", ",", ";", "#", "@", "::", "\n",
              "\x00", "\x1f", "\x1e", "->", "\\")  # fmt: skip


def _joined(session: str, owner: str, call: str) -> list[str]:
    """Call ids that, asked for in ``session``, collide with ``owner``'s ``call`` when session
    and call id are joined with any of :data:`SEPARATORS` (or compared on a prefix)."""
    found = []
    for sep in SEPARATORS:
        joined = owner + sep + call
        if owner != session and joined.startswith(session + sep):
            found.append(joined[len(session) + len(sep) :])
    return found


def _strangers(model: ModelLog, session: str, called: list[str], pick: int) -> list[str]:
    """Call ids this session never called: another session's, a twin of its own, a joined
    key that collides (session ``a`` asked for ``b:c`` when ``a:b`` called ``c``)."""
    strangers = [call for (owner, call) in model.calls if owner != session and call not in called][
        :1
    ]
    if called:
        strangers.append(TWINS[pick % len(TWINS)](called[0]))
    for owner, call in model.calls:
        strangers.extend(_joined(session, owner, call)[:2])
    strangers.append("call_9")
    return [
        stranger for stranger in dict.fromkeys(strangers) if stranger and stranger not in called
    ][:4]


def picks() -> st.SearchStrategy[int]:
    return st.integers(0, 63)
