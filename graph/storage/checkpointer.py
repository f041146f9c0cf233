"""The checkpointer: LangGraph's SQLite saver, storing each channel value once, compressed.

LangGraph's `SqliteSaver` writes the whole state into every checkpoint. With a checkpoint
after every node (so a fork can start before or after the summary, the model or a tool)
that would repeat the unchanged channels six or seven times a turn. `ChatSaver` keeps the
layout of LangGraph's PostgreSQL saver instead: a checkpoint row holds the channel
*versions* (and the few values so small that a row of their own would cost more), and each
other channel value is stored once per version in `checkpoint_blobs`, so a node that
changes one field writes that field alone. Values and pending writes are
compressed with a preset dictionary of the state's field names (`CompressedSerializer`).
Those rows are the newest turn's: once a turn is finished, its checkpoints move into one
compressed row (`graph.storage.history_packs`, shared with the PostgreSQL saver).

Each checkpoint's metadata also carries seed 001's fields: `node` (the node that just ran,
`__start__` once the user's message is in, `input` before it, `update` for a change made
outside the graph, `fork` for a forked thread's first checkpoint), `turn`,
`route`, `error_code` and `safeguard_label`, read from the state it saves (an arrival's
`turn` is the one its message opens). Pruning keeps the checkpoint before the oldest kept
arrival (in that turn's pack), so a fork from any listed checkpoint works.

Checkpoints written by earlier versions (the whole state in the row before schema version 4,
every value as a blob in versions 4 and 5) are read as before. From schema 11 a compressed
value carries a checksum (`graph.storage.zdict.with_checksum`); a damaged value, with a
checksum or without, is named as `StorageCorrupt` where it is read.
"""

from __future__ import annotations

import builtins
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar, cast

from langchain_core.messages import AIMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import (
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
    SerializerProtocol,
    get_checkpoint_id,
)
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.checkpoint.sqlite import SqliteSaver

from graph.errors import StorageCorrupt
from graph.storage.history_packs import (
    Execute,
    HistoryPacks,
    Serialized,
    checkpoint_config,
)
from graph.storage.packing import loads
from graph.storage.rows import BLOBS_TABLE, PACKS_TABLE, CheckpointRow, checkpoint_row
from graph.storage.zdict import DECODE_ERRORS, checked, inflate, zcompress, zdecompress

T = TypeVar("T")

COMPRESS_FROM = 32
"""Serialized values from this many bytes on are compressed (smaller ones would not gain)."""

INLINE_UNDER = 32
"""Strings shorter than this many bytes (UTF-8) are kept in the checkpoint row."""


def inline_value(value: Any) -> bool:
    """Whether a channel value is kept in the checkpoint row rather than as a blob.

    A flag, a number, a short string or an empty list or map: a blob row of its own would
    cost more in keys and index than the value. Decided by the value's type and length
    alone, never by serializing it, so a put does not serialize the channels it does not
    change (a long thread's summary digests would cost a millisecond a put).
    """
    if value is None or isinstance(value, (bool, int, float)):
        return True
    if isinstance(value, str):
        return len(value) < INLINE_UNDER and len(value.encode("utf-8")) < INLINE_UNDER
    return isinstance(value, (list, dict, tuple)) and not value


EMPTY = "saver:empty"
"""The key, among a row's channel values, of the channels that have no value (a name no
channel of a graph takes: LangGraph's have no colon after a plain word but `branch:to:`)."""

_Z = "+z"
"""Suffix of the type of a value compressed with zlib (`graph.storage.zdict`, schema 9 and
before)."""
_ZS = "+zs"
"""Suffix of the type of a value compressed with zstd and the same preset dictionary."""

FORK_SOURCE = "fork"
"""The `source` in the metadata of a forked thread's first checkpoint."""

INTERRUPT = "__interrupt__"
"""The channel of a pause's pending write (LangGraph's, private there since 1.0)."""
UNSETTLED = frozenset({INTERRUPT, "__error__", "__resume__"})
"""Pending-write channels of a step that has not finished: a pause, a failure, an answer to
a pause not yet acted on (LangGraph's, private there)."""

_NODES_IGNORED = frozenset({"__input__"})


class CompressedSerializer(SerializerProtocol):
    """LangGraph's serializer, with values from COMPRESS_FROM bytes on compressed.

    zstd with the preset dictionary of `graph.storage.zdict` (channel names, message
    fields): a checkpoint row of channel versions shrinks by a third more than without it.
    Values compressed with zlib (schema 9 and before), or not at all, load as they are.
    """

    def __init__(self, inner: SerializerProtocol | None = None) -> None:
        self.inner = inner or JsonPlusSerializer()

    def dumps_typed(self, obj: Any) -> tuple[str, bytes]:
        """Serialize, then compress when it pays."""
        type_, data = self.inner.dumps_typed(obj)
        if len(data) >= COMPRESS_FROM:
            packed = zcompress(data)
            if len(packed) < len(data):
                return type_ + _ZS, packed
        return type_, data

    def loads_typed(self, data: tuple[str, bytes]) -> Any:
        """Decompress if compressed (checking its checksum), then deserialize.

        Raises:
            StorageCorrupt: the value is damaged (never a zstd, zlib or msgpack error).
        """
        type_, raw = raw_value(*data)
        try:
            return self.inner.loads_typed((type_, raw))
        except _MISREAD as exc:
            # bytes that decompressed (a value without a checksum) but are not what was
            # written: whatever the deserializer makes of them is damage, named here
            raise StorageCorrupt(f"a checkpoint value ({type_}) is damaged: {exc}") from exc


_MISREAD: tuple[type[Exception], ...] = (
    *DECODE_ERRORS,
    TypeError,
    KeyError,
    AttributeError,
    ImportError,
)
"""What deserializing bytes that are not what was written raises."""


_METADATA = "a checkpoint's metadata"


def raw_value(type_: str, blob: bytes, what: str = "a checkpoint value") -> tuple[str, bytes]:
    """A stored value's serializer type and bytes, decompressed.

    Raises:
        StorageCorrupt: the value is damaged; `what` names it.
    """
    if type_.endswith(_ZS):
        return type_[: -len(_ZS)], zdecompress(bytes(blob), what)
    if type_.endswith(_Z):
        return type_[: -len(_Z)], checked(bytes(blob), inflate, what)
    return type_, bytes(blob)


def _named(config: RunnableConfig, read: Callable[[], T]) -> T:
    """`read()`, LangGraph's own reading of checkpoint rows, with damage named.

    Raises:
        StorageCorrupt: a row's metadata or checkpoint does not decode.
    """
    try:
        return read()
    except StorageCorrupt as exc:
        thread = config.get("configurable", {}).get("thread_id")
        raise StorageCorrupt(f"thread {thread}: {exc}") from exc
    except _MISREAD as exc:
        thread = config.get("configurable", {}).get("thread_id")
        raise StorageCorrupt(f"thread {thread}: a checkpoint row is damaged: {exc}") from exc


def _pairs(count: int) -> str:
    """SQL for `count` (channel, version) pairs."""
    return "VALUES " + ",".join(["(?, ?)"] * count)


def _turn_of(values: Mapping[str, Any]) -> int | None:
    turn = values.get("turn_count")
    return int(turn) if isinstance(turn, int) else None


def _error_code(values: Mapping[str, Any]) -> str | None:
    messages = values.get("messages") or []
    last = messages[-1] if messages else None
    if isinstance(last, AIMessage) and not last.tool_calls:
        code = last.response_metadata.get("error_code")
        return str(code) if code else None
    return None


class ChatMetadata:
    """What both of the project's savers add to LangGraph's.

    Seed 001's metadata, a plain version counter, and the last checkpoint put per thread.
    """

    def __init__(self) -> None:
        self._last: dict[str, tuple[str, dict[str, Any]]] = {}
        """thread -> (checkpoint id, versions_seen) of its last put here. A put on top of it
        names its node from it and knows all of its values stored; any other put reads its
        parent's row and looks for values it lacks (a fork, a file of schema 3, another
        process's checkpoint)."""
        self._last_lock = threading.Lock()

    def _versions_seen(self, thread_id: str, checkpoint_id: str) -> dict[str, Any]:
        raise NotImplementedError

    def _take_last(self, thread_id: str, ns: str, parent: str) -> dict[str, Any] | None:
        """The versions_seen of `parent` if it is this thread's last put here, else None.

        Forgotten until this put is saved.
        """
        with self._last_lock:
            last = self._last.pop(thread_id, None)
        return last[1] if ns == "" and last is not None and last[0] == parent else None

    def _with_metadata(
        self, config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata
    ) -> tuple[str, str, dict[str, Any], bool]:
        """A put's thread, namespace, metadata (seed 001's fields added), and `on_last`.

        `on_last`: the put goes on from this thread's last put here.
        """
        thread_id = str(config["configurable"]["thread_id"])
        ns = str(config["configurable"].get("checkpoint_ns", ""))
        parent = str(config["configurable"].get("checkpoint_id") or "")
        parent_seen = self._take_last(thread_id, ns, parent)
        meta = dict(metadata)
        meta.update(self._describe(thread_id, parent, parent_seen, checkpoint, meta))
        return thread_id, ns, meta, parent_seen is not None

    def _remember(self, thread_id: str, ns: str, checkpoint: Checkpoint) -> None:
        if ns == "":
            seen = {k: dict(v) for k, v in checkpoint.get("versions_seen", {}).items()}
            with self._last_lock:
                self._last[thread_id] = (checkpoint["id"], seen)

    def _forget(self, thread_id: str) -> None:
        with self._last_lock:
            self._last.pop(thread_id, None)

    def forget_thread(self, thread_id: str) -> None:
        """Forget the thread's last put here: its rows were moved (`archive.move_rows`)."""
        self._forget(thread_id)

    def _describe(
        self,
        thread_id: str,
        parent: str,
        parent_seen: dict[str, Any] | None,
        checkpoint: Checkpoint,
        meta: Mapping[str, Any],
    ) -> dict[str, Any]:
        """Seed 001's metadata of a checkpoint: node, turn, route, error_code, safeguard_label.

        The node is the one whose entry in versions_seen changed since the parent's
        (`parent_seen` when known, else read from the parent's row).
        """
        values = checkpoint["channel_values"]
        source = meta.get("source")
        if source == "input":
            node = "input"
        elif source == "loop":
            before = (
                parent_seen if parent_seen is not None else self._versions_seen(thread_id, parent)
            )
            seen = checkpoint.get("versions_seen", {})
            ran = [n for n, v in seen.items() if n not in _NODES_IGNORED and before.get(n) != v]
            node = ",".join(sorted(ran)) if ran else "loop"
        else:
            node = str(source or "")
        described: dict[str, Any] = {"node": node}
        arriving = values.get("__start__") if source == "input" else None
        # a message's arrival belongs to the turn it opens (its state is the turn before)
        turn = _turn_of(arriving if isinstance(arriving, Mapping) else values)
        if turn is not None:
            described["turn"] = turn
        if values.get("route"):
            described["route"] = str(values["route"])
        safeguard = values.get("safeguard") or {}
        if not isinstance(safeguard, Mapping):
            safeguard = {}
        if safeguard.get("label"):
            described["safeguard_label"] = str(safeguard["label"])
        # the answer's failure, else the code of the safeguard's label (masked, warned)
        code = _error_code(values) or safeguard.get("error_code")
        if code:
            described["error_code"] = code
        covered = [int(e["turns"][-1]) for e in values.get("summary_history") or []]
        if covered:
            described["summarized_to"] = max(covered)
        return described

    def get_next_version(self, current: str | None, channel: None) -> str:
        """The next version of a channel: a zero-padded counter.

        LangGraph's SQLite saver adds a 16-digit random fraction to tell branches of one
        thread apart; here a thread's history is a line (a fork is a new thread), and the
        fraction would be most of a checkpoint row that keeps versions only. A newer
        version still sorts after an older one of either form.
        """
        if current is None:
            number = 0
        elif isinstance(current, int):
            number = current
        else:
            number = int(str(current).split(".")[0])
        return f"{number + 1:08d}"


def _stored_apart(checkpoint: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """A checkpoint row's own values, and the (channel -> version) of those stored apart.

    Version 6 on: the small values in the row and the names of the empty channels, the
    others as blobs; before version 4 every value is in the row; versions 4 and 5 store
    every value (or its absence) as a blob.
    """
    values = dict(checkpoint["channel_values"])
    if EMPTY in values:
        empty = set(values.pop(EMPTY))
    elif values:
        return values, {}
    else:
        empty = set()
    wanted = {
        ch: str(v)
        for ch, v in checkpoint["channel_versions"].items()
        if ch not in values and ch not in empty
    }
    return values, wanted


def _blob_rows(
    cur: sqlite3.Cursor, thread_id: str, ns: str, keys: Sequence[tuple[str, str]]
) -> builtins.list[tuple[str, str, str, bytes]]:
    """(channel, version, type, blob) of the `keys` stored in `checkpoint_blobs`."""
    found: builtins.list[tuple[str, str, str, bytes]] = []
    for start in range(0, len(keys), 200):
        chunk = keys[start : start + 200]
        found += cur.execute(
            "SELECT channel, version, type, blob FROM checkpoint_blobs WHERE thread_id = ? AND "
            f"checkpoint_ns = ? AND (channel, version) IN ({_pairs(len(chunk))})",
            (thread_id, ns, *(x for pair in chunk for x in pair)),
        ).fetchall()
    return found


class ChatSaver(HistoryPacks, ChatMetadata, SqliteSaver):
    """SqliteSaver with per-channel blobs, compression, seed 001's checkpoint metadata.

    Finished turns are packed (`graph.storage.history_packs`).
    """

    def __init__(self, conn: sqlite3.Connection) -> None:
        SqliteSaver.__init__(self, conn, serde=CompressedSerializer())
        ChatMetadata.__init__(self)
        self._init_packs()

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()

    def setup(self) -> None:
        """LangGraph's tables, the blob table and the table of packed turns."""
        if self.is_setup:
            return
        super().setup()
        self.conn.executescript(BLOBS_TABLE + PACKS_TABLE)

    # writing
    def put(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        """Save the changed channels' large values as blobs; the rest goes in the row.

        A small value (`inline_value`: a flag, a number, a short string) and the names
        of the channels without a value go in the checkpoint row itself, as LangGraph's
        PostgreSQL saver keeps its primitives: a blob row of its own would cost more in
        keys and index than the value. Only the changed channels are serialized.
        """
        thread_id, ns, meta, on_last = self._with_metadata(config, checkpoint, metadata)
        values = checkpoint["channel_values"]
        versions = checkpoint["channel_versions"]
        inline: dict[str, Any] = {}
        blobs: dict[str, tuple[str, bytes]] = {}
        for ch in versions:
            if ch not in values:
                continue
            if inline_value(values[ch]):
                inline[ch] = values[ch]
            elif ch in new_versions:
                blobs[ch] = self.serde.dumps_typed(values[ch])
        inline[EMPTY] = sorted(ch for ch in versions if ch not in values)
        # on top of an unknown checkpoint, unchanged values may never have been stored here
        unchanged = {
            ch: str(versions[ch])
            for ch in values
            if ch in versions and ch not in inline and ch not in new_versions
        }
        with self.cursor() as cur:
            if unchanged and not on_last:
                for ch in self._missing(cur, thread_id, ns, unchanged):
                    blobs[ch] = self.serde.dumps_typed(values[ch])
            cur.executemany(
                "INSERT OR REPLACE INTO checkpoint_blobs "
                "(thread_id, checkpoint_ns, channel, version, type, blob) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (thread_id, ns, ch, str(versions[ch]), type_, blob)
                    for ch, (type_, blob) in blobs.items()
                ],
            )
        bare: Checkpoint = {**checkpoint, "channel_values": inline}
        saved = super().put(config, bare, cast(CheckpointMetadata, meta), new_versions)
        self._remember(thread_id, ns, checkpoint)
        return saved

    @staticmethod
    def _missing(
        cur: sqlite3.Cursor, thread_id: str, ns: str, channels: Mapping[str, str]
    ) -> dict[str, str]:
        keys = list(channels.items())
        stored = {(ch, v) for ch, v, *_ in _blob_rows(cur, thread_id, ns, keys)}
        return {ch: v for ch, v in keys if (ch, v) not in stored}

    def _versions_seen(self, thread_id: str, checkpoint_id: str) -> dict[str, Any]:
        """A saved checkpoint's versions_seen (a live row alone: its values are not read)."""
        with self.cursor(transaction=False) as cur:
            row = cur.execute(
                "SELECT type, checkpoint FROM checkpoints WHERE thread_id = ? AND "
                "checkpoint_ns = '' AND checkpoint_id = ?",
                (thread_id, checkpoint_id),
            ).fetchone()
        if row is None:
            return self._packed_versions_seen(thread_id, checkpoint_id)
        return dict(self.serde.loads_typed((row[0], row[1])).get("versions_seen", {}))

    def _live_history(self, thread_id: str) -> builtins.list[dict[str, Any]]:
        with self.cursor(transaction=False) as cur:
            rows = cur.execute(
                "SELECT checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata "
                "FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = '' "
                "ORDER BY checkpoint_id DESC",
                (thread_id,),
            ).fetchall()
            paused = {
                r[0]
                for r in cur.execute(
                    "SELECT DISTINCT checkpoint_id FROM writes WHERE thread_id = ? AND "
                    "checkpoint_ns = '' AND channel = ?",
                    (thread_id, INTERRUPT),
                )
            }
        out = []
        for checkpoint_id, parent, type_, blob, metadata in rows:
            checkpoint = self.serde.loads_typed((type_, blob))
            out.append(
                {
                    "checkpoint_id": checkpoint_id,
                    "parent_id": parent,
                    "ts": checkpoint.get("ts"),
                    "metadata": loads(metadata, _METADATA) if metadata else {},
                    "pending_approval": checkpoint_id in paused,
                }
            )
        return out

    def delete_checkpoint(self, thread_id: str, checkpoint_id: str) -> None:
        """Delete one live checkpoint row and its pending writes (its values stay for others)."""
        self._forget(thread_id)
        with self.cursor() as cur:
            cur.execute(
                "DELETE FROM writes WHERE thread_id = ? AND checkpoint_id = ?",
                (thread_id, checkpoint_id),
            )
            cur.execute(
                "DELETE FROM checkpoints WHERE thread_id = ? AND checkpoint_id = ?",
                (thread_id, checkpoint_id),
            )

    # reading
    def _live_get(self, config: RunnableConfig) -> CheckpointTuple | None:
        """A live checkpoint with its channel values put back together.

        The row and its values are read one after the other: a checkpoint pruned in between
        is not found (None), and the newest one is read again (pruning never takes it).
        """
        for _ in range(3):
            found = _named(config, lambda: SqliteSaver.get_tuple(self, config))
            if found is None:
                return None
            filled = self._filled(found)
            if filled is not None:
                return filled
            if get_checkpoint_id(config):
                return None
        return None

    def _live_for_pack(
        self, thread_id: str, checkpoint_ids: Sequence[str]
    ) -> dict[str, CheckpointTuple]:
        """Live checkpoints by id, their stored values `Serialized`, not loaded (for a pack).

        Two queries for all of them: the rows, then every value they use.
        """
        ids = sorted(set(checkpoint_ids))
        if not ids:
            return {}
        with self.cursor(transaction=False) as cur:
            rows = cur.execute(
                "SELECT checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata "
                "FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = '' AND checkpoint_id "
                f"IN ({','.join('?' * len(ids))})",
                (thread_id, *ids),
            ).fetchall()
        checkpoints: dict[str, tuple[dict[str, Any], Any, str | None]] = {}
        wanted: set[tuple[str, str]] = set()
        for checkpoint_id, parent, type_, blob, metadata in rows:
            checkpoint = self.serde.loads_typed((type_, blob))
            values, keys = _stored_apart(checkpoint)
            checkpoints[checkpoint_id] = (
                {**checkpoint, "channel_values": values},
                metadata,
                parent,
            )
            wanted.update(keys.items())
        with self.cursor(transaction=False) as cur:
            stored = {
                (channel, version): Serialized(*raw_value(type_, blob))
                for channel, version, type_, blob in _blob_rows(cur, thread_id, "", sorted(wanted))
                if type_ != "empty"
            }
        out = {}
        for checkpoint_id, (checkpoint, metadata, parent) in checkpoints.items():
            values = checkpoint["channel_values"]
            for ch, v in checkpoint["channel_versions"].items():
                if (ch, str(v)) in stored and ch not in values:
                    values[ch] = stored[ch, str(v)]
            out[checkpoint_id] = CheckpointTuple(
                config=checkpoint_config(thread_id, "", checkpoint_id),
                checkpoint=cast(Checkpoint, checkpoint),
                metadata=loads(metadata, _METADATA) if metadata else {},
                parent_config=checkpoint_config(thread_id, "", parent) if parent else None,
                pending_writes=[],
            )
        return out

    def _live_list(
        self,
        config: RunnableConfig | None,
        filter: dict[str, Any] | None,
        before: RunnableConfig | None,
    ) -> builtins.list[CheckpointTuple]:
        # read all rows first: the base class holds the connection's lock while it yields
        rows = _named(
            config or {},
            lambda: builtins.list(SqliteSaver.list(self, config, filter=filter, before=before)),
        )
        filled = (self._filled(found) for found in rows)
        return [f for f in filled if f is not None]  # None: pruned while it was read

    def _filled(self, found: CheckpointTuple) -> CheckpointTuple | None:
        checkpoint = found.checkpoint
        values, wanted = _stored_apart(checkpoint)
        if not wanted:
            return found._replace(checkpoint={**checkpoint, "channel_values": values})
        configurable = found.config["configurable"]
        with self.cursor(transaction=False) as cur:
            rows = _blob_rows(
                cur,
                str(configurable["thread_id"]),
                str(configurable.get("checkpoint_ns", "")),
                builtins.list(wanted.items()),
            )
        if len(rows) < len(wanted):
            return None  # some of its values were pruned after its row was read
        for channel, _, type_, blob in rows:
            if type_ != "empty":
                try:
                    values[channel] = self.serde.loads_typed((type_, blob))
                except StorageCorrupt as exc:
                    raise StorageCorrupt(
                        f"thread {configurable['thread_id']}, checkpoint "
                        f"{checkpoint['id']}, channel {channel}: {exc}"
                    ) from exc
        return found._replace(checkpoint={**checkpoint, "channel_values": values})

    def _read(self, sql: str, params: Sequence[Any]) -> builtins.list[tuple[Any, ...]]:
        with self.cursor(transaction=False) as cur:
            return [tuple(r) for r in cur.execute(sql, tuple(params)).fetchall()]

    @contextmanager
    def _transaction_sql(self) -> Iterator[Execute]:
        with self.cursor() as cur:
            yield lambda sql, params: cur.execute(sql, tuple(params))

    # deleting
    def delete_thread(self, thread_id: str) -> None:
        """Delete the thread's checkpoints, writes, blobs and packed turns."""
        super().delete_thread(thread_id)
        with self.cursor() as cur:
            cur.execute("DELETE FROM checkpoint_blobs WHERE thread_id = ?", (str(thread_id),))
        self._delete_packs(thread_id)
        self._forget(str(thread_id))

    def _drop_values(self, execute: Execute, thread_id: str, keep_from: str) -> None:
        """Each channel's values older than `keep_from`'s version of it."""
        row = execute(
            "SELECT type, checkpoint FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = '' "
            "AND checkpoint_id = ?",
            (thread_id, keep_from),
        ).fetchone()
        if row is None:
            return
        versions = self.serde.loads_typed((row[0], row[1]))["channel_versions"]
        for channel, version in versions.items():
            execute(
                "DELETE FROM checkpoint_blobs WHERE thread_id = ? AND checkpoint_ns = '' "
                "AND channel = ? AND version < ?",
                (thread_id, channel, str(version)),
            )

    def _turns(self, thread_id: str) -> builtins.list[CheckpointRow]:
        """The thread's live checkpoints as `CheckpointRow`s; unknown turns count as 0."""
        with self.cursor(transaction=False) as cur:
            rows = cur.execute(
                "SELECT checkpoint_id, metadata, parent_checkpoint_id FROM checkpoints "
                "WHERE thread_id = ? AND checkpoint_ns = ''",
                (thread_id,),
            ).fetchall()
        return [
            checkpoint_row(checkpoint_id, loads(metadata, _METADATA) if metadata else {}, parent)
            for checkpoint_id, metadata, parent in rows
        ]


METADATA_KEYS = (
    "node",
    "turn",
    "route",
    "error_code",
    "safeguard_label",
    "summarized_to",
    "source",
    "step",
)
"""The metadata fields a checkpoint listing shows: seed 001's, then LangGraph's."""
