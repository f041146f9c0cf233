"""Sliding-window memory (seed 000): MAX_MESSAGES 10, KEEP_RECENT 5, MAX_SUMMARIES 3."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from graph.context import Extras, system_prompt, unsummarized
from graph.memory.bounded import active_items
from graph.memory.run import SummaryRun
from graph.turns import split_turns

MAX_MESSAGES = 10
KEEP_RECENT = 5
MAX_SUMMARIES = 3
SUMMARY_SEPARATOR = "\n---SUMMARY_BREAK---\n"


def add_summary_to_window(existing_summary: str, new_summary: str) -> str:
    """Append a summary; keep the newest MAX_SUMMARIES, oldest dropped first."""
    summaries = [*window_summaries(existing_summary), new_summary]
    return SUMMARY_SEPARATOR.join(summaries[-MAX_SUMMARIES:])


def window_summaries(summary: str) -> list[str]:
    """The summaries in the window, oldest first."""
    return [s for s in summary.split(SUMMARY_SEPARATOR) if s] if summary else []


def format_summary_for_prompt(summary: str) -> str:
    """Number the window's summaries for the system prompt ([대화 기록 1], ...)."""
    return "\n\n".join(
        f"[대화 기록 {i}]\n{text}" for i, text in enumerate(window_summaries(summary), 1)
    )


def split_point(messages: Sequence[BaseMessage], keep_recent: int = KEEP_RECENT) -> int:
    """Index where the kept recent messages start: at least `keep_recent` stay.

    The cut moves earlier to the start of a turn (a user message), so a tool result never
    loses the call that asked for it, and the archive keeps whole turns.
    """
    cut = max(0, len(messages) - keep_recent)
    while cut > 0 and not isinstance(messages[cut], HumanMessage):
        cut -= 1
    return cut


def orphaned_tool_results(messages: Sequence[BaseMessage]) -> list[ToolMessage]:
    """Tool results whose calling AIMessage is not among `messages`."""
    called = {c["id"] for m in messages if isinstance(m, AIMessage) for c in m.tool_calls}
    return [m for m in messages if isinstance(m, ToolMessage) and m.tool_call_id not in called]


def needs_summary(messages: Sequence[BaseMessage]) -> bool:
    """True when more than MAX_MESSAGES messages are live."""
    return len(messages) > MAX_MESSAGES


class SlidingWindow:
    """Seed 000: past MAX_MESSAGES live messages, all but the last KEEP_RECENT are summarized.

    The cut is at a turn start, so a tool result never loses its call; the new summary
    joins a window of MAX_SUMMARIES, the oldest dropped.
    """

    name = "sliding_window"

    def due(self, run: SummaryRun) -> tuple[int, int] | None:
        """The whole turns before the kept recent messages, once the window overflows."""
        messages = unsummarized(run.state)
        if not needs_summary(messages):
            return None
        count = len(split_turns(messages[: split_point(messages)])[0])
        return (run.covered + 1, count) if count else None

    def update(self, run: SummaryRun, due: tuple[int, int] | None) -> None:
        """Start from earlier summaries after a switch; add the new summary to the window."""
        if run.history and not run.state.get("window_summary"):
            window = ""
            for item in active_items(run.history, run.digests):
                window = add_summary_to_window(window, item["summary"])
            run.update["window_summary"] = window
        block = run.turns(*due) if due else None
        if due is None or block is None:
            return
        text = run.summarize(due[0], block)
        if text is not None:
            window = run.update.get("window_summary", run.state.get("window_summary", ""))
            run.update["window_summary"] = add_summary_to_window(window, text)

    def context(self, state: Mapping[str, Any], extras: Extras) -> list[BaseMessage]:
        """The window's summaries (`[대화 기록 n]`) + the live messages."""
        window = format_summary_for_prompt(state.get("window_summary", ""))
        return [system_prompt([], extras, window=window), *unsummarized(state)]
