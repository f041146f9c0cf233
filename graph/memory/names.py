"""The names of the memory strategies, and the one a thread's setting stands for.

A leaf: the package (`get_strategy`) and `graph.memory.run`, which the strategies build
on, both read them, so `run` need not import the package that imports the strategies.
"""

from __future__ import annotations

from typing import Literal

Strategy = Literal["three_turn", "sliding_window", "recursive"]
STRATEGIES: tuple[Strategy, ...] = ("three_turn", "sliding_window", "recursive")
DEFAULT_STRATEGY: Strategy = "three_turn"


def strategy_name(name: str | None) -> Strategy:
    """The strategy called `name`; an unknown or empty name gives the default's name."""
    return next((s for s in STRATEGIES if s == name), DEFAULT_STRATEGY)
