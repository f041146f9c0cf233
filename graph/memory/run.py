"""One summary_node run: the thread's working set, and the summaries made during the run.

A memory strategy decides *when* and *what* to summarize; this object does the summarizing
(seed 002's entry schema, archive move, cost record) and collects the state update, so
every strategy writes its summaries the same way.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.messages import BaseMessage, RemoveMessage
from langgraph.errors import GraphBubbleUp

from graph.context import covered_turns
from graph.errors import ErrorCode, error_record
from graph.memory.bounded import active_items
from graph.memory.facts import check_facts, record_facts_of, turn_facts
from graph.memory.names import strategy_name
from graph.storage import summaries
from graph.storage.archive import Archive, archive_turns, record_summary_meta
from graph.storage.facts import facts_in_range, record_facts
from graph.summarizer import MemoryResult, Summarizer
from graph.times import turn_time
from graph.turns import original_chars, split_turns, without_apologies
from graph.untrusted import UNTRUSTED_KEY, mark_looked_up

log = logging.getLogger(__name__)


WINDOW_KEPT = 3
"""Summaries the state keeps for strategies that hold no digests (their own memory is the
window or the rewritten memory); the newest is always kept, so the covered turns are known."""


def working_set(
    history: Sequence[Mapping[str, Any]],
    digests: Sequence[Mapping[str, Any]],
    times: Mapping[str, Sequence[str]],
    strategy: str,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, list[str]]]:
    """What the state keeps of the summaries: bounded however long the thread runs.

    The summaries no top-level digest covers (three_turn's context shows exactly these and
    the top-level digests) or, for the other strategies, the last WINDOW_KEPT; always the
    newest summary; the top-level digests; the times of the summaries kept.
    """
    active = active_items(history, digests)
    loose = [dict(i) for i in active if "replaces" not in i]
    tops = [dict(i) for i in active if "replaces" in i]
    if strategy != "three_turn":
        loose = loose[-WINDOW_KEPT:]
    if history and (not loose or loose[-1]["turns"] != history[-1]["turns"]):
        loose.append(dict(history[-1]))
    kept = {str(e["turns"][0]) for e in loose}
    return loose, tops, {k: list(v) for k, v in times.items() if k in kept}


class SummaryRun:
    """Collects state changes while blocks of turns are summarized at one turn."""

    def __init__(
        self,
        state: Mapping[str, Any],
        summarizer: Summarizer | None = None,
        archive: Archive | None = None,
        budget: int = 0,
    ) -> None:
        self.state, self.summarizer, self.archive = state, summarizer, archive
        self.budget = int(state.get("context_budget") or budget)
        """Characters of summaries the context may hold before digests (three_turn)."""
        self.turn = int(state["turn_count"])
        self.thread_id = str(state.get("session_id", ""))
        self.rate = float(state.get("compression_rate", 0.3))
        self.history = list(state.get("summary_history", []))
        self.times = dict(state.get("summary_times", {}))
        self.archived = int(state.get("archived_turns", 0))
        self.live_from = self.archived + 1
        """The turn number of `completed[0]` (turns move to the archive during the run)."""
        self.completed, _ = split_turns(state["messages"])
        self.covered = covered_turns(self.history)
        self.removals: list[BaseMessage] = []
        self.errors: list[dict[str, Any]] = []
        self.calls = 0
        self.invocations = 0
        self.update: dict[str, Any] = {}
        self.strategy = strategy_name(state.get("strategy"))
        built_for = state.get("working_set_for")
        self.rebuilt = bool(archive is not None and built_for and built_for != self.strategy)
        if self.rebuilt and archive is not None:
            # the working set was kept for another strategy (the last three summaries of
            # a window, say): this one starts from the whole history
            self.history, digests, self.times = summaries.load(archive, self.thread_id, state)
            self.update["summary_digests"] = digests
        self.stored = (len(self.history), len(self.digests)) if built_for else (0, 0)
        """Summaries and digests of this run's lists already in the archive: those of a
        working set (each was stored as it was made); none for a thread whose state still
        holds all of its own (an earlier version's), or after a switch, which stores all."""
        if self.rebuilt:
            self.stored = (0, 0)

    @property
    def digests(self) -> list[Mapping[str, Any]]:
        """The digests as of this run (all of them right after a strategy switch)."""
        return list(self.update.get("summary_digests", self.state.get("summary_digests", [])))

    def error(self, code: ErrorCode, exc: BaseException | str) -> None:
        """Record a problem of this run in the state's `errors`."""
        self.errors.append(error_record(self.turn, "summary_node", code, exc))

    def turns(self, first: int, count: int) -> list[list[BaseMessage]] | None:
        """Completed turns `first..first+count-1` still in the working set, or None."""
        if first <= self.archived:
            return None  # moved to the archive during this run
        offset = first - self.live_from
        block = self.completed[offset : offset + count] if offset >= 0 else []
        return block if len(block) == count else None

    def looked_up(self, first: int, block: list[list[BaseMessage]]) -> list[list[BaseMessage]]:
        """`block` with each answer that passed on looked-up text marked (`graph.untrusted`).

        A document's, a file's or the web's: a summary keeps the user's own words first.
        """
        return mark_looked_up(block, first, self.state.get(UNTRUSTED_KEY) or [])

    def summarize(self, first: int, block: list[list[BaseMessage]]) -> str | None:
        """Summarize whole turns into `summary_history`, archive them; None on failure."""
        last = first + len(block) - 1
        messages = [m for t in self.looked_up(first, block) for m in t]
        # what was said: an apology that closed a failed turn is the app's, not summarized
        spoken = without_apologies(messages)
        chars = original_chars(spoken)
        target = int(chars * self.rate)
        try:
            if self.summarizer is None:
                raise RuntimeError("no summarizer")
            result = self.summarizer.summarize(spoken, target, turn_label=f"{first}-{last}턴")
        except GraphBubbleUp:
            raise
        except Exception as exc:  # noqa: BLE001 - any failure is retried next turn
            log.warning("summary of turns %s-%s failed: %s", first, last, exc)
            self.error(ErrorCode.SUMMARY_FAILED, exc)
            return None
        self.calls += result.attempts
        self.invocations += 1
        self.record(
            first,
            block,
            result.text,
            {
                "target_chars": target,
                "model_calls": result.attempts,
                "elapsed_ms": result.elapsed_ms,
                "input_tokens": result.input_tokens,
                "output_tokens": result.output_tokens,
                "summarizer": self.summarizer.name,
                "fallback": result.fallback,
                "tokens_estimated": result.tokens_estimated,
            },
        )
        self.move_to_archive(first, block)
        return result.text

    def update_memory(
        self, first: int, block: list[list[BaseMessage]], target: int
    ) -> MemoryResult | None:
        """Seed 003's update of the memory with turns `first, ...`: one `update_memory` call.

        Returns the `MemoryResult`, or None on failure (an error is recorded; the turns wait
        for the next update). The caller records it (`record`) once it is bounded.
        """
        last = first + len(block) - 1
        spoken = [without_apologies(turn) for turn in self.looked_up(first, block)]
        memory = str(self.update.get("memory", self.state.get("memory", "")))
        try:
            if self.summarizer is None:
                raise RuntimeError("no summarizer")
            result = self.summarizer.update_memory(memory, spoken, first, target, rate=self.rate)
        except GraphBubbleUp:
            raise
        except Exception as exc:  # noqa: BLE001 - the turns wait for the next update
            log.warning("memory update with turns %s-%s failed: %s", first, last, exc)
            self.error(ErrorCode.SUMMARY_FAILED, exc)
            return None
        self.calls += result.requests
        self.invocations += 1
        return result

    def record(
        self, first: int, block: list[list[BaseMessage]], text: str, meta: dict[str, Any]
    ) -> None:
        """Add the summary `text` of turns `first, ...` to `summary_history` and keep it.

        With an archive: its cost record (`meta` and the turns, the turn it was made at),
        the facts of the turns it kept, and the entry itself. The turns stay where they
        are (`move_to_archive` moves them).
        """
        last = first + len(block) - 1
        chars = original_chars(without_apologies([m for t in block for m in t]))
        entry = {
            "thread_id": self.thread_id,
            "turns": list(range(first, last + 1)),
            "turn_length": len(block),
            "original_chars": chars,
            "summary_chars": len(text),
            "compression_rate": self.rate,
            "summary": text,
        }
        self.history.append(entry)
        sent = [turn_time(turn) for turn in block]
        if any(sent):
            self.times[str(first)] = [
                next(t for t in sent if t),
                next(t for t in reversed(sent) if t),
            ]
        if self.archive is not None:
            record_summary_meta(
                self.archive,
                self.thread_id,
                {"turns": [first, last], **meta, "made_at_turn": self.turn},
            )
            record_facts(
                self.archive,
                self.thread_id,
                first,
                last,
                check_facts(turn_facts(first, block), text),
            )
            # the entry before its turns: a block its last turn completes is packed with
            # it once, not packed and then written again (`result` stores it as is)
            summaries.store(
                self.archive, self.thread_id, summaries.SUMMARY, [entry], self.turn, self.times
            )
        self.covered = last

    def move_to_archive(self, first: int, block: list[list[BaseMessage]]) -> None:
        """Move turns `first, ...` (the next after the archived ones) out of the state."""
        if self.archive is None or not block:
            return
        archive_turns(self.archive, self.thread_id, first, block)
        self.removals.extend(RemoveMessage(id=m.id) for t in block for m in t if m.id)
        self.archived = first + len(block) - 1

    def archive_through(self, last: int) -> None:
        """Move the live completed turns up to `last` to the archive (those summarized).

        Never past the turns the summaries cover, so the archive stays a prefix of them.
        """
        last = min(last, self.covered)
        if self.archive is None or last <= self.archived:
            return
        first = self.archived + 1
        block = self.turns(first, last - first + 1)
        if block is not None:
            self.move_to_archive(first, block)

    def merge(self, texts: list[str], label: str, target: int) -> str | None:
        """Merge summaries into a digest; None on failure."""
        try:
            if self.summarizer is None:
                raise RuntimeError("no summarizer")
            result = self.summarizer.merge(texts, target, turn_label=label)
        except GraphBubbleUp:
            raise
        except Exception as exc:  # noqa: BLE001 - the older items simply stay
            self.error(ErrorCode.SUMMARY_FAILED, exc)
            return None
        self.calls += result.attempts
        self.invocations += 1
        return result.text

    def check_digest(self, digest: Mapping[str, Any]) -> None:
        """Record which facts of a digest's source turns the digest dropped."""
        if self.archive is None:
            return
        first, last = int(digest["turns"][0]), int(digest["turns"][-1])
        facts = [
            fact
            for record in facts_in_range(self.archive, self.thread_id, first, last)
            for fact in record_facts_of(record)
        ]
        checked = check_facts(facts, str(digest["summary"]))
        dropped = set(checked["dropped"])
        # the facts themselves are in the summaries' records; a digest keeps few of them
        record = {
            "digest": True,
            "kept_idx": [i for i in range(len(facts)) if i not in dropped],
            "kept": checked["kept"],
            "total": checked["total"],
        }
        record_facts(self.archive, self.thread_id, first, last, record)

    def result(self) -> dict[str, Any]:
        """The state update of this run.

        With an archive, what was made is stored there (`graph.storage.summaries`) and the
        state keeps the working set only (see `working_set`).
        """
        update = dict(self.update)
        if "summary_history" not in self.state:
            update["summary_history"] = self.history
        made = (
            self.rebuilt
            or len(self.history) != len(self.state.get("summary_history", []))
            or "summary_digests" in update
        )
        if made and self.archive is not None:
            digests = self.digests
            # only what this run made: the rest was stored when it was made
            made_history, made_digests = self.history[self.stored[0] :], digests[self.stored[1] :]
            summaries.store(
                self.archive, self.thread_id, summaries.SUMMARY, made_history, self.turn, self.times
            )
            summaries.store(self.archive, self.thread_id, summaries.DIGEST, made_digests, self.turn)
            history, tops, times = working_set(self.history, digests, self.times, self.strategy)
            update["summary_history"], update["summary_times"] = history, times
            update["working_set_for"] = self.strategy
            if digests or "summary_digests" in self.state:
                update["summary_digests"] = tops
        elif made:
            update["summary_history"] = self.history
        if len(self.times) != len(self.state.get("summary_times", {})) and (
            "summary_times" not in update
        ):
            update["summary_times"] = self.times
        if self.invocations:
            update["summary_calls"] = int(self.state.get("summary_calls", 0)) + self.invocations
        if self.calls:
            update["summary_model_calls"] = (
                int(self.state.get("summary_model_calls", 0)) + self.calls
            )
        if self.removals:
            update["messages"] = self.removals
            update["archived_turns"] = self.archived
        if self.errors:
            update["errors"] = [*self.state.get("errors", []), *self.errors]
        return update
