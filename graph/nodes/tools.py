"""tool_node: run the tools the model asked for; risky ones only after the user approves."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.tools import BaseTool
from langgraph.errors import GraphBubbleUp
from langgraph.types import interrupt

from graph.approval import (
    NOT_RUN_AFTER_REJECT,
    REJECTED,
    USER_ANSWERED,
    Ask,
    Category,
    ask_for,
    read_answer,
)
from graph.errors import ErrorCode, error_record
from graph.nodes.base import Node
from graph.nodes.fallback import fallback_message
from graph.retrieval.loop import MAX_CALLS
from graph.state import ChatState
from graph.storage.archive import Archive
from graph.storage.tool_calls import load_call, mark_call
from graph.text import speaks_korean
from graph.tools.effects import Effect, effect_of
from graph.turns import extract_current_turn, user_text
from graph.untrusted import UNTRUSTED_KEY, sources, tool_record


def make_tool_node(
    tools: Sequence[BaseTool], approval_required: frozenset[str], archive: Archive | None = None
) -> Node:
    """tool_node: run the requested tools; risky ones only after the user approves them.

    A call pauses the graph with `interrupt()` when `graph.approval.ask_for` says so: by
    the tool's effect first (`graph.tools.effects`; a tool in `approval_required` is at
    least `code`), then the words of the message and the arguments (contract, payment,
    sensitive), the model's decision (the safeguard's `action`), and untrusted text
    anywhere in the context (`graph.untrusted`: `outbound`, with its `reason` and the
    `sources` named). The request names the `category`; the resume
    value is read by `graph.approval.read_answer`: approve and edit run the call, respond
    gives it the user's text as its result (it does not run), and reject ends the task:
    the call and those after it in the step are not run, and the turn is closed with an
    apology marked APPROVAL_REJECTED (`route_after_tools` then ends the graph). Any tool
    error becomes a ToolMessage starting with `Error:` and the model answers from it.

    With an archive every call runs at most once: its result is recorded under the turn,
    the model step and the call's place in it, besides its `tool_call_id` (`call_key`: a
    server may name every call `call_1`), and reused when LangGraph re-runs the node on
    resume (several calls in one message, approvals one at a time); a call that was
    running when the process died is not run again before the user is asked again
    (`graph.storage.tool_calls`).
    """
    by_name = {t.name: t for t in tools}

    def tool_node(state: ChatState) -> dict[str, Any]:
        last = state["messages"][-1]
        if not isinstance(last, AIMessage):
            return {}
        thread = str(state.get("session_id", ""))
        results: list[ToolMessage] = []
        step = _model_steps(state)
        message = user_text(extract_current_turn(state["messages"]))
        rejected = False
        for position, call in enumerate(last.tool_calls):
            name, call_id = call["name"], call["id"] or ""
            key = call_key(int(state.get("turn_count", 0)), step, position, call_id)
            args = dict(call["args"])
            decision = "auto"
            tool = by_name.get(name)
            group = RETRIEVAL_TOOLS if name in RETRIEVAL_TOOLS else frozenset({name})
            searches = _calls_this_turn(state, group) + sum(1 for r in results if r.name in group)
            if name in RETRIEVAL_TOOLS:  # the rag node's loop spent some of the three
                searches += len((state.get("retrieval") or {}).get("steps") or [])
            if rejected:  # the user rejected a call before it: the task has ended
                content, decision = NOT_RUN_AFTER_REJECT, "reject"
            elif tool is None:
                content = f"Error: there is no tool named {name!r}."
            elif name in RETRIEVAL_TOOLS and searches >= RETRIEVAL_CALLS:
                content = (
                    f"Error: {', '.join(sorted(RETRIEVAL_TOOLS))} may be called "
                    f"{RETRIEVAL_CALLS} times per turn together; answer with what you found, "
                    "or say that nothing relevant was found."
                )
            else:
                record = load_call(archive, thread, key) if archive else None
                asked = _ask(state, results, name, tool, args, message, approval_required)
                answered = ""
                if asked is not None:
                    # interrupt() runs for every approval, done or not: on resume LangGraph
                    # hands back the answers by their order in the node
                    request: dict[str, Any] = {
                        "kind": "approval",
                        "category": asked.category.value,
                        "tool": name,
                        "args": args,
                        "tool_call_id": call_id,
                    }
                    if asked.category is Category.OUTBOUND:
                        request["reason"] = asked.why
                    if asked.sources:
                        request["sources"] = list(asked.sources[:SHOWN_SOURCES])
                    answer = read_answer(interrupt(request))
                    decision, answered = answer.action, answer.response
                    if decision == "edit":
                        args = dict(answer.args or args)
                if record and record["status"] == "done":
                    content, args = str(record["content"]), dict(record.get("args") or args)
                    decision = str(record.get("decision", decision))
                elif decision == "respond":
                    content = f"{USER_ANSWERED} {answered}"
                elif decision not in ("auto", "approve", "edit"):
                    content, rejected = REJECTED, True
                else:
                    if archive:
                        mark_call(archive, thread, key, "running", args=args, decision=decision)
                    content = _run(tool, args)
                    if archive:
                        mark_call(
                            archive,
                            thread,
                            key,
                            "done",
                            content=content,
                            args=args,
                            decision=decision,
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
        turn = int(state.get("turn_count", 0))
        found = [tool_record(turn, r, (r.artifact or {}).get("args")) for r in results]
        tainted = {UNTRUSTED_KEY: [r for r in found if r]} if any(found) else {}
        if not rejected:
            return {"messages": results, **tainted}
        code = ErrorCode.APPROVAL_REJECTED
        return {
            **tainted,
            "messages": [*results, fallback_message(code, speaks_korean(message))],
            "errors": [
                *state.get("errors", []),
                error_record(turn, "tool_node", code, "the user rejected a call"),
            ],
        }

    return tool_node


SHOWN_SOURCES = 3
"""Untrusted texts an approval request names at most (newest first)."""


def _ask(
    state: ChatState,
    results: Sequence[ToolMessage],
    name: str,
    tool: BaseTool,
    args: dict[str, Any],
    message: str,
    approval_required: frozenset[str],
) -> Ask | None:
    """Why this call waits for the user's approval, or None (`graph.approval.ask_for`)."""
    effect = effect_of(name, tool.metadata, approval_required)
    safeguard = state.get("safeguard") or {}
    return ask_for(
        effect,
        args,
        message,
        model=safeguard.get("action"),
        untrusted=sources(state, results) if effect in (Effect.OUTBOUND, Effect.CODE) else (),
        injection=safeguard.get("label") == "PROMPT_INJECTION",
    )


def approval_category(
    name: str,
    args: dict[str, Any],
    message: str,
    approval_required: frozenset[str],
    reason: str = "",
    *,
    model: str | None = None,
) -> Category | None:
    """Why a call of the tool called `name` must wait for approval, or None.

    The tool's effect by its name (`graph.tools.effects`), then the words, then the
    model's category, then `code`, then `outbound` for a `reason` (untrusted text).
    """
    effect = effect_of(name, None, approval_required)
    asked = ask_for(effect, args, message, model=model, untrusted=(reason,) if reason else ())
    return asked.category if asked else None


def route_after_tools(state: ChatState) -> Literal["llm_node", "__end__"]:
    """After the tools: the model reads their results, unless a rejection closed the turn."""
    last = state["messages"][-1]
    if isinstance(last, AIMessage) and not last.tool_calls:
        return "__end__"
    return "llm_node"


def call_key(turn: int, step: int, position: int, call_id: str) -> str:
    """The key a tool call's record is kept under: turn, model step, place, and its id.

    The id alone is not enough: servers that name every call `call_1` would get an
    earlier turn's result back, and the call would never run.
    """
    return f"{turn}:{step}:{position}:{call_id}"


def _model_steps(state: ChatState) -> int:
    """Which of the turn's model steps asked for the tools being run (1 for the first)."""
    return sum(
        1
        for m in extract_current_turn(state["messages"])
        if isinstance(m, AIMessage) and m.tool_calls
    )


def pending_call_key(state: ChatState, request: dict[str, Any]) -> str:
    """The record key of the call an approval request (`interrupt` value) is about.

    The call is found by its id in the step waiting; of two calls with one id in one
    step (a server that names every call alike), the first waits first.
    """
    call_id = str(request.get("tool_call_id", ""))
    last = state["messages"][-1] if state.get("messages") else None
    calls = last.tool_calls if isinstance(last, AIMessage) else []
    position = next((i for i, c in enumerate(calls) if c["id"] == call_id), 0)
    return call_key(int(state.get("turn_count", 0)), _model_steps(state), position, call_id)


RETRIEVAL_TOOLS = frozenset({"search_all", "search_by_metadata", "get_section"})
RETRIEVAL_CALLS = MAX_CALLS
"""Seed 003: at most three retrieval calls per turn, all three tools together, then answer
from what was found."""


def _calls_this_turn(state: ChatState, names: frozenset[str]) -> int:
    return sum(
        1
        for m in extract_current_turn(state["messages"])
        if isinstance(m, ToolMessage) and m.name in names
    )


def _run(tool: BaseTool, args: dict[str, Any]) -> str:
    try:
        return str(tool.invoke(args))
    except GraphBubbleUp:
        raise
    except Exception as exc:  # noqa: BLE001 - seed 000's error flow: the model reads the error
        return f"Error: {exc}"
