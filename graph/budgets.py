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
    "recent": 0,
    "documents": 1500,
    "question": 100,
}
"""Seed 003's table, with seed 002 (binding) first where they differ:

- memory: seed 003's ~500 tokens are its recursive memory of 20 sentences; seed 002's
  summaries (16 at turn 50) must fit whole. Its default is 5,000, and for a thread whose
  summary budget (CONTEXT_BUDGET_CHARS, per thread) is larger, that budget: the digests
  bound the summaries, and this budget never drops what they keep (see `for_thread`).
- recent: no limit by default (0): seed 002's context holds every raw turn no summary
  covers yet; `recent=1500` gives seed 003's five turns of 300 tokens."""

RECURSIVE_BUDGETS: dict[str, int] = {
    "system": 1500,
    "memory": 500,
    "entities": 200,
    "recent": 1500,
    "documents": 1500,
    "question": 100,
}
"""Seed 003 §5.2's table as written: the recursive strategy's budgets (seed 003's own design).

- memory: the rewritten memory M_i, ~20 sentences; it is held to this many tokens when it
  is written (`graph.memory.recursive.bound_memory`), so nothing of it is cut later. The
  turns recall adds (this app's addition; seed 003's memory is used whole, with no
  search) come in the same section and on top: at most RECALL_BUDGET_CHARS.
- entities: the list keeps 25; past 200 tokens the oldest leave the context first.
- recent: the 5 raw turns, 5 x 300 tokens at the seed's turn size; a longer turn makes the
  oldest raw turns leave the context first (the newest always stays).

A section set in CONTEXT_TOKEN_BUDGETS is taken as set for every strategy (see
`Budgets.for_recursive`)."""
SEED_003_TOTAL = 5300
"""Seed 003's "총 ~5,300 토큰": the sum of RECURSIVE_BUDGETS."""


def estimate_tokens(text: str) -> int:
    """Tokens of `text` by the rule above: ceil(ASCII characters / 4) + other characters."""
    ascii_chars = len(text.encode("ascii", "ignore"))  # at C speed: contexts are long
    return -(-ascii_chars // 4) + (len(text) - ascii_chars)


@dataclass(frozen=True)
class Budgets:
    """A token budget per section; 0 means no limit."""

    limits: Mapping[str, int] = field(default_factory=lambda: dict(DEFAULT_BUDGETS))
    given: frozenset[str] = frozenset()
    """The sections CONTEXT_TOKEN_BUDGETS named (the rest hold the defaults)."""

    @classmethod
    def parse(cls, text: str) -> Budgets:
        """`memory=5000,documents=1500`: the sections named, the others at their defaults.

        ValueError names an unknown section or a bad number.
        """
        limits = dict(DEFAULT_BUDGETS)
        given: set[str] = set()
        for part in filter(None, (p.strip() for p in text.split(","))):
            name, _, value = part.partition("=")
            name = name.strip().lower()
            if name not in SECTIONS:
                raise ValueError(
                    f"CONTEXT_TOKEN_BUDGETS: unknown section {name!r}; use {', '.join(SECTIONS)}"
                )
            try:
                limits[name] = int(value)
            except ValueError:
                limits[name] = -1
            if limits[name] < 0:
                raise ValueError(
                    f"CONTEXT_TOKEN_BUDGETS: {name} needs a whole number of tokens (0: no "
                    f"limit), got {value.strip()!r}"
                )
            given.add(name)
        return cls(limits, frozenset(given))

    def for_thread(self, summary_chars: int, recalled: str = "") -> Budgets:
        """These budgets for a thread whose summaries may take `summary_chars` characters.

        Memory then holds at least those summaries with their turn labels (a quarter more;
        a character is at most one token by the rule above) and the `recalled` turns, so it
        never drops what the thread's own summary budget keeps.
        """
        memory = self.budget("memory")
        floor = summary_chars + summary_chars // 4 + estimate_tokens(recalled)
        if not memory or memory >= floor:
            return self
        return Budgets({**self.limits, "memory": floor}, self.given)

    def for_recursive(self) -> Budgets:
        """These budgets for a thread of the recursive strategy: seed 003's table.

        Sections CONTEXT_TOKEN_BUDGETS named keep the value it gave them; the others take
        RECURSIVE_BUDGETS instead of the defaults (which are seed 002's, see above).
        """
        limits = {**RECURSIVE_BUDGETS, **{k: v for k, v in self.limits.items() if k in self.given}}
        return Budgets(limits, self.given)

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
