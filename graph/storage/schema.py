"""The schema of the conversation's tables, its version, and the upgrades from older files.

Version 1 is what the first landed versions wrote (archive, summary costs, thread list) with
no version recorded. Version 2 adds the recall index, the lost-facts records, pinned facts,
the writer leases and per-call tool records; upgrading a version-1 file indexes its archived
turns in place. Version 3 changes no table: it rebuilds the recall index, whose English
terms version 2 cut apart before a period ("detail." indexed as "det" + "ail"). Version 4
stores checkpoint channel values once per version in `checkpoint_blobs` (see
`graph.storage.checkpointer`), so its checkpoint rows no longer hold the state: an older app
must refuse such a file rather than read empty states; its older checkpoints still read. It
also keeps every summary and digest once in `summary_items` (see `graph.storage.summaries`);
a thread of an earlier version moves its summaries there at its next summary. Version 5
changes no table: JSON values are stored as bytes, compressed or not (one column type on
PostgreSQL), which version 4 would misread as compressed; older values still read. Version 6: the
recall postings hold the gaps between turns (2 bytes each, compressed when smaller)
instead of 4-byte turn numbers, and the index marks the turns that state a kind of value
(a date, an amount, a name), so the upgrade rebuilds it; values are compressed
with a preset dictionary (`graph.storage.zdict`), which version 5 cannot read; a
checkpoint row keeps its smallest values and the names of its empty channels (see
`graph.storage.checkpointer`), which version 5 would read as a whole state; and a
summary's costs are stored like other JSON values (bytes; a column of bytes on
PostgreSQL). Version 7: new recall postings are written in segments a turn is appended to
(`graph.storage.recall_index.SEGMENTS`), which version 6 cannot read; its postings still
read, and each is rewritten in the new format when its term next appears. On PostgreSQL
the churn tables are vacuumed after fewer dead rows (`CHURN_VACUUM_THRESHOLD`). Version 8
packs the archived turns of each block of BLOCK_TURNS turns archived to its end, with the
records of the summaries within it (entries, costs, facts), into one compressed row
(`graph.storage.blocks`); the turns' own rows keep only their statistics and the
summaries' rows go (version 7 would find neither); the upgrade packs the blocks already
archived. Version 9 packs each finished turn's checkpoints, with their values, into one
row of `checkpoint_turns` (`graph.storage.history_packs`), which version 8 would not see
(it would list and fork from the newest turn alone); a thread of version 8 packs its
turns at its next turn. A packed block also holds its turns' context statistics, and
their `archive_turns` rows go (version 8 would find no statistics for them); blocks
packed before keep theirs in rows. On SQLite `archive_turns` becomes a rowid table
(rows longer than a quarter of a page no longer spill into pages of their own), and new
files use 1 KiB pages (`graph.storage.persistence.PAGE_SIZE`). Version 10 compresses
checkpoint values with zstd and the same preset dictionary (`graph.storage.zdict`), which
version 9 cannot read; values written before stay as they are. Version 11 stores every
compressed value (checkpoint values, packs of checkpoints, JSON values, packed blocks)
with the CRC-32 of what it holds behind a marker byte (`graph.storage.zdict.with_checksum`),
so damage inside a value is named where it is read (`StorageCorrupt`) instead of reading
as other bytes; version 10 cannot read such values. Values written before keep no
checksum and read as they are (the marker is never their first byte), so the upgrade
changes no row. Version 12 changes no table: a thread record may hold the versions of its
turns (`versions`) and a thread may be a hidden slot holding a version not shown
(`version_of`, see `graph.session.versions`); version 11 would list the slots as
conversations of their own, so it must refuse such a file. Older files have no versions,
so the upgrade changes no row. A PostgreSQL database starts at the current version (none was written before 5). A file
written by a newer version is refused rather than guessed at. LangGraph's checkpoint tables are the
saver's own and are not versioned here.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from graph.storage.blocks import BLOCKS_TABLE, archived_rows, seal_archived
from graph.storage.db import Connection, begin_exclusive, ddl, dialect, tables
from graph.storage.recall_index import index_packed_turns
from graph.storage.rows import BLOBS_TABLE, PACKS_TABLE

log = logging.getLogger(__name__)

SCHEMA_VERSION = 12
"""The version this code writes."""

V1 = """
CREATE TABLE IF NOT EXISTS archive_turns (
    thread_id TEXT NOT NULL,
    turn INTEGER NOT NULL,
    messages BLOB,
    stats TEXT,
    PRIMARY KEY (thread_id, turn)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS summary_costs (
    thread_id TEXT NOT NULL,
    first_turn INTEGER NOT NULL,
    meta TEXT NOT NULL,
    PRIMARY KEY (thread_id, first_turn)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS chat_threads (
    thread_id TEXT PRIMARY KEY,
    created_at REAL NOT NULL,
    record TEXT NOT NULL
);
"""

V2 = """
CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);
-- a small integer per thread keeps the postings compact, never reused (AUTOINCREMENT)
CREATE TABLE IF NOT EXISTS thread_keys (
    thread_key INTEGER PRIMARY KEY AUTOINCREMENT,
    thread_id TEXT NOT NULL UNIQUE,
    docs INTEGER NOT NULL DEFAULT 0,
    terms INTEGER NOT NULL DEFAULT 0
);
-- one row per thread and term: the turns holding it, as little-endian uint32s in order
CREATE TABLE IF NOT EXISTS recall_postings (
    thread_key INTEGER NOT NULL,
    term TEXT NOT NULL,
    turns BLOB NOT NULL,
    PRIMARY KEY (thread_key, term)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS recall_docs (
    thread_key INTEGER NOT NULL,
    turn INTEGER NOT NULL,
    length INTEGER NOT NULL,
    PRIMARY KEY (thread_key, turn)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS memory_facts (
    thread_id TEXT NOT NULL,
    first_turn INTEGER NOT NULL,
    last_turn INTEGER NOT NULL,
    record BLOB NOT NULL,
    PRIMARY KEY (thread_id, first_turn, last_turn)
) WITHOUT ROWID;
-- each tool call's state, so that it runs at most once (see graph/storage/tool_calls.py)
CREATE TABLE IF NOT EXISTS tool_calls (
    thread_id TEXT NOT NULL,
    call_id TEXT NOT NULL,
    status TEXT NOT NULL,
    record TEXT NOT NULL,
    updated_at REAL NOT NULL,
    PRIMARY KEY (thread_id, call_id)
) WITHOUT ROWID;
-- one writer per thread across processes (see graph/storage/leases.py)
CREATE TABLE IF NOT EXISTS thread_leases (
    thread_id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    expires_at REAL NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS pinned_facts (
    thread_id TEXT NOT NULL,
    fact TEXT NOT NULL,
    pinned_at REAL NOT NULL,
    record BLOB NOT NULL,
    PRIMARY KEY (thread_id, fact)
) WITHOUT ROWID;
"""

V4 = """
CREATE TABLE IF NOT EXISTS summary_items (
    thread_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    first_turn INTEGER NOT NULL,
    last_turn INTEGER NOT NULL,
    made_at INTEGER NOT NULL,
    record BLOB NOT NULL,
    PRIMARY KEY (thread_id, kind, first_turn, last_turn)
);
"""


class SchemaError(RuntimeError):
    """The file's schema cannot be used by this version of the app."""


def schema_version(conn: Connection) -> int:
    """The version of the file: 0 for a new file, 1 for the unversioned first layout."""
    found = tables(conn)
    if "schema_version" in found:
        row = conn.execute("SELECT max(version) FROM schema_version").fetchone()
        return int(row[0] or 0)
    return 1 if "archive_turns" in found else 0


def _backfill_recall(conn: Connection, before: int = 0) -> None:
    """Index every archived turn of a version-1 file for recall."""
    rows = list(archived_rows(conn))
    # no lock per thread: PostgreSQL would hold one per thread until the upgrade commits
    # (past some thousands of threads, more than its lock table holds); the upgrade's own
    # lock keeps out every process of this version, and older ones must be stopped first
    index_packed_turns(conn, rows, lock=False)
    if rows:
        log.info("schema upgrade: indexed %d archived turns for recall", len(rows))


CHURN_TABLES = (
    "checkpoints",
    "checkpoint_writes",
    "checkpoint_blobs",
    "thread_leases",
    "checkpoint_turns",
)
"""PostgreSQL tables whose rows are deleted as fast as they are written (pruning, leases)."""


CHURN_VACUUM_THRESHOLD = 50
"""Dead rows after which autovacuum reclaims a churn table's space (version 7; 500 before).

A thread keeps about 120 checkpoint rows (20 turns of 6), of about 2 KB each: 500 dead
rows were a megabyte of table a single conversation never got back, 4 times what it
holds. PostgreSQL 14 on skips the index pass of a vacuum that finds few dead rows, so
vacuuming a large table this often costs little."""


def _vacuum_churn(conn: Connection, before: int = 0) -> None:
    """On PostgreSQL, let autovacuum reclaim the churn tables' dead rows early.

    Pruning deletes about as many checkpoint rows as a turn writes; with the default
    thresholds (20% of a table dead) their space is reused late and the tables grow well
    past what they hold. A fixed threshold keeps them near their live size.
    """
    if dialect(conn) != "postgres":
        return
    version = int(conn.execute("SELECT current_setting('server_version_num')").fetchone()[0])
    inserts = (
        ", autovacuum_vacuum_insert_scale_factor = 0, autovacuum_vacuum_insert_threshold = 1000"
        if version >= 130000  # the insert thresholds came with PostgreSQL 13
        else ""
    )
    present = tables(conn)
    for table in (t for t in CHURN_TABLES if t in present):
        conn.execute(
            f"ALTER TABLE {table} SET (autovacuum_vacuum_scale_factor = 0, "
            f"autovacuum_vacuum_threshold = {CHURN_VACUUM_THRESHOLD}{inserts})"
        )


def _reindex_recall(conn: Connection, before: int = 0) -> None:
    """Rebuild the recall index from the archived turns with the current tokenizer."""
    conn.execute("DELETE FROM recall_postings")
    conn.execute("DELETE FROM recall_docs")
    conn.execute("UPDATE thread_keys SET docs = 0, terms = 0")
    _backfill_recall(conn)


def _compact_v6(conn: Connection, before: int) -> None:
    """Rebuild the recall index of versions 3-5; on PostgreSQL, store costs as bytes.

    A file of version 1 or 2 has just had its index rebuilt (version 3's step).
    """
    if before >= 3:
        _reindex_recall(conn)
    if dialect(conn) == "postgres":
        conn.execute(
            "ALTER TABLE summary_costs ALTER COLUMN meta TYPE BYTEA USING convert_to(meta, 'UTF8')"
        )


def _rowid_archive_turns(conn: Connection, before: int = 0) -> None:
    """On SQLite, make `archive_turns` a rowid table (it was WITHOUT ROWID), rows kept.

    In a WITHOUT ROWID table a row longer than about a quarter of a page spills into an
    overflow page of its own: with 1 KiB pages (new files from version 9) nearly every
    archived turn waiting for its block did.
    """
    if dialect(conn) == "postgres":
        return
    conn.execute(
        "CREATE TABLE archive_turns_v9 (thread_id TEXT NOT NULL, turn INTEGER NOT NULL, "
        "messages BLOB, stats TEXT, PRIMARY KEY (thread_id, turn))"
    )
    conn.execute(
        "INSERT INTO archive_turns_v9 (thread_id, turn, messages, stats) "
        "SELECT thread_id, turn, messages, stats FROM archive_turns"
    )
    conn.execute("DROP TABLE archive_turns")
    conn.execute("ALTER TABLE archive_turns_v9 RENAME TO archive_turns")


INLINE_TABLES = ("archive_blocks", "checkpoint_turns", "checkpoint_blobs")
"""PostgreSQL tables whose rows (a few KB, compressed by the app) stay in the table
(version 9): moved out to TOAST, each took two chunks, an index entry each, and a toast
table's own free-space and visibility maps, for no gain (pglz cannot shrink them)."""


def _inline_rows(conn: Connection, before: int = 0) -> None:
    """On PostgreSQL, keep the rows of `INLINE_TABLES` up to a page long in the table."""
    if dialect(conn) != "postgres":
        return
    present = tables(conn)
    for table in (t for t in INLINE_TABLES if t in present):
        conn.execute(f"ALTER TABLE {table} SET (toast_tuple_target = 8160)")


def _version_9(conn: Connection, before: int = 0) -> None:
    _rowid_archive_turns(conn, before)
    _vacuum_churn(conn, before)
    _inline_rows(conn, before)


def _pack_blocks(conn: Connection, before: int = 0) -> None:
    """Pack every block of turns archived to its end (`graph.storage.blocks`)."""
    sealed = seal_archived(conn)
    if sealed:
        log.info("schema upgrade: packed %d blocks of archived turns", sealed)


UPGRADES: dict[int, tuple[str, Callable[[Connection, int], None] | None]] = {
    1: (V1, None),
    2: (V2, _backfill_recall),
    3: ("", _reindex_recall),
    4: (BLOBS_TABLE + V4, None),
    5: ("", _vacuum_churn),
    6: ("", _compact_v6),
    7: ("", _vacuum_churn),
    8: (BLOCKS_TABLE, _pack_blocks),
    9: (PACKS_TABLE, _version_9),
    10: ("", None),
    11: ("", None),
    12: ("", None),
}
"""Version -> (tables it adds, data it fills in given the version the file had), in order."""


def upgrade(conn: Connection) -> int:
    """Bring the file to SCHEMA_VERSION in one transaction; return the version it had.

    Two processes opening an old file at once do not both upgrade it: the version is read
    again under the write lock.
    """
    if conn.in_transaction:
        conn.commit()
    before = schema_version(conn)
    if before == SCHEMA_VERSION:
        return before
    try:
        begin_exclusive(conn)
        before = schema_version(conn)
        if before > SCHEMA_VERSION:
            raise SchemaError(
                f"this database has schema version {before}, newer than this app's "
                f"{SCHEMA_VERSION}; use a newer version of the app"
            )
        for version in range(before + 1, SCHEMA_VERSION + 1):
            text, fill = UPGRADES[version]
            if dialect(conn) == "postgres":
                # LangGraph's PostgreSQL saver makes its own checkpoint tables
                text = text.replace(BLOBS_TABLE, "")
            for statement in ddl(conn, text):
                conn.execute(statement)
            if fill is not None:
                fill(conn, before)
        conn.execute("DELETE FROM schema_version")
        conn.execute("INSERT INTO schema_version (version) VALUES (?)", (SCHEMA_VERSION,))
        conn.commit()
    except BaseException:
        conn.rollback()
        raise
    if before:
        log.info("database schema upgraded from version %d to %d", before, SCHEMA_VERSION)
    return before
