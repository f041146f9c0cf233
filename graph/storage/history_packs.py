"""A finished turn's checkpoints, packed into one compressed row (schema version 9).

A checkpoint after every node, kept for the last CHECKPOINT_KEEP_TURNS turns, is six or
seven checkpoint rows a turn and a row per changed value, each with its keys, its index
entries and its page's slack, and each compressed alone: on a 300-turn thread the 20
turns of history were half of the file. A finished turn's checkpoints never change, so
`HistoryPacks` moves them into one row of `checkpoint_turns`: every checkpoint of the
turn with all of its values (each value once, however many checkpoints use it).

A pack is compressed with zstd, using the turn before's pack as its dictionary: the
summaries, digests and recalled text one turn carries are mostly the turn before's, so
a pack costs about what its turn changed (1.5-2 KB, where a pack alone is 6-7 KB). The
oldest kept pack is stored alone (`base_turn` NULL): when the pack it was compressed
against is dropped, it is compressed again without it. Reading a pack inflates the
packs from the oldest kept one up to it (at most CHECKPOINT_KEEP_TURNS, each well under
a millisecond). From schema 11 a pack carries the CRC-32 of its raw bytes
(`graph.storage.zdict.with_checksum`): a damaged pack is left out by name, with those
built on it, never read as other checkpoints.

The live tables keep the newest turn's checkpoints and the checkpoint its arrival was
saved on (its base), with the values they use, so what a turn reads and writes on its
way through the nodes is the same as without packs. A pack holds its own turn's base
too, so when the turns before it are dropped, a fork from its arrival still starts from
the checkpoint before.

A pack, before compression: the length of the listing (4 bytes, big-endian), the listing
(JSON: each checkpoint's id, parent, time and metadata, oldest first), then the body
(LangGraph's serializer: each checkpoint without its values, the key of each of its
values, and the values by key).

Both savers (SQLite and PostgreSQL) share this code; each gives it its live reads and
its SQL (`?` placeholders, which the PostgreSQL saver turns into its own).
"""

from __future__ import annotations

import builtins
import json
import logging
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Any, NamedTuple, cast

import zstandard
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import (
    Checkpoint,
    CheckpointTuple,
    SerializerProtocol,
    get_checkpoint_id,
)

from graph.errors import StorageCorrupt
from graph.storage.packing import loads
from graph.storage.rows import CheckpointRow
from graph.storage.zdict import checked, with_checksum

log = logging.getLogger(__name__)

LEVEL = 3
"""zstd's level: 9 would make the 20 turns' packs a fifth smaller at twice the time."""

_HEAD = 4
"""Bytes of the listing's length at the start of a pack."""

Execute = Callable[[str, Sequence[Any]], Any]


def checkpoint_config(thread_id: str, ns: str, checkpoint_id: str) -> RunnableConfig:
    """The config that names one checkpoint."""
    return {
        "configurable": {
            "thread_id": thread_id,
            "checkpoint_ns": ns,
            "checkpoint_id": checkpoint_id,
        }
    }


def _parent_id(found: CheckpointTuple) -> str | None:
    parent = found.parent_config
    return str(parent["configurable"]["checkpoint_id"]) if parent else None


class Serialized(NamedTuple):
    """A channel value as the serializer wrote it, uncompressed: packed as it is."""

    type: str
    data: bytes


def encode_pack(serde: SerializerProtocol, found: Sequence[CheckpointTuple]) -> bytes:
    """The raw pack of `found` (oldest first): its listing, then the checkpoints and values.

    Values are serialized without compression of their own (`serde.inner` of the
    project's serializer): the pack is compressed as a whole.
    """
    serde = getattr(serde, "inner", serde)
    listing = []
    entries = []
    values: dict[str, tuple[str, bytes]] = {}
    for item in found:
        checkpoint = item.checkpoint
        versions = checkpoint["channel_versions"]
        refs = {}
        for channel, value in checkpoint["channel_values"].items():
            key = f"{channel}\x00{versions.get(channel, '')}"
            if key not in values:
                values[key] = (
                    (value.type, value.data)
                    if isinstance(value, Serialized)
                    else serde.dumps_typed(value)
                )
            refs[channel] = key
        entries.append(
            {
                "checkpoint": {
                    k: v for k, v in checkpoint.items() if k not in ("channel_values", "id", "ts")
                },
                "refs": refs,
            }
        )
        listing.append(
            {
                "id": checkpoint["id"],
                "parent": _parent_id(item),
                "ts": checkpoint.get("ts"),
                "metadata": dict(item.metadata or {}),
            }
        )
    head = json.dumps(listing, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    type_, data = serde.dumps_typed({"entries": entries, "values": values})
    if type_ != "msgpack":  # a dict of plain values always is; anything else would misread
        raise TypeError(f"a pack's body serialized as {type_!r}")
    return len(head).to_bytes(_HEAD, "big") + head + data


def pack_listing(raw: bytes) -> list[dict[str, Any]]:
    """The listing of a raw pack: each checkpoint's id, parent, ts and metadata.

    Raises:
        StorageCorrupt: the listing cannot be read (a pack of schema 9 or 10, which has
            no checksum, damaged).
    """
    size = int.from_bytes(raw[:_HEAD], "big")
    try:
        listing = json.loads(raw[_HEAD : _HEAD + size])
    except ValueError as exc:
        raise StorageCorrupt(f"a pack of checkpoints is damaged: {exc}") from exc
    if not isinstance(listing, list):
        raise StorageCorrupt("a pack of checkpoints is damaged: its listing is not a list")
    return listing


def decode_pack(
    serde: SerializerProtocol, thread_id: str, ns: str, raw: bytes
) -> list[CheckpointTuple]:
    """The checkpoints of a raw pack, oldest first, each with its values.

    Raises:
        StorageCorrupt: the pack is damaged.
    """
    try:
        return _decode_pack(serde, thread_id, ns, raw)
    except StorageCorrupt as exc:
        raise StorageCorrupt(f"thread {thread_id}: {exc}") from exc
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise StorageCorrupt(
            f"thread {thread_id}: a pack of checkpoints is damaged: {exc}"
        ) from exc


def _decode_pack(
    serde: SerializerProtocol, thread_id: str, ns: str, raw: bytes
) -> list[CheckpointTuple]:
    listing = pack_listing(raw)
    size = int.from_bytes(raw[:_HEAD], "big")
    body = serde.loads_typed(("msgpack", raw[_HEAD + size :]))
    loaded: dict[str, Any] = {}
    out = []
    for entry, listed in zip(body["entries"], listing, strict=True):
        channel_values = {}
        for channel, key in entry["refs"].items():
            if key not in loaded:
                type_, data = body["values"][key]
                loaded[key] = serde.loads_typed((type_, bytes(data)))
            channel_values[channel] = loaded[key]
        parent = listed["parent"]
        checkpoint = {
            **entry["checkpoint"],
            "id": listed["id"],
            "ts": listed["ts"],
            "channel_values": channel_values,
        }
        out.append(
            CheckpointTuple(
                config=checkpoint_config(thread_id, ns, listed["id"]),
                checkpoint=cast(Checkpoint, checkpoint),
                metadata=listed["metadata"],
                parent_config=checkpoint_config(thread_id, ns, parent) if parent else None,
                pending_writes=[],
            )
        )
    return out


def compress(raw: bytes, base: bytes | None) -> bytes:
    """A raw pack compressed, against the raw pack `base` when given, with its checksum."""
    if base is None:
        return with_checksum(zstandard.ZstdCompressor(level=LEVEL).compress(raw), raw)
    prefix = zstandard.ZstdCompressionDict(base, dict_type=zstandard.DICT_TYPE_RAWCONTENT)
    frame = zstandard.ZstdCompressor(level=LEVEL, dict_data=prefix).compress(raw)
    return with_checksum(frame, raw)


def decompress(data: bytes, base: bytes | None, what: str = "a pack of checkpoints") -> bytes:
    """A raw pack from `compress(raw, base)` (or from schema 9 or 10, without a checksum).

    Raises:
        StorageCorrupt: the pack is damaged; `what` names it.
    """
    if base is None:
        return checked(data, zstandard.ZstdDecompressor().decompress, what)
    prefix = zstandard.ZstdCompressionDict(base, dict_type=zstandard.DICT_TYPE_RAWCONTENT)
    return checked(data, zstandard.ZstdDecompressor(dict_data=prefix).decompress, what)


class PackRow(NamedTuple):
    """A stored pack; `pack` None when its bytes were not read (`size` says how many)."""

    turn: int
    first_id: str
    last_id: str
    base_turn: int | None
    pack: bytes | None
    size: int

    def signature(self) -> tuple[str, str, int | None, int]:
        """What tells this pack from another stored for the same turn (not its bytes)."""
        return self.first_id, self.last_id, self.base_turn, self.size


def inflate_packs(
    rows: Sequence[PackRow],
    wanted: set[int] | None = None,
    raws: dict[int, bytes] | None = None,
    fetch: Callable[[builtins.list[int]], dict[int, bytes]] | None = None,
) -> dict[int, bytes]:
    """The raw packs of `wanted` turns (all if None), and of the packs they build on.

    `rows` is every stored pack of the thread; `raws`, the raw packs known already, is
    filled in and returned; `fetch` reads the bytes of packs whose rows came without.
    A pack that cannot be inflated (the pack it builds on is missing, or its bytes are
    damaged) is left out with a warning, and so are those built on it: those turns'
    checkpoints are lost, no other.
    """
    by_turn = {r.turn: r for r in rows}
    raws = {} if raws is None else raws
    for turn in sorted(by_turn if wanted is None else wanted & by_turn.keys()):
        chain: builtins.list[PackRow] = []  # newest first
        at: int | None = turn
        while at is not None and at not in raws and at in by_turn:
            chain.append(by_turn[at])
            at = by_turn[at].base_turn
        if at is not None and at not in raws:
            log.warning("checkpoints of turn %d lost: the pack of turn %d is missing", turn, at)
            continue
        missing = [r.turn for r in chain if r.pack is None]
        fetched = fetch(missing) if missing and fetch is not None else {}
        for row in reversed(chain):
            base = raws[row.base_turn] if row.base_turn is not None else None
            try:
                data = row.pack if row.pack is not None else fetched.get(row.turn)
                if data is None:
                    raise StorageCorrupt("its bytes were not read")
                raws[row.turn] = decompress(data, base, f"the pack of turn {row.turn}")
            except StorageCorrupt as exc:
                log.warning("checkpoints of turn %d lost: its pack is damaged (%s)", row.turn, exc)
                break
    return raws


def _matches(metadata: Any, wanted: dict[str, Any] | None) -> bool:
    return not wanted or all(dict(metadata or {}).get(k) == v for k, v in wanted.items())


class Head(NamedTuple):
    """A thread's newest checkpoint as a turn's start looks at it: no channel values."""

    checkpoint_id: str
    metadata: dict[str, Any]
    writes: builtins.list[str]
    """The channels of its pending writes."""


class HistoryPacks:
    """Packing, reading and dropping a thread's finished turns; the savers give the rest."""

    serde: SerializerProtocol
    WRITES = "writes"
    """The table of pending writes (LangGraph's SQLite and PostgreSQL savers name it apart)."""

    _last_raw: dict[tuple[str, int], tuple[tuple[str, str, int | None, int], bytes]]
    """(thread, turn) -> (its `PackRow.signature`, raw pack) of the last pack made here per
    thread: the next turn's pack is compressed against it without inflating the chain."""
    _raw_lock: threading.Lock

    # what each saver provides
    def _turns(self, thread_id: str) -> builtins.list[CheckpointRow]:
        raise NotImplementedError

    def _live_get(self, config: RunnableConfig) -> CheckpointTuple | None:
        raise NotImplementedError

    def _live_list(
        self,
        config: RunnableConfig | None,
        filter: dict[str, Any] | None,
        before: RunnableConfig | None,
    ) -> builtins.list[CheckpointTuple]:
        raise NotImplementedError

    def _live_for_pack(
        self, thread_id: str, checkpoint_ids: Sequence[str]
    ) -> dict[str, CheckpointTuple]:
        """Live checkpoints to pack, by id (those found): values may be left `Serialized`."""
        found = (self._live_get(checkpoint_config(thread_id, "", c)) for c in checkpoint_ids)
        return {t.checkpoint["id"]: t for t in found if t is not None}

    def _live_history(self, thread_id: str) -> builtins.list[dict[str, Any]]:
        raise NotImplementedError

    def _read(self, sql: str, params: Sequence[Any]) -> builtins.list[tuple[Any, ...]]:
        raise NotImplementedError

    def _transaction_sql(self) -> AbstractContextManager[Execute]:
        raise NotImplementedError

    def _packed_versions_seen(self, thread_id: str, checkpoint_id: str) -> dict[str, Any]:
        """The versions_seen of a checkpoint that has no live row (read from its pack)."""
        found = self.get_tuple(checkpoint_config(thread_id, "", checkpoint_id))
        return dict(found.checkpoint.get("versions_seen", {})) if found else {}

    # the packs
    def _init_packs(self) -> None:
        self._last_raw = {}
        self._raw_lock = threading.Lock()

    def forget_packs(self, thread_id: str) -> None:
        """Forget the thread's pack remembered here: its rows were moved."""
        with self._raw_lock:
            for key in [k for k in self._last_raw if k[0] == thread_id]:
                del self._last_raw[key]

    def _pack_rows(self, thread_id: str, ns: str = "", data: bool = True) -> builtins.list[PackRow]:
        """The thread's stored packs in turn order; with `data` False, without their bytes."""
        column = "pack" if data else "NULL"
        return [
            PackRow(
                int(turn),
                str(first),
                str(last),
                None if base is None else int(base),
                None if pack is None else bytes(pack),
                int(size),
            )
            for turn, first, last, base, pack, size in self._read(
                f"SELECT turn, first_id, last_id, base_turn, {column}, length(pack) "
                "FROM checkpoint_turns WHERE thread_id = ? AND checkpoint_ns = ? ORDER BY turn",
                (thread_id, ns),
            )
        ]

    def _pack_bytes(self, thread_id: str, turns: builtins.list[int]) -> dict[int, bytes]:
        marks = ",".join("?" * len(turns))
        rows = self._read(
            "SELECT turn, pack FROM checkpoint_turns WHERE thread_id = ? AND checkpoint_ns = '' "
            f"AND turn IN ({marks})",
            (thread_id, *turns),
        )
        return {int(turn): bytes(pack) for turn, pack in rows}

    def _threads_with_packs(self, config: RunnableConfig | None) -> builtins.list[tuple[str, str]]:
        configurable = (config or {}).get("configurable", {})
        if configurable.get("thread_id") is not None:
            thread_id = str(configurable["thread_id"])
            if configurable.get("checkpoint_ns") is not None:
                return [(thread_id, str(configurable["checkpoint_ns"]))]
            rows = self._read(
                "SELECT DISTINCT checkpoint_ns FROM checkpoint_turns WHERE thread_id = ?",
                (thread_id,),
            )
            return [(thread_id, str(ns)) for (ns,) in rows]
        rows = self._read("SELECT DISTINCT thread_id, checkpoint_ns FROM checkpoint_turns", ())
        return [(str(t), str(ns)) for t, ns in rows]

    # reading
    def get_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        """A checkpoint by id (live or packed), or the thread's newest one."""
        found = self._live_get(config)
        checkpoint_id = get_checkpoint_id(config)
        if found is not None or not checkpoint_id:
            return found
        configurable = config["configurable"]
        thread_id = str(configurable["thread_id"])
        ns = str(configurable.get("checkpoint_ns", ""))
        rows = self._pack_rows(thread_id, ns)
        holding = {r.turn for r in rows if r.first_id <= checkpoint_id <= r.last_id}
        for turn, raw in inflate_packs(rows, holding).items():
            if turn in holding:
                for item in decode_pack(self.serde, thread_id, ns, raw):
                    if item.checkpoint["id"] == checkpoint_id:
                        return item
        return None

    def list(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> Iterator[CheckpointTuple]:
        """The checkpoints, live and packed, newest first, with their channel values."""
        found = {t.checkpoint["id"]: t for t in self._live_list(config, filter, before)}
        bound = get_checkpoint_id(before) if before else None
        for thread_id, ns in self._threads_with_packs(config):
            for raw in inflate_packs(self._pack_rows(thread_id, ns)).values():
                for item in decode_pack(self.serde, thread_id, ns, raw):
                    checkpoint_id = item.checkpoint["id"]
                    if (bound and checkpoint_id >= bound) or not _matches(item.metadata, filter):
                        continue
                    found.setdefault(checkpoint_id, item)
        ordered = sorted(found.values(), key=lambda t: t.checkpoint["id"], reverse=True)
        yield from ordered[:limit] if limit is not None else ordered

    def history(self, thread_id: str) -> builtins.list[dict[str, Any]]:
        """The thread's checkpoints, live and packed, newest first, without their values.

        Each: id, parent, time, metadata, and whether a pause for approval waits there.
        """
        rows = {r["checkpoint_id"]: r for r in self._live_history(thread_id)}
        for raw in inflate_packs(self._pack_rows(thread_id)).values():
            for listed in pack_listing(raw):
                rows.setdefault(
                    listed["id"],
                    {
                        "checkpoint_id": listed["id"],
                        "parent_id": listed["parent"],
                        "ts": listed["ts"],
                        "metadata": listed["metadata"],
                        "pending_approval": False,
                    },
                )
        return sorted(rows.values(), key=lambda r: str(r["checkpoint_id"]), reverse=True)

    def head(self, thread_id: str) -> Head | None:
        """The thread's newest checkpoint: its id, metadata and pending writes' channels.

        Two small queries, no value read: a turn's start only asks what the last process
        left there (`graph.session.settle.settle_head`).
        """
        rows = self._read(
            "SELECT checkpoint_id, metadata FROM checkpoints WHERE thread_id = ? "
            "AND checkpoint_ns = '' ORDER BY checkpoint_id DESC LIMIT 1",
            (thread_id,),
        )
        if not rows:
            return None
        checkpoint_id, metadata = rows[0]
        writes = self._read(
            f"SELECT channel FROM {self.WRITES} WHERE thread_id = ? AND checkpoint_ns = '' "
            "AND checkpoint_id = ?",
            (thread_id, checkpoint_id),
        )
        loaded = (
            loads(metadata, "a checkpoint's metadata")
            if isinstance(metadata, (str, bytes))
            else metadata
        )
        return Head(str(checkpoint_id), dict(loaded or {}), [str(r[0]) for r in writes])

    # packing and pruning
    def prune_turns(self, thread_id: str, keep_turns: int) -> int:
        """Pack the finished turns, keep the last `keep_turns` turns; return how many went.

        `keep_turns` 0 keeps all. The newest turn's checkpoints and its base stay live,
        with the values they use; each earlier turn goes into its pack (joined with the
        pack it already has, when a turn got more checkpoints later). Packs of turns
        before the last `keep_turns` are dropped. The count is of the checkpoints no pack
        or live row holds any more.
        """
        rows = self._turns(thread_id)
        if not rows:
            return 0
        newest = max(rows)
        last_turn = newest.turn
        arrival = min(r for r in rows if r.turn == last_turn)
        live_ids = {r.checkpoint_id for r in rows}
        keep_from = arrival.parent if arrival.parent in live_ids else arrival.checkpoint_id
        stored = self._pack_rows(thread_id, data=False)  # bytes read only as needed
        raws = self._known_raws(thread_id, stored)

        def fetch(turns: builtins.list[int]) -> dict[int, bytes]:
            return self._pack_bytes(thread_id, turns)

        def raw_of(turn: int) -> bytes | None:
            if turn not in raws:
                inflate_packs(stored, {turn}, raws, fetch)
            return raws.get(turn)

        fresh: set[int] = set()
        for turn in sorted({r.turn for r in rows if r.turn < last_turn}):
            made = self._pack_turn(thread_id, turn, rows, stored, raw_of)
            if made is not None:
                raws[turn] = made
                fresh.add(turn)
        turns = sorted({r.turn for r in stored} | fresh)
        cutoff = last_turn - keep_turns + 1 if keep_turns > 0 else min(turns, default=0)
        kept = [t for t in turns if t >= cutoff]
        was = {r.turn: r.base_turn for r in stored}
        writes: list[PackRow] = []
        lost: list[int] = []  # kept packs that cannot be read (`inflate_packs`): deleted
        before: int | None = None
        for turn in kept:
            if turn not in fresh and turn in was and was[turn] == before:
                before = turn
                continue  # stored as it should be
            raw = raw_of(turn)
            base = None if before is None else raw_of(before)
            if raw is None or (before is not None and base is None):
                lost.append(turn)
                continue
            listing = pack_listing(raw)
            packed = compress(raw, base)
            writes.append(
                PackRow(turn, listing[0]["id"], listing[-1]["id"], before, packed, len(packed))
            )
            before = turn
        kept = [t for t in kept if t not in lost]
        # packs share no checkpoint but a turn's base, which the next pack holds too
        held = {r.checkpoint_id for r in rows if r.checkpoint_id >= keep_from}
        first = raw_of(kept[0]) if kept else None
        held |= {x["id"] for x in pack_listing(first)} if first else set()
        dropped = (raw_of(t) for t in was if t < cutoff)
        gone = {x["id"] for raw in dropped if raw for x in pack_listing(raw)} - held
        with self._transaction_sql() as execute:
            for turn in lost:
                execute(
                    "DELETE FROM checkpoint_turns WHERE thread_id = ? AND checkpoint_ns = '' "
                    "AND turn = ?",
                    (thread_id, turn),
                )
            for row in writes:
                execute(
                    "INSERT INTO checkpoint_turns "
                    "(thread_id, checkpoint_ns, turn, first_id, last_id, base_turn, pack) "
                    "VALUES (?, '', ?, ?, ?, ?, ?) ON CONFLICT (thread_id, checkpoint_ns, turn) "
                    "DO UPDATE SET first_id = excluded.first_id, last_id = excluded.last_id, "
                    "base_turn = excluded.base_turn, pack = excluded.pack",
                    (thread_id, row.turn, row.first_id, row.last_id, row.base_turn, row.pack),
                )
            execute(
                "DELETE FROM checkpoint_turns WHERE thread_id = ? AND checkpoint_ns = '' "
                "AND turn < ?",
                (thread_id, cutoff),
            )
            self._drop_live(execute, thread_id, keep_from, newest.checkpoint_id)
        newest_pack = next((w for w in writes if w.turn == kept[-1]), None) if kept else None
        if newest_pack is not None:
            self._remember_raw(thread_id, newest_pack, raws[newest_pack.turn])
        return len(gone)

    def _known_raws(self, thread_id: str, stored: Sequence[PackRow]) -> dict[int, bytes]:
        """The raw pack remembered from this thread's last prune here, if still stored."""
        if not stored:
            return {}
        newest = stored[-1]
        with self._raw_lock:
            known = self._last_raw.get((thread_id, newest.turn))
        return {newest.turn: known[1]} if known and known[0] == newest.signature() else {}

    def _remember_raw(self, thread_id: str, row: PackRow, raw: bytes) -> None:
        with self._raw_lock:
            for key in [k for k in self._last_raw if k[0] == thread_id]:
                del self._last_raw[key]
            if len(self._last_raw) >= 64:  # a bound: one entry per thread written lately
                self._last_raw.pop(next(iter(self._last_raw)))
            self._last_raw[(thread_id, row.turn)] = (row.signature(), raw)

    def _pack_turn(
        self,
        thread_id: str,
        turn: int,
        rows: Sequence[CheckpointRow],
        stored: Sequence[PackRow],
        raw_of: Callable[[int], bytes | None],
    ) -> bytes | None:
        """The raw pack of a finished turn's live checkpoints, or None if nothing is new.

        None for a turn whose live rows its pack already holds (the newest turn's base).
        A turn packed before keeps what its pack held. Its base, the checkpoint its
        arrival was saved on, goes first.
        """
        own = sorted(r for r in rows if r.turn == turn)
        found: dict[str, CheckpointTuple] = {}
        packed = raw_of(turn) if any(r.turn == turn for r in stored) else None
        if packed is not None:  # (a pack that cannot be read is made again)
            held = {x["id"] for x in pack_listing(packed)}
            if {r.checkpoint_id for r in own} <= held:
                return None
            found.update(
                (t.checkpoint["id"], t) for t in decode_pack(self.serde, thread_id, "", packed)
            )
        base = own[0].parent
        wanted = [r.checkpoint_id for r in own] + ([base] if base and base not in found else [])
        found.update(self._live_for_pack(thread_id, wanted))
        if base and base not in found:
            item = self.get_tuple(checkpoint_config(thread_id, "", base))
            if item is not None:
                found[base] = item
        if not found:
            return None
        return encode_pack(self.serde, [found[k] for k in sorted(found)])

    def _drop_live(self, execute: Execute, thread_id: str, keep_from: str, newest: str) -> None:
        """Delete the live rows before `keep_from`, and the writes of all but `newest`.

        A checkpoint's pending writes are its next step's results, which the step's own
        checkpoint holds once it is saved: only the newest one's are still pending (a
        pause for approval, an error). A fork re-runs the steps after it. Then each
        channel's values older than `keep_from`'s version of it (`_drop_values`): a
        thread's history is a line (a fork makes a new thread), so no live checkpoint
        uses them, and each pack holds its own.
        """
        execute(
            f"DELETE FROM {self.WRITES} WHERE thread_id = ? AND checkpoint_ns = '' "
            "AND checkpoint_id < ?",
            (thread_id, newest),
        )
        deleted = execute(
            "DELETE FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = '' "
            "AND checkpoint_id < ?",
            (thread_id, keep_from),
        ).rowcount
        if deleted:
            self._drop_values(execute, thread_id, keep_from)

    def _drop_values(self, execute: Execute, thread_id: str, keep_from: str) -> None:
        raise NotImplementedError

    def _delete_packs(self, thread_id: str) -> None:
        with self._transaction_sql() as execute:
            execute("DELETE FROM checkpoint_turns WHERE thread_id = ?", (str(thread_id),))
        with self._raw_lock:
            for key in [k for k in self._last_raw if k[0] == str(thread_id)]:
                del self._last_raw[key]
