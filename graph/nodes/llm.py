"""llm_node: build the context under the thread's memory strategy and call the model.

Any failure of the model (timeout, 429, 5xx, malformed tool call, endless tool loop) ends
the turn with a short apology naming an `ErrorCode`; the user's message is kept.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.runnables import RunnableConfig
from langgraph.config import get_stream_writer
from langgraph.constants import TAG_NOSTREAM
from langgraph.errors import GraphBubbleUp

from graph.budgets import Budgets
from graph.context import ContextStats, Extras, context_chars, message_chars, system_prompt
from graph.errors import ErrorCode, TurnCancelled, error_record
from graph.memory import state_extras, strategy_context
from graph.nodes import candidates as candidate_rule
from graph.nodes.base import Node
from graph.retrieval.loop import IN_PREPARATION
from graph.safeguard import mask_message, unmask_message
from graph.state import ChatState
from graph.storage.archive import Archive, record_context_stats
from graph.text import is_greeting, is_korean
from graph.turns import content_text, extract_current_turn, user_text
from prompt import get_prompt

log = logging.getLogger(__name__)


class BrokenOutput(ValueError):
    """A model reply that must not be used as an answer (cut off, unfinished, empty)."""

    def __init__(self, code: ErrorCode, detail: str) -> None:
        super().__init__(detail)
        self.code = code


def check_output(reply: AIMessage) -> None:
    """Raise BrokenOutput for a reply of a provider that reports how it finished.

    finish_reason=length means the text or the tool arguments are cut (the client "repairs"
    cut JSON, so `{"expression": "123456*1000` would run as `123456*1000`); no finish_reason
    means the stream broke off; neither text nor tool call means nothing was said.
    """
    finish = reply.response_metadata.get("finish_reason")
    text = content_text(reply).strip()
    if finish == "length":
        raise BrokenOutput(ErrorCode.LLM_TRUNCATED, f"cut off at the length limit: {text[:200]!r}")
    if finish == "content_filter":
        raise BrokenOutput(ErrorCode.LLM_FILTERED, "withheld by the provider's content filter")
    if not finish:
        raise BrokenOutput(ErrorCode.LLM_INCOMPLETE, f"no finish_reason: {text[:200]!r}")
    if not text and not reply.tool_calls:
        raise BrokenOutput(
            ErrorCode.LLM_EMPTY, f"finished ({finish}) with no text and no tool call"
        )


def classify_error(exc: BaseException) -> ErrorCode:
    """Map an exception from a model client to an error code."""
    if isinstance(exc, BrokenOutput):
        return exc.code
    import httpx
    import openai

    if isinstance(exc, openai.APITimeoutError | httpx.TimeoutException | TimeoutError):
        return ErrorCode.LLM_TIMEOUT
    if isinstance(exc, openai.RateLimitError):
        return ErrorCode.LLM_RATE_LIMIT
    if isinstance(exc, openai.AuthenticationError | openai.PermissionDeniedError):
        return ErrorCode.LLM_AUTH
    if isinstance(
        exc,
        openai.APIConnectionError
        | openai.InternalServerError
        | httpx.TransportError
        | ConnectionError,
    ):
        return ErrorCode.LLM_SERVER_ERROR
    if isinstance(exc, openai.APIStatusError):
        return ErrorCode.LLM_SERVER_ERROR if exc.status_code >= 500 else ErrorCode.LLM_BAD_RESPONSE
    if isinstance(exc, ValueError | KeyError | TypeError):
        return ErrorCode.LLM_BAD_RESPONSE
    return ErrorCode.UNKNOWN


def _korean(messages: Sequence[BaseMessage]) -> bool:
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
    text = (
        f"죄송합니다. 이번 답변을 만들지 못했습니다 (오류 코드: {code.value}). "
        "메시지와 대화는 저장되어 있으니 다시 시도해 주세요."
        if korean
        else f"Sorry, I could not produce an answer this time (error code: {code.value}). "
        "Your message and the conversation are saved; please try again."
    )
    return AIMessage(content=text, response_metadata={"error_code": code.value})


def make_llm_node(
    model: BaseChatModel,
    max_tool_rounds: int,
    archive: Archive | None = None,
    check_finish: bool = False,
    mask_pii: bool = False,
    candidates: int = 1,
    plain: BaseChatModel | None = None,
    budgets: Budgets | None = None,
) -> Node:
    """llm_node: build the context, call the model; on any failure answer with the fallback.

    `plain` is the model without tools: a plain greeting is answered by it (seed 002's fast
    path, one call and no tool round). `budgets` are seed 003's per-section token budgets
    the context is fitted to (see `graph.budgets`).

    With `check_finish` (a provider that reports finish_reason, i.e. OpenAI and compatible
    servers), a cut-off, unfinished or empty reply is a failure too (see `check_output`).
    With `mask_pii` (a model outside the machine), phone numbers, e-mail addresses, resident
    registration and card numbers are replaced by placeholders in everything sent, and put
    back in the reply (see `graph.safeguard`). With `candidates` above 1, each step asks for
    that many answers at once and keeps the best (see `graph.nodes.candidates`).
    """

    def llm_node(state: ChatState) -> dict[str, Any]:
        messages = state["messages"]
        turn = state["turn_count"]
        current = extract_current_turn(messages)
        rounds = sum(1 for m in current if isinstance(m, AIMessage) and m.tool_calls)
        documents, dropped = _documents(state, budgets)
        context = strategy_context(state, state_extras(state, documents, budgets, dropped))
        errors = list(state.get("errors", []))
        response: AIMessage
        candidate_records: list[dict[str, Any]] = []
        if rounds >= max_tool_rounds:
            code = ErrorCode.TOOL_LOOP_LIMIT
            errors.append(error_record(turn, "llm_node", code, f"{rounds} tool rounds"))
            response = fallback_message(code, _korean(messages))
        else:
            try:
                mapping: dict[str, str] = {}
                sent = [mask_message(m, mapping) for m in context] if mask_pii else context

                chosen = model
                if plain is not None and is_greeting(user_text(current)):
                    chosen = plain

                def ask(config: RunnableConfig | None = None) -> AIMessage:
                    reply = chosen.invoke(sent, config)
                    if not isinstance(reply, AIMessage):
                        raise TypeError(f"model returned {type(reply).__name__}")
                    reply = unmask_message(reply, mapping)
                    if check_finish:
                        check_output(reply)
                    if reply.invalid_tool_calls and not reply.tool_calls:
                        raise ValueError(f"malformed tool call: {reply.invalid_tool_calls[0]}")
                    return reply

                if candidates > 1:
                    best, candidate_records, failure = _best_of(ask, candidates, current, context)
                    if best is None:  # no quorum: every candidate failed
                        raise failure or RuntimeError("no candidate answered")
                    response = best
                else:
                    response = ask()
            except (GraphBubbleUp, TurnCancelled):
                raise  # a pause, or the user pressed stop: not a failure to answer
            except Exception as exc:  # noqa: BLE001 - the turn must end with an answer
                code = classify_error(exc)
                log.warning("model call failed (%s): %s", code, exc)
                errors.append(error_record(turn, "llm_node", code, exc))
                response = fallback_message(code, _korean(messages))
        prior = state.get("transcript_chars", 0)
        # the baseline: no memory at all, so the system prompt without summaries, memory,
        # recall or pins (documents would be there anyway) and every turn so far verbatim
        baseline = system_prompt([], Extras(documents=documents))
        stats = ContextStats(
            turn=turn,
            context_chars=context_chars(context),
            context_messages=len(context),
            full_chars=message_chars(baseline) + prior + context_chars(current),
        )
        if archive is not None:
            record_context_stats(archive, state.get("session_id", ""), stats.as_dict())
        sections = context[0].response_metadata.get("sections", {})
        update: dict[str, Any] = {
            "messages": [response],
            "last_context": {**stats.as_dict(), "sections": sections},
        }
        if candidates > 1:
            update["candidates"] = candidate_records
        if not response.tool_calls:
            update["transcript_chars"] = prior + sum(message_chars(m) for m in [*current, response])
        if len(errors) != len(state.get("errors", [])):
            update["errors"] = errors
        return update

    return llm_node


def _best_of(
    ask: Callable[[RunnableConfig | None], AIMessage],
    count: int,
    current: list[BaseMessage],
    context: list[BaseMessage],
) -> tuple[AIMessage | None, list[dict[str, Any]], BaseException | None]:
    """Fan out `count` candidates (not streamed), fan in, stream the chosen answer.

    Returns the chosen reply (None when every candidate failed), every candidate's record,
    and the first failure.
    """
    found = candidate_rule.fan_out(lambda: ask({"tags": [TAG_NOSTREAM]}), count)
    question = next((content_text(m) for m in current if isinstance(m, HumanMessage)), "")
    chosen = candidate_rule.fan_in(found, question, context)
    records = candidate_rule.records(found, chosen)
    failure = next((c.error for c in found if c.error is not None), None)
    if chosen is None or chosen.reply is None:
        return None, records, failure
    reply = chosen.reply
    if not reply.tool_calls:
        write = get_stream_writer()
        for piece in candidate_rule.pieces(content_text(reply)):
            write({"token": piece})
        reply.response_metadata["candidate"] = chosen.index  # streamed: not again
    return reply, records, failure


def _documents(state: ChatState, budgets: Budgets | None = None) -> tuple[str, int]:
    """The `[참고 문서]` text, and how many of the lowest-ranked passages its budget left out."""
    passages = state.get("retrieved") or []
    if state.get("route") == "rag" and not passages:
        return fallback_text(state.get("retrieval") or {}) + get_prompt("system.fallback_rule"), 0
    shown = [
        f"[{i}] {_answers(p.get('answers', ''))}{p['text']} (출처: {p['source']} > {p['heading']})"
        for i, p in enumerate(passages, 1)
    ]
    absent = (state.get("retrieval") or {}).get("absent") or []
    # before the passages: a reader of "[n] ... (출처: ...)" blocks takes each to its source
    note = [get_prompt("system.documents_absent", words=", ".join(absent))] if absent else []
    header = get_prompt("system.documents_header", documents="\n".join(note))
    kept = budgets.fit("documents", shown, header) if budgets is not None else len(shown)
    return "\n".join([*note, *shown[:kept]]), len(shown) - kept


def _answers(part: str) -> str:
    """The mark of a passage chosen for one part of a two-part question."""
    part = " ".join(part.replace("”", '"').split())
    return get_prompt("system.document_part", part=part) if part else ""


def fallback_text(retrieval: dict[str, Any]) -> str:
    """Seed 003's fallback for a turn whose retrieval found nothing usable."""
    if retrieval.get("outcome") == IN_PREPARATION:
        return get_prompt("system.in_preparation")
    menus = retrieval.get("menus") or []
    if menus:
        return get_prompt("system.not_found_menus", menus=", ".join(menus))
    return get_prompt("system.no_documents")


def route_after_llm(state: ChatState) -> Literal["tool_node", "__end__"]:
    """After the model: run tools if it asked for them, else the turn is over."""
    last = state["messages"][-1]
    if isinstance(last, AIMessage) and last.tool_calls:
        return "tool_node"
    return "__end__"
