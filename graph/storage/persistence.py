"""Persistence: the checkpointer, the archive (turns and thread list), and pruning.

One database holds both: a SQLite file (the embedded default) or, with DATABASE_URL, a
PostgreSQL database that many processes and machines share (`graph.storage.db`). A checkpoint is saved after every node, each channel value once
(see `graph.storage.checkpointer`); the checkpoints of the last CHECKPOINT_KEEP_TURNS turns
are kept and older ones pruned after each turn. Summarized turns live in the archive, so the
file grows with the transcript, not with its square.
"""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from graph.storage.archive import Archive, delete_archive
from graph.storage.checkpointer import ChatSaver
from graph.storage.db import DB_ERRORS, PgConnection, dialect, is_postgres_url
from graph.storage.schema import SchemaError

if TYPE_CHECKING:
    from graph.storage.memory_checkpointer import MemoryChatSaver
    from graph.storage.pg_checkpointer import PgChatSaver
    from graph.storage.redis_checkpointer import RedisChatSaver

    Saver = ChatSaver | PgChatSaver | RedisChatSaver | MemoryChatSaver

log = logging.getLogger(__name__)

BUSY_TIMEOUT_S = 5.0
"""How long a write waits for another process holding the database lock."""


class StorageError(RuntimeError):
    """The database cannot be used (locked too long, read-only, disk full, ...)."""


@dataclass
class Persistence:
    """Checkpointer and archive on one database."""

    saver: Saver
    """LangGraph checkpointer: one thread per conversation."""
    archive: Archive
    """Archived turns, per-turn statistics, summary costs and the thread list."""
    path: Path | None
    """The SQLite file (None on PostgreSQL)."""
    notice: str = ""
    """Set when a corrupt file was moved aside and a new one started."""
    identity: tuple[int, int] = (0, 0)
    """(device, inode) of the file when it was opened, to notice it being deleted or replaced."""
    checkpointer: str = "database"
    """CHECKPOINTER: database (checkpoints beside the archive), redis or memory."""

    @property
    def rows_move(self) -> bool:
        """Whether a thread's checkpoints move with its archive rows (`archive.move_rows`).

        Only where both are in the one database; a Redis or in-memory checkpointer keeps
        its own, so a turn's versions (which move rows) are refused there.
        """
        return self.checkpointer == "database"

    def delete_checkpoints(self, thread_id: str) -> None:
        """Delete a thread's checkpoints kept apart from the database (Redis, memory).

        The database's own go with the archive (`archive.delete_archive`).
        """
        if not self.rows_move:
            self.saver.delete_thread(thread_id)

    def sweep(self) -> list[str]:
        """CHECKPOINTER=memory's cleanup: idle threads deleted whole; their ids.

        Their checkpoints, archive and list entry (`MemoryChatSaver.sweep` picks them).
        Elsewhere nothing expires.
        """
        from graph.storage.memory_checkpointer import MemoryChatSaver

        if not isinstance(self.saver, MemoryChatSaver):
            return []
        gone = self.saver.sweep()
        for thread_id in gone:
            delete_archive(self.archive, thread_id)
        return gone

    def check_file(self) -> None:
        """Raise StorageError if the database file was deleted or replaced since it was opened.

        SQLite keeps writing to the open (deleted) file, so without this check a turn would be
        reported saved into a file nobody will ever open again.
        """
        if self.path is None:
            return
        try:
            info = self.path.stat()
        except FileNotFoundError:
            raise StorageError(
                f"The database {self.path} was deleted while the app was running; nothing more "
                "can be saved. Restart the app (a new, empty database will be made)."
            ) from None
        if (info.st_dev, info.st_ino) != self.identity:
            raise StorageError(
                f"The database {self.path} was replaced by another file while the app was "
                "running; restart the app to use it."
            )

    def close(self) -> None:
        """Close both connections (and the saver's helpers)."""
        self.saver.close()
        self.archive.close()


PAGE_SIZE = 1024
"""Bytes of a page of a new file (SQLite's default is 4096; an existing file keeps its own).

About thirty tables and indexes of which many hold a row or none: each takes a page at
least. At 4 KiB those pages were a third of a 300-turn thread's file."""


def _connect(path: Path, timeout_s: float, autocommit: bool = False) -> sqlite3.Connection:
    conn = sqlite3.connect(
        str(path),
        check_same_thread=False,
        timeout=timeout_s,
        isolation_level=None if autocommit else "DEFERRED",
    )
    conn.execute(f"PRAGMA busy_timeout = {int(timeout_s * 1000)}")
    # Pages freed by pruning go back to the OS; only takes effect before the first table
    # exists (a new file), and must come before the journal mode touches the header.
    conn.execute(f"PRAGMA page_size = {PAGE_SIZE}")
    conn.execute("PRAGMA auto_vacuum = INCREMENTAL")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    return conn


FULL_CHECK_BYTES = 64 * 1024 * 1024
"""Files up to this size get SQLite's full `integrity_check` at open; larger ones `quick_check`."""


def _is_healthy(path: Path) -> bool:
    if not path.exists() or path.stat().st_size == 0:
        return True
    check = "integrity_check" if path.stat().st_size <= FULL_CHECK_BYTES else "quick_check"
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_S)
        try:
            row = conn.execute(f"PRAGMA {check}").fetchone()
        finally:
            conn.close()
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc):
            return True  # busy, not broken
        return False
    except sqlite3.DatabaseError:
        return False
    return bool(row) and row[0] == "ok"


def open_persistence(
    db_path: str | Path,
    busy_timeout_s: float = BUSY_TIMEOUT_S,
    checkpointer: str = "database",
    redis_url: str = "",
    memory_limits: tuple[float, int] = (3600.0, 100),
) -> Persistence:
    """Open (or create) the database; a corrupt file is moved aside, never deleted.

    `db_path` is a SQLite file or a `postgresql://` URL. A folder or file that cannot be
    written is named as such (StorageError), not mistaken for damage. `checkpointer`
    (CHECKPOINTER) redis or memory keeps LangGraph's checkpoints there instead; the
    archive and the thread list stay in the database (whose checkpoint tables stay, empty).
    """
    persistence = _open_database(db_path, busy_timeout_s)
    if checkpointer == "database":
        return persistence
    try:
        saver = _apart_saver(checkpointer, redis_url, memory_limits)
    except BaseException:
        persistence.close()
        raise
    persistence.saver.close()
    persistence.saver = saver
    persistence.checkpointer = checkpointer
    return persistence


def _apart_saver(kind: str, redis_url: str, memory_limits: tuple[float, int]) -> Saver:
    if kind == "memory":
        from graph.storage.memory_checkpointer import MemoryChatSaver

        return MemoryChatSaver(*memory_limits)
    if kind != "redis":
        raise ValueError(f"unknown checkpointer {kind!r}")
    from redis.exceptions import RedisError

    from graph.storage.redis_checkpointer import RedisChatSaver, RedisUnusable

    try:
        redis_saver = RedisChatSaver(redis_url)
        redis_saver.setup()
    except (RedisError, RedisUnusable, OSError) as exc:
        raise StorageError(
            f"CHECKPOINTER=redis cannot use {_safe_redis(redis_url)}: {exc}"
        ) from exc
    return redis_saver


def _safe_redis(url: str) -> str:
    """A Redis URL without its password."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{host}{port}{parts.path}"


def _open_database(db_path: str | Path, busy_timeout_s: float) -> Persistence:
    if is_postgres_url(str(db_path)):
        return _open_postgres(str(db_path), busy_timeout_s)
    path = Path(db_path).expanduser()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StorageError(f"cannot create the folder {path.parent}: {exc.strerror}") from exc
    if not os.access(path.parent, os.W_OK):
        raise StorageError(
            f"the folder {path.parent} is read-only: the database (and its journal) must be "
            "written there; set CHAT_DB_PATH to a writable place"
        )
    if path.exists() and not os.access(path, os.W_OK):
        raise StorageError(f"the database file {path} is read-only; make it writable")
    notice = ""
    if not _is_healthy(path):
        aside = path.with_name(f"{path.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}")
        for suffix in ("", "-wal", "-shm"):
            src = Path(f"{path}{suffix}")
            if src.exists():
                shutil.move(str(src), f"{aside}{suffix}")
        notice = f"The database {path} was damaged; it was moved to {aside} and a new one started."
        log.warning(notice)
    try:
        saver = ChatSaver(_connect(path, busy_timeout_s))
        saver.setup()
        archive = Archive(_connect(path, busy_timeout_s))
    except SchemaError as exc:
        raise StorageError(f"cannot open the database {path}: {exc}") from exc
    except sqlite3.Error as exc:
        raise StorageError(f"cannot open the database {path}: {exc}") from exc
    info = path.stat()
    return Persistence(
        saver=saver, archive=archive, path=path, notice=notice, identity=(info.st_dev, info.st_ino)
    )


_OPEN_FAILURES: tuple[type[Exception], ...] = (SchemaError, *DB_ERRORS)


def _open_postgres(url: str, timeout_s: float) -> Persistence:
    """Open a PostgreSQL database: LangGraph's saver on its pool, the archive on a connection."""
    from graph.storage.pg_checkpointer import PgChatSaver

    timeout_s = max(timeout_s, 10.0)
    saver: PgChatSaver | None = None
    conn: PgConnection | None = None
    try:
        saver = PgChatSaver(url, timeout_s)
        saver.setup()
        conn = PgConnection(url, connect_timeout_s=timeout_s)
        archive = Archive(conn)
    except _OPEN_FAILURES as exc:
        if conn is not None:
            conn.close()
        if saver is not None:
            saver.close()
        raise StorageError(f"cannot open the database {_safe(url)}: {exc}") from exc
    return Persistence(saver=saver, archive=archive, path=None)


def _safe(url: str) -> str:
    """A database URL as it may be shown: user, host, port and database, never a password."""
    try:
        from psycopg.conninfo import conninfo_to_dict

        info = conninfo_to_dict(url)
    except Exception:  # noqa: BLE001 - an unreadable URL is not shown at all
        return "postgresql://(unreadable URL)"
    user = f"{info['user']}@" if info.get("user") else ""
    port = f":{info['port']}" if info.get("port") else ""
    return f"postgresql://{user}{info.get('host', '')}{port}/{info.get('dbname', '')}"


def prune_checkpoints(saver: Saver, thread_id: str, keep_turns: int) -> int:
    """Delete the thread's checkpoints older than its last `keep_turns` turns; return the count.

    Runs between turns only; `keep_turns` 0 keeps all. The file's freed pages go back to
    the file system.
    """
    deleted = saver.prune_turns(thread_id, keep_turns)
    if isinstance(saver, ChatSaver):  # a finished turn's rows went into its pack
        # Python's execute() steps a pragma once, which frees a single page; executescript
        # runs it to the end and returns every free page to the file system.
        with saver.lock:
            saver.conn.executescript("PRAGMA incremental_vacuum;")
    return deleted


def database_bytes(path: str | Path) -> int:
    """Bytes on disk of a SQLite database and its WAL.

    Not the `-shm` file: SQLite's index into the WAL, rebuilt from it and removed when the
    last connection closes, it holds no data (32 KiB while the database is open).
    """
    base = Path(path)
    return sum(
        Path(f"{base}{suffix}").stat().st_size
        for suffix in ("", "-wal")
        if Path(f"{base}{suffix}").exists()
    )


def table_bytes(archive: Archive) -> int:
    """Bytes of the project's tables on PostgreSQL, indexes and TOAST included."""
    if dialect(archive.conn) != "postgres":
        raise ValueError("table_bytes is for PostgreSQL; use database_bytes for a SQLite file")
    rows = archive.execute(
        "SELECT coalesce(sum(pg_total_relation_size(quote_ident(table_name))), 0) "
        "FROM information_schema.tables WHERE table_schema = current_schema()"
    )
    return int(rows[0][0])
