"""summary_node: apply the thread's memory strategy before the model is called.

The recursive strategy (seed 003) updates its memory after the answer instead
(`graph.nodes.memory`); before it, this node only starts the memory of a thread switched to
it from its earlier summaries.
"""

from __future__ import annotations

from typing import Any

from graph.memory import get_strategy
from graph.memory.run import SummaryRun
from graph.nodes.base import Node
from graph.state import ChatState
from graph.storage.archive import Archive
from graph.structured import collect_decisions, decision_records
from graph.summarizer import Summarizer


def planned_summary(state: ChatState) -> list[int]:
    """Turns the strategy will summarize before the model is called at `turn_count`.

    The "what the model sees next" preview lists them.
    """
    due = get_strategy(state.get("strategy")).due(SummaryRun(state))
    return list(range(due[0], due[0] + due[1])) if due else []


def make_summary_node(
    summarizer: Summarizer, archive: Archive | None = None, budget: int = 4000
) -> Node:
    """summary_node: the strategy decides what is due and summarizes it.

    The default (three_turn) is seed 002's rule; see `graph.memory` for the others.
    Summarized turns move from the working set to the archive; a failed summary never
    blocks the reply and is retried at the next turn.
    """

    def summary_node(state: ChatState) -> dict[str, Any]:
        run = SummaryRun(state, summarizer, archive, budget)
        strategy = get_strategy(state.get("strategy"))
        if strategy.name != "recursive":
            # a thread switched from the recursive strategy, whose memory holds turns that
            # were still raw in its window: those move to the archive like any summarized
            # turn (for the other strategies the summarized turns are archived already)
            run.archive_through(run.covered)
        with collect_decisions() as made:  # any structured decision a strategy's update asks
            strategy.update(run, strategy.due(run))
        update = run.result()
        if made:
            update["decisions"] = decision_records(made, run.turn)
        return update

    return summary_node
