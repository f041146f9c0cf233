"""Building a graph on in-memory persistence for unit tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.tools import BaseTool, tool
from langgraph.checkpoint.memory import InMemorySaver

from graph.graph import build_graph
from graph.settings import load_settings
from graph.storage.archive import Archive
from graph.summarizer import ExtractiveSummarizer, Summarizer


@tool
def calculator(expression: str) -> str:
    """Add two integers written as 'a+b' (a stand-in for the real calculator)."""
    left, right = expression.split("+")
    return str(int(left) + int(right))


def make_graph(
    model: Any,
    *,
    summarizer: Summarizer | None = None,
    tools: Sequence[BaseTool] = (calculator,),
    approval: frozenset[str] = frozenset(),
    index: Any = None,
    **env: str,
) -> Any:
    settings = load_settings(env)
    return build_graph(
        InMemorySaver(),
        archive=Archive.in_memory(),
        settings=settings,
        model=model,
        summarizer=summarizer or ExtractiveSummarizer(),
        tools=list(tools),
        approval_required=approval,
        index=index,
    )


def send(graph: Any, thread: str, turn: int, text: str, rate: float = 0.3) -> dict[str, Any]:
    from langchain_core.messages import HumanMessage

    return graph.invoke(
        {
            "messages": [HumanMessage(content=text)],
            "session_id": thread,
            "turn_count": turn,
            "compression_rate": rate,
        },
        {"configurable": {"thread_id": thread}},
    )
