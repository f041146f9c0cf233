"""llm_node: build the context under the thread's memory strategy and call the model.

Any failure of the model (timeout, 429, 5xx, malformed tool call, endless tool loop) ends
the turn with a short apology naming an `ErrorCode`; the user's message is kept. An answer
cut off at the length limit, or by the turn's time limit, is an answer: its text is kept,
marked `cut_off` (LLM_TRUNCATED or LLM_TIMEOUT), and Continue asks the model to go on
(`state["continuing"]`). Cut-off tool arguments are never run.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import (
    AIMessage,
    AIMessageChunk,
    BaseMessage,
    HumanMessage,
    message_chunk_to_message,
)
from langchain_core.runnables import Runnable, RunnableConfig
from langgraph.config import get_config, get_stream_writer
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
from graph.turns import CUT_OFF, content_text, extract_current_turn, user_text
from prompt import get_prompt

log = logging.getLogger(__name__)


class BrokenOutput(ValueError):
    """A model reply that must not be used as an answer (cut off, unfinished, empty)."""

    def __init__(self, code: ErrorCode, detail: str) -> None:
        super().__init__(detail)
        self.code = code


TURN_DEADLINE = "turn_deadline"
"""configurable key: the time.monotonic() by which the turn's model calls must be done."""


def check_output(reply: AIMessage) -> AIMessage:
    """The reply as an answer, or BrokenOutput for one of a provider that says how it ended.

    finish_reason=length on text keeps the text, marked cut off (Continue goes on from
    it); on tool arguments it is an error, since the client "repairs" cut JSON and
    `{"expression": "123456*1000` would run as `123456*1000`. Arguments that do not parse
    are a bad response; no finish_reason means the stream broke off; neither text nor a
    tool call means nothing was said; content_filter means the provider withheld it.
    """
    finish = reply.response_metadata.get("finish_reason")
    text = content_text(reply).strip()
    calls = reply.tool_calls or reply.invalid_tool_calls
    if finish == "length":
        if calls:
            raise BrokenOutput(
                ErrorCode.LLM_TRUNCATED, f"tool arguments cut off at the length limit: {calls[0]}"
            )
        if not text:
            raise BrokenOutput(ErrorCode.LLM_TRUNCATED, "cut off at the length limit, no text")
        return mark_cut_off(reply, ErrorCode.LLM_TRUNCATED)
    if finish == "content_filter":
        raise BrokenOutput(ErrorCode.LLM_FILTERED, "withheld by the provider's content filter")
    if not finish:
        raise BrokenOutput(ErrorCode.LLM_INCOMPLETE, f"no finish_reason: {text[:200]!r}")
    if reply.invalid_tool_calls and not reply.tool_calls:
        raise BrokenOutput(
            ErrorCode.LLM_BAD_RESPONSE, f"malformed tool call: {reply.invalid_tool_calls[0]}"
        )
    if not text and not reply.tool_calls:
        raise BrokenOutput(
            ErrorCode.LLM_EMPTY, f"finished ({finish}) with no text and no tool call"
        )
    return reply


def mark_cut_off(reply: AIMessage, code: ErrorCode) -> AIMessage:
    """`reply` kept as an answer, marked as cut off by `code`."""
    return reply.model_copy(
        update={"response_metadata": {**reply.response_metadata, CUT_OFF: code.value}}
    )


def _nothing_is_empty(parts: Iterator[Any]) -> Iterator[Any]:
    """The stream's chunks; a stream that ended with none is an empty completion."""
    try:
        yield from parts
    except ValueError as exc:
        if "No generation chunks" in str(exc):
            raise BrokenOutput(ErrorCode.LLM_EMPTY, "the model sent nothing") from exc
        raise


def _deadline(limit_s: float) -> float:
    """When this turn's model calls must be done: the runner's deadline, else from now."""
    try:
        configured = (get_config().get("configurable") or {}).get(TURN_DEADLINE)
    except RuntimeError:  # called outside a graph run
        configured = None
    return float(configured) if configured else time.monotonic() + limit_s


def stream_reply(
    model: Runnable[Any, Any],
    messages: Sequence[BaseMessage],
    config: RunnableConfig | None,
    deadline: float,
) -> AIMessage:
    """The model's reply, streamed; past `deadline` the text so far, marked LLM_TIMEOUT.

    A per-read timeout does not stop a server that sends a token every second; this does.
    A reply cut there keeps its text (Continue goes on from it); cut-off tool calls, or
    no text at all, are a timeout error.
    """
    merged: AIMessageChunk | None = None
    late = False
    parts = model.stream(list(messages), config)
    try:
        for chunk in _nothing_is_empty(parts):
            if isinstance(chunk, AIMessage) and not isinstance(chunk, AIMessageChunk):
                return chunk  # a model that does not stream answers in one message
            if not isinstance(chunk, AIMessageChunk):
                raise TypeError(f"model streamed {type(chunk).__name__}")
            merged = chunk if merged is None else merged + chunk
            if time.monotonic() > deadline:
                late = True
                break
    finally:
        close = getattr(parts, "close", None)
        if close is not None:
            close()
    if merged is None:
        raise BrokenOutput(ErrorCode.LLM_EMPTY, "the model sent nothing")
    reply = message_chunk_to_message(merged)
    if not isinstance(reply, AIMessage):
        raise TypeError(f"model returned {type(reply).__name__}")
    if late:
        if reply.tool_calls or reply.invalid_tool_calls or not content_text(reply).strip():
            raise TimeoutError("the turn's time limit (LLM_TURN_TIMEOUT_S) ran out")
        meta = {**reply.response_metadata, "finish_reason": "timeout"}
        return mark_cut_off(
            reply.model_copy(update={"response_metadata": meta}), ErrorCode.LLM_TIMEOUT
        )
    return reply


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
    if code == ErrorCode.APPROVAL_REJECTED:
        text = (
            "승인을 거절하셨으므로 그 작업은 실행하지 않고 여기서 마쳤습니다 "
            f"(오류 코드: {code.value}). 대화는 그대로 있으니 다음 메시지를 보내 주세요."
            if korean
            else "You rejected the call, so it was not run and the task ended here "
            f"(error code: {code.value}). The conversation is kept; send your next message."
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
    turn_timeout_s: float = 300.0,
) -> Node:
    """llm_node: build the context, call the model; on any failure answer with the fallback.

    `plain` is the model without tools: a plain greeting is answered by it (seed 002's fast
    path, one call and no tool round), and so is Continue. `budgets` are seed 003's
    per-section token budgets the context is fitted to (see `graph.budgets`).

    With `check_finish` (a provider that reports finish_reason, i.e. OpenAI and compatible
    servers), a cut-off, unfinished or empty reply is a failure too, except text cut at the
    length limit, which is kept (see `check_output`). The turn's model calls together have
    `turn_timeout_s` (or the runner's deadline); past it the text so far is kept, marked
    LLM_TIMEOUT. With `mask_pii` (a model outside the machine), phone numbers, e-mail
    addresses, resident registration and card numbers are replaced by placeholders in
    everything sent, and put back in the reply (see `graph.safeguard`). With `candidates`
    above 1, each step asks for that many answers at once and keeps the best (see
    `graph.nodes.candidates`).
    """

    def llm_node(state: ChatState) -> dict[str, Any]:
        messages = state["messages"]
        turn = state["turn_count"]
        current = extract_current_turn(messages)
        rounds = sum(1 for m in current if isinstance(m, AIMessage) and m.tool_calls)
        documents, dropped = _documents(state, budgets)
        context = strategy_context(state, state_extras(state, documents, budgets, dropped))
        continuing = str(state.get("continuing") or "")
        korean = _korean(messages)
        errors = list(state.get("errors", []))
        response: AIMessage
        candidate_records: list[dict[str, Any]] = []
        if rounds >= max_tool_rounds:
            code = ErrorCode.TOOL_LOOP_LIMIT
            errors.append(error_record(turn, "llm_node", code, f"{rounds} tool rounds"))
            response = fallback_message(code, korean)
        else:
            try:
                mapping: dict[str, str] = {}
                asked = context
                if continuing:  # Continue: the cut-off answer, then "go on from there"
                    asked = [
                        *context,
                        AIMessage(content=continuing),
                        HumanMessage(content=get_prompt("system.continue")),
                    ]
                sent = [mask_message(m, mapping) for m in asked] if mask_pii else asked

                chosen = model
                if plain is not None and (continuing or is_greeting(user_text(current))):
                    chosen = plain
                deadline = _deadline(turn_timeout_s)

                def ask(config: RunnableConfig | None = None) -> AIMessage:
                    reply = unmask_message(stream_reply(chosen, sent, config, deadline), mapping)
                    if check_finish:
                        return check_output(reply)
                    if reply.invalid_tool_calls and not reply.tool_calls:
                        raise ValueError(f"malformed tool call: {reply.invalid_tool_calls[0]}")
                    return reply

                if candidates > 1 and not continuing:
                    best, candidate_records, failure = _best_of(ask, candidates, current, context)
                    if best is None:  # no quorum: every candidate failed
                        raise failure or RuntimeError("no candidate answered")
                    response = best
                else:
                    response = ask()
                if continuing:
                    response = _continued(continuing, response)
            except (GraphBubbleUp, TurnCancelled):
                raise  # a pause, or the user pressed stop: not a failure to answer
            except Exception as exc:  # noqa: BLE001 - the turn must end with an answer
                code = classify_error(exc)
                log.warning("model call failed (%s): %s", code, exc)
                errors.append(error_record(turn, "llm_node", code, exc))
                if continuing:  # the answer so far stays, still cut off
                    response = AIMessage(
                        content=continuing,
                        response_metadata={CUT_OFF: ErrorCode.LLM_TRUNCATED.value},
                    )
                else:
                    response = fallback_message(code, korean)
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
        if continuing:
            update["continuing"] = ""
            # the turn was counted with its cut-off answer: only the new text is added
            update["transcript_chars"] = prior + max(
                0, len(content_text(response)) - len(continuing)
            )
        elif not response.tool_calls:
            update["transcript_chars"] = prior + sum(message_chars(m) for m in [*current, response])
        if len(errors) != len(state.get("errors", [])):
            update["errors"] = errors
        return update

    return llm_node


def _continued(before: str, reply: AIMessage) -> AIMessage:
    """The cut-off answer `before` with the continuation `reply` appended (one answer)."""
    more = content_text(reply)
    if before and more.startswith(before):
        more = more[len(before) :]  # the model wrote the answer again from its start
    # no space is added: a model going on mid-word or mid-sentence writes its own
    return reply.model_copy(
        update={
            "content": before + more,
            "tool_calls": [],
            "response_metadata": {**reply.response_metadata, "continued": True},
        }
    )


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
