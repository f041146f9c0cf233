"""Seed 004's supervisor: the second agent mode (AGENT_MODE=supervisor).

    START -> safeguard_node -> summary_node -> recall_node -> plan_node -> step_node
    step_node -> llm_node <-> tool_node      (the step's specialist agent and its tools)
    step_node | llm_node -> step_node        (more steps?) | aggregate_node -> END
    step_node | tool_node -> END             (an approval rejected: APPROVAL_REJECTED)
    aggregate_node -> memory_node -> END     (a recursive thread's memory, after the answer)

The memory nodes run first, as for the single agent. `plan_node` (intent + plan,
`graph.supervisor.plan`) replaces the router; `step_node` routes each step to its
specialist, after the approval its category needs (`graph.supervisor.specialists`);
`llm_node` is the single agent's, bound to the specialist's tools; `aggregate_node`
composes the one answer (`graph.supervisor.aggregate`). The plan and each step are
reported as `plan` and `step` metadata events.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.tools import BaseTool
from langgraph.graph import END, StateGraph

from graph.nodes import Node, route_after_tools
from graph.nodes.memory import MEMORY_NODE
from graph.retrieval.index import DocumentIndex
from graph.state import ChatState
from graph.supervisor.aggregate import aggregate_node, route_after_agent, route_after_step
from graph.supervisor.plan import AGENT_TOOLS, MAX_STEPS, make_plan_node
from graph.supervisor.specialists import make_agent_node, make_step_node, step_event

__all__ = ["ANSWER_NODE", "MAX_STEPS", "add_supervisor", "step_event"]

ANSWER_NODE = "aggregate_node"
"""The node whose message is the turn's answer (the steps' agents answer the steps)."""


def add_supervisor(
    builder: StateGraph,
    *,
    agent: Callable[[Sequence[BaseTool]], Node],
    tools: Sequence[BaseTool],
    tool_node: Node,
    index: DocumentIndex | None,
    planner: BaseChatModel | None,
    loop: bool,
    after_answer: Callable[[ChatState], Any],
) -> None:
    """Add the supervisor's nodes after `recall_node` (which the builder has).

    `agent(tools)` makes the single agent's llm_node bound to `tools`; `planner` makes the
    plan and judges the retrieval loop's steps (None: the offline rules); `after_answer`
    routes the aggregated answer to END or to memory_node (a recursive thread's update,
    which the builder has).
    """
    agents: dict[str, Node] = {
        name: agent([t for t in tools if names is None or t.name in names])
        for name, names in AGENT_TOOLS.items()
    }
    builder.add_node("plan_node", make_plan_node(index, planner, loop))
    builder.add_node("step_node", make_step_node(index, planner, loop))
    builder.add_node("llm_node", make_agent_node(agents))
    builder.add_node("tool_node", tool_node)
    builder.add_node(ANSWER_NODE, aggregate_node)
    builder.add_edge("recall_node", "plan_node")
    builder.add_edge("plan_node", "step_node")
    builder.add_conditional_edges(
        "step_node", route_after_step, ["llm_node", "step_node", ANSWER_NODE, END]
    )
    builder.add_conditional_edges(
        "llm_node", route_after_agent, ["tool_node", "step_node", ANSWER_NODE, END]
    )
    # a rejected approval closes the turn in tool_node or step_node (the task ends there)
    builder.add_conditional_edges("tool_node", route_after_tools, ["llm_node", END])
    builder.add_conditional_edges(ANSWER_NODE, after_answer, [MEMORY_NODE, END])
