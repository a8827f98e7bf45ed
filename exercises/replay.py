"""Replay: fold one session's events into the chat messages a model API accepts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def replay_session(log: Any, session_id: str) -> Sequence[dict[str, Any]]:
    """Rebuild the session as OpenAI Chat Completions messages, ready to send back to a model.

    Replay is a fold: start from no messages and apply the session's events one at a time,
    oldest first:

    - user_message      -> ``{"role": "user", "content": c}``
    - assistant_message -> ``{"role": "assistant", "content": c}``
    - tool_call         -> ``{"role": "assistant", "content": None, "tool_calls": [{"id": call_id,
      "type": "function", "function": {"name": name, "arguments": arguments}}]}``. A run of
      consecutive tool_call events becomes ONE assistant message whose ``tool_calls`` keep their
      order: the API wants parallel calls in one message, directly followed by their results.
    - tool_result       -> ``{"role": "tool", "tool_call_id": call_id, "content": c}``

    Promises:
        - Each event becomes the message of its type (a user, an assistant or a tool message;
          a tool call, an assistant message with tool_calls), oldest first: those keys and no
          others (extra payload keys stay out), every string as it was stored (never parsed).
        - Consecutive tool_call events of the session become one assistant message whose
          tool_calls keep their order, however many there are; any other event of the same
          session ends the run (an assistant message too, even an empty one), events of other
          sessions do not.
        - Only this session's events count: a session without events replays to an empty
          sequence.
        - Every call builds fresh objects: a caller who edits the returned messages, at any
          depth, does not change what the next replay returns.

    Why: the log stores what happened; replay derives the state a model needs. After a crash,
    recovering a conversation is nothing more than replaying it.

    Example:
        >>> log = create_event_log()
        >>> log, _ = append_event(log, "a", "user_message", {"content": "how many orders?"})
        >>> log, _ = append_event(
        ...     log, "a", "tool_call",
        ...     {"call_id": "call_1", "name": "query_order_count", "arguments": "{}"})
        >>> log, _ = append_event(log, "a", "tool_result", {"call_id": "call_1", "content": "42"})
        >>> [m["role"] for m in replay_session(log, "a")]
        ['user', 'assistant', 'tool']
    """
    raise NotImplementedError("replay_session is not implemented yet")
