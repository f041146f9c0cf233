"""The archive of summarized turns and the list of threads, beside the checkpoints.

A summarized turn leaves the graph state (the model sees its summary instead) and is kept
here, so the UI can still show and export the whole conversation: one row per turn, and
once a block of turns is archived to its end, one compressed row per block
(`graph.storage.blocks`).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.messages import BaseMessage

from graph.storage import blocks
from graph.storage.db import Connection, dialect, tables
from graph.storage.messages import pack_message, unpack_message
from graph.storage.packing import dump as _dump
from graph.storage.recall_index import delete_index, document_terms, index_turns, thread_key
from graph.storage.schema import upgrade

STATS_FIELDS = ("turn", "context_chars", "context_messages", "full_chars")
"""Per-turn context statistics, stored as a JSON array in this order (turn is the key)."""


class Archive:
    """Archived turns, per-turn context sizes, summary costs and the thread list.

    Purpose-built tables in the conversation's database (a SQLite file or PostgreSQL, see
    `graph.storage.db`): one compact row per turn (a general key-value store spent more on
    keys, timestamps and indexes than on the text). Shared by Streamlit sessions in
    several threads, so access is serialized by a lock.
    """

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.lock = threading.Lock()
        self.recent: OrderedDict[tuple[str, int], list[BaseMessage]] = OrderedDict()
        """Archived turns read lately, unpacked (`load_archived_turns(cached=True)`): a long
        thread's recall reads the same turns again and again, and an archived turn does
        not change (this process's rewrites and deletions drop them here)."""
        self.recent_generation = 0
        """Bumped by each such drop: a read that began before one keeps nothing."""
        self.recent_lines: OrderedDict[str, int | None] = OrderedDict()
        """Thread -> the recall index's key of the rows its cached turns were read from. A
        version switch in any process moves another line of rows (with its own key) under
        the thread's id (`move_rows`): a key that changed drops the thread's cached turns."""
        self.recent_blocks: OrderedDict[tuple[str, int], dict[int, Any]] = OrderedDict()
        """Packed blocks read lately for recall, (thread, first turn) -> turn -> packed
        messages: recall's candidates are spread over the thread, and a block is inflated
        and parsed whole to read one turn of it. Dropped with their turns as above."""
        with self.lock:
            self.upgraded_from = upgrade(conn)
            """Schema version the file had when opened (0: new, SCHEMA_VERSION: current)."""

    @classmethod
    def in_memory(cls) -> Archive:
        """An archive that lives only as long as the process (tests, replays)."""
        return cls(sqlite3.connect(":memory:", check_same_thread=False))

    def execute(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Run one statement in its own transaction and return its rows."""
        with self.lock, self.conn:
            return list(self.conn.execute(sql, params))

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()


def archive_turns(
    archive: Archive, thread_id: str, first_turn: int, turns: Sequence[Sequence[BaseMessage]]
) -> None:
    """Store completed turns `first_turn, ...` and index them for recall, in one transaction.

    Writing the same turns twice is harmless.
    """
    rows = [(first_turn + i, [pack_message(m) for m in turn]) for i, turn in enumerate(turns)]
    docs = [(first_turn + i, document_terms(turn)) for i, turn in enumerate(turns)]
    with archive.lock, archive.conn:
        _forget(archive, thread_id, [turn for turn, _ in rows])
        blocks.put_turns(archive.conn, thread_id, rows)
        index_turns(archive.conn, thread_id, docs)


RECENT_TURNS = 1024
"""Unpacked archived turns an archive keeps for recall (a few MB at most)."""
RECENT_BLOCKS = 64
"""Packed blocks (30 turns each, parsed, not unpacked) an archive keeps for recall."""


def load_archived_turns(
    archive: Archive, thread_id: str, turns: Sequence[int], cached: bool = False
) -> dict[int, list[BaseMessage]]:
    """The archived turns numbered `turns` (those that exist), by turn number.

    With `cached`, turns read lately come from `archive.recent` and those read are kept
    there: the caller must not change the messages (recall only reads them).
    """
    out: dict[int, list[BaseMessage]] = {}
    wanted = sorted(set(turns))
    generation = archive.recent_generation
    if cached:
        with archive.lock, archive.conn:
            _same_line(archive, thread_id)
            generation = archive.recent_generation
            for turn in wanted:
                hit = archive.recent.get((thread_id, turn))
                if hit is not None:
                    archive.recent.move_to_end((thread_id, turn))
                    out[turn] = hit
        wanted = [t for t in wanted if t not in out]
    if not wanted:
        return out
    with archive.lock, archive.conn:
        kept = archive.recent_blocks if cached else None
        found = blocks.read_turns(archive.conn, thread_id, wanted, kept)
        while len(archive.recent_blocks) > RECENT_BLOCKS:
            archive.recent_blocks.popitem(last=False)
    for turn, packed in found.items():
        out[turn] = [unpack_message(m) for m in packed]
        if cached:
            _keep(archive, thread_id, turn, out[turn], generation)
    return out


def _same_line(archive: Archive, thread_id: str) -> None:
    """Drop the thread's cached turns if its rows are another line's now; lock held.

    The turns of one number differ between versions of a turn (`graph.session.versions`),
    and another process may have switched them: the thread's recall key moves with its rows.
    """
    line = thread_key(archive.conn, thread_id)
    if thread_id not in archive.recent_lines or archive.recent_lines[thread_id] != line:
        _forget(archive, thread_id)
    archive.recent_lines[thread_id] = line
    archive.recent_lines.move_to_end(thread_id)
    while len(archive.recent_lines) > RECENT_TURNS:
        _forget(archive, archive.recent_lines.popitem(last=False)[0])


def _keep(
    archive: Archive, thread_id: str, turn: int, messages: list[BaseMessage], generation: int
) -> None:
    with archive.lock:
        if archive.recent_generation != generation:
            return  # rewritten or deleted since it was read: maybe older than what is there
        archive.recent[(thread_id, turn)] = messages
        while len(archive.recent) > RECENT_TURNS:
            archive.recent.popitem(last=False)


def _forget(archive: Archive, thread_id: str, turns: Sequence[int] | None = None) -> None:
    """Drop a thread's turns (all of them with None) from `archive.recent`; lock held."""
    archive.recent_generation += 1
    if turns is None:
        for key in [k for k in archive.recent if k[0] == thread_id]:
            del archive.recent[key]
        for key in [k for k in archive.recent_blocks if k[0] == thread_id]:
            del archive.recent_blocks[key]
    else:
        for turn in turns:
            archive.recent.pop((thread_id, turn), None)
            archive.recent_blocks.pop((thread_id, blocks.block_start(turn)), None)


def load_archived(
    archive: Archive, thread_id: str, first: int, last: int
) -> list[list[BaseMessage]]:
    """Archived turns `first..last` (inclusive), oldest first; missing turns are skipped."""
    with archive.lock, archive.conn:
        found = blocks.read_range(archive.conn, thread_id, first, last)
    return [[unpack_message(m) for m in packed] for _, packed in found]


def record_context_stats(archive: Archive, thread_id: str, stats: dict[str, Any]) -> None:
    """Keep one turn's context size (what the model got vs. the transcript without summaries)."""
    row = [stats[k] for k in STATS_FIELDS[1:]]
    archive.execute(
        "INSERT INTO archive_turns (thread_id, turn, stats) VALUES (?, ?, ?) "
        "ON CONFLICT (thread_id, turn) DO UPDATE SET stats = excluded.stats",
        (thread_id, int(stats["turn"]), _dump(row)),
    )


def load_context_stats(archive: Archive, thread_id: str) -> list[dict[str, Any]]:
    """Context sizes of every turn, oldest first (in rows, and in packed blocks)."""
    with archive.lock, archive.conn:
        found = blocks.stats_of(archive.conn, thread_id)
        rows = archive.conn.execute(
            "SELECT turn, stats FROM archive_turns WHERE thread_id = ? AND stats IS NOT NULL",
            (thread_id,),
        ).fetchall()
    found.update((int(turn), json.loads(stats)) for turn, stats in rows)
    return [dict(zip(STATS_FIELDS, [turn, *found[turn]], strict=True)) for turn in sorted(found)]


def record_summary_meta(archive: Archive, thread_id: str, meta: dict[str, Any]) -> None:
    """Keep what a summary cost (calls, ms, tokens, target), keyed by its first turn."""
    with archive.lock, archive.conn:
        blocks.put_cost(archive.conn, thread_id, meta)


def load_summary_meta(archive: Archive, thread_id: str) -> list[dict[str, Any]]:
    """Costs of every summary, oldest first."""
    with archive.lock, archive.conn:
        return list(blocks.costs_of(archive.conn, thread_id))


LINE_TABLES = (
    "archive_turns",
    "archive_blocks",
    "summary_costs",
    "summary_items",
    "memory_facts",
    "pinned_facts",
    "tool_calls",
)
"""The archive's tables of a conversation's content, keyed by thread: deleted with the
thread and moved with a version (one list, so a new table is not left out of either)."""


def delete_archive(archive: Archive, thread_id: str) -> None:
    """Delete everything of a thread in one transaction: all of it or, on failure, nothing.

    Its checkpoints, their values and pending writes (in the same file), archived
    turns, statistics, summary costs, facts, pins, tool records, lease, recall index, and
    its entry in the thread list.
    """
    with archive.lock, archive.conn:
        _forget(archive, thread_id)
        for table in (
            *checkpoint_tables(archive.conn),
            *LINE_TABLES,
            "thread_leases",
            "chat_threads",
        ):
            archive.conn.execute(f"DELETE FROM {table} WHERE thread_id = ?", (thread_id,))
        delete_index(archive.conn, thread_id)


MOVED_TABLES = ("checkpoint_turns", *LINE_TABLES, "thread_keys")
"""Besides the checkpoint tables, every table whose rows are one line of a conversation:
what `move_rows` moves (the thread's record and writer lease stay with its id)."""


def move_rows(
    archive: Archive,
    moves: Sequence[tuple[str, str]],
    records: Mapping[str, Mapping[str, Any]] | None = None,
) -> None:
    """Move all of a thread's rows to another id, for each (from, to), in one transaction.

    Checkpoints with their values, writes and packs, archived turns and blocks, summaries,
    their costs, lost-facts records, pins, tool-call records and the recall index (its
    thread key, so the postings follow). Each `to` must hold no rows yet, at its turn in
    the sequence: `[(a, spare), (b, a)]` puts b's rows under a and a's under spare.

    `records` changes fields of thread records in the same transaction (thread id ->
    fields, as `update_thread`): the records that say where each line is never disagree
    with the rows, whenever the process dies (issue 43).
    """
    with archive.lock, archive.conn:
        for thread_id, fields in (records or {}).items():
            row = archive.conn.execute(
                "SELECT record FROM chat_threads WHERE thread_id = ?", (thread_id,)
            ).fetchone()
            if row is None:
                raise KeyError(thread_id)
            record = {**json.loads(row[0]), **fields, "updated_at": time.time()}
            archive.conn.execute(
                "UPDATE chat_threads SET record = ? WHERE thread_id = ?",
                (_dump(record), thread_id),
            )
        found = tables(archive.conn)
        moved = [t for t in (*checkpoint_tables(archive.conn), *MOVED_TABLES) if t in found]
        for source, target in moves:
            _forget(archive, source)
            _forget(archive, target)
            for table in moved:
                held = archive.conn.execute(
                    f"SELECT 1 FROM {table} WHERE thread_id = ? LIMIT 1", (target,)
                ).fetchone()
                if held is not None:
                    raise RuntimeError(f"{target!r} already has rows in {table}")
                archive.conn.execute(
                    f"UPDATE {table} SET thread_id = ? WHERE thread_id = ?", (target, source)
                )


def checkpoint_tables(conn: Connection) -> tuple[str, ...]:
    """The checkpoint saver's tables that hold a thread's rows, on this engine."""
    writes = "checkpoint_writes" if dialect(conn) == "postgres" else "writes"
    return ("checkpoints", writes, "checkpoint_blobs")


def register_thread(
    archive: Archive, thread_id: str, title: str = "", owner: str = "", **fields: Any
) -> dict[str, Any]:
    """Add a thread to the list (idempotent) and return its record.

    `owner` (the service's user who made it) and any other `fields` (`version_of` for a
    hidden version slot) are written with the record, in the same statement, so no other
    caller, and no restart, ever sees the new thread without them; an existing thread
    keeps the record it has.
    """
    record = get_thread(archive, thread_id)
    if record is not None:
        return record
    now = time.time()
    record = {"thread_id": thread_id, "title": title, "created_at": now, "updated_at": now}
    if owner:
        record["owner"] = owner
    record.update(fields)
    archive.execute(
        "INSERT INTO chat_threads (thread_id, created_at, record) VALUES (?, ?, ?) "
        "ON CONFLICT DO NOTHING",
        (thread_id, now, _dump(record)),
    )
    return record


def get_thread(archive: Archive, thread_id: str) -> dict[str, Any] | None:
    """A thread's record, or None for an unknown thread."""
    rows = archive.execute("SELECT record FROM chat_threads WHERE thread_id = ?", (thread_id,))
    return dict(json.loads(rows[0][0])) if rows else None


def update_thread(archive: Archive, thread_id: str, **fields: Any) -> dict[str, Any]:
    """Change fields of a thread record (title, rate, ...) and bump `updated_at`."""
    record = get_thread(archive, thread_id)
    if record is None:
        raise KeyError(thread_id)
    record.update(fields, updated_at=time.time())
    archive.execute(
        "UPDATE chat_threads SET record = ? WHERE thread_id = ?", (_dump(record), thread_id)
    )
    return record


def list_threads(archive: Archive, limit: int = 500) -> list[dict[str, Any]]:
    """All threads, newest first; a thread's hidden version slots are not listed."""
    rows = archive.execute("SELECT record FROM chat_threads ORDER BY created_at DESC")
    records = (dict(json.loads(row[0])) for row in rows)
    return [r for r in records if not r.get("version_of")][:limit]


def version_slots(archive: Archive, thread_id: str) -> list[str]:
    """The hidden slots holding the versions of a thread's turns that are not shown."""
    rows = archive.execute("SELECT thread_id, record FROM chat_threads")
    return [str(t) for t, record in rows if json.loads(record).get("version_of") == thread_id]


def archived_turn_numbers(archive: Archive, thread_id: str) -> list[int]:
    """The numbers of the thread's archived turns, in rows and in packed blocks, ascending."""
    with archive.lock, archive.conn:
        return blocks.archived_numbers(archive.conn, thread_id)
