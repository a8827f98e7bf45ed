"""An OpenAI Agents SDK agent whose memory is the event log: the process the SDK demo kills.

The agent is the chapter's order-service assistant, with two tools, run by the SDK's own
``Runner`` with an :class:`~sqlite_demo.EventLogSession` as its session. Its model is the
SDK's ``agents.testing.ScriptedModel`` (no network, no API key), each step answered by
:func:`next_output`, a rule that reads the history the runner sends, as a real model would.
So a process that starts on a history with an unanswered question answers that question.

``python -m sqlite_demo.sdk_agent --db PATH --session ID ask QUESTION...`` runs one turn per
question; ``... resume`` runs one turn on what the log holds, adding nothing first.
``--slow-warehouse`` makes the shipped-orders tool announce itself and then hang, so that
:mod:`sqlite_demo.sdk_demo` can SIGKILL the process in the middle of a run.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from agents import Agent, Runner, function_tool, set_tracing_disabled
from agents.testing import ModelCall, ModelStep, ScriptedModel, assistant_message, function_call

from sqlite_demo.agents_session import EventLogSession
from sqlite_demo.texts import say

ORDER_COUNT, SHIPPED_COUNT = 42, 7
#: Model steps a process may take: two per question is all the rule ever needs.
MAX_MODEL_STEPS: Final = 16
#: Each tool's answer, put into words.
_ANSWERS: Final = {
    "query_order_count": "sdk.reply.orders",
    "query_shipped_count": "sdk.reply.shipped",
}
_CJK: Final = re.compile(r"[\u3400-\u9fff]")


def next_output(call: ModelCall) -> list[Any]:
    """The scripted model's rule: what to say next, given the history the runner sent.

    A tool's output is put into words, in the language of the last question (Chinese or
    English); a question about shipping calls the warehouse; any other question calls the
    order count. Call ids count the calls already in the history (``call_1``, ``call_2``,
    ...), so a run that resumes a history gives the ids it would have.
    """
    history: list[dict[str, Any]] = list(call.input)
    last = history[-1]
    language = _language_of(history)
    if last.get("role") == "assistant":
        return [assistant_message(say("sdk.reply.nothing", language))]
    if last.get("type") == "function_call_output":
        name = next(item["name"] for item in history if item.get("call_id") == last["call_id"])
        return [assistant_message(say(_ANSWERS[name], language, count=last["output"]))]
    calls = sum(item.get("type") == "function_call" for item in history)
    question = str(last.get("content", "")).lower()
    asks_shipping = "ship" in question or "发货" in question
    tool = "query_shipped_count" if asks_shipping else "query_order_count"
    return [function_call(tool, {}, call_id=f"call_{calls + 1}")]


def _language_of(history: Sequence[dict[str, Any]]) -> str:
    """The language of the last question: a real model answers in the user's language."""
    questions = [item for item in history if item.get("role") == "user"]
    last = str(questions[-1].get("content", "")) if questions else ""
    return "zh" if _CJK.search(last) else "en"


def order_service(slow_warehouse: bool) -> Agent[Any]:
    """The agent: its tools, and a scripted model that follows :func:`next_output`."""

    @function_tool
    def query_order_count() -> int:
        """How many orders the user has."""
        return ORDER_COUNT

    @function_tool
    def query_shipped_count() -> int:
        """How many of the user's orders have shipped."""
        if slow_warehouse:
            print(say("sdk.warehouse_started"), flush=True)
            time.sleep(3600)  # the parent SIGKILLs the process here
        return SHIPPED_COUNT

    model = ScriptedModel([ModelStep.respond(next_output) for _ in range(MAX_MODEL_STEPS)])
    return Agent(name="order service", model=model, tools=[query_order_count, query_shipped_count])


async def run_turns(db: Path, session_id: str, questions: Sequence[str], slow: bool) -> None:
    """Run one turn per question (one turn on the log alone when there are none)."""
    agent = order_service(slow)
    with EventLogSession(session_id, db) as session:
        print(say("sdk.log_holds", count=len(await session.get_items())), flush=True)
        # No question: a turn on what the log holds (the SDK takes an empty input as that).
        turn_inputs: list[str | list[Any]] = [*questions] if questions else [[]]
        for turn_input in turn_inputs:
            result = await Runner.run(agent, turn_input, session=session)
            print(say("sdk.answer", text=result.final_output), flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line and run the turns; return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m sqlite_demo.sdk_agent")
    parser.add_argument("--db", type=Path, required=True, help="the SQLite file (created if new)")
    parser.add_argument("--session", required=True, help="the conversation's session id")
    parser.add_argument("--slow-warehouse", action="store_true", help="hang in the shipped tool")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("ask").add_argument("questions", nargs="+", metavar="QUESTION")
    commands.add_parser("resume")
    args = parser.parse_args(argv)
    set_tracing_disabled(True)  # tracing would try to upload to OpenAI; there is no network
    questions = args.questions if args.command == "ask" else []
    asyncio.run(run_turns(args.db, args.session, questions, args.slow_warehouse))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
