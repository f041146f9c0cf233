"""The chat graph: safeguard, summary, recall, then the model and its tools.

START -> safeguard_node -> summary_node -> recall_node -> llm_node <-> tool_node -> END.
The safeguard labels the message first (a blocked one ends the turn there). With a document
index a router runs next: safeguard_node -> router_node -> (rag_node) -> summary_node.
A thread of the recursive strategy goes on after its answer: llm_node -> memory_node -> END
(seed 003's memory update, off the answer's path; see `graph.nodes.memory`).
"""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.language_models import BaseChatModel
from langchain_core.tools import BaseTool
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from graph.memory.short_term import ShortTermStore, short_term_store
from graph.nodes import (
    make_llm_node,
    make_recall_node,
    make_summary_node,
    make_tool_node,
    route_after_llm,
)
from graph.nodes.memory import MEMORY_NODE, make_memory_node, make_route_after_answer
from graph.nodes.safeguard import make_safeguard_node, route_after_safeguard
from graph.providers import get_chat_model, get_summarizer
from graph.retrieval.index import DocumentIndex
from graph.settings import Settings, load_settings
from graph.state import ChatState
from graph.storage.archive import Archive
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
    index: DocumentIndex | None = None,
    router_model: BaseChatModel | None = None,
    safeguard_model: BaseChatModel | None = None,
    short_term: ShortTermStore | None = None,
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
        index: Document index; with it a router and a rag node run first, and the model
            gets `search_all` / `search_by_metadata` / `get_section` for agentic search.
        router_model: Model for the router's structured decision; None uses the rule.
        safeguard_model: Model asked for each message's safeguard label besides the rules.
        short_term: Seed 003's short-term store of recursive threads; by default the Redis
            of REDIS_URL, or none.
    """
    settings = settings or load_settings()
    if tools is None or approval_required is None:
        from graph.tools import APPROVAL_REQUIRED, build_tools

        tools = build_tools(settings) if tools is None else tools
        approval_required = APPROVAL_REQUIRED if approval_required is None else approval_required
    tools = list(tools)
    if index is not None:
        from graph.retrieval import build_document_tools

        tools += build_document_tools(index)
    chat_model = model or get_chat_model(settings)
    # OpenAI and compatible servers say how a reply finished; a cut-off one is an error
    reports_finish = type(chat_model).__module__.startswith("langchain_openai")
    # tool_choice="auto" is OpenAI's default, but a compatible server may ignore tools
    # without it (llama.cpp's does); one that refuses it is handled in graph.compat
    choice = {"tool_choice": "auto"} if reports_finish else {}
    bound = chat_model.bind_tools(tools, **choice) if tools else chat_model

    summarizer = summarizer or get_summarizer(settings)
    short_term = short_term if short_term is not None else short_term_store(settings)

    builder = StateGraph(ChatState)
    builder.add_node(
        "summary_node", make_summary_node(summarizer, archive, settings.summary_budget)
    )
    builder.add_node(
        MEMORY_NODE, make_memory_node(summarizer, archive, settings.summary_budget, short_term)
    )
    builder.add_node("recall_node", make_recall_node(archive, settings.recall_budget))
    builder.add_node(
        "llm_node",
        make_llm_node(
            bound,  # type: ignore[arg-type]
            settings.tool_round_limit,
            archive,
            check_finish=reports_finish,
            mask_pii=reports_finish and settings.masks_pii,
            candidates=settings.candidate_count,
            plain=chat_model if tools else None,
            budgets=settings.token_budgets,
            turn_timeout_s=settings.turn_timeout_s,
        ),
    )
    builder.add_node("tool_node", make_tool_node(tools, approval_required, archive))
    builder.add_node("safeguard_node", make_safeguard_node(safeguard_model))
    builder.add_edge(START, "safeguard_node")
    first = "router_node" if index is not None else "summary_node"
    builder.add_conditional_edges(
        "safeguard_node", route_after_safeguard, {"next": first, "__end__": END}
    )
    if index is not None:
        from graph.routing import make_rag_node, make_router_node, route_after_router

        builder.add_node(
            "router_node", make_router_node(index, router_model, loop=settings.loop_retrieval)
        )
        builder.add_node(
            "rag_node", make_rag_node(index, router_model, loop=settings.loop_retrieval)
        )
        builder.add_conditional_edges(
            "router_node", route_after_router, ["rag_node", "summary_node"]
        )
        builder.add_edge("rag_node", "summary_node")
    builder.add_edge("summary_node", "recall_node")
    builder.add_edge("recall_node", "llm_node")
    builder.add_conditional_edges(
        "llm_node",
        make_route_after_answer(route_after_llm, archive, short_term),
        ["tool_node", MEMORY_NODE, END],
    )
    builder.add_edge("tool_node", "llm_node")
    builder.add_edge(MEMORY_NODE, END)
    return builder.compile(checkpointer=checkpointer)
