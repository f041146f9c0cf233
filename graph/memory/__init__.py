"""Memory strategies: what of the past a thread keeps in the model's context.

- `three_turn` (default, seed 002): a summary every three turns, all kept, with a context
  budget past which the oldest summaries are merged into digests (recursively).
- `sliding_window` (seed 000): when more than 10 messages are live, all but the last 5 are
  summarized into a window of at most 3 summaries; tool calls and results stay together.
- `recursive` (seed 003): 5 raw turns kept; every 5 turns beyond that the memory is
  rewritten as M_i = LLM(M_{i-1}, S_i), bounded to about 20 sentences, with an entity list.
"""

from __future__ import annotations

from typing import Literal

Strategy = Literal["three_turn", "sliding_window", "recursive"]
STRATEGIES: tuple[Strategy, ...] = ("three_turn", "sliding_window", "recursive")
DEFAULT_STRATEGY: Strategy = "three_turn"
