"""Copying a thread's archive into a fork of it (a face module: the session calls it).

`graph.session.history.fork_thread` decides what the fork keeps (from the checkpoint it
starts at); this copies those rows, in one transaction, and indexes the copied turns.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from graph.storage import blocks, summaries
from graph.storage.archive import Archive
from graph.storage.db import lock_thread
from graph.storage.recall_index import index_packed_turns


def copy_for_fork(
    archive: Archive,
    source: str,
    target: str,
    values: Mapping[str, Any],
    *,
    archived: int,
    covered: int,
    turn: int,
    stats_to: int,
    pinned_before: float,
) -> None:
    """Copy `source`'s archive rows up to a checkpoint into `target`, and index its turns.

    Archived turns up to `archived`; per-turn statistics up to `stats_to`; summaries, their
    costs and fact records up to `covered`; summaries and digests made before `turn`, then
    those of the checkpoint's state (`values`); pins made before `pinned_before`.
    """
    with archive.lock, archive.conn:
        conn = archive.conn
        # a writer packing the source's turns meanwhile waits (PostgreSQL reads each
        # statement's own snapshot: the copy would see rows gone and no block yet)
        lock_thread(conn, source)
        conn.execute(
            "INSERT INTO archive_turns (thread_id, turn, messages, stats) "
            "SELECT ?, turn, CASE WHEN turn <= ? THEN messages END, "
            "CASE WHEN turn <= ? THEN stats END FROM archive_turns "
            "WHERE thread_id = ? AND (turn <= ? AND messages IS NOT NULL OR turn <= ?)",
            (target, archived, stats_to, source, archived, stats_to),
        )
        blocks.copy_blocks(conn, source, target, upto=archived, covered=covered, stats_to=stats_to)
        conn.execute(
            "INSERT INTO summary_costs (thread_id, first_turn, meta) "
            "SELECT ?, first_turn, meta FROM summary_costs WHERE thread_id = ? AND first_turn <= ?",
            (target, source, covered),
        )
        conn.execute(
            "INSERT INTO memory_facts (thread_id, first_turn, last_turn, record) "
            "SELECT ?, first_turn, last_turn, record FROM memory_facts "
            "WHERE thread_id = ? AND last_turn <= ?",
            (target, source, covered),
        )
        summaries.copy(archive, source, target, covered=covered, before_turn=turn)
        # and the state's own (a digest made at the fork's turn is in its state alone):
        # the fork's summaries store only what they make
        times = values.get("summary_times")
        for kind, items in (
            (summaries.SUMMARY, values.get("summary_history", [])),
            (summaries.DIGEST, values.get("summary_digests", [])),
        ):
            summaries.store_in(conn, target, kind, items, turn, times)
        conn.execute(
            "INSERT INTO pinned_facts (thread_id, fact, pinned_at, record) "
            "SELECT ?, fact, pinned_at, record FROM pinned_facts "
            "WHERE thread_id = ? AND pinned_at <= ?",
            (target, source, pinned_before),
        )
        index_packed_turns(conn, list(blocks.archived_rows(conn, target)))
