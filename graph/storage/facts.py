"""Lost-facts records of summaries and digests, and the facts a user pinned."""

from __future__ import annotations

import time
from typing import Any

from graph.storage import blocks
from graph.storage.archive import Archive
from graph.storage.db import lock_thread
from graph.storage.packing import pack_json, unpack_json


def record_facts(
    archive: Archive, thread_id: str, first: int, last: int, record: dict[str, Any]
) -> None:
    """Keep what a summary or digest over turns first..last kept and dropped of its facts."""
    with archive.lock, archive.conn:
        blocks.put_facts(archive.conn, thread_id, first, last, record)


def load_facts(archive: Archive, thread_id: str) -> dict[tuple[int, int], dict[str, Any]]:
    """Every lost-facts record of the thread, by (first turn, last turn).

    A digest's record names only the facts it kept; its facts and the ones it dropped are
    filled in here from the records of the summaries it covers.
    """
    with archive.lock, archive.conn:
        records = {(a, b): record for a, b, record in blocks.facts_of(archive.conn, thread_id)}
    summaries = sorted((span, r) for span, r in records.items() if not r.get("digest"))
    for (first, last), record in records.items():
        if record.get("digest") and "kept_idx" in record:
            facts = [
                fact
                for (a, b), child in summaries
                if first <= a and b <= last
                for fact in child.get("facts", [])
            ]
            kept = set(record["kept_idx"])
            record["facts"] = facts
            record["dropped"] = [i for i in range(len(facts)) if i not in kept]
    return records


def facts_in_range(archive: Archive, thread_id: str, first: int, last: int) -> list[dict[str, Any]]:
    """Records of the summaries (not digests) whose turns lie within first..last."""
    with archive.lock, archive.conn:
        found = blocks.facts_of(archive.conn, thread_id, first, last)
    return [record for _, _, record in found if not record.get("digest")]


def insert_pin(archive: Archive, thread_id: str, record: dict[str, Any], limit: int) -> bool:
    """Pin a fact unless `limit` pins exist; True if it is pinned (now or before)."""
    with archive.lock, archive.conn:
        lock_thread(archive.conn, thread_id)
        exists = archive.conn.execute(
            "SELECT 1 FROM pinned_facts WHERE thread_id = ? AND fact = ?",
            (thread_id, record["fact"]),
        ).fetchone()
        if exists:
            return True
        (count,) = archive.conn.execute(
            "SELECT count(*) FROM pinned_facts WHERE thread_id = ?", (thread_id,)
        ).fetchone()
        if count >= limit:
            return False
        archive.conn.execute(
            "INSERT INTO pinned_facts (thread_id, fact, pinned_at, record) VALUES (?, ?, ?, ?)",
            (thread_id, record["fact"], time.time(), pack_json(record)),
        )
        return True


def delete_pin(archive: Archive, thread_id: str, fact: str) -> bool:
    """Unpin a fact; True if it was pinned."""
    with archive.lock, archive.conn:
        cur = archive.conn.execute(
            "DELETE FROM pinned_facts WHERE thread_id = ? AND fact = ?", (thread_id, fact)
        )
        return cur.rowcount > 0


def read_pins(archive: Archive, thread_id: str) -> list[dict[str, Any]]:
    """The thread's pinned facts, oldest pin first."""
    rows = archive.execute(
        "SELECT record FROM pinned_facts WHERE thread_id = ? ORDER BY pinned_at, fact",
        (thread_id,),
    )
    return [unpack_json(row[0]) for row in rows]
