"""Graph nodes: summary_node, llm_node, tool_node, and the routing between them.

Each node is a plain function `state -> dict` returning only the keys it changes. They are
made by factories that close over the model, summarizer and tools, so nothing is built at
import time.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, RemoveMessage, ToolMessage
from langchain_core.tools import BaseTool
from langgraph.errors import GraphBubbleUp
from langgraph.types import interrupt

from graph.archive import Archive, archive_turns, record_context_stats, record_summary_meta
from graph.context import ContextStats, build_context, context_chars, covered_turns, message_chars
from graph.errors import ErrorCode
from graph.state import ChatState
from graph.summarizer import Summarizer
from graph.turns import (
    SUMMARY_EVERY,
    content_text,
    extract_current_turn,
    original_chars,
    split_turns,
)
from prompt import get_prompt

log = logging.getLogger(__name__)

Node = Callable[..., dict[str, Any]]


def classify_error(exc: BaseException) -> ErrorCode:
    """Map an exception from a model client to an error code."""
    import httpx
    import openai

    if isinstance(exc, openai.APITimeoutError | httpx.TimeoutException | TimeoutError):
        return ErrorCode.LLM_TIMEOUT
    if isinstance(exc, openai.RateLimitError):
        return ErrorCode.LLM_RATE_LIMIT
    if isinstance(exc, openai.AuthenticationError | openai.PermissionDeniedError):
        return ErrorCode.LLM_AUTH
    if isinstance(exc, openai.APIConnectionError | openai.InternalServerError | ConnectionError):
        return ErrorCode.LLM_SERVER_ERROR
    if isinstance(exc, openai.APIStatusError):
        return ErrorCode.LLM_SERVER_ERROR if exc.status_code >= 500 else ErrorCode.LLM_BAD_RESPONSE
    if isinstance(exc, ValueError | KeyError | TypeError):
        return ErrorCode.LLM_BAD_RESPONSE
    return ErrorCode.UNKNOWN


def _korean(messages: Sequence[BaseMessage]) -> bool:
    for msg in reversed(messages):
        if isinstance(msg, HumanMessage):
            return any("가" <= ch <= "힣" for ch in content_text(msg))
    return True


def fallback_message(code: ErrorCode, korean: bool = True) -> AIMessage:
    """The short apology that ends a failed turn; it names the error code."""
    text = (
        f"죄송합니다. 이번 답변을 만들지 못했습니다 (오류 코드: {code.value}). "
        "메시지와 대화는 저장되어 있으니 다시 시도해 주세요."
        if korean
        else f"Sorry, I could not produce an answer this time (error code: {code.value}). "
        "Your message and the conversation are saved; please try again."
    )
    return AIMessage(content=text, response_metadata={"error_code": code.value})


def _error(turn: int, node: str, code: ErrorCode, exc: BaseException | str) -> dict[str, Any]:
    return {"turn": turn, "node": node, "code": code.value, "message": str(exc)[:500]}


def make_summary_node(summarizer: Summarizer, archive: Archive | None = None) -> Node:
    """summary_node: summarize every block of three turns that is due (normally at 4, 7, 10...).

    A block that failed before is retried here at the next turn; a failure never blocks the
    reply. Summarized turns move from the working set to the archive.
    """

    def summary_node(state: ChatState) -> dict[str, Any]:
        turn = state["turn_count"]
        history = list(state.get("summary_history", []))
        due_blocks = max(0, (turn - 1) // SUMMARY_EVERY)
        done_blocks = covered_turns(history) // SUMMARY_EVERY
        if done_blocks >= due_blocks:
            return {}
        rate = float(state.get("compression_rate", 0.3))
        thread_id = state.get("session_id", "")
        archived = state.get("archived_turns", 0)
        completed, _ = split_turns(state["messages"])
        removals: list[BaseMessage] = []
        errors: list[dict[str, Any]] = []
        for block in range(done_blocks, due_blocks):
            start = block * SUMMARY_EVERY + 1
            offset = start - archived - 1
            block_turns = completed[offset : offset + SUMMARY_EVERY]
            if offset < 0 or len(block_turns) < SUMMARY_EVERY:
                errors.append(
                    _error(turn, "summary_node", ErrorCode.SUMMARY_FAILED, "turns missing")
                )
                break
            block_messages = [m for t in block_turns for m in t]
            chars = original_chars(block_messages)
            target = int(chars * rate)
            try:
                result = summarizer.summarize(
                    block_messages, target, turn_label=f"{start}-{start + 2}턴"
                )
            except GraphBubbleUp:
                raise
            except Exception as exc:  # noqa: BLE001 - any failure is retried next turn
                log.warning("summary of turns %s-%s failed: %s", start, start + 2, exc)
                errors.append(_error(turn, "summary_node", ErrorCode.SUMMARY_FAILED, exc))
                break
            history.append(
                {
                    "thread_id": thread_id,
                    "turns": [start, start + 1, start + 2],
                    "turn_length": SUMMARY_EVERY,
                    "original_chars": chars,
                    "summary_chars": len(result.text),
                    "compression_rate": rate,
                    "summary": result.text,
                }
            )
            meta = {
                "turns": [start, start + 2],
                "target_chars": target,
                "model_calls": result.attempts,
                "elapsed_ms": result.elapsed_ms,
                "input_tokens": result.input_tokens,
                "output_tokens": result.output_tokens,
                "summarizer": summarizer.name,
                "made_at_turn": turn,
            }
            if archive is not None:
                record_summary_meta(archive, thread_id, meta)
                archive_turns(archive, thread_id, start, block_turns)
                removals.extend(RemoveMessage(id=m.id) for m in block_messages if m.id)
                archived = start + SUMMARY_EVERY - 1
        update: dict[str, Any] = {"summary_history": history}
        if removals:
            update["messages"] = removals
            update["archived_turns"] = archived
        if errors:
            update["errors"] = [*state.get("errors", []), *errors]
        return update

    return summary_node


def make_llm_node(
    model: BaseChatModel, max_tool_rounds: int, archive: Archive | None = None
) -> Node:
    """llm_node: build the context, call the model; on any failure answer with the fallback."""

    def llm_node(state: ChatState) -> dict[str, Any]:
        messages = state["messages"]
        turn = state["turn_count"]
        history = state.get("summary_history", [])
        current = extract_current_turn(messages)
        rounds = sum(1 for m in current if isinstance(m, AIMessage) and m.tool_calls)
        context = build_context(messages, history, turn, _documents(state))
        errors = list(state.get("errors", []))
        response: AIMessage
        if rounds >= max_tool_rounds:
            code = ErrorCode.TOOL_LOOP_LIMIT
            errors.append(_error(turn, "llm_node", code, f"{rounds} tool rounds"))
            response = fallback_message(code, _korean(messages))
        else:
            try:
                reply = model.invoke(context)
                if not isinstance(reply, AIMessage):
                    raise TypeError(f"model returned {type(reply).__name__}")
                if reply.invalid_tool_calls and not reply.tool_calls:
                    raise ValueError(f"malformed tool call: {reply.invalid_tool_calls[0]}")
                response = reply
            except GraphBubbleUp:
                raise
            except Exception as exc:  # noqa: BLE001 - the turn must end with an answer
                code = classify_error(exc)
                log.warning("model call failed (%s): %s", code, exc)
                errors.append(_error(turn, "llm_node", code, exc))
                response = fallback_message(code, _korean(messages))
        prior = state.get("transcript_chars", 0)
        stats = ContextStats(
            turn=turn,
            context_chars=context_chars(context),
            context_messages=len(context),
            full_chars=context_chars(context[:1]) + prior + context_chars(current),
        )
        if archive is not None:
            record_context_stats(archive, state.get("session_id", ""), stats.as_dict())
        update: dict[str, Any] = {"messages": [response], "last_context": stats.as_dict()}
        if not response.tool_calls:
            update["transcript_chars"] = prior + sum(message_chars(m) for m in [*current, response])
        if len(errors) != len(state.get("errors", [])):
            update["errors"] = errors
        return update

    return llm_node


def _documents(state: ChatState) -> str:
    passages = state.get("retrieved") or []
    if state.get("route") == "rag" and not passages:
        return get_prompt("system.no_documents")
    return "\n".join(
        f"[{i}] {p['text']} (출처: {p['source']} > {p['heading']})"
        for i, p in enumerate(passages, 1)
    )


def make_tool_node(tools: Sequence[BaseTool], approval_required: frozenset[str]) -> Node:
    """tool_node: run the requested tools; code runs only after the user approves it.

    A tool that needs approval pauses the graph with `interrupt()`; the resume value is
    `{"action": "approve" | "reject" | "edit", "args": {...}}`. Any tool error becomes a
    ToolMessage starting with `Error:` and the model answers from it.
    """
    by_name = {t.name: t for t in tools}

    def tool_node(state: ChatState) -> dict[str, Any]:
        last = state["messages"][-1]
        if not isinstance(last, AIMessage):
            return {}
        results: list[ToolMessage] = []
        for call in last.tool_calls:
            name, call_id = call["name"], call["id"] or ""
            args = dict(call["args"])
            decision = "auto"
            tool = by_name.get(name)
            searches = _calls_this_turn(state, name) + sum(1 for r in results if r.name == name)
            if tool is None:
                content = f"Error: there is no tool named {name!r}."
            elif name in CALL_LIMITS and searches >= CALL_LIMITS[name]:
                content = (
                    f"Error: {name} may be called {CALL_LIMITS[name]} times per turn; "
                    "answer with what you found, or say that nothing relevant was found."
                )
            else:
                if name in approval_required:
                    answer = interrupt(
                        {"kind": "approval", "tool": name, "args": args, "tool_call_id": call_id}
                    )
                    decision = str((answer or {}).get("action", "reject"))
                    if decision == "edit":
                        args = dict((answer or {}).get("args") or args)
                content = (
                    "Error: the user rejected this call; it was not run."
                    if decision not in ("auto", "approve", "edit")
                    else _run(tool, args)
                )
            results.append(
                ToolMessage(
                    content=content,
                    tool_call_id=call_id,
                    name=name,
                    status="error" if content.startswith("Error:") else "success",
                    artifact={"args": args, "decision": decision},
                )
            )
        return {"messages": results}

    return tool_node


CALL_LIMITS = {"search_documents": 3}
"""Seed 003: at most three searches per turn, then answer from what was found."""


def _calls_this_turn(state: ChatState, name: str) -> int:
    return sum(
        1
        for m in extract_current_turn(state["messages"])
        if isinstance(m, ToolMessage) and m.name == name
    )


def _run(tool: BaseTool, args: dict[str, Any]) -> str:
    try:
        return str(tool.invoke(args))
    except GraphBubbleUp:
        raise
    except Exception as exc:  # noqa: BLE001 - seed 000's error flow: the model reads the error
        return f"Error: {exc}"


def route_after_llm(state: ChatState) -> Literal["tool_node", "__end__"]:
    """After the model: run tools if it asked for them, else the turn is over."""
    last = state["messages"][-1]
    if isinstance(last, AIMessage) and last.tool_calls:
        return "tool_node"
    return "__end__"
