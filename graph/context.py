"""Context building (seed 002): all summaries + unsummarized raw turns + the current turn."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, SystemMessage

from graph.budgets import Budgets, report
from graph.times import describe_span, item_time
from graph.turns import (
    content_text,
    extract_current_turn,
    extract_last_n_turns,
    split_turns,
    user_text,
    without_apologies,
    without_markup,
)
from prompt import get_prompt


def covered_turns(summary_history: Sequence[Mapping[str, Any]]) -> int:
    """Turns covered by summaries: the seed's `len(summary_history) * 3`, read off the entries."""
    return max((int(entry["turns"][-1]) for entry in summary_history), default=0)


@dataclass(frozen=True)
class Extras:
    """Sections every strategy's system prompt carries besides its own memory."""

    documents: str = ""
    """Retrieved document passages (`[참고 문서]`), or the note that none were found."""
    recalled: str = ""
    """Archived turns relevant to the current message (`[관련 이전 대화]`)."""
    pinned: str = ""
    """Facts the user pinned (`[고정된 사실]`): always in the context."""
    budgets: Budgets | None = None
    """Seed 003's token budget per section (`graph.budgets`); None: nothing is trimmed."""
    documents_dropped: int = 0
    """Passages left out of `documents` for its budget (lowest-ranked first)."""


def system_prompt(
    summaries: Sequence[Mapping[str, Any]],
    extras: Extras | None = None,
    *,
    window: str = "",
    memory: str = "",
    entities: str = "",
    times: Mapping[str, Sequence[str]] | None = None,
) -> SystemMessage:
    """The system message of every model call.

    Role, pinned facts, then `[이전 대화 요약]` lines (or the sliding window), the recursive
    memory and entities if any, then the recalled turns and `[참고 문서]` if any. With no
    pins, no recall and no documents it is exactly seed 002's system prompt.

    With `extras.budgets`, the oldest summary lines and entities beyond their sections'
    budgets are left out; each section's tokens, budget and dropped items are reported in
    the message's `response_metadata["sections"]` (never sent to a model).
    """
    extras = extras or Extras()
    budgets = extras.budgets or Budgets({})
    base = get_prompt("system.base")
    pinned = get_prompt("system.pinned", pinned=extras.pinned) if extras.pinned else ""
    role = "\n".join(p for p in (base, pinned) if p)
    lines = [
        get_prompt(
            "system.summary_line",
            start=entry["turns"][0],
            end=entry["turns"][-1],
            when=f", {describe_span(span[0], span[-1])}" if span else "",
            summary=entry["summary"],
        )
        for entry in summaries
        for span in [item_time(entry, times or {})]
    ]
    remembered: list[str] = []  # long-term memory, in the order the prompt has it
    if window:
        remembered.append(get_prompt("system.window", window=window))
    if memory:
        remembered.append(get_prompt("system.memory", memory=memory))
    recalled = get_prompt("system.recalled", recalled=extras.recalled) if extras.recalled else ""
    fixed = "\n".join([*remembered, get_prompt("system.summaries_header"), recalled])
    kept = budgets.fit("memory", lines[::-1], fixed)  # the newest lines are worth most
    memory_dropped, lines = len(lines) - kept, lines[len(lines) - kept :]
    facts = entities.splitlines()
    kept = budgets.fit("entities", facts[::-1], get_prompt("system.entities", entities=""))
    entities_dropped, facts = len(facts) - kept, facts[len(facts) - kept :]
    listed = get_prompt("system.entities", entities="\n".join(facts)) if facts else ""
    summarized = [get_prompt("system.summaries_header"), *lines] if lines else []
    documents = (
        get_prompt("system.documents_header", documents=extras.documents)
        if extras.documents
        else ""
    )
    sections = {
        "system": report("system", role, budgets),
        "memory": report(
            "memory", "\n".join([*remembered, *summarized, recalled]), budgets, memory_dropped
        ),
        "entities": report("entities", listed, budgets, entities_dropped),
        "documents": report("documents", documents, budgets, extras.documents_dropped),
    }
    ordered = [role, *remembered, listed, *summarized, recalled, documents]
    # for a server's prefix cache: what stays, what changes every few turns, every turn
    layout = {
        "stable": base,
        "memory": "\n".join(p for p in (pinned, *remembered, listed, *summarized) if p),
        "turn": "\n".join(p for p in (recalled, documents) if p),
    }
    return SystemMessage(
        content="\n".join(p for p in ordered if p),
        response_metadata={"sections": sections, "layout": layout},
    )


def stable_first(context: Sequence[BaseMessage]) -> list[BaseMessage]:
    """`context` laid out for a server's prefix cache: what stays first, what changes last.

    The system prompt's fixed instructions (and, after them in the chat template, the tool
    descriptions) open every call; the memory (pins, summaries, entities: it changes every
    few turns) follows as a second system message, then the raw turns, then what this
    turn found (recalled turns, documents) as a system message just before the current
    turn. A server that keeps the evaluated prompt (llama.cpp's prefix cache) evaluates
    only what changed: the new turn, not the whole prompt again. Same text, same order of
    the conversation (seed 002's summaries + raw turns + current turn).
    """
    if not context or not isinstance(context[0], SystemMessage):
        return list(context)
    layout = context[0].response_metadata.get("layout")
    if not isinstance(layout, dict):
        return list(context)
    completed, current = split_turns(context[1:])
    head = [SystemMessage(content=str(layout["stable"]))]
    if layout.get("memory"):
        head.append(SystemMessage(content=str(layout["memory"])))
    found = [SystemMessage(content=str(layout["turn"]))] if layout.get("turn") else []
    return [*head, *(m for turn in completed for m in turn), *found, *current]


def build_context(
    messages: Sequence[BaseMessage],
    summary_history: Sequence[Mapping[str, Any]],
    turn_count: int,
    extras: Extras | None = None,
    shown: Sequence[Mapping[str, Any]] | None = None,
    times: Mapping[str, Sequence[str]] | None = None,
) -> list[BaseMessage]:
    """What the model receives at `turn_count`: system prompt + raw completed turns + current turn.

    Raw turns are those not covered by a summary: `turn_count - covered - 1` completed turns
    (the current turn is still in progress). At turns 4, 7, 10 that is zero, so the context is
    the summaries plus the current turn alone.
    """
    summarized = covered_turns(summary_history)
    completed_raw = max(0, turn_count - summarized - 1)
    recent = extract_last_n_turns(messages, completed_raw)
    current = extract_current_turn(messages)
    lines = summary_history if shown is None else shown
    return [system_prompt(lines, extras, times=times), *recent, *current]


def unsummarized(state: Mapping[str, Any]) -> list[BaseMessage]:
    """Live messages of the turns no summary covers yet, and the current turn.

    With an archive these are all the live messages (summarized turns move out); without
    one, summarized turns stay in `messages` and are skipped here.
    """
    completed, current = split_turns(state["messages"])
    skip = max(0, covered_turns(state.get("summary_history", [])) - state.get("archived_turns", 0))
    return [m for turn in completed[skip:] for m in turn] + current


def message_chars(msg: BaseMessage) -> int:
    """Characters a message puts on the wire: its text plus any tool-call arguments."""
    size = len(content_text(msg))
    if isinstance(msg, AIMessage) and msg.tool_calls:
        size += sum(
            len(c["name"]) + len(json.dumps(c["args"], ensure_ascii=False)) for c in msg.tool_calls
        )
    return size


def context_chars(messages: Sequence[BaseMessage]) -> int:
    """Total characters of a context."""
    return sum(message_chars(m) for m in messages)


@dataclass
class ContextStats:
    """Size of one model call's context, and what it would have been with no summaries."""

    turn: int
    context_chars: int
    context_messages: int
    full_chars: int

    def as_dict(self) -> dict[str, int]:
        """Plain dict for the state."""
        return {
            "turn": self.turn,
            "context_chars": self.context_chars,
            "context_messages": self.context_messages,
            "full_chars": self.full_chars,
        }


def fit_recent(context: Sequence[BaseMessage], budgets: Budgets | None) -> list[BaseMessage]:
    """`context` with its oldest raw turns beyond the recent section's budget left out.

    The newest raw turn always stays, and so does the current turn (the question is
    measured, never cut). The recent and question sections join the system message's
    section report.
    """
    system, rest = context[0], list(context[1:])
    completed, current = split_turns(rest)
    budgets = budgets or Budgets({})
    # an apology that closed a failed turn is the app's word, never the model's to repeat,
    # and markup an older answer held (a call written as text) is never shown back to it
    completed = [without_markup(without_apologies(turn)) for turn in completed]
    texts = ["\n".join(content_text(m) for m in turn) for turn in completed]
    dropped = len(completed) - budgets.fit("recent", texts[::-1])
    sections = dict(system.response_metadata.get("sections") or {})
    sections["recent"] = report("recent", "\n".join(texts[dropped:]), budgets, dropped)
    sections["question"] = report("question", user_text(current), budgets)
    system = system.model_copy(
        update={"response_metadata": {**system.response_metadata, "sections": sections}}
    )
    return [system, *(m for turn in completed[dropped:] for m in turn), *current]
