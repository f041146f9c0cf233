"""The chat graph: START -> summary_node -> llm_node <-> tool_node -> END."""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.language_models import BaseChatModel
from langchain_core.tools import BaseTool
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from graph.archive import Archive
from graph.nodes import make_llm_node, make_summary_node, make_tool_node, route_after_llm
from graph.providers import get_chat_model, get_summarizer
from graph.settings import Settings, load_settings
from graph.state import ChatState
from graph.summarizer import Summarizer

ChatGraph = CompiledStateGraph
"""A compiled chat graph."""


def build_graph(
    checkpointer: BaseCheckpointSaver | None,
    *,
    archive: Archive | None = None,
    settings: Settings | None = None,
    model: BaseChatModel | None = None,
    summarizer: Summarizer | None = None,
    tools: Sequence[BaseTool] | None = None,
    approval_required: frozenset[str] | None = None,
) -> ChatGraph:
    """Compile the chat graph.

    Args:
        checkpointer: Saver of per-thread state (SQLite in the app, in-memory in tests).
        archive: Where summarized turns and statistics go; without it turns stay in state.
        settings: Configuration; read from the environment when omitted.
        model: Answering model; by default chosen by `settings` (OpenAI or offline).
        summarizer: Summarizer; by default chosen by `settings`.
        tools: Tools bound to the model; by default the available tools of `graph.tools`.
        approval_required: Tool names that pause for the user's approval.
    """
    settings = settings or load_settings()
    if tools is None or approval_required is None:
        from graph.tools import APPROVAL_REQUIRED, build_tools

        tools = build_tools(settings) if tools is None else tools
        approval_required = APPROVAL_REQUIRED if approval_required is None else approval_required
    chat_model = model or get_chat_model(settings)
    bound = chat_model.bind_tools(list(tools)) if tools else chat_model

    builder = StateGraph(ChatState)
    builder.add_node(
        "summary_node", make_summary_node(summarizer or get_summarizer(settings), archive)
    )
    builder.add_node("llm_node", make_llm_node(bound, settings.tool_round_limit, archive))  # type: ignore[arg-type]
    builder.add_node("tool_node", make_tool_node(tools, approval_required))
    builder.add_edge(START, "summary_node")
    builder.add_edge("summary_node", "llm_node")
    builder.add_conditional_edges("llm_node", route_after_llm, ["tool_node", END])
    builder.add_edge("tool_node", "llm_node")
    return builder.compile(checkpointer=checkpointer)
