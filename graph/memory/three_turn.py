"""Seed 002's strategy: a summary of every three turns, all of them kept in the context.

Past the thread's summary budget the oldest summaries are merged into digests (see
`graph.memory.bounded`), so the context stays bounded however long the thread runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langchain_core.messages import BaseMessage

from graph.context import Extras, build_context
from graph.errors import ErrorCode
from graph.memory.bounded import active_items, make_digest, next_merge, over_budget
from graph.memory.run import SummaryRun
from graph.turns import SUMMARY_EVERY


class ThreeTurn:
    """Turns 4, 7, 10, ... summarize the three before (seed 002)."""

    name = "three_turn"

    def due(self, run: SummaryRun) -> tuple[int, int] | None:
        """Blocks of three turns not yet summarized; a failed block is retried next turn."""
        blocks = (run.turn - 1 - run.covered) // SUMMARY_EVERY
        return (run.covered + 1, blocks * SUMMARY_EVERY) if blocks > 0 else None

    def update(self, run: SummaryRun, due: tuple[int, int] | None) -> None:
        """Summarize the due blocks, then merge digests while the summaries pass the budget."""
        if due is None:
            return  # nothing new: the context is within the budget since the last summary
        for first in range(due[0], due[0] + due[1], SUMMARY_EVERY):
            block = run.turns(first, SUMMARY_EVERY)
            if block is None:
                run.error(ErrorCode.SUMMARY_FAILED, "turns missing")
                return
            if run.summarize(first, block) is None:
                return
        digests = run.digests
        items = active_items(run.history, digests)
        while over_budget(items, run.budget):
            parts = next_merge(items)
            label = f"{parts[0]['turns'][0]}-{parts[-1]['turns'][-1]}턴"
            target = int(sum(len(p["summary"]) for p in parts) * run.rate)
            text = run.merge([p["summary"] for p in parts], label, target)
            if text is None:
                break
            digests.append(make_digest(parts, text, run.rate, run.times))
            run.check_digest(digests[-1])
            items = active_items(run.history, digests)
        if len(digests) != len(run.digests):
            run.update["summary_digests"] = digests

    def context(self, state: Mapping[str, Any], extras: Extras) -> list[BaseMessage]:
        """All active summaries and digests + unsummarized raw turns + the current turn."""
        history = state.get("summary_history", [])
        shown = active_items(history, state.get("summary_digests", []))
        return build_context(
            state["messages"],
            history,
            state["turn_count"],
            extras,
            shown,
            state.get("summary_times", {}),
        )
