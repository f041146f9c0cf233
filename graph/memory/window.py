"""Sliding-window memory (seed 000): MAX_MESSAGES 10, KEEP_RECENT 5, MAX_SUMMARIES 3."""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

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
