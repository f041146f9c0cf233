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
from graph.context import (
    ContextStats,
    context_chars,
    covered_turns,
    message_chars,
    strategy_context,
    unsummarized,
)
from graph.errors import ErrorCode
from graph.memory import DEFAULT_STRATEGY
from graph.memory.bounded import active_items, make_digest, next_merge, over_budget
from graph.memory.entities import extract_entities, update_entities
from graph.memory.recursive import MEMORY_CHARS, UPDATE_EVERY, bound_memory, due_block
from graph.memory.window import add_summary_to_window, needs_summary, split_point
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


class _Summary:
    """One summary_node run: collects state changes while blocks of turns are summarized."""

    def __init__(
        self, state: ChatState, summarizer: Summarizer | None = None, archive: Archive | None = None
    ) -> None:
        self.state, self.summarizer, self.archive = state, summarizer, archive
        self.turn = state["turn_count"]
        self.thread_id = state.get("session_id", "")
        self.rate = float(state.get("compression_rate", 0.3))
        self.history = list(state.get("summary_history", []))
        self.archived = int(state.get("archived_turns", 0))
        self.completed, _ = split_turns(state["messages"])
        self.covered = covered_turns(self.history)
        self.removals: list[BaseMessage] = []
        self.errors: list[dict[str, Any]] = []
        self.calls = 0
        self.invocations = 0
        self.update: dict[str, Any] = {}

    def turns(self, first: int, count: int) -> list[list[BaseMessage]] | None:
        """Completed turns `first..first+count-1` still in the working set, or None."""
        offset = first - self.archived - 1
        block = self.completed[offset : offset + count] if offset >= 0 else []
        return block if len(block) == count else None

    def summarize(self, first: int, block: list[list[BaseMessage]]) -> str | None:
        """Summarize whole turns into `summary_history`, archive them; None on failure."""
        last = first + len(block) - 1
        messages = [m for t in block for m in t]
        chars = original_chars(messages)
        target = int(chars * self.rate)
        try:
            if self.summarizer is None:
                raise RuntimeError("no summarizer")
            result = self.summarizer.summarize(messages, target, turn_label=f"{first}-{last}턴")
        except GraphBubbleUp:
            raise
        except Exception as exc:  # noqa: BLE001 - any failure is retried next turn
            log.warning("summary of turns %s-%s failed: %s", first, last, exc)
            self.errors.append(_error(self.turn, "summary_node", ErrorCode.SUMMARY_FAILED, exc))
            return None
        self.calls += result.attempts
        self.invocations += 1
        self.history.append(
            {
                "thread_id": self.thread_id,
                "turns": list(range(first, last + 1)),
                "turn_length": len(block),
                "original_chars": chars,
                "summary_chars": len(result.text),
                "compression_rate": self.rate,
                "summary": result.text,
            }
        )
        if self.archive is not None:
            record_summary_meta(
                self.archive,
                self.thread_id,
                {
                    "turns": [first, last],
                    "target_chars": target,
                    "model_calls": result.attempts,
                    "elapsed_ms": result.elapsed_ms,
                    "input_tokens": result.input_tokens,
                    "output_tokens": result.output_tokens,
                    "summarizer": self.summarizer.name,
                    "made_at_turn": self.turn,
                },
            )
            archive_turns(self.archive, self.thread_id, first, block)
            self.removals.extend(RemoveMessage(id=m.id) for m in messages if m.id)
            self.archived = last
        self.covered = last
        return result.text

    def merge(self, texts: list[str], label: str, target: int) -> str | None:
        """Merge summaries (digests, recursive memory); None on failure."""
        try:
            if self.summarizer is None:
                raise RuntimeError("no summarizer")
            result = self.summarizer.merge(texts, target, turn_label=label)
        except GraphBubbleUp:
            raise
        except Exception as exc:  # noqa: BLE001 - the older items simply stay
            self.errors.append(_error(self.turn, "summary_node", ErrorCode.SUMMARY_FAILED, exc))
            return None
        self.calls += result.attempts
        self.invocations += 1
        return result.text

    def result(self) -> dict[str, Any]:
        """The state update of this run."""
        update = dict(self.update)
        if "summary_history" not in self.state:
            update["summary_history"] = self.history
        if len(self.history) != len(self.state.get("summary_history", [])):
            update["summary_history"] = self.history
        if self.invocations:
            update["summary_calls"] = int(self.state.get("summary_calls", 0)) + self.invocations
        if self.calls:
            update["summary_model_calls"] = (
                int(self.state.get("summary_model_calls", 0)) + self.calls
            )
        if self.removals:
            update["messages"] = self.removals
            update["archived_turns"] = self.archived
        if self.errors:
            update["errors"] = [*self.state.get("errors", []), *self.errors]
        return update


def _due(run: _Summary, strategy: str) -> tuple[int, int] | None:
    """(first turn, number of turns) the strategy summarizes at this turn, or None."""
    first = run.covered + 1
    if strategy == "sliding_window":
        # Seed 000: past MAX_MESSAGES live messages, all but the last KEEP_RECENT (cut at a
        # turn start, so a tool result never loses its call) become one summary.
        messages = unsummarized(run.state)
        if not needs_summary(messages):
            return None
        count = len(split_turns(messages[: split_point(messages)])[0])
        return (first, count) if count else None
    if strategy == "recursive":
        # Seed 003: 5 raw turns stay; each further 5 are folded into the memory.
        raw = len(run.completed) + run.archived - run.covered
        return (first, UPDATE_EVERY) if due_block(raw) else None
    # Seed 002: turns 4, 7, 10, ... summarize the three before; a failed block is retried
    # at the next turn, so several blocks may be due at once.
    blocks = (run.turn - 1 - run.covered) // SUMMARY_EVERY
    return (first, blocks * SUMMARY_EVERY) if blocks > 0 else None


def planned_summary(state: ChatState) -> list[int]:
    """Turns the strategy will summarize before the model is called at `turn_count`.

    The "what the model sees next" preview lists them.
    """
    run = _Summary(state)
    due = _due(run, state.get("strategy") or DEFAULT_STRATEGY)
    return list(range(due[0], due[0] + due[1])) if due else []


def _seed_from_history(run: _Summary, strategy: str) -> None:
    """A thread switched to this strategy starts from the summaries made before."""
    if not run.history or strategy == DEFAULT_STRATEGY:
        return
    texts = [i["summary"] for i in active_items(run.history, run.state.get("summary_digests", []))]
    if strategy == "sliding_window" and not run.state.get("window_summary"):
        window = ""
        for text in texts:
            window = add_summary_to_window(window, text)
        run.update["window_summary"] = window
    if strategy == "recursive" and not run.state.get("memory"):
        run.update["memory"] = bound_memory(" ".join(texts))


def _three_turn(run: _Summary, due: tuple[int, int] | None, budget: int) -> None:
    """Seed 002's blocks of three turns, then digests while the summaries pass the budget."""
    if due is not None:
        for first in range(due[0], due[0] + due[1], SUMMARY_EVERY):
            block = run.turns(first, SUMMARY_EVERY)
            if block is None:
                run.errors.append(
                    _error(run.turn, "summary_node", ErrorCode.SUMMARY_FAILED, "turns missing")
                )
                return
            if run.summarize(first, block) is None:
                return
    if due is None:
        return  # nothing new: the context is within the budget since the last summary
    digests = list(run.state.get("summary_digests", []))
    items = active_items(run.history, digests)
    while over_budget(items, budget):
        parts = next_merge(items)
        label = f"{parts[0]['turns'][0]}-{parts[-1]['turns'][-1]}턴"
        target = int(sum(len(p["summary"]) for p in parts) * run.rate)
        text = run.merge([p["summary"] for p in parts], label, target)
        if text is None:
            break
        digests.append(make_digest(parts, text, run.rate))
        items = active_items(run.history, digests)
    if len(digests) != len(run.state.get("summary_digests", [])):
        run.update["summary_digests"] = digests


def _sliding_window(run: _Summary, due: tuple[int, int] | None) -> None:
    """Seed 000: the new summary joins a window of MAX_SUMMARIES, the oldest dropped."""
    block = run.turns(*due) if due else None
    if due is None or block is None:
        return
    text = run.summarize(due[0], block)
    if text is not None:
        window = run.update.get("window_summary", run.state.get("window_summary", ""))
        run.update["window_summary"] = add_summary_to_window(window, text)


def _recursive(run: _Summary, due: tuple[int, int] | None) -> None:
    """Seed 003: M_i = LLM(M_{i-1}, S_i), bounded to ~20 sentences, and entities updated."""
    block = run.turns(*due) if due else None
    if due is None or block is None:
        return
    first = due[0]
    entities = list(run.state.get("entities", []))
    for offset, turn_messages in enumerate(block):
        for msg in turn_messages:
            if isinstance(msg, HumanMessage | AIMessage) and not getattr(msg, "tool_calls", None):
                found = extract_entities(content_text(msg), first + offset)
                entities = update_entities(entities, found)
    text = run.summarize(first, block)
    if text is None:
        return
    memory = run.update.get("memory", run.state.get("memory", ""))
    if memory:
        label = f"1-{first + due[1] - 1}턴"
        merged = run.merge([memory, text], label, MEMORY_CHARS)
        memory = merged if merged is not None else f"{memory} {text}"
    else:
        memory = text
    run.update["memory"] = bound_memory(memory)
    run.update["entities"] = entities


def make_summary_node(
    summarizer: Summarizer, archive: Archive | None = None, budget: int = 4000
) -> Node:
    """summary_node: apply the thread's memory strategy before the model is called.

    The default (three_turn) is seed 002's rule; see `graph.memory` for the others.
    Summarized turns move from the working set to the archive; a failed summary never
    blocks the reply and is retried at the next turn.
    """

    def summary_node(state: ChatState) -> dict[str, Any]:
        run = _Summary(state, summarizer, archive)
        strategy = state.get("strategy") or DEFAULT_STRATEGY
        _seed_from_history(run, strategy)
        due = _due(run, strategy)
        if strategy == "sliding_window":
            _sliding_window(run, due)
        elif strategy == "recursive":
            _recursive(run, due)
        else:
            _three_turn(run, due, budget)
        return run.result()

    return summary_node


def make_llm_node(
    model: BaseChatModel, max_tool_rounds: int, archive: Archive | None = None
) -> Node:
    """llm_node: build the context, call the model; on any failure answer with the fallback."""

    def llm_node(state: ChatState) -> dict[str, Any]:
        messages = state["messages"]
        turn = state["turn_count"]
        current = extract_current_turn(messages)
        rounds = sum(1 for m in current if isinstance(m, AIMessage) and m.tool_calls)
        context = strategy_context(state, _documents(state))
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
