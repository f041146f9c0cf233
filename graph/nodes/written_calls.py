"""Tool calls a model wrote as text: read, checked against the bound tools, or refused.

Many local models (and servers without a function-calling chat format) write a call as
`<tool_call>{...}</tool_call>`, a bare or fenced JSON object or `functions.<tool>:`. The
answer step (`llm_node`) turns the ones that can run into real tool calls, with the same
approval and exactly-once as a native call; the others are never shown, and the step is
asked once more in words (`in_words`).
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Mapping, Sequence

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolCall, ToolMessage
from langchain_core.messages.tool import tool_call
from langchain_core.tools import BaseTool
from pydantic import BaseModel

from graph.markup import answer_text, read_calls
from graph.turns import CUT_OFF, content_text
from prompt import get_prompt

WRITTEN_CALLS = "written_calls"
"""response_metadata key of a reply whose tool calls the model wrote as text: their forms."""


class WrittenMarkup(ValueError):
    """A reply that is a tool call written as text that cannot run, or markup alone."""


def take_written_calls(
    reply: AIMessage, schemas: Mapping[str, type[BaseModel] | None]
) -> AIMessage:
    """`reply` as the model meant it: calls written as text become tool calls, markup goes.

    A model (or a server without a function-calling chat format) that writes
    `<tool_call>{...}</tool_call>`, a bare or fenced JSON call, or several, gets real tool
    calls when every one names a tool in `schemas` with arguments its schema accepts; they
    run as a native call does (approval, exactly once, events). The text around them
    stays. WrittenMarkup when a written call cannot run (no such tool, arguments refused,
    cut off) or when nothing but markup (a template's tokens, the prompt said back) is left.
    """
    text = content_text(reply)
    if reply.tool_calls or reply.invalid_tool_calls:
        cleaned = answer_text(text)
        return reply if cleaned == text else reply.model_copy(update={"content": cleaned})
    found = read_calls(text, schemas)
    shown = answer_text(found.text)
    if found.runnable:
        calls = [tool_call(name=c.name, args=c.args, id=new_call_id()) for c in found.calls]
        meta = {**reply.response_metadata, WRITTEN_CALLS: [c.form for c in found.calls]}
        meta.pop(CUT_OFF, None)
        return reply.model_copy(
            update={"content": shown, "tool_calls": calls, "response_metadata": meta}
        )
    if found.found:
        raise WrittenMarkup("; ".join(found.problems()))
    if not shown:
        raise WrittenMarkup(f"nothing but markup: {text[:200]!r}")
    return reply if shown == text else reply.model_copy(update={"content": shown})


def new_call_id() -> str:
    """A new tool call id (the product's own, for a call written as text or by the rule)."""
    return f"call_{uuid.uuid4().hex[:24]}"


def _call_key(call: ToolCall) -> tuple[str, str]:
    return call["name"], json.dumps(call["args"], sort_keys=True, ensure_ascii=False)


def repeats(call: ToolCall, sent: Sequence[BaseMessage]) -> bool:
    """Whether `call` repeats one the current turn made, or asks about a result it got.

    Repeats: the same tool with the same arguments. About a result: every argument is
    one of this turn's tool results as it was returned (`calculator("69104")` after the
    calculator said 69104).
    """
    made: set[tuple[str, str]] = set()
    results: set[str] = set()
    for message in reversed(sent):
        if isinstance(message, HumanMessage):
            break
        if isinstance(message, AIMessage):
            made.update(_call_key(c) for c in message.tool_calls)
        elif isinstance(message, ToolMessage):
            results.add(" ".join(content_text(message).split()))
    values = [" ".join(str(v).split()) for v in call["args"].values()]
    return _call_key(call) in made or bool(values) and all(v in results for v in values)


def pointless(
    calls: Sequence[ToolCall],
    sent: Sequence[BaseMessage],
    schemas: Mapping[str, type[BaseModel] | None],
    descriptions: Mapping[str, str],
) -> str:
    """Why every one of a reply's `calls` is pointless; '' when one is worth running.

    Pointless: a call that `repeats` one this turn made (or asks about its result), or one
    that `copies_example` of its tool's description, unasked.
    """
    reasons: dict[str, None] = {}
    for call in calls:
        if repeats(call, sent):
            # a small model given a tool's result often asks for the same call again, or
            # calls the tool on the result itself
            reasons["a call this turn already made, or of its own result"] = None
        elif copies_example(
            call, descriptions.get(call["name"], ""), schemas.get(call["name"]), sent
        ):
            reasons["a call that only says back its tool's description"] = None
        else:
            return ""
    return "; ".join(reasons)


_QUOTED = re.compile(r"'([^']+)'|\"([^\"]+)\"|`([^`]+)`")
"""A span a tool's description quotes: its examples ('123 * 456')."""


def copies_example(
    call: ToolCall,
    description: str,
    schema: type[BaseModel] | None,
    sent: Sequence[BaseMessage],
) -> bool:
    """Whether `call` only says back its tool's description (its example), unasked.

    Each required argument is an example the description quotes, and no user message
    wrote it. Qwen2.5-Coder-0.5B, told the calculator evaluates "e.g. '123 * 456'", called
    it with `123 * 456` when the user gave their name and major. A call asked for by the
    user (`123 * 456 계산해줘`) or with nothing required (the clock's example time zone) runs.
    """
    if schema is None or not description:
        return False
    required = [k for k, field in schema.model_fields.items() if field.is_required()]
    values = [" ".join(str(call["args"].get(k, "")).split()) for k in required]
    if not values or not all(values):
        return False
    examples = {
        " ".join(next(g for g in found.groups() if g).split())
        for found in _QUOTED.finditer(description)
    }
    said = " ".join(" ".join(content_text(m).split()) for m in sent if isinstance(m, HumanMessage))
    return all(v in examples and v not in said for v in values)


def in_words(sent: Sequence[BaseMessage]) -> list[BaseMessage]:
    """The step's messages asking for an answer in words, with no tool round in them.

    A small model shown tool rounds (the assistant's calls, the tool's results) writes
    another call, tools offered or not. So the rounds go: earlier turns' answers say
    what came of theirs, and this turn's results are written into the user's message,
    with the note that asks for words.
    """
    last = max((i for i, m in enumerate(sent) if isinstance(m, HumanMessage)), default=-1)
    results = [
        get_prompt("system.tool_result", tool=m.name or "tool", result=content_text(m))
        for m in sent[last + 1 :]
        if isinstance(m, ToolMessage)
    ]
    messages: list[BaseMessage] = []
    for i, message in enumerate(sent):
        if isinstance(message, ToolMessage) or (
            isinstance(message, AIMessage) and message.tool_calls
        ):
            continue
        if i == last:
            parts = [content_text(message), *results, get_prompt("system.in_words")]
            message = message.model_copy(update={"content": "\n\n".join(parts)})
        messages.append(message)
    return messages


def tool_descriptions(tools: Sequence[BaseTool]) -> dict[str, str]:
    """Each bound tool's description, as the model is shown it."""
    return {tool.name: tool.description for tool in tools}


def tool_schemas(tools: Sequence[BaseTool]) -> dict[str, type[BaseModel] | None]:
    """Each bound tool's arguments model (None: any arguments), for written calls."""
    found: dict[str, type[BaseModel] | None] = {}
    for tool in tools:
        schema = tool.args_schema
        found[tool.name] = (
            schema if isinstance(schema, type) and issubclass(schema, BaseModel) else None
        )
    return found
