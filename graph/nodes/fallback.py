"""fallback_node (seed 001): the coded apology that ends a turn whose answer failed.

An answer step that fails (llm_node: the model failed or kept calling tools past the
limit; quorum_node: every candidate failed) and a message the safeguard blocks do not
write an apology where they fail: they record the error (`errors`) and its code in the
state (`error_code`), and the graph routes here (`route_after_llm`,
`route_after_safeguard`). This node writes the one apology, by the error code and so by
the safeguard's label, in the user's language (`fallback_message`), and clears the code.

A user's own stop (the turn is cancelled, its partial answer kept) or rejection of an
approval (tool_node or step_node closes the turn) is the user's act, not a failure, and
never comes here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from graph.context import message_chars
from graph.errors import ErrorCode
from graph.nodes.base import Node
from graph.state import ChatState
from graph.text import is_korean
from graph.turns import content_text, extract_current_turn

FALLBACK_NODE = "fallback_node"


def korean_user(messages: Sequence[BaseMessage]) -> bool:
    """Whether the user's last message is Korean (True when there is none)."""
    for msg in reversed(messages):
        if isinstance(msg, HumanMessage):
            return is_korean(content_text(msg))
    return True


def fallback_message(code: ErrorCode, korean: bool = True) -> AIMessage:
    """The short apology that ends a failed turn; it names the error code."""
    if code == ErrorCode.CANCELLED:
        text = (
            "답변을 중지했습니다. 메시지는 저장되어 있으니 다시 답변받을 수 있습니다."
            if korean
            else "The answer was stopped. Your message is saved; it can be answered again."
        )
        return AIMessage(content=text, response_metadata={"error_code": code.value})
    if code == ErrorCode.APPROVAL_REJECTED:
        # the user's own decision, not a failure: said as what happened, with no error code
        text = (
            "승인을 거절하셔서 그 작업은 실행하지 않고 여기서 마쳤습니다. 대화는 그대로 "
            "있으니 다음 메시지를 보내 주세요."
            if korean
            else "You rejected it, so it was not run and the task ended here. The "
            "conversation is kept; send your next message."
        )
        return AIMessage(content=text, response_metadata={"error_code": code.value})
    text = (
        f"죄송합니다. 이번 답변을 만들지 못했습니다 (오류 코드: {code.value}). "
        "메시지와 대화는 저장되어 있으니 다시 시도해 주세요."
        if korean
        else f"Sorry, I could not produce an answer this time (error code: {code.value}). "
        "Your message and the conversation are saved; please try again."
    )
    return AIMessage(content=text, response_metadata={"error_code": code.value})


def make_fallback_node() -> Node:
    """fallback_node: the apology for the state's `error_code` (see the module docstring)."""

    def fallback_node(state: ChatState) -> dict[str, Any]:
        raw = str(state.get("error_code") or ErrorCode.UNKNOWN.value)
        try:
            code = ErrorCode(raw)
        except ValueError:
            code = ErrorCode.UNKNOWN
        messages = state["messages"]
        reply = fallback_message(code, korean_user(messages))
        update: dict[str, Any] = {"messages": [reply], "error_code": ""}
        if code is not ErrorCode.SAFEGUARD_BLOCKED:  # a blocked message went to no model
            current = extract_current_turn(messages)
            prior = state.get("transcript_chars", 0)
            update["transcript_chars"] = prior + sum(message_chars(m) for m in [*current, reply])
        return update

    return fallback_node


def failed(state: ChatState) -> bool:
    """Whether the turn's answer failed and its apology is still to be written."""
    return bool(state.get("error_code"))
