"""Notebook 3: a guided tour of the five exercise functions, graded one task at a time."""

# Markdown tables cannot wrap, so long lines are allowed in this module's strings.
# ruff: noqa: E501

from __future__ import annotations

from cells import code, md

FILENAME = "03_event_log_in_pure_python.ipynb"

GRADE_HELPER = r"""
# check(task) grades one task of your ``exercises`` package, exactly as
# ``python -m grader --task TASK`` does, prints the feedback and returns True when it passes.
# Your code runs in a separate worker process, so the grader always sees the files as you last
# saved them, and an unfinished or broken exercise is reported, never raised.
from grader import check
"""

CELLS = [
    md(r"""
    # 3. The event log in pure Python: your five functions

    Before any database, the idea itself: an **event log** is an immutable sequence of
    events, and everything else (a session's history, the list of sessions, the chat
    messages a model needs) is computed from it. In this notebook you write that log as
    five plain Python functions, in the `exercises` package next to this folder:

    | file | functions |
    |---|---|
    | `exercises/event_log.py` | `create_event_log`, `append_event` |
    | `exercises/sessions.py` | `get_events_for_session`, `list_sessions` |
    | `exercises/replay.py` | `replay_session` |

    No SQL, no files: the properties that matter (append-only, immutable, isolated per
    session, replayable) have nothing to do with the storage engine, and a pure function is
    the easiest thing in the world to test. Notebook 4 shows the same contract kept in
    SQLite.

    **How to work.** Open a file in the editor, replace a `raise NotImplementedError` with your
    code, save, and re-run the cells of that task here. The grader checks *behaviour*, never
    your code's shape: it throws hundreds of generated inputs at your functions and, when one
    breaks a rule, prints the rule in one sentence and the shortest program that shows it.

    **Failing is expected.** Until you have written a function, its task shows as
    *not implemented yet*; a task whose function has a bug shows as *failed*, with the
    smallest example the grader found. None of the cells below raise an error either way, so
    you can run the whole notebook at any time to see where you stand.
    """),
    code(r'''
    %load_ext autoreload
    %autoreload 2

    from pprint import pprint

    try:
        from exercises import (
            append_event,
            create_event_log,
            get_events_for_session,
            list_sessions,
            replay_session,
        )
    except Exception as error:  # e.g. a syntax error in a half-edited file
        print(f"your exercises could not be imported: {type(error).__name__}: {error}")


    def attempt(action) -> None:
        """Run ``action()`` and print what it returned, or why it could not; never raises."""
        try:
            result = action()
        except NotImplementedError as error:
            print(f"not implemented yet: {error}")
        except Exception as error:  # a bug in an exercise is shown, not thrown
            print(f"raised {type(error).__name__}: {error}")
        else:
            pprint(result, width=96, sort_dicts=False)
    '''),
    md(r"""
    `%autoreload 2` re-imports your `exercises` each time a cell runs, so saving a file and
    re-running a cell is enough: no kernel restart. (If a file could not be imported at all,
    say because of a syntax error, fix it and run the cell above again.) The grading helper:
    """),
    code(GRADE_HELPER),
    md(r"""
    ## Task 1 — `append_and_ids`: appending, and the event ids

    `create_event_log()` returns an empty log. `append_event(log, session_id, event_type,
    payload)` returns a **pair**: a *new* log with the event added, and the event itself. The
    old log must not change: it is a value, like a tuple, and an old value still describes the
    past it described. That is what makes "the state after event 4" computable at all.

    An event is read by attribute: `event_id`, `session_id`, `type`, `payload`.

    * **Ids** form *one* sequence shared by every session: 1 for the first event, then the
      previous id + 1, no gaps. Notebook 5 resumes a client with "everything after event 4",
      which only works if ids only grow.
    * **The payload is copied.** If the caller changes their dict afterwards, the log must not
      notice; and a reader who receives `event.payload` must not be able to change the log
      through it (return something read-only, or a fresh copy).
    * The four **event types** are `user_message`, `assistant_message`, `tool_call` and
      `tool_result`.

    Try it (this cell shows *not implemented yet* until you have written both functions):
    """),
    code(r"""
    def two_appends():
        empty = create_event_log()
        log_1, first = append_event(empty, "order-desk", "user_message", {"content": "hello"})
        _, second = append_event(log_1, "docs-assistant", "user_message", {"content": "hi"})
        return {
            "events": [(e.event_id, e.session_id, e.type, dict(e.payload)) for e in (first, second)],
            "old log still has no docs-assistant events": not get_events_for_session(
                log_1, "docs-assistant"
            ),
        }


    attempt(two_appends)
    """),
    code(r"""
    passed = check("append_and_ids")
    """),
    md(r"""
    ## Task 2 — `read_and_resume`: one session's events, and resuming after an id

    `get_events_for_session(log, session_id, after_event_id=0)` returns the events of that
    session whose `event_id` is greater than `after_event_id`, oldest first. Two jobs in one:

    * **Isolation**: another session's events never appear, however they interleave.
    * **Resume**: a client that saw up to event 4 asks for `after_event_id=4` and gets exactly
      what it missed. Any number works, including ones that belong to other sessions.
    """),
    code(r"""
    def interleaved_sessions():
        log = create_event_log()
        for session, text in [("a", "1"), ("b", "2"), ("a", "3"), ("b", "4"), ("a", "5")]:
            log, _ = append_event(log, session, "user_message", {"content": text})
        return {
            "a": [e.event_id for e in get_events_for_session(log, "a")],
            "a after 1": [e.event_id for e in get_events_for_session(log, "a", after_event_id=1)],
            "b after 4": [e.event_id for e in get_events_for_session(log, "b", after_event_id=4)],
        }


    attempt(interleaved_sessions)  # when done: a [1, 3, 5], a after 1 [3, 5], b after 4 []
    """),
    code(r"""
    passed = check("read_and_resume")
    """),
    md(r"""
    ## Task 3 — `list_sessions`: which conversations exist

    `list_sessions(log)` returns the ids of the sessions that have at least one event, each
    once, **in the order of their first event** (not sorted by name). An empty log has none.
    """),
    code(r"""
    def sessions_in_first_event_order():
        log = create_event_log()
        for session in ["order-desk", "docs-assistant", "order-desk", "billing"]:
            log, _ = append_event(log, session, "user_message", {"content": "."})
        return list(list_sessions(log))


    attempt(sessions_in_first_event_order)  # when done: order-desk, docs-assistant, billing
    """),
    code(r"""
    passed = check("list_sessions")
    """),
    md(r"""
    ## Task 4 — `replay`: from events back to chat messages

    `replay_session(log, session_id)` rebuilds the session as the message list of the OpenAI
    Chat Completions API, so a recovered conversation can go straight back to a model. Replay
    is a **fold**: start with no messages and apply each of the session's events in order.

    | event | becomes |
    |---|---|
    | `user_message` | `{"role": "user", "content": c}` |
    | `assistant_message` | `{"role": "assistant", "content": c}` |
    | `tool_call` | `{"role": "assistant", "content": None, "tool_calls": [{"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}]}` |
    | `tool_result` | `{"role": "tool", "tool_call_id": call_id, "content": c}` |

    One rule needs care: a model may call several tools at once, and the API wants them in
    **one** assistant message. So a *run* of consecutive `tool_call` events becomes one
    assistant message whose `tool_calls` keep their order. A session without events replays
    to an empty list, and every call returns fresh objects (editing one replay must not
    change the next).
    """),
    code(r"""
    def parallel_tool_calls():
        steps = [
            ("user_message", {"content": "orders and invoices, please"}),
            ("tool_call", {"call_id": "c1", "name": "count_orders", "arguments": "{}"}),
            ("tool_call", {"call_id": "c2", "name": "count_invoices", "arguments": "{}"}),
            ("tool_result", {"call_id": "c1", "content": "42"}),
            ("tool_result", {"call_id": "c2", "content": "7"}),
            ("assistant_message", {"content": "42 orders and 7 invoices."}),
        ]
        log = create_event_log()
        for event_type, payload in steps:
            log, _ = append_event(log, "order-desk", event_type, payload)
        return replay_session(log, "order-desk")


    attempt(parallel_tool_calls)  # when done: 5 messages; the 2nd holds both tool calls
    """),
    code(r"""
    passed = check("replay")
    """),
    md(r"""
    ## Task 5 — `reject_bad_input`: the log only accepts valid events

    The log is the source of truth for every later replay, so bad input is refused at the
    door: `append_event` raises `ValueError` (a subclass is fine) and **appends nothing**. It
    refuses:

    * an unknown event type, or a `session_id` that is not a non-empty string;
    * a payload that is not a mapping, lacks a required key, or holds a non-string value.
      Required: `content` for messages; `call_id`, `name` (both non-empty) and `arguments`
      for a `tool_call`; `call_id` (non-empty) and `content` for a `tool_result`;
    * a `tool_call` whose `call_id` this session already used;
    * a `tool_result` whose `call_id` this session never called, or that already has a
      result. Call ids belong to their session: `call_1` in two sessions is two calls.

    Still valid: empty `content`, empty `arguments`, and `arguments` that are not valid JSON
    (they are stored exactly as the model produced them).
    """),
    code(r"""
    def refused_appends():
        log, _ = append_event(create_event_log(), "a", "user_message", {"content": "hi"})
        bad_appends = {
            "unknown type": ("a", "user_mesage", {"content": "typo"}),
            "empty session id": ("", "user_message", {"content": "hi"}),
            "result without a call": ("a", "tool_result", {"call_id": "c9", "content": "?"}),
        }
        outcome = {}
        for label, arguments in bad_appends.items():
            try:
                append_event(log, *arguments)
                outcome[label] = "accepted (should be refused)"
            except ValueError as error:
                outcome[label] = f"refused: {type(error).__name__}"
        return outcome


    attempt(refused_appends)
    """),
    code(r"""
    passed = check("reject_bad_input")
    """),
    md(r"""
    ## Where you stand

    All five tasks at once, as the command line shows them. From a terminal, the same report
    comes from `python -m grader`; `python -m grader --watch` re-grades every time you save.
    """),
    code(r"""
    import grader
    from grader.frontends.report import report_text

    print(report_text(grader.grade(target="exercises")))
    """),
    md(r"""
    When all five pass, you have written, in a few dozen lines, the semantics of the store
    that notebook 4 keeps in SQLite: the same rules and the same fold, with a file underneath.
    """),
]
