"""safeguard_node: label the user's message first (seed 001) and apply the label's policy."""

from __future__ import annotations

from typing import Any, Literal

from graph.errors import ErrorCode, error_record
from graph.nodes.base import Node
from graph.nodes.llm import fallback_message
from graph.safeguard import POLICY, SafeguardLabel, classify
from graph.state import ChatState
from graph.turns import content_text, extract_current_turn, user_text


def make_safeguard_node() -> Node:
    """safeguard_node: classify the message by rule; a HARMFUL one ends the turn unanswered.

    The label is kept in the state (`safeguard`) for the panel, the event stream and the
    tool node (a PROMPT_INJECTION turn asks before any tool sends text out).
    """

    def safeguard_node(state: ChatState) -> dict[str, Any]:
        text = user_text(extract_current_turn(state["messages"]))
        label, reasons = classify(text)
        update: dict[str, Any] = {
            "safeguard": {"label": label.value, "policy": POLICY[label], "reasons": reasons}
        }
        if label is SafeguardLabel.HARMFUL:
            code = ErrorCode.SAFEGUARD_BLOCKED
            korean = any("가" <= ch <= "힣" for ch in content_text(state["messages"][-1]))
            update["messages"] = [fallback_message(code, korean)]
            turn = int(state.get("turn_count", 0))
            update["errors"] = [
                *state.get("errors", []),
                error_record(turn, "safeguard_node", code, ", ".join(reasons)),
            ]
        return update

    return safeguard_node


def route_after_safeguard(state: ChatState) -> Literal["next", "__end__"]:
    """A blocked message ends the turn here; anything else goes on."""
    label = (state.get("safeguard") or {}).get("label")
    return "__end__" if label == SafeguardLabel.HARMFUL.value else "next"
