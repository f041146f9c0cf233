"""Parallel answer candidates (seed 001): a graph fan-out, a fan-in with a quorum, the best kept.

With `ANSWER_CANDIDATES` at 2 or 3 the graph fans out at each answer step: `llm_node`
builds the context once and sends it (LangGraph's `Send`) to that many `candidate_node`
tasks, which run in one superstep, in parallel, each asking the model once without
streaming; `quorum_node` is the fan-in, run once all of them have returned (the
superstep is its barrier). The quorum is one success: when every candidate failed, the
step answers with the fallback, with the first failure's error code. A candidate that
calls tools is taken alone: a tool step runs one candidate's calls, never a mix.
Otherwise the chosen answer is the one with the highest `score`, the earlier one on a
tie, and it is then streamed in pieces. Every candidate with its score is kept in the
state (`candidates`) and shown in the panel.

The rule is transparent on purpose (no second model call to judge):

    score = 0.6 * coverage + 0.4 * grounding - 0.2 * (answer shorter than 20 characters)

- coverage: the share of the question's search terms (Kiwi morphemes, English stems) the
  answer contains: an answer that talks about what was asked;
- grounding: the share of the answer's numbers that appear in the context the model saw
  (1.0 when it has none): an answer that does not make up figures.

Each candidate scores its own answer (it holds the context it was sent), so the fan-in
compares numbers and never needs the context again.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import AIMessage

from graph.retrieval.tokenize import tokens
from graph.turns import content_text

PREVIEW_CHARS = 300
"""Characters of each candidate kept in the state for the panel."""
STREAM_PIECE_CHARS = 24
"""Size of the pieces the chosen answer is streamed in."""

_NUMBER = re.compile(r"\d[\d,.]*")


@dataclass
class Candidate:
    """One answer asked of the model, or why it failed."""

    index: int
    reply: AIMessage | None = None
    error: str | None = None
    """The failure as `Type: message` (None for a reply)."""
    code: str | None = None
    """The failure's ErrorCode value (None for a reply)."""
    score: float = 0.0

    @classmethod
    def from_state(cls, entry: dict[str, Any]) -> Candidate:
        """A `candidate_replies` entry of the state (what a candidate_node returned)."""
        return cls(
            index=int(entry["index"]),
            reply=entry.get("reply"),
            error=entry.get("error"),
            code=entry.get("code"),
            score=float(entry.get("score") or 0.0),
        )


def score(answer: str, question: str, context: str) -> float:
    """The choice rule of the module docstring, from 0 to 1."""
    asked = set(tokens(question))
    said = set(tokens(answer))
    coverage = len(asked & said) / len(asked) if asked else 0.0
    numbers = [n.rstrip(".,") for n in _NUMBER.findall(answer)]
    grounding = sum(1 for n in numbers if n in context) / len(numbers) if numbers else 1.0
    short = 1.0 if len(answer.strip()) < 20 else 0.0
    return round(0.6 * coverage + 0.4 * grounding - 0.2 * short, 4)


def fan_in(found: Sequence[Candidate]) -> Candidate | None:
    """The chosen candidate (None when every one failed: the quorum is one success)."""
    good = [c for c in found if c.reply is not None]
    if not good:
        return None
    with_tools = [c for c in good if c.reply is not None and c.reply.tool_calls]
    if with_tools:
        return with_tools[0]
    return max(good, key=lambda c: (c.score, -c.index))


def records(found: Sequence[Candidate], chosen: Candidate | None) -> list[dict[str, Any]]:
    """The state's `candidates`: index, score, chosen, characters, preview, error."""
    out: list[dict[str, Any]] = []
    for c in found:
        text = content_text(c.reply) if c.reply is not None else ""
        item: dict[str, Any] = {
            "index": c.index,
            "score": c.score,
            "chosen": chosen is not None and c.index == chosen.index,
            "chars": len(text),
            "preview": text[:PREVIEW_CHARS],
            "tool_calls": [t["name"] for t in c.reply.tool_calls] if c.reply else [],
        }
        if c.error is not None:
            item["error"] = c.error[:300]
        out.append(item)
    return out


def pieces(text: str) -> list[str]:
    """The chosen answer in stream-sized pieces, cut after spaces where possible."""
    out: list[str] = []
    start = 0
    while start < len(text):
        end = min(len(text), start + STREAM_PIECE_CHARS)
        space = text.rfind(" ", start, end)
        if end < len(text) and space > start:
            end = space + 1
        out.append(text[start:end])
        start = end
    return out
