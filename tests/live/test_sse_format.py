"""The SSE wire format: one event, one frame, one line of data, whatever the payload holds."""

from __future__ import annotations

import json

import pytest

from sqlite_demo.live.sse import (
    comment_frame,
    event_frame,
    named_frame,
    parse_last_event_id,
    retry_frame,
)
from sqlite_demo.service.api_schema import MAX_EVENT_ID

# Line breaks as SSE sees them (\r\n, \n, \r), a NUL, and separators that are NOT SSE line
# breaks but are in other specs (NEL, U+2028): none may end the data line early.
HOSTILE_TEXTS = [
    "\n\nid: 999\ndata: forged\n\n",
    "line\rbreak\r\nand more",
    "nul \x00 byte",
    "next line \x85 and \u2028 and \u2029",
    "event: closing",
    "订单数量",
]


@pytest.mark.parametrize("text", HOSTILE_TEXTS)
def test_an_event_frame_is_one_id_line_and_one_data_line_whatever_the_text(text: str) -> None:
    frame = event_frame(7, {"event_id": 7, "payload": {"content": text}})

    lines = frame.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    assert lines[:1] == ["id: 7"] and lines[2:] == ["", ""], repr(frame)
    assert lines[1].startswith("data: ")
    assert json.loads(lines[1].removeprefix("data: "))["payload"]["content"] == text


def test_a_named_frame_carries_no_id_so_the_last_event_id_stays_a_log_event() -> None:
    assert named_frame("caught-up", {"after": 3}) == 'event: caught-up\ndata: {"after":3}\n\n'


@pytest.mark.parametrize("name", ["", "Caught-Up", "x\ny", "a b", "message\r"])
def test_a_named_frame_refuses_a_name_that_is_not_lowercase_words(name: str) -> None:
    with pytest.raises(ValueError, match="event name"):
        named_frame(name, {})


def test_comments_and_retry_are_single_line_frames() -> None:
    assert comment_frame("heartbeat") == ": heartbeat\n\n"
    assert retry_frame(1000) == "retry: 1000\n\n"
    with pytest.raises(ValueError, match="one line"):
        comment_frame("two\nlines")


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        (None, None),
        ("", None),
        ("0", 0),
        ("17", 17),
        ("007", 7),
        (str(MAX_EVENT_ID), MAX_EVENT_ID),
        ("9" * 19, MAX_EVENT_ID),  # past every id: nothing comes after it, as after MAX
    ],
)
def test_a_last_event_id_header_names_an_event_id_or_nothing(
    header: str | None, expected: int | None
) -> None:
    assert parse_last_event_id(header) == expected


@pytest.mark.parametrize(
    "header",
    [
        "x",
        "-1",
        "+5",
        " 5",
        "5 ",
        "5_000",
        "1e3",
        "0x10",
        "\u0663",  # an Arabic-Indic digit three
        "\uff11",  # a full-width digit one: a digit to int(), not to us
        "1" * 20,
        "9" * 40,
    ],
)
def test_a_last_event_id_that_is_not_plain_ascii_digits_in_range_is_refused(header: str) -> None:
    with pytest.raises(ValueError, match="up to 19 ASCII digits") as refused:
        parse_last_event_id(header)
    assert repr(header) in str(refused.value)
