"""Graph nodes: summary_node, recall_node, llm_node, tool_node, and the routing between them.

Each node is a plain function `state -> dict` returning only the keys it changes. They are
made by factories that close over the model, summarizer and tools, so nothing is built at
import time.
"""

from graph.nodes.base import Node
from graph.nodes.fallback import fallback_message
from graph.nodes.llm import classify_error, make_llm_node, route_after_llm
from graph.nodes.recall import make_recall_node
from graph.nodes.summary import make_summary_node, planned_summary
from graph.nodes.tools import RETRIEVAL_CALLS, RETRIEVAL_TOOLS, make_tool_node, route_after_tools

__all__ = [
    "RETRIEVAL_CALLS",
    "RETRIEVAL_TOOLS",
    "Node",
    "classify_error",
    "fallback_message",
    "make_llm_node",
    "make_recall_node",
    "make_summary_node",
    "make_tool_node",
    "planned_summary",
    "route_after_llm",
    "route_after_tools",
]
