"""The checkpointer on PostgreSQL: LangGraph's PostgresSaver with the project's additions.

LangGraph's PostgreSQL saver already stores each channel value once per version (the
layout `ChatSaver` copies onto SQLite), so this adds only what the app reads: seed 001's
checkpoint metadata, the plain version counter, compressed values, the checkpoint
listing, and pruning by turns (`graph.storage.checkpointer` for both).
"""

from __future__ import annotations

import builtins
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, cast

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import ChannelVersions, Checkpoint, CheckpointMetadata
from langgraph.checkpoint.postgres import PostgresSaver
from langgraph.checkpoint.postgres._internal import get_connection
from psycopg import Connection, Cursor, OperationalError
from psycopg.errors import LockNotAvailable
from psycopg.rows import DictRow, dict_row
from psycopg_pool import ConnectionPool, PoolTimeout

from graph.storage.checkpointer import (
    INTERRUPT,
    ChatMetadata,
    CheckpointRow,
    CompressedSerializer,
    checkpoint_row,
    prune_plan,
)

SETUP_LOCK = 7_002_001
"""Advisory lock held while LangGraph's tables are made, so two processes starting at once
do not both run its migrations."""
SETUP_WAIT_S = 60.0
"""How long a process waits for another one setting the database up."""


def saver_pool(url: str, connect_timeout_s: float = 10.0) -> ConnectionPool[Connection[DictRow]]:
    """Connections as LangGraph's PostgreSQL saver wants them (autocommit, rows as dicts).

    A pool of one or two, each checked as it is taken, so a connection the server dropped
    (a restart, a failover) is replaced instead of failing every later turn.
    """
    pool: ConnectionPool[Connection[DictRow]] = ConnectionPool(
        url,
        min_size=1,
        max_size=2,
        kwargs={
            "autocommit": True,
            "prepare_threshold": 0,
            "row_factory": dict_row,
            "connect_timeout": int(connect_timeout_s),
        },
        check=ConnectionPool.check_connection,
        open=True,
        name="checkpoints",
    )
    try:
        pool.wait(timeout=connect_timeout_s)
    except PoolTimeout as exc:
        pool.close()
        raise OperationalError("cannot connect to the database (pool timeout)") from exc
    return pool


def _try_lock(conn: Connection[Any], key: int) -> bool:
    row = conn.execute("SELECT pg_try_advisory_lock(%s)", (key,)).fetchone()
    return bool(row and row[0])


class PgChatSaver(ChatMetadata, PostgresSaver):
    """PostgresSaver with compression and seed 001's checkpoint metadata."""

    def __init__(self, url: str, connect_timeout_s: float = 10.0) -> None:
        PostgresSaver.__init__(
            self, saver_pool(url, connect_timeout_s), serde=CompressedSerializer()
        )
        ChatMetadata.__init__(self)
        self.url = url
        self._timeout = int(connect_timeout_s)

    def setup(self) -> None:
        """LangGraph's tables and their migrations, one process at a time.

        The lock is polled on a connection of its own, not waited for: LangGraph's
        migrations build indexes CONCURRENTLY, which waits for every open transaction, a
        blocked lock request included (a deadlock).
        """
        with Connection.connect(self.url, autocommit=True, connect_timeout=self._timeout) as lock:
            deadline = time.monotonic() + SETUP_WAIT_S
            while not _try_lock(lock, SETUP_LOCK):
                if time.monotonic() > deadline:
                    raise LockNotAvailable("another process kept the database's set-up lock")
                time.sleep(0.05)
            super().setup()  # the lock goes with its connection

    def put(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        """Save the checkpoint with seed 001's metadata."""
        thread_id, ns, meta, _ = self._with_metadata(config, checkpoint, metadata)
        saved = super().put(config, checkpoint, cast(CheckpointMetadata, meta), new_versions)
        self._remember(thread_id, ns, checkpoint)
        return saved

    def _versions_seen(self, thread_id: str, checkpoint_id: str) -> dict[str, Any]:
        with self._cursor() as cur:
            cur.execute(
                "SELECT checkpoint -> 'versions_seen' AS seen FROM checkpoints "
                "WHERE thread_id = %s AND checkpoint_ns = '' AND checkpoint_id = %s",
                (thread_id, checkpoint_id),
            )
            row = cur.fetchone()
        return dict(row["seen"] or {}) if row else {}

    def history(self, thread_id: str) -> builtins.list[dict[str, Any]]:
        """The thread's checkpoints, newest first, without their values (for listings)."""
        with self._cursor() as cur:
            cur.execute(
                "SELECT checkpoint_id, parent_checkpoint_id, checkpoint ->> 'ts' AS ts, metadata "
                "FROM checkpoints WHERE thread_id = %s AND checkpoint_ns = '' "
                "ORDER BY checkpoint_id DESC",
                (thread_id,),
            )
            rows = cur.fetchall()
            cur.execute(
                "SELECT DISTINCT checkpoint_id FROM checkpoint_writes WHERE thread_id = %s "
                "AND checkpoint_ns = '' AND channel = %s",
                (thread_id, INTERRUPT),
            )
            paused = {r["checkpoint_id"] for r in cur.fetchall()}
        return [
            {
                "checkpoint_id": r["checkpoint_id"],
                "parent_id": r["parent_checkpoint_id"],
                "ts": r["ts"],
                "metadata": dict(r["metadata"] or {}),
                "pending_approval": r["checkpoint_id"] in paused,
            }
            for r in rows
        ]

    def delete_checkpoint(self, thread_id: str, checkpoint_id: str) -> None:
        """Delete one checkpoint row and its pending writes (its values stay for others)."""
        self._forget(thread_id)
        with self._transaction() as cur:
            cur.execute(
                "DELETE FROM checkpoint_writes WHERE thread_id = %s AND checkpoint_id = %s",
                (thread_id, checkpoint_id),
            )
            cur.execute(
                "DELETE FROM checkpoints WHERE thread_id = %s AND checkpoint_id = %s",
                (thread_id, checkpoint_id),
            )

    def delete_thread(self, thread_id: str) -> None:
        """Delete the thread's checkpoints, writes and blobs."""
        super().delete_thread(thread_id)
        self._forget(str(thread_id))

    def prune_turns(self, thread_id: str, keep_turns: int) -> int:
        """Keep every checkpoint of the thread's last `keep_turns` turns; return how many went.

        As `ChatSaver.prune_turns`: the newest checkpoint and every value a kept checkpoint
        refers to stay.
        """
        plan = prune_plan(self._turns(thread_id), keep_turns)
        if plan is None:
            return 0
        oldest_kept, newest = plan
        with self._transaction() as cur:
            cur.execute(
                "DELETE FROM checkpoint_writes WHERE thread_id = %s AND checkpoint_ns = '' "
                "AND checkpoint_id < %s",
                (thread_id, newest),
            )
            cur.execute(
                "DELETE FROM checkpoints WHERE thread_id = %s AND checkpoint_ns = '' "
                "AND checkpoint_id < %s",
                (thread_id, oldest_kept),
            )
            deleted = int(cur.rowcount)
            if deleted:
                # each channel's values older than the oldest kept checkpoint's version
                cur.execute(
                    "DELETE FROM checkpoint_blobs b USING checkpoints c, "
                    "jsonb_each_text(c.checkpoint -> 'channel_versions') v "
                    "WHERE c.thread_id = %s AND c.checkpoint_ns = '' AND c.checkpoint_id = %s "
                    "AND b.thread_id = c.thread_id AND b.checkpoint_ns = '' "
                    "AND b.channel = v.key AND b.version < v.value",
                    (thread_id, oldest_kept),
                )
        return deleted

    @contextmanager
    def _transaction(self) -> Iterator[Cursor[DictRow]]:
        """A cursor inside one transaction (the saver's connections are in autocommit mode)."""
        with (
            self.lock,
            get_connection(self.conn) as conn,
            conn.transaction(),
            conn.cursor() as cur,
        ):
            yield cur

    def _turns(self, thread_id: str) -> builtins.list[CheckpointRow]:
        with self._cursor() as cur:
            cur.execute(
                "SELECT checkpoint_id, metadata, parent_checkpoint_id FROM checkpoints "
                "WHERE thread_id = %s AND checkpoint_ns = ''",
                (thread_id,),
            )
            rows = cur.fetchall()
        return [
            checkpoint_row(r["checkpoint_id"], r["metadata"] or {}, r["parent_checkpoint_id"])
            for r in rows
        ]
