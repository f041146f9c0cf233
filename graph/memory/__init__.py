"""Memory strategies: what of the past a thread keeps in the model's context.

- `three_turn` (default, seed 002): a summary every three turns, all kept, with a context
  budget past which the oldest summaries are merged into digests (recursively).
- `sliding_window` (seed 000): when more than 10 messages are live, all but the last 5 are
  summarized into a window of at most 3 summaries; tool calls and results stay together.
- `recursive` (seed 003): the last 5 turns raw; once more than 5 turns wait outside the
  memory, the oldest 5 are folded in, M_i = LLM(M_{i-1}, S_i), one model call returning
  the memory (about 20 sentences, 500 tokens) and the entities, after the answer (see
  `graph.memory.recursive` for the arithmetic and `graph.nodes.memory` for the node).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from graph.memory.names import DEFAULT_STRATEGY, STRATEGIES, Strategy, strategy_name

__all__ = [
    "DEFAULT_STRATEGY",
    "STRATEGIES",
    "MemoryStrategy",
    "Strategy",
    "get_strategy",
    "state_extras",
    "strategy_context",
]

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from langchain_core.messages import BaseMessage

    from graph.budgets import Budgets
    from graph.context import Extras
    from graph.memory.run import SummaryRun


class MemoryStrategy(Protocol):
    """What a strategy decides: when it summarizes, what it keeps, what the model sees."""

    name: str

    def due(self, run: SummaryRun) -> tuple[int, int] | None:
        """(first turn, number of turns) to summarize at this turn, or None."""
        ...

    def update(self, run: SummaryRun, due: tuple[int, int] | None) -> None:
        """Summarize what is due and record the strategy's own state in `run.update`."""
        ...

    def context(self, state: Mapping[str, Any], extras: Extras) -> list[BaseMessage]:
        """The messages the model receives: system prompt, memory, raw turns, current turn."""
        ...


def get_strategy(name: str | None) -> MemoryStrategy:
    """The strategy called `name`; an unknown or empty name gives the default."""
    from graph.memory.recursive import Recursive
    from graph.memory.three_turn import ThreeTurn
    from graph.memory.window import SlidingWindow

    by_name: dict[str, MemoryStrategy] = {
        "three_turn": ThreeTurn(),
        "sliding_window": SlidingWindow(),
        "recursive": Recursive(),
    }
    return by_name[strategy_name(name)]


def strategy_context(state: Mapping[str, Any], extras: Extras | None = None) -> list[BaseMessage]:
    """The context of the thread's next model call under its memory strategy."""
    from dataclasses import replace

    from graph.context import Extras, fit_recent

    extras = extras or Extras()
    strategy = get_strategy(state.get("strategy"))
    if extras.budgets is not None and strategy.name == "recursive":
        extras = replace(extras, budgets=extras.budgets.for_recursive())  # seed 003's table
    elif extras.budgets is not None and state.get("context_budget"):
        fitted = extras.budgets.for_thread(int(state["context_budget"]), extras.recalled)
        extras = replace(extras, budgets=fitted)
    return fit_recent(strategy.context(state, extras), extras.budgets)


def state_extras(
    state: Mapping[str, Any],
    documents: str = "",
    budgets: Budgets | None = None,
    documents_dropped: int = 0,
) -> Extras:
    """The extra sections of a context from the state: recalled turns, pinned facts.

    `budgets` are the token budgets the context is fitted to (None: no trimming).
    """
    from graph.context import Extras
    from graph.memory.pins import format_pins
    from graph.memory.recall import format_recalled

    return Extras(
        documents=documents,
        recalled=format_recalled(state.get("recalled") or []),
        pinned=format_pins(state.get("pinned") or []),
        budgets=budgets,
        documents_dropped=documents_dropped,
    )
