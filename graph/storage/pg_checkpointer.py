"""The checkpointer on PostgreSQL: LangGraph's PostgresSaver with the project's additions.

LangGraph's PostgreSQL saver already stores each channel value once per version (the
layout `ChatSaver` copies onto SQLite), so this adds only what the app reads: seed 001's
checkpoint metadata, the plain version counter, compressed values, the checkpoint
listing, and pruning by turns (`graph.storage.checkpointer` for both).
"""

from __future__ import annotations

import builtins
import logging
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, cast

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import (
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
)
from langgraph.checkpoint.postgres import PostgresSaver
from langgraph.checkpoint.postgres._internal import get_connection
from psycopg import Connection, Cursor, Error, OperationalError
from psycopg.errors import LockNotAvailable
from psycopg.rows import DictRow, dict_row
from psycopg_pool import ConnectionPool, PoolTimeout

from graph.storage.checkpointer import (
    INTERRUPT,
    ChatMetadata,
    CompressedSerializer,
)
from graph.storage.history_packs import Execute, HistoryPacks
from graph.storage.rows import CheckpointRow, checkpoint_row

log = logging.getLogger(__name__)

SETUP_LOCK = 7_002_001
"""Advisory lock held while LangGraph's tables are made, so two processes starting at once
do not both run its migrations."""
SETUP_WAIT_S = 60.0
"""How long a process waits for another one setting the database up."""

VACUUM_EVERY = 4
"""Turns pruned by a process between its vacuums of the checkpoint tables."""

VACUUMED = ("checkpoints", "checkpoint_writes", "checkpoint_blobs", "checkpoint_turns")
"""The tables a turn deletes from about as much as it writes: small, vacuumed often."""

ARCHIVE_EVERY = 16
"""Of those vacuums, every this many also takes `ARCHIVE_VACUUMED`."""

ARCHIVE_VACUUMED = (
    "archive_turns",
    "summary_items",
    "summary_costs",
    "memory_facts",
    "recall_postings",
    "thread_keys",
)
"""The tables a turn rewrites rows of (a term's postings, a thread's counts) or a packed
block takes rows from: larger, and slower to fill with dead rows."""


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


class Vacuum:
    """Vacuums the tables a turn churns, on a thread and a connection of its own.

    A turn never waits for it: `request` wakes the thread (requests made while it works
    are one), and a table another process is vacuuming is skipped (servers before
    PostgreSQL 12 get a plain VACUUM).
    """

    def __init__(self, url: str, timeout_s: int) -> None:
        self.url = url
        self.timeout_s = timeout_s
        self._wake = threading.Event()
        self._stopping = False
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self.runs = 0
        """Vacuums done (for tests)."""

    def request(self) -> None:
        """Ask for a vacuum (the thread starts with the first request)."""
        with self._lock:
            if self._stopping:
                return
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="vacuum", daemon=True)
                self._thread.start()
        self._wake.set()

    def _run(self) -> None:
        conn: Connection[Any] | None = None
        options = ""
        while True:
            self._wake.wait()
            self._wake.clear()
            if self._stopping:
                break
            try:
                if conn is None or conn.closed:
                    conn = Connection.connect(
                        self.url, autocommit=True, connect_timeout=self.timeout_s
                    )
                    row = conn.execute("SELECT current_setting('server_version_num')").fetchone()
                    modern = row is not None and int(row[0]) >= 120000
                    options = "(SKIP_LOCKED) " if modern else ""
                tables = VACUUMED + (ARCHIVE_VACUUMED if self.runs % ARCHIVE_EVERY == 0 else ())
                conn.execute(f"VACUUM {options}{', '.join(tables)}")
                self.runs += 1
            except Error as exc:  # the next request tries again, on a new connection
                log.warning("vacuum of the checkpoint tables failed: %s", exc)
                if conn is not None:
                    conn.close()
                conn = None
        if conn is not None:
            conn.close()

    def close(self) -> None:
        """Stop the thread (a vacuum under way ends first)."""
        with self._lock:
            self._stopping = True
            thread = self._thread
        self._wake.set()
        if thread is not None:
            thread.join(timeout=30)


def _try_lock(conn: Connection[Any], key: int) -> bool:
    row = conn.execute("SELECT pg_try_advisory_lock(%s)", (key,)).fetchone()
    return bool(row and row[0])


class PgChatSaver(HistoryPacks, ChatMetadata, PostgresSaver):
    """PostgresSaver with compression and seed 001's checkpoint metadata.

    Finished turns are packed (`graph.storage.history_packs`; the schema's upgrade makes
    their table).
    """

    WRITES = "checkpoint_writes"

    def __init__(self, url: str, connect_timeout_s: float = 10.0) -> None:
        PostgresSaver.__init__(
            self, saver_pool(url, connect_timeout_s), serde=CompressedSerializer()
        )
        ChatMetadata.__init__(self)
        self._init_packs()
        self._pruned = 0
        self.vacuum = Vacuum(url, int(connect_timeout_s))
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
        if row is None:
            return self._packed_versions_seen(thread_id, checkpoint_id)
        return dict(row["seen"] or {})

    def _live_get(self, config: RunnableConfig) -> CheckpointTuple | None:
        return PostgresSaver.get_tuple(self, config)

    def _live_list(
        self,
        config: RunnableConfig | None,
        filter: dict[str, Any] | None,
        before: RunnableConfig | None,
    ) -> builtins.list[CheckpointTuple]:
        return builtins.list(PostgresSaver.list(self, config, filter=filter, before=before))

    def _read(self, sql: str, params: Sequence[Any]) -> builtins.list[tuple[Any, ...]]:
        with self._cursor() as cur:
            cur.execute(sql.replace("?", "%s"), tuple(params))
            return [tuple(r.values()) for r in cur.fetchall()]

    @contextmanager
    def _transaction_sql(self) -> Iterator[Execute]:
        with self._transaction() as cur:
            yield lambda sql, params: cur.execute(sql.replace("?", "%s"), tuple(params))

    def _live_history(self, thread_id: str) -> builtins.list[dict[str, Any]]:
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
        """Delete the thread's checkpoints, writes, blobs and packed turns."""
        super().delete_thread(thread_id)
        self._delete_packs(thread_id)
        self._forget(str(thread_id))

    def prune_turns(self, thread_id: str, keep_turns: int) -> int:
        """As `HistoryPacks.prune_turns`; every VACUUM_EVERY turns, vacuum the churn.

        A turn writes six or seven checkpoints, their values and pending writes, and a
        pack, and pruning deletes as many; a packed block takes in rows of its own: with
        autovacuum, which looks once a minute, those tables hold many turns of dead rows
        (on a fast replay, hundreds), and a table keeps the size it reached. A vacuum every
        few turns (`Vacuum`, off the turn's path) lets each turn reuse the space of the
        turns before.
        """
        deleted = super().prune_turns(thread_id, keep_turns)
        self._pruned += 1
        if self._pruned % VACUUM_EVERY == 0:
            self.vacuum.request()
        return deleted

    def close(self) -> None:
        """Stop the vacuum thread, then close the connections."""
        self.vacuum.close()
        self.conn.close()

    def _drop_values(self, execute: Execute, thread_id: str, keep_from: str) -> None:
        """Each channel's values older than `keep_from`'s version of it."""
        execute(
            "DELETE FROM checkpoint_blobs b USING checkpoints c, "
            "jsonb_each_text(c.checkpoint -> 'channel_versions') v "
            "WHERE c.thread_id = ? AND c.checkpoint_ns = '' AND c.checkpoint_id = ? "
            "AND b.thread_id = c.thread_id AND b.checkpoint_ns = '' "
            "AND b.channel = v.key AND b.version < v.value",
            (thread_id, keep_from),
        )

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
