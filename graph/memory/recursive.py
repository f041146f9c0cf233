"""Recursive memory (seed 003): M_i = LLM(M_{i-1}, S_i), rewritten, never appended.

Seed 003 as written: the short-term memory is the last 5 turns, raw; "단기 > 5턴 → Memory
Update": once more than 5 turns wait outside the memory, the oldest 5 of them are folded
into it in one model call that returns the new memory and the entities (`MemoryUpdate`);
the update runs after the answer, off its path (`graph.nodes.memory`).

The arithmetic (KEEP_RAW_TURNS = UPDATE_EVERY = 5). After turn t's answer has been
streamed, let c be the last turn the memory holds (0 before the first update) and
u = t - c the turns waiting outside it. When u > 5, turns c+1..c+5 are folded in (one
call) and c grows by 5. So the updates come after turns 6, 11, 16, 21, ... (t = 5k + 1):
turns 1-5 after turn 6, 6-10 after turn 11, 11-15 after turn 16; (t - 1) // 5 updates in
t turns, 3 in 20. Between updates u runs 1, 2, 3, 4, 5, so it is never above 5 when the
model is asked.

The context of turn t + 1 (t turns done) is: the memory (turns 1..c) and its entities, the
raw turns max(1, t-4)..t (the last 5: the seed's short-term memory, always 5 once there
are 5) and turn t + 1 itself. As u <= 5, every turn is in the memory or among the raw
ones; the newest 5 - u turns of the memory are also raw (turns the memory holds while
they are still in the short-term window). Over 20 turns:

    turn asked   memory holds   raw turns   update after its answer
    1            -              -           -
    2 .. 6       -              1 .. t-1    turn 6: turns 1-5
    7            1-5            2-6         -
    11           1-5            6-10        turn 11: turns 6-10
    12           1-10           7-11        -
    16           1-10           11-15       turn 16: turns 11-15
    17           1-15           12-16       -
    20           1-15           15-19       -  (u = 5 after turn 20; the next after 21)

A turn leaves the state for the archive once it is in the memory and out of the window
(t - 5 and older; recall can bring it back). Should an update not happen (the process
stopped before it, a failure), the waiting turns all stay raw (more than 5 for a while)
and the next update, after the next answer, folds the oldest 5.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langchain_core.messages import BaseMessage

from graph.budgets import RECURSIVE_BUDGETS, estimate_tokens
from graph.context import Extras, covered_turns, system_prompt
from graph.memory.bounded import active_items
from graph.memory.entities import format_entities, update_entities
from graph.memory.run import SummaryRun
from graph.summarizer import MemoryResult, cut_words, sentences
from graph.turns import split_turns

KEEP_RAW_TURNS = 5
"""Raw turns kept in the context: seed 003's short-term memory ("최근 5턴 원본")."""
UPDATE_EVERY = 5
"""Turns folded into the memory at once, when more than KEEP_RAW_TURNS wait."""
MAX_SENTENCES = 20
"""The memory is bounded to this many sentences (seed 003: "≤20문장")."""
MEMORY_TOKENS = RECURSIVE_BUDGETS["memory"]
"""...and to this many tokens (seed 003: "~500토큰"), by `graph.budgets.estimate_tokens`."""
TARGET_SHARE = 0.9
"""The length asked of the model: this share of MEMORY_TOKENS, in the conversation's
characters per token (a bit of room, since the answer is cut past MEMORY_TOKENS)."""


def waiting(state: Mapping[str, Any]) -> tuple[int, int]:
    """(c, u): the last turn the memory holds and the completed turns after it.

    Read off the state: the summaries' turns, the archived turns and the live messages.
    """
    completed, _ = split_turns(state.get("messages", []))
    covered = covered_turns(state.get("summary_history", []))
    done = int(state.get("archived_turns", 0)) + len(completed)
    return covered, max(0, done - covered)


def fold_due(state: Mapping[str, Any]) -> tuple[int, int] | None:
    """(first turn, count) to fold into the memory now, or None: more than 5 wait."""
    covered, unfolded = waiting(state)
    return (covered + 1, UPDATE_EVERY) if unfolded > KEEP_RAW_TURNS else None


def fold_after_next(state: Mapping[str, Any]) -> list[int]:
    """The turns the update after the next answer folds in ([] for none).

    For the next-context view: `state` is the thread as it is now (its last turn done).
    """
    covered, unfolded = waiting(state)
    if unfolded + 1 > KEEP_RAW_TURNS:
        return list(range(covered + 1, covered + UPDATE_EVERY + 1))
    return []


def due_block(unfolded: int) -> bool:
    """True when more than KEEP_RAW_TURNS completed turns wait outside the memory."""
    return unfolded > KEEP_RAW_TURNS


def raw_turns(state: Mapping[str, Any]) -> list[list[BaseMessage]]:
    """The completed turns the context shows raw: the last 5, and every one still waiting.

    Waiting turns are more than 5 only when an update did not happen; none is left out.
    """
    completed, _ = split_turns(state.get("messages", []))
    _, unfolded = waiting(state)
    shown = max(KEEP_RAW_TURNS, unfolded)
    return completed[-shown:] if completed else []


def bound_memory(memory: str, tokens: int = MEMORY_TOKENS) -> str:
    """Keep the newest MAX_SENTENCES sentences within `tokens`: recent conversation first.

    The oldest sentences leave first; a single sentence longer than the budget is cut
    at a word.
    """
    parts = sentences(memory)[-MAX_SENTENCES:]
    while len(parts) > 1 and estimate_tokens(" ".join(parts)) > tokens:
        parts = parts[1:]
    text = " ".join(parts)
    while text and estimate_tokens(text) > tokens:
        text = cut_words(text, max(1, len(text) * tokens // estimate_tokens(text)) - 1)
    return text


def memory_target(block: list[list[BaseMessage]], memory: str) -> int:
    """Characters to ask of the model: TARGET_SHARE of MEMORY_TOKENS in this text's ratio."""
    sample = memory + "".join(str(m.content) for turn in block for m in turn)
    ratio = len(sample) / max(1, estimate_tokens(sample))
    return max(50, int(MEMORY_TOKENS * TARGET_SHARE * ratio))


class Recursive:
    """Seed 003: the last 5 turns raw; the oldest 5 of more waiting fold into the memory."""

    name = "recursive"

    def due(self, run: SummaryRun) -> tuple[int, int] | None:
        """Nothing is summarized before the answer: the update runs after it (`fold`)."""
        return None

    def update(self, run: SummaryRun, due: tuple[int, int] | None) -> None:
        """Before the answer: only a thread switched to this strategy starts its memory.

        From its earlier summaries, joined and bounded (no model call).
        """
        if run.history and not run.state.get("memory"):
            texts = [i["summary"] for i in active_items(run.history, run.digests)]
            run.update["memory"] = bound_memory(" ".join(texts))

    def fold(self, run: SummaryRun) -> MemoryResult | None:
        """After the answer: the update when it is due, then the archive move.

        M_i = LLM(M_{i-1}, turns c+1..c+5) and their entities in one call; the memory is
        bounded (20 sentences, MEMORY_TOKENS), the entities merged by seed 003's rule.
        Turns the memory holds that left the raw window then move to the archive.
        """
        result = None
        due = fold_due(run.state)
        block = run.turns(*due) if due else None
        if due is not None and block is not None:
            self.update(run, None)  # a switched thread's memory, before it is rewritten
            memory = str(run.update.get("memory", run.state.get("memory", "")))
            target = memory_target(block, memory)
            result = run.update_memory(due[0], block, target)
            if result is not None:
                text = bound_memory(result.memory)
                run.record(
                    due[0],
                    block,
                    text,
                    {
                        "target_chars": target,
                        "model_calls": result.requests,
                        "elapsed_ms": result.elapsed_ms,
                        "input_tokens": result.input_tokens,
                        "output_tokens": result.output_tokens,
                        "summarizer": run.summarizer.name if run.summarizer else "",
                        "fallback": result.fallback,
                        "tokens_estimated": result.tokens_estimated,
                        "how": result.how,
                    },
                )
                entities = update_entities(list(run.state.get("entities", [])), result.entities)
                run.update["memory"] = text
                run.update["entities"] = entities
        done = run.archived + len(run.completed)
        run.archive_through(done - KEEP_RAW_TURNS)
        return result

    def context(self, state: Mapping[str, Any], extras: Extras) -> list[BaseMessage]:
        """The memory (`[장기 기억]`), the entities (`[주요 정보]`), 5 raw turns, the current."""
        system = system_prompt(
            [],
            extras,
            memory=state.get("memory", ""),
            entities=format_entities(state.get("entities", [])),
        )
        _, current = split_turns(state["messages"])
        return [system, *(m for turn in raw_turns(state) for m in turn), *current]
