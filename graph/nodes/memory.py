"""memory_node: seed 003's memory update, after the answer, off its path.

START -> ... -> llm_node -> memory_node -> END, for threads of the recursive strategy only
(the others end at llm_node as before). The answer's last token has been streamed when
the node starts (a node starts once the one before it has returned), so the user reads
the answer while the memory is rewritten; the update is checkpointed with the turn like
any node's, so a new version of a turn, a fork or a crash never sees half of it. If the
process stops before it runs, nothing is lost: the turns wait, raw, and the update after
the next answer folds them (`graph.memory.recursive`).

The node: (1) folds the oldest 5 of more than 5 waiting turns into the memory, one model
call returning the memory and the entities; (2) moves the turns the memory holds that left
the 5-turn window to the archive; (3) with REDIS_URL, writes the thread's short-term
memory, memory and entities to its tenant's keys with a 24 h TTL
(`graph.memory.short_term`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from langgraph.graph import END

from graph.memory.names import strategy_name
from graph.memory.recursive import KEEP_RAW_TURNS, Recursive, fold_due, raw_turns, waiting
from graph.memory.run import SummaryRun
from graph.memory.short_term import DEFAULT_TENANT, ShortTerm, ShortTermStore, turn_record
from graph.nodes.base import Node
from graph.state import ChatState
from graph.storage.archive import Archive, get_thread
from graph.structured import collect_decisions, decision_records
from graph.summarizer import Summarizer

log = logging.getLogger(__name__)

MEMORY_NODE = "memory_node"


def memory_work(state: Mapping[str, Any], archive: bool, store: bool) -> bool:
    """Whether the node has anything to do after this answer (a recursive thread only)."""
    if strategy_name(state.get("strategy")) != "recursive":
        return False
    if store or fold_due(state) is not None:
        return True
    covered, unfolded = waiting(state)
    done = covered + unfolded
    return archive and min(covered, done - KEEP_RAW_TURNS) > int(state.get("archived_turns", 0))


def make_route_after_answer(
    route_after_llm: Callable[[ChatState], Any],
    archive: Archive | None,
    store: ShortTermStore | None,
) -> Callable[[ChatState], Any]:
    """`route_after_llm`, with an answer of a recursive thread going on to memory_node.

    The route may be a node's name or a list of them (llm_node's, which fans out).
    """

    def route_after_answer(state: ChatState) -> Any:
        nxt = route_after_llm(state)
        ends = nxt == END or nxt == [END]
        if ends and memory_work(state, archive is not None, store is not None):
            return [MEMORY_NODE] if isinstance(nxt, list) else MEMORY_NODE
        return nxt

    return route_after_answer


def tenant_of(archive: Archive | None, thread_id: str) -> str:
    """The thread's tenant: its owner (the service's user who made it), or `default`."""
    if archive is None:
        return DEFAULT_TENANT
    record = get_thread(archive, thread_id) or {}
    return str(record.get("owner") or DEFAULT_TENANT)


def make_memory_node(
    summarizer: Summarizer,
    archive: Archive | None = None,
    budget: int = 4000,
    store: ShortTermStore | None = None,
) -> Node:
    """memory_node: the recursive strategy's work after the answer (see the module)."""

    def memory_node(state: ChatState) -> dict[str, Any]:
        run = SummaryRun(state, summarizer, archive, budget)
        with collect_decisions() as made:  # the MemoryUpdate asked of the model
            Recursive().fold(run)
        update = run.result()
        if made:
            update["decisions"] = decision_records(made, run.turn)
        if store is not None:
            thread_id = str(state.get("session_id", ""))
            after = {**state, **{k: v for k, v in update.items() if k != "messages"}}
            short = ShortTerm(
                turn=run.turn,
                short=[turn_record(n, t) for n, t in _numbered(state)],
                memory=str(after.get("memory", "")),
                entities=list(after.get("entities", [])),
                covered=waiting(after)[0],
            )
            try:
                store.save(tenant_of(archive, thread_id), thread_id, short)
            except Exception as exc:  # noqa: BLE001 - a copy; the checkpoint is the record
                log.warning("short-term memory of %s not written: %s", thread_id, exc)
        return update

    return memory_node


def _numbered(state: Mapping[str, Any]) -> list[tuple[int, list[Any]]]:
    """The last KEEP_RAW_TURNS completed turns with their numbers (the short-term memory)."""
    shown = raw_turns(state)[-KEEP_RAW_TURNS:]
    covered, unfolded = waiting(state)
    last = covered + unfolded
    return [(last - len(shown) + 1 + i, turn) for i, turn in enumerate(shown)]
