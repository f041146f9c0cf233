"""Seed 003 §5's token budget per section of a context, and the rule that estimates tokens.

Sections: the system prompt (role, rules, pinned facts), long-term memory (summaries and
digests, the window, the recursive memory, recalled turns), entities, recent turns (the
raw turns no summary covers), retrieved document passages, and the current question.
Each has a budget in tokens (CONTEXT_TOKEN_BUDGETS); a section over its budget loses its
lowest-ranked items first: the oldest summary lines and entities, the oldest raw turns,
the lowest-ranked passages. The role text and the question itself are never cut (they are
measured and shown against their budgets); nor is the first, best item of a section.

Tokens are estimated without a tokenizer (tiktoken's encodings download at run time,
which fails offline): one token per four ASCII characters, rounded up, plus one per other
character. For OpenAI's cl100k/o200k encodings that is close for English and on the high
side for Korean (a Hangul syllable is one token or less), so a budget is not overrun.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

SECTIONS = ("system", "memory", "entities", "recent", "documents", "question")
DEFAULT_BUDGETS: dict[str, int] = {
    "system": 1500,
    "memory": 5000,
    "entities": 200,
    "recent": 1500,
    "documents": 1500,
    "question": 100,
}
"""Seed 003's table, but for memory: its ~500 tokens are the recursive strategy's bounded
memory of 20 sentences; seed 002's summaries (16 at turn 50, which CONTEXT_BUDGET_CHARS
keeps to about 5,000 characters) must fit whole, so memory's default is 5,000."""


def estimate_tokens(text: str) -> int:
    """Tokens of `text` by the rule above: ceil(ASCII characters / 4) + other characters."""
    ascii_chars = sum(1 for c in text if ord(c) < 128)
    return -(-ascii_chars // 4) + (len(text) - ascii_chars)


@dataclass(frozen=True)
class Budgets:
    """A token budget per section; 0 means no limit."""

    limits: Mapping[str, int] = field(default_factory=lambda: dict(DEFAULT_BUDGETS))

    @classmethod
    def parse(cls, text: str) -> Budgets:
        """`memory=5000,documents=1500`: the sections named, the others at their defaults.

        ValueError names an unknown section or a bad number.
        """
        limits = dict(DEFAULT_BUDGETS)
        for part in filter(None, (p.strip() for p in text.split(","))):
            name, _, value = part.partition("=")
            name = name.strip().lower()
            if name not in SECTIONS:
                raise ValueError(
                    f"CONTEXT_TOKEN_BUDGETS: unknown section {name!r}; use {', '.join(SECTIONS)}"
                )
            try:
                limits[name] = max(0, int(value))
            except ValueError:
                raise ValueError(
                    f"CONTEXT_TOKEN_BUDGETS: {name} needs a whole number of tokens, got {value!r}"
                ) from None
        return cls(limits)

    def budget(self, section: str) -> int:
        """The section's budget (0: no limit)."""
        return int(self.limits.get(section, 0))

    def fit(self, section: str, ranked: Sequence[str], reserved: str = "") -> int:
        """How many of `ranked` (best first) fit the section's budget; at least one.

        `reserved` is what the section always carries besides them (its header, say).
        """
        limit = self.budget(section)
        if not limit:
            return len(ranked)
        total = estimate_tokens(reserved)
        for kept, item in enumerate(ranked):
            total += estimate_tokens(item)
            if total > limit and kept > 0:
                return kept
        return len(ranked)


def report(section: str, text: str, budgets: Budgets, dropped: int = 0) -> dict[str, Any]:
    """One section as the next-context view shows it: its tokens against its budget."""
    return {
        "tokens": estimate_tokens(text),
        "budget": budgets.budget(section),
        "dropped": dropped,
    }
