"""Small types and table definitions both savers and the schema upgrades share (a leaf).

`checkpointer` (SQLite), `pg_checkpointer` (PostgreSQL), `history_packs` (their shared
history) and `schema` (the upgrades) all import these from here, so none of them has to
import another for a table's text or a row's shape.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

BLOBS_TABLE = """
CREATE TABLE IF NOT EXISTS checkpoint_blobs (
    thread_id TEXT NOT NULL,
    checkpoint_ns TEXT NOT NULL DEFAULT '',
    channel TEXT NOT NULL,
    version TEXT NOT NULL,
    type TEXT NOT NULL,
    blob BLOB,
    PRIMARY KEY (thread_id, checkpoint_ns, channel, version)
);
"""
"""A rowid table on purpose: WITHOUT ROWID rows past about 1 KB spill into overflow pages of
their own, which tripled the bytes on disk of values this size."""

PACKS_TABLE = """
CREATE TABLE IF NOT EXISTS checkpoint_turns (
    thread_id TEXT NOT NULL,
    checkpoint_ns TEXT NOT NULL DEFAULT '',
    turn INTEGER NOT NULL,
    first_id TEXT NOT NULL,
    last_id TEXT NOT NULL,
    base_turn INTEGER,
    pack BLOB NOT NULL,
    PRIMARY KEY (thread_id, checkpoint_ns, turn)
);
"""
"""One row per finished turn of a thread's kept history. `first_id` and `last_id` bound
the ids of the checkpoints it holds (its base first), so a checkpoint is found by id;
`base_turn` is the turn whose pack it was compressed against (NULL: none)."""


class CheckpointRow(NamedTuple):
    """A checkpoint as pruning sees it."""

    checkpoint_id: str
    turn: int
    parent: str | None


def checkpoint_row(checkpoint_id: Any, metadata: Mapping[str, Any], parent: Any) -> CheckpointRow:
    """A checkpoint as pruning sees it; an unknown turn counts as 0."""
    turn = metadata.get("turn")
    return CheckpointRow(
        str(checkpoint_id),
        int(turn) if isinstance(turn, int) else 0,
        str(parent) if parent else None,
    )
