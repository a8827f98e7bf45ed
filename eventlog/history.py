"""Corrections in the fold: a history whose newest items can be taken out again.

The chat fold (:func:`eventlog.apply_event`) only ever adds to the conversation. The two
corrections (``item_removed``, ``session_cleared``: see :data:`eventlog.CORRECTION_TYPES`)
take items out, without anything being deleted from the log. Every conversation is an
immutable value, so taking the newest item out is going back to the conversation as it was
before that item. A :class:`History` keeps, for each item still in force, its event and the
conversation before it: a stack, newest on top. ``item_removed`` pops the top (and checks that
its pointer names it), ``session_cleared`` empties the stack. Folding n events still costs
O(n), and replay, the agent's view and an agent framework's ``get_items`` share this one fold.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import reduce
from typing import Any, Final

from eventlog.errors import CorrectionError
from eventlog.fold import EMPTY_CONVERSATION, Conversation, Message, apply_event, messages_of
from eventlog.messages import sentence

#: The items in force, newest first: ``(event, conversation before it, earlier items)``.
LiveItems = tuple[Any, Conversation, "LiveItems"] | None


@dataclass(frozen=True, slots=True)
class History:
    """A session folded so far: the chat messages, and the items still in force.

    Attributes:
        conversation: the Chat Completions messages of the items in force (see
            :mod:`eventlog.fold`).
        live: the item events in force, newest first, each with the conversation before it.
    """

    conversation: Conversation = EMPTY_CONVERSATION
    live: LiveItems = None

    @property
    def newest_item(self) -> Any | None:
        """The newest item event still in force, or None when there is none."""
        return None if self.live is None else self.live[0]

    def item_events(self) -> list[Any]:
        """The item events in force, oldest first, as a fresh list."""
        return list(reversed(list(self._newest_first())))

    def _newest_first(self) -> Iterator[Any]:
        link = self.live
        while link is not None:
            event, _, link = link
            yield event


EMPTY_HISTORY: Final = History()


def apply_to_history(history: History, event: Any) -> History:
    """Return the history with ``event`` folded in; the input is left as it was.

    Args:
        history: the session so far (start from :data:`EMPTY_HISTORY`).
        event: anything with ``event_id``, ``type`` and ``payload``.

    Raises:
        CorrectionError: a correction that does not point at what it may supersede (the
            store refuses to append one; a log edited by hand could hold it).
        ValueError: an event of unknown type.
    """
    if event.type == "item_removed":
        return _without_newest_item(history, event.payload["supersedes"])
    if event.type == "session_cleared":
        newest = history.newest_item
        if newest is not None and newest.event_id > event.payload["supersedes_through"]:
            through = event.payload["supersedes_through"]
            raise CorrectionError(
                sentence("correction.clears_too_little", through=through, newest=newest.event_id)
            )
        return EMPTY_HISTORY
    conversation = apply_event(history.conversation, event)
    return History(conversation, (event, history.conversation, history.live))


def _without_newest_item(history: History, supersedes: int) -> History:
    if history.live is None:
        raise CorrectionError(sentence("correction.nothing_left", supersedes=supersedes))
    newest, before, earlier = history.live
    if newest.event_id != supersedes:
        raise CorrectionError(
            sentence("correction.not_the_newest", supersedes=supersedes, newest=newest.event_id)
        )
    return History(before, earlier)


def fold_history(events: Iterable[Any]) -> History:
    """Fold a session's events, oldest first, into its :class:`History`."""
    return reduce(apply_to_history, events, EMPTY_HISTORY)


def replay_events(events: Iterable[Any]) -> list[Message]:
    """Fold a session's events, oldest first, into a fresh list of chat messages.

    Corrections are honoured: an item taken out is not in the list.
    """
    return messages_of(fold_history(events).conversation)
