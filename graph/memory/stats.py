"""Compression statistics of a thread's summaries, for the panel and the service."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def summary_stats(history: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """Totals over `summary_history`: count, turns, original and summary chars, % saved."""
    original = sum(int(e["original_chars"]) for e in history)
    summarized = sum(int(e["summary_chars"]) for e in history)
    return {
        "count": len(history),
        "turns": sum(int(e["turn_length"]) for e in history),
        "original": original,
        "summary": summarized,
        "saved_pct": round(100 * (1 - summarized / original)) if original else 0,
    }
