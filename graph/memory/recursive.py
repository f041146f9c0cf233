"""Recursive summary (seed 003): M_i = LLM(M_{i-1}, S_i), rewritten, never appended."""

from __future__ import annotations

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
