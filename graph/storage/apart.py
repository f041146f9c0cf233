"""What the app's savers add, for checkpoints kept apart from the database (Redis, memory).

The database's savers (`checkpointer`, `pg_checkpointer`) keep the checkpoints beside the
archive, so a turn's versions move with it (`archive.move_rows`) and finished turns pack
into one row (`history_packs`). A saver whose checkpoints live elsewhere (seed 001's Redis
checkpointer, the in-memory one of ephemeral sessions) adds, over LangGraph's own:

- seed 001's checkpoint metadata and the plain version counter (`ChatMetadata`);
- the history listing, the head a turn's start looks at, deleting one checkpoint, and
  pruning by turns (`CHECKPOINT_KEEP_TURNS`), here on the saver's own `list()`;
- no history packs: each checkpoint stays a record of its own, pruning keeps their count
  bounded;
- no version moves: the rows of a turn's versions cannot move in one transaction with the
  archive, so `graph.session.versions` refuses them naming the setting.

Each saver gives `_rows` (a thread's checkpoints, newest first) and `_delete_checkpoints`.
"""

from __future__ import annotations

import builtins
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import CheckpointTuple

from graph.storage.checkpointer import INTERRUPT, ChatMetadata
from graph.storage.history_packs import Head, checkpoint_config
from graph.storage.rows import checkpoint_row


def _parent(found: CheckpointTuple) -> str | None:
    parent = found.parent_config
    return str(parent["configurable"]["checkpoint_id"]) if parent else None


class ApartHistory(ChatMetadata):
    """History, head, single delete and pruning by turns over a saver's own records."""

    def _rows(self, thread_id: str) -> builtins.list[CheckpointTuple]:
        """The thread's checkpoints (root namespace), newest first, with pending writes."""
        raise NotImplementedError

    def _delete_checkpoints(self, thread_id: str, checkpoint_ids: set[str]) -> None:
        """Delete these checkpoints of the thread with their pending writes."""
        raise NotImplementedError

    def _versions_seen(self, thread_id: str, checkpoint_id: str) -> dict[str, Any]:
        found = self.get_tuple(checkpoint_config(thread_id, "", checkpoint_id))  # type: ignore[attr-defined]
        return dict(found.checkpoint.get("versions_seen", {})) if found else {}

    def forget_packs(self, thread_id: str) -> None:
        """Nothing to forget: no packs here."""

    def history(self, thread_id: str) -> builtins.list[dict[str, Any]]:
        """The thread's checkpoints, newest first: id, parent, time, metadata, paused."""
        return [
            {
                "checkpoint_id": found.checkpoint["id"],
                "parent_id": _parent(found),
                "ts": found.checkpoint.get("ts"),
                "metadata": dict(found.metadata or {}),
                "pending_approval": any(w[1] == INTERRUPT for w in found.pending_writes or []),
            }
            for found in self._rows(thread_id)
        ]

    def head(self, thread_id: str) -> Head | None:
        """The thread's newest checkpoint: its id, metadata and pending writes' channels."""
        rows = self._rows(thread_id)
        if not rows:
            return None
        newest = rows[0]
        return Head(
            str(newest.checkpoint["id"]),
            dict(newest.metadata or {}),
            [str(w[1]) for w in newest.pending_writes or []],
        )

    def delete_checkpoint(self, thread_id: str, checkpoint_id: str) -> None:
        """Delete one checkpoint and its pending writes."""
        self._forget(thread_id)
        self._delete_checkpoints(thread_id, {checkpoint_id})

    def prune_turns(self, thread_id: str, keep_turns: int) -> int:
        """Delete the checkpoints of turns before the last `keep_turns`; return the count.

        `keep_turns` 0 keeps all. As the database's savers: the checkpoint before the
        oldest kept turn's arrival stays too, so a fork from any listed checkpoint works.
        """
        if keep_turns <= 0:
            return 0
        rows = [
            checkpoint_row(f.checkpoint["id"], dict(f.metadata or {}), _parent(f))
            for f in self._rows(thread_id)
        ]
        if not rows:
            return 0
        cutoff = max(r.turn for r in rows) - keep_turns + 1
        kept = {r.checkpoint_id for r in rows if r.turn >= cutoff}
        oldest = min((r for r in rows if r.checkpoint_id in kept), key=lambda r: r.checkpoint_id)
        if oldest.parent:
            kept.add(oldest.parent)
        gone = {r.checkpoint_id for r in rows} - kept
        if gone:
            self._delete_checkpoints(thread_id, gone)
        return len(gone)


def thread_config(thread_id: str) -> RunnableConfig:
    """The config that lists a thread's checkpoints of the root namespace."""
    return {"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}}
