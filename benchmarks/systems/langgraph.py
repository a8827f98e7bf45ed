"""LangGraph: ``SqliteSaver``, the checkpointer that keeps a graph's state between runs.

LangGraph has no "append a message" call: a conversation lives in a graph's state, and the
saver stores a checkpoint of that state at every step. The closest public-API equivalent of
appending one message is ``graph.update_state(config, {"messages": [message]})`` on a tiny
``StateGraph(MessagesState)`` compiled with the saver: the documented ``add_messages``
reducer appends the message, and exactly one checkpoint (plus its pending writes) is stored,
with no LLM node run. (``invoke`` would run the graph and store several checkpoints per
message; calling ``saver.put`` by hand would skip the reducer that users rely on.)

A checkpoint holds the whole state, so each append serialises every message so far: the
cost of one append, and the bytes it adds, grow with the session. That is why the runner
stops LangGraph at 1,000 messages. Reading is ``graph.get_state(config)``; there is no way
to read only the messages after a position.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.graph import START, MessagesState, StateGraph

from benchmarks.systems.base import AdapterInfo, Durability, Synchronous, connection_durability
from benchmarks.workload import ChatMessage

INFO = AdapterInfo(
    api="StateGraph(MessagesState) + SqliteSaver: update_state(...) / get_state(...)",
    tail=None,
    settings=(
        "the saver takes our connection, so synchronous is set on it (equal to ours);"
        " its setup() switches the file to WAL"
    ),
    max_messages=1_000,
    limit_reason=(
        "every checkpoint stores the whole message list, so each append costs O(n) in time"
        " and bytes; extrapolated from 1,000 messages, one run of 10,000 would take about"
        " 20 minutes and write about 14 GB"
    ),
)


class LangGraphCheckpoints:
    """One thread of a one-node graph whose state is a message list, checkpointed to SQLite."""

    def __init__(self, directory: Path, synchronous: Synchronous) -> None:
        self._connection = sqlite3.connect(directory / "langgraph.db", check_same_thread=False)
        self._connection.execute(f"PRAGMA synchronous = {synchronous}")
        builder = StateGraph(MessagesState)
        builder.add_node("unchanged", _unchanged)
        builder.add_edge(START, "unchanged")
        self._graph = builder.compile(checkpointer=SqliteSaver(self._connection))
        self._config: Any = {"configurable": {"thread_id": "benchmark"}}

    def append_each(self, messages: Sequence[ChatMessage]) -> None:
        for message in messages:
            self._graph.update_state(self._config, {"messages": [message.as_openai_message()]})

    def read_all(self) -> int:
        return len(self._graph.get_state(self._config).values["messages"])

    def read_tail(self, after: int) -> int | None:
        return None

    def durability(self) -> Durability:
        return connection_durability(self._connection, "PRAGMA on the saver's connection")

    def close(self) -> None:
        self._connection.close()


def _unchanged(state: MessagesState) -> dict[str, Any]:
    # The graph needs one node to compile; update_state never runs it.
    return {}


def open_store(directory: Path, synchronous: Synchronous | None) -> LangGraphCheckpoints:
    """Open a checkpointed graph in ``directory`` with ``synchronous`` (NORMAL when None)."""
    return LangGraphCheckpoints(directory, synchronous or "NORMAL")
