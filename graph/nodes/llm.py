"""llm_node: build the context under the thread's memory strategy and call the model.

Any failure of the model (timeout, 429, 5xx, malformed tool call, endless tool loop) ends
the turn with a short apology naming an `ErrorCode`; the user's message is kept. An answer
cut off at the length limit, or by the turn's time limit, is an answer: its text is kept,
marked `cut_off` (LLM_TRUNCATED or LLM_TIMEOUT), and Continue asks the model to go on
(`state["continuing"]`). Cut-off tool arguments are never run.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import (
    AIMessage,
    AIMessageChunk,
    BaseMessage,
    HumanMessage,
    InvalidToolCall,
    ToolCall,
    ToolCallChunk,
    message_chunk_to_message,
)
from langchain_core.messages.tool import invalid_tool_call, tool_call
from langchain_core.runnables import Runnable, RunnableConfig
from langchain_core.tools import BaseTool
from langgraph.config import get_config, get_stream_writer
from langgraph.constants import TAG_NOSTREAM
from langgraph.errors import GraphBubbleUp
from langgraph.types import Command, Send
from pydantic import BaseModel

from graph.budgets import Budgets
from graph.context import (
    ContextStats,
    Extras,
    context_chars,
    message_chars,
    stable_first,
    system_prompt,
)
from graph.errors import ErrorCode, TurnCancelled, error_record
from graph.markup import MarkupGate, answer_text
from graph.memory import state_extras, strategy_context
from graph.nodes import candidates as candidate_rule
from graph.nodes.base import Node
from graph.nodes.fallback import failed
from graph.nodes.written_calls import (
    WRITTEN_CALLS,
    WrittenMarkup,
    in_words,
    new_call_id,
    pointless,
    take_written_calls,
    tool_descriptions,
    tool_schemas,
)
from graph.offline import rule_call
from graph.retrieval.loop import IN_PREPARATION
from graph.safeguard import mask_message, unmask_message
from graph.state import ChatState
from graph.storage.archive import Archive, record_context_stats
from graph.text import is_greeting
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
    gate: MarkupGate | None = None,
) -> AIMessage:
    """The model's reply, streamed; past `deadline` the text so far, marked LLM_TIMEOUT.

    A per-read timeout does not stop a server that sends a token every second; this does.
    A reply cut there keeps its text (Continue goes on from it); cut-off tool calls, or
    no text at all, are a timeout error. With a `gate`, the text is shown as it comes
    through it (`graph.markup.MarkupGate`: never a call written as text); the caller
    closes it once it knows the reply is the answer.
    """
    merged: AIMessageChunk | None = None
    late = False
    parts = model.stream(list(messages), config)
    try:
        for chunk in _nothing_is_empty(parts):
            if isinstance(chunk, AIMessage) and not isinstance(chunk, AIMessageChunk):
                _through(gate, content_text(chunk))
                return chunk  # a model that does not stream answers in one message
            if not isinstance(chunk, AIMessageChunk):
                raise TypeError(f"model streamed {type(chunk).__name__}")
            merged = chunk if merged is None else merged + chunk
            _through(gate, content_text(chunk))
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
    reply = _as_sent(reply, merged.tool_call_chunks)
    if late:
        if reply.tool_calls or reply.invalid_tool_calls or not content_text(reply).strip():
            raise TimeoutError("the turn's time limit (LLM_TURN_TIMEOUT_S) ran out")
        meta = {**reply.response_metadata, "finish_reason": "timeout"}
        return mark_cut_off(
            reply.model_copy(update={"response_metadata": meta}), ErrorCode.LLM_TIMEOUT
        )
    return reply


def complete_arguments(raw: object) -> bool:
    """Whether a tool call's streamed arguments are whole JSON (an object, or nothing).

    The client parses what it got as "partial JSON" and so repairs a cut call:
    `{"expression": "123456*1000` would run as `123456*1000`. A call runs only as sent.
    """
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return True  # no arguments at all: nothing was cut
    if not isinstance(raw, str):
        return isinstance(raw, dict)
    try:
        return isinstance(json.loads(raw), dict)
    except ValueError:
        return False


def _as_sent(reply: AIMessage, chunks: Sequence[ToolCallChunk]) -> AIMessage:
    """`reply` with each call whose arguments are not whole JSON moved to the invalid ones."""
    if all(complete_arguments(c.get("args")) for c in chunks):
        return reply
    calls: list[ToolCall] = []
    invalid: list[InvalidToolCall] = []
    for chunk in chunks:
        raw = chunk.get("args")
        name, call_id = chunk.get("name") or "", chunk.get("id")
        if complete_arguments(raw):
            args = json.loads(raw) if isinstance(raw, str) and raw.strip() else {}
            calls.append(tool_call(name=name, args=args, id=call_id))
        else:
            error = "the arguments are not complete JSON (cut off): not run"
            invalid.append(invalid_tool_call(name=name, args=raw, id=call_id, error=error))
    return reply.model_copy(update={"tool_calls": calls, "invalid_tool_calls": invalid})


def _through(gate: MarkupGate | None, piece: str) -> None:
    """Show what `gate` lets out of the next piece of a reply (nothing without a gate)."""
    if gate is not None and piece:
        show(gate.feed(piece))


def show(text: str) -> None:
    """Stream `text` as the answer's next words (the session turns it into `token` events)."""
    if text:
        get_stream_writer()({"token": text})


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
    tools: Sequence[BaseTool] | None = None,
    cache_layout: bool = True,
    tool_rule: bool = False,
) -> Callable[[ChatState], dict[str, Any] | Command[Any]]:
    """llm_node: build the context, call the model; on any failure route to the fallback.

    With `tools` (a provider's model, bound to them), a tool call the model writes as
    text is taken as a call to them, or refused and asked again without tools, and the
    answer streams through a `MarkupGate` (`_answer_or_call`): markup is never shown.
    With `cache_layout` the context goes to that model laid out for its server's prefix
    cache (`graph.context.stable_first`). With `tool_rule` (TOOL_DECISION rule or both) a
    message that plainly asks for a bound tool gets the offline engine's call for it at
    the turn's first step, without asking the model (`graph.offline.rule_call`); the model
    answers from its result.

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
    above 1, an answer step (not Continue) is a fan-out: the node writes the context's
    figures and sends the context to that many `candidate_node` tasks (`Send`), and
    `quorum_node` keeps the best (see `graph.nodes.candidates`).
    """
    schemas = tool_schemas(tools) if tools is not None else None
    descriptions = tool_descriptions(tools) if tools is not None else {}

    def llm_node(state: ChatState) -> dict[str, Any] | Command[Any]:
        messages = state["messages"]
        turn = state["turn_count"]
        current = extract_current_turn(messages)
        rounds = sum(1 for m in current if isinstance(m, AIMessage) and m.tool_calls)
        documents, dropped = _documents(state, budgets)
        context = strategy_context(state, state_extras(state, documents, budgets, dropped))
        continuing = str(state.get("continuing") or "")
        errors = list(state.get("errors", []))
        response: AIMessage | None = None
        failure: ErrorCode | None = None
        fan_out: list[Send] = []
        use_plain = plain is not None and bool(continuing or is_greeting(user_text(current)))
        ruled = (
            rule_call(user_text(current), list(schemas or ()))
            if tool_rule and not rounds and not continuing and state.get("route") != "rag"
            else None
        )
        if ruled is not None:  # the rule's call for a plain request: no model call
            response = AIMessage(
                content="",
                tool_calls=[tool_call(name=ruled[0], args=ruled[1], id=new_call_id())],
                response_metadata={"tool_decision": "rule"},
            )
        elif rounds >= max_tool_rounds:
            code = ErrorCode.TOOL_LOOP_LIMIT
            errors.append(error_record(turn, "llm_node", code, f"{rounds} tool rounds"))
            failure = code
        elif candidates > 1 and not continuing:
            # the fan-out: each candidate_node task gets the context; quorum_node chooses
            question = _question(current)
            fan_out = [
                Send(
                    CANDIDATE_NODE,
                    {"index": i, "context": context, "plain": use_plain, "question": question},
                )
                for i in range(candidates)
            ]
        else:
            try:
                mapping: dict[str, str] = {}
                # a provider's server reuses the prompt it evaluated before: fixed text first
                asked = stable_first(context) if schemas is not None and cache_layout else context
                if continuing:  # Continue: the cut-off answer, then "go on from there"
                    asked = [
                        *asked,
                        AIMessage(content=continuing),
                        HumanMessage(content=get_prompt("system.continue")),
                    ]
                sent = [mask_message(m, mapping) for m in asked] if mask_pii else asked
                chosen = plain if use_plain and plain is not None else model
                if schemas is None:  # the offline engine: its calls are real ones
                    response = _ask(chosen, sent, mapping, check_finish, None, turn_timeout_s)
                else:
                    # the rule served a plain request: the model only words its result
                    served = any(
                        isinstance(m, AIMessage) and m.response_metadata.get("tool_decision")
                        for m in current
                    )
                    response = _answer_or_call(
                        chosen,
                        plain or chosen,
                        sent,
                        mapping,
                        schemas,
                        turn_timeout_s,
                        ruled=served,
                        descriptions=descriptions,
                    )
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
                    failure = code  # fallback_node writes the apology
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
        update: dict[str, Any] = {"last_context": {**stats.as_dict(), "sections": sections}}
        if failure is not None:  # no answer: fallback_node writes the coded apology
            return {**update, "errors": errors, "error_code": failure.value}
        if response is None:  # the candidates answer (candidate_node), the quorum chooses
            update["candidate_replies"] = None
            return Command(update=update, goto=fan_out)

        update["messages"] = [response]
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


CANDIDATE_NODE = "candidate_node"
"""The fan-out's node: one task per candidate, each sent the step's context (`Send`)."""
QUORUM_NODE = "quorum_node"
"""The fan-in's node: runs once every candidate task of the step has returned."""


def _question(current: Sequence[BaseMessage]) -> str:
    """The user's message of the current turn (what a candidate's coverage is scored on)."""
    return next((content_text(m) for m in current if isinstance(m, HumanMessage)), "")


def _ask(
    model: Runnable[Any, Any],
    sent: Sequence[BaseMessage],
    mapping: dict[str, str],
    check_finish: bool,
    config: RunnableConfig | None,
    turn_timeout_s: float,
    gate: MarkupGate | None = None,
) -> AIMessage:
    """One model call of an answer step: the reply (PII put back) or the failure raised."""
    streamed = stream_reply(model, sent, config, _deadline(turn_timeout_s), gate)
    reply = unmask_message(streamed, mapping)
    if check_finish:
        return check_output(reply)
    if reply.invalid_tool_calls and not reply.tool_calls:
        raise ValueError(f"malformed tool call: {reply.invalid_tool_calls[0]}")
    return reply


STREAMED = "streamed"
"""response_metadata key of an answer the node showed itself as it came (through a
`MarkupGate`); the session does not show it again when the node returns it."""


def _answer_or_call(
    model: Runnable[Any, Any],
    plain: Runnable[Any, Any],
    sent: Sequence[BaseMessage],
    mapping: dict[str, str],
    schemas: Mapping[str, type[BaseModel] | None],
    turn_timeout_s: float,
    ruled: bool = False,
    descriptions: Mapping[str, str] | None = None,
) -> AIMessage:
    """One answer step of a provider's model: its answer or its tool calls, never markup.

    The reply is shown as it streams, through a `MarkupGate`; a call written as text that
    can run becomes a tool call (`take_written_calls`). One that cannot (no such tool,
    arguments refused, cut off), a call this turn already made with the same arguments,
    a call that only says back its tool's description (`pointless`), or a reply of
    markup alone, is never shown: the step is asked once more without tools, this turn's
    results written into the question (`in_words`), and only an answer that is markup
    again ends the turn (LLM_BAD_RESPONSE, the apology). With `ruled` (the rule made this
    turn's call) it is asked in words at once.
    """
    config: RunnableConfig = {"tags": [TAG_NOSTREAM]}  # shown through the gate instead
    gate = MarkupGate(answer=True)
    try:
        if ruled:
            raise WrittenMarkup("the rule's call was made: its result is put in words")
        reply = _ask(model, sent, mapping, True, config, turn_timeout_s, gate)
        reply = take_written_calls(reply, schemas)
        reason = pointless(reply.tool_calls, sent, schemas, descriptions or {})
        if reason:
            raise WrittenMarkup(reason)
    except WrittenMarkup as exc:
        log.info("asked in words, without tools: %s", exc)
        gate = MarkupGate(answer=True)
        reply = _ask(plain, in_words(sent), mapping, True, config, turn_timeout_s, gate)
        text = answer_text(content_text(reply))
        if not text:
            raise BrokenOutput(
                ErrorCode.LLM_BAD_RESPONSE, f"markup again without tools: {exc}"
            ) from exc
        meta = {**reply.response_metadata, WRITTEN_CALLS: ["refused"]}
        reply = reply.model_copy(
            update={
                "content": text,
                "tool_calls": [],
                "invalid_tool_calls": [],
                "response_metadata": meta,
            }
        )
    if not reply.tool_calls:
        show(gate.close())
    return reply.model_copy(
        update={"response_metadata": {**reply.response_metadata, STREAMED: True}}
    )


def make_candidate_node(
    model: BaseChatModel,
    plain: BaseChatModel | None = None,
    check_finish: bool = False,
    mask_pii: bool = False,
    turn_timeout_s: float = 300.0,
) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """candidate_node: one candidate of a fanned-out answer step (see `graph.nodes.candidates`).

    Its input is what `llm_node` sent it (`Send`): `index`, the step's `context`, whether
    the `plain` model answers (a greeting), and the user's `question`. It asks the model
    once, not streamed, and adds `{index, reply, score}` to the state's
    `candidate_replies`, or `{index, error, code}` when the call failed: a failed
    candidate is recorded, never raised (a pause or a stop still is).
    """

    def candidate_node(task: dict[str, Any]) -> dict[str, Any]:
        index = int(task["index"])
        context: list[BaseMessage] = list(task["context"])
        chosen = plain if task.get("plain") and plain is not None else model
        mapping: dict[str, str] = {}
        sent = [mask_message(m, mapping) for m in context] if mask_pii else context
        entry: dict[str, Any] = {"index": index}
        try:
            reply = _ask(
                chosen, sent, mapping, check_finish, {"tags": [TAG_NOSTREAM]}, turn_timeout_s
            )
        except (GraphBubbleUp, TurnCancelled):
            raise
        except Exception as exc:  # noqa: BLE001 - a failed candidate is recorded, not raised
            entry["error"] = f"{type(exc).__name__}: {exc}"[:300]
            entry["code"] = classify_error(exc).value
            return {"candidate_replies": [entry]}
        entry["reply"] = reply
        if not reply.tool_calls:
            seen = "\n".join(content_text(m) for m in context)
            question = str(task.get("question") or "")
            entry["score"] = candidate_rule.score(content_text(reply), question, seen)
        return {"candidate_replies": [entry]}

    return candidate_node


def make_quorum_node() -> Node:
    """quorum_node: the fan-in of a fanned-out answer step.

    Applies the quorum (one success) and the choice rule of `graph.nodes.candidates` to
    the step's `candidate_replies`, streams the chosen answer in pieces, and writes what
    `llm_node` writes for an answer: the message (the fallback naming the first failure's
    code when no candidate answered), the transcript size, any error, and every
    candidate's record (`candidates`). The replies are cleared for the next step.
    """

    def quorum_node(state: ChatState) -> dict[str, Any]:
        messages = state["messages"]
        turn = state["turn_count"]
        current = extract_current_turn(messages)
        entries = sorted(state.get("candidate_replies") or [], key=lambda e: int(e["index"]))
        found = [candidate_rule.Candidate.from_state(e) for e in entries]
        chosen = candidate_rule.fan_in(found)
        errors = list(state.get("errors", []))
        if chosen is None or chosen.reply is None:  # no quorum: every candidate failed
            failed = next((c for c in found if c.error is not None), None)
            code = ErrorCode(failed.code) if failed and failed.code else ErrorCode.UNKNOWN
            detail = failed.error if failed and failed.error else "no candidate answered"
            log.warning("every answer candidate failed (%s): %s", code, detail)
            errors.append(error_record(turn, "llm_node", code, detail))
            return {
                "candidates": candidate_rule.records(found, chosen),
                "candidate_replies": None,
                "errors": errors,
                "error_code": code.value,  # fallback_node writes the apology
            }
        else:
            response = chosen.reply
            if not response.tool_calls:
                write = get_stream_writer()
                for piece in candidate_rule.pieces(content_text(response)):
                    write({"token": piece})
                meta = {**response.response_metadata, "candidate": chosen.index}
                response = response.model_copy(update={"response_metadata": meta})
        update: dict[str, Any] = {
            "messages": [response],
            "candidates": candidate_rule.records(found, chosen),
            "candidate_replies": None,
        }
        if not response.tool_calls:
            prior = state.get("transcript_chars", 0)
            update["transcript_chars"] = prior + sum(message_chars(m) for m in [*current, response])
        if len(errors) != len(state.get("errors", [])):
            update["errors"] = errors
        return update

    return quorum_node


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


def route_after_llm(
    state: ChatState,
) -> list[Literal["tool_node", "fallback_node", "__end__"]]:
    """After the model (llm_node, or quorum_node's choice): tools, the fallback, or the end.

    fallback_node when the step failed (`error_code`: it writes the coded apology); tools
    if the model asked for them, else the end. Nothing when llm_node fanned out to
    candidates: its `Send`s go on (it wrote no answer, so the last message is not the
    model's).
    """
    if failed(state):
        return ["fallback_node"]
    last = state["messages"][-1]
    if not isinstance(last, AIMessage):
        return []
    if last.tool_calls:
        return ["tool_node"]
    return ["__end__"]
