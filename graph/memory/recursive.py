"""Recursive summary (seed 003): M_i = LLM(M_{i-1}, S_i), rewritten, never appended."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langchain_core.messages import BaseMessage

from graph.context import Extras, system_prompt, unsummarized
from graph.memory.bounded import active_items
from graph.memory.entities import format_entities, update_entities
from graph.memory.run import SummaryRun
from graph.summarizer import sentences

KEEP_RAW_TURNS = 5
"""Raw turns kept in the context."""
UPDATE_EVERY = 5
"""Turns folded into the memory at once, when the raw turns exceed KEEP_RAW_TURNS by it."""
MAX_SENTENCES = 20
"""The memory is bounded to about this many sentences (~500 tokens)."""
MEMORY_CHARS = 1200
"""Target length of a rewritten memory."""


def due_block(completed_raw_turns: int) -> bool:
    """True when 5 turns beyond the 5 kept raw ones are waiting to be folded in."""
    return completed_raw_turns >= KEEP_RAW_TURNS + UPDATE_EVERY


def bound_memory(memory: str) -> str:
    """Keep the newest MAX_SENTENCES sentences: recent conversation first (seed 003)."""
    parts = sentences(memory)
    return " ".join(parts[-MAX_SENTENCES:])


class Recursive:
    """Seed 003: 5 raw turns stay; each further 5 are folded into the memory with entities."""

    name = "recursive"

    def due(self, run: SummaryRun) -> tuple[int, int] | None:
        """The 5 turns beyond the kept raw ones, once they are complete."""
        raw = len(run.completed) + run.archived - run.covered
        return (run.covered + 1, UPDATE_EVERY) if due_block(raw) else None

    def update(self, run: SummaryRun, due: tuple[int, int] | None) -> None:
        """M_i = LLM(M_{i-1}, S_i), bounded to ~20 sentences; entities updated by rule."""
        if run.history and not run.state.get("memory"):
            texts = [i["summary"] for i in active_items(run.history, run.digests)]
            run.update["memory"] = bound_memory(" ".join(texts))
        block = run.turns(*due) if due else None
        if due is None or block is None:
            return
        first = due[0]
        found = run.entities(block, first)
        entities = update_entities(list(run.state.get("entities", [])), found)
        text = run.summarize(first, block)
        if text is None:
            return
        memory = run.update.get("memory", run.state.get("memory", ""))
        if memory:
            label = f"{first}-{first + due[1] - 1}턴"
            merged = run.rewrite_memory(memory, text, label, MEMORY_CHARS)
            memory = merged if merged is not None else f"{memory} {text}"
        else:
            memory = text
        run.update["memory"] = bound_memory(memory)
        run.update["entities"] = entities

    def context(self, state: Mapping[str, Any], extras: Extras) -> list[BaseMessage]:
        """The memory (`[장기 기억]`), the entities (`[주요 정보]`) + the live messages."""
        system = system_prompt(
            [],
            extras,
            memory=state.get("memory", ""),
            entities=format_entities(state.get("entities", [])),
        )
        return [system, *unsummarized(state)]
