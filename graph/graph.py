"""The chat graph: safeguard, summary, recall, then the model and its tools.

START -> safeguard_node -> summary_node -> recall_node -> llm_node <-> tool_node -> END
(tool_node ends the turn itself when the user rejects a call that waits for approval).
A failed answer step (llm_node, quorum_node) and a blocked message (safeguard_node) go to
fallback_node, which writes the coded apology (seed 001): -> fallback_node -> END.
The safeguard labels the message first (a blocked one ends the turn there). With a document
index a router runs next: safeguard_node -> router_node -> (rag_node) -> summary_node.
With ANSWER_CANDIDATES above 1 an answer step fans out and in (seed 001):
llm_node =Send=> candidate_node x N -> quorum_node -> tool_node | END.
With AGENT_MODE=supervisor, seed 004's supervisor takes the place of the router and of
llm_node <-> tool_node after the same memory nodes (`graph.supervisor`); its agents answer
each step once (no candidates).
A thread of the recursive strategy goes on after its answer (llm_node, quorum_node or the
supervisor's aggregate_node) -> memory_node -> END (seed 003's memory update, off the
answer's path; see `graph.nodes.memory`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.tools import BaseTool
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from graph.memory.short_term import ShortTermStore, short_term_store
from graph.nodes import (
    Node,
    make_llm_node,
    make_recall_node,
    make_summary_node,
    make_tool_node,
    route_after_llm,
    route_after_tools,
)
from graph.nodes.fallback import FALLBACK_NODE, make_fallback_node
from graph.nodes.llm import CANDIDATE_NODE, QUORUM_NODE, make_candidate_node, make_quorum_node
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

    def bind(bound_tools: Sequence[BaseTool]) -> Any:
        """The model bound to `bound_tools` (the model itself without any).

        TOOL_DECISION=rule: a provider's model is given no tools (the rule calls them).
        """
        if reports_finish and settings.tool_mode == "rule":
            return chat_model
        return chat_model.bind_tools(bound_tools, **choice) if bound_tools else chat_model

    def agent(bound_tools: Sequence[BaseTool]) -> Node:
        """The llm_node of a model bound to `bound_tools` (the supervisor binds subsets).

        It returns a `Command` only to fan out candidates, which the supervisor's agents
        never do.
        """
        return make_llm_node(  # type: ignore[return-value]
            bind(bound_tools),
            settings.tool_round_limit,
            archive,
            check_finish=reports_finish,
            mask_pii=reports_finish and settings.masks_pii,
            # the supervisor's agents answer each step once: no fan-out inside a step
            candidates=1 if settings.supervised else settings.candidate_count,
            plain=chat_model if bound_tools else None,
            budgets=settings.token_budgets,
            turn_timeout_s=settings.turn_timeout_s,
            # a provider's model may write its calls as text: they are read as calls
            tools=bound_tools if reports_finish else None,
            cache_layout=settings.prompt_layout == "stable_first",
            tool_rule=reports_finish and settings.tool_mode != "model",
        )

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
    builder.add_node("safeguard_node", make_safeguard_node(safeguard_model))
    builder.add_edge(START, "safeguard_node")
    # seed 004's supervisor plans the steps itself: no router before the memory nodes
    first = "router_node" if index is not None and not settings.supervised else "summary_node"
    # answer errors and a blocked message end at fallback_node, which writes the apology
    builder.add_node(FALLBACK_NODE, make_fallback_node())
    builder.add_edge(FALLBACK_NODE, END)
    builder.add_conditional_edges(
        "safeguard_node",
        route_after_safeguard,
        {"answer": first, "mask": first, "warn": first, "block": FALLBACK_NODE},
    )
    builder.add_edge("summary_node", "recall_node")
    builder.add_edge(MEMORY_NODE, END)
    # an answer that ends the turn goes on to memory_node when a recursive thread has work
    after_answer = make_route_after_answer(route_after_llm, archive, short_term)
    tool_node = make_tool_node(tools, approval_required, archive)
    if settings.supervised:
        from graph.supervisor import add_supervisor

        add_supervisor(
            builder,
            agent=agent,
            tools=tools,
            tool_node=tool_node,
            index=index,
            planner=router_model if settings.router_mode != "rule" else None,
            loop=settings.loop_retrieval,
            after_answer=make_route_after_answer(lambda _: END, archive, short_term),
        )
        return builder.compile(checkpointer=checkpointer)
    builder.add_node("llm_node", agent(tools))
    builder.add_node("tool_node", tool_node)
    if settings.candidate_count > 1:  # seed 001's fan-out / fan-in (graph.nodes.candidates)
        builder.add_node(
            CANDIDATE_NODE,
            make_candidate_node(  # type: ignore[arg-type]
                bind(tools),
                plain=chat_model if tools else None,
                check_finish=reports_finish,
                mask_pii=reports_finish and settings.masks_pii,
                turn_timeout_s=settings.turn_timeout_s,
            ),
        )
        builder.add_node(QUORUM_NODE, make_quorum_node())
        builder.add_edge(CANDIDATE_NODE, QUORUM_NODE)
        builder.add_conditional_edges(
            QUORUM_NODE, after_answer, ["tool_node", FALLBACK_NODE, MEMORY_NODE, END]
        )
    if index is not None:
        from graph.routing import make_rag_node, make_router_node, route_after_router

        # each decision by the rule, the model or both (ROUTER_DECISION, RERANK_DECISION)
        router, rerank = settings.router_mode, settings.rerank_mode
        builder.add_node(
            "router_node",
            make_router_node(
                index,
                router_model if router != "rule" else None,
                loop=settings.loop_retrieval,
                both=router == "both",
            ),
        )
        builder.add_node(
            "rag_node",
            make_rag_node(
                index,
                router_model if rerank != "rule" else None,
                loop=settings.loop_retrieval,
                both=rerank == "both",
            ),
        )
        builder.add_conditional_edges(
            "router_node", route_after_router, ["rag_node", "summary_node"]
        )
        builder.add_edge("rag_node", "summary_node")
    builder.add_edge("recall_node", "llm_node")
    builder.add_conditional_edges(
        "llm_node", after_answer, ["tool_node", FALLBACK_NODE, MEMORY_NODE, END]
    )
    # a rejected approval closes the turn in tool_node (seed 004: the task ends there)
    builder.add_conditional_edges("tool_node", route_after_tools, ["llm_node", END])
    return builder.compile(checkpointer=checkpointer)


def answer_nodes(settings: Settings) -> tuple[str, ...]:
    """The nodes whose message is the turn's answer.

    llm_node (or the quorum of its candidates), or the supervisor's aggregator (the steps'
    agents answer the steps); and fallback_node, whose apology ends a failed turn.
    """
    if settings.supervised:
        from graph.supervisor import ANSWER_NODE

        return (ANSWER_NODE, FALLBACK_NODE)
    return ("llm_node", QUORUM_NODE, FALLBACK_NODE)
