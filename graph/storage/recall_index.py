"""The recall index: which archived turns of a thread contain which search terms.

An inverted index in plain tables (`recall_postings`, `recall_docs`), kept
in the conversation's own database and written in the same transaction as the archived
turn, so any process can recall any thread and nothing is rebuilt in memory. A thread's
postings of a term are one row holding its turn numbers as the gaps between them (2 bytes
each, compressed when that is smaller: about 1-2 bytes a posting, against some 12 for a
row per posting); a long list is kept in segments that a new turn is appended to without
decoding the rest (`SEGMENTS`). A query reads one row per
term of its own thread and looks at the newest MAX_POSTINGS turns of each, so its cost
does not grow with the archive. Plain SQL rather than SQLite's FTS5 because the
statistics must be per thread (a word common in one conversation is rare in another) and
because the same tables work unchanged on PostgreSQL.
"""

from __future__ import annotations

import bisect
import sys
import threading
import zlib
from array import array
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from typing import NamedTuple

import numpy as np
from langchain_core.messages import BaseMessage

from graph.errors import StorageCorrupt
from graph.storage.db import Connection, lock_thread
from graph.storage.messages import unpack_turn
from graph.turns import turn_document, user_text

MAX_POSTINGS = 300
"""Turns read per query term at most, newest first, so a query's cost stays bounded however
long the thread; how many turns hold the term is still counted exactly (in SQLite's index)."""


KIND = "@kind:"
"""Prefix of the pseudo-terms that mark a turn whose user message states a kind of value
(`graph.memory.answer_types`): recall finds the turns stating a date, an amount or a name
in the index instead of reading every candidate turn. No search term holds "@" or ":"
(and PostgreSQL's text holds no NUL)."""


def document_terms(turn: Sequence[BaseMessage]) -> list[str]:
    """The search terms of a turn (morphemes, compound pieces, English stems, numbers).

    Also a `KIND` pseudo-term for each kind of value its user message states.
    """
    from graph.memory.answer_types import stated_kinds
    from graph.retrieval.tokenize import recall_tokens

    kinds = sorted(stated_kinds(user_text(turn)))
    return [*recall_tokens(turn_document(turn)), *(KIND + kind for kind in kinds)]


def _length(terms: Sequence[str]) -> int:
    """A turn's length for ranking: its terms, not its pseudo-terms."""
    return sum(1 for term in terms if not term.startswith(KIND))


def thread_key(conn: Connection, thread_id: str, create: bool = False) -> int | None:
    """The thread's small integer key (made on first use when `create`), or None."""
    row = conn.execute("SELECT thread_key FROM thread_keys WHERE thread_id = ?", (thread_id,))
    found = row.fetchone()
    if found is not None:
        return int(found[0])
    if not create:
        return None
    row = conn.execute(
        "INSERT INTO thread_keys (thread_id) VALUES (?) RETURNING thread_key", (thread_id,)
    ).fetchone()
    return int(row[0])


def index_turns(
    conn: Connection,
    thread_id: str,
    docs: Sequence[tuple[int, Sequence[str]]],
    lock: bool = True,
) -> int:
    """Add archived turns `(turn, terms)` to the index, inside the caller's transaction.

    A turn indexed before is skipped (an archived turn never changes), so writing a turn
    twice is harmless. Returns the number of turns added. `lock` False: the caller keeps
    every other writer out already (a schema upgrade), so no lock is taken per thread.
    """
    if not docs:
        return 0
    if lock:
        lock_thread(conn, thread_id)
    key = int(thread_key(conn, thread_id, create=True) or 0)
    known = {
        int(r[0])
        for r in conn.execute(
            f"SELECT turn FROM recall_docs WHERE thread_key = ? AND turn IN "
            f"({','.join('?' * len(docs))})",
            (key, *[turn for turn, _ in docs]),
        )
    }
    fresh = [(turn, terms) for turn, terms in docs if turn not in known]
    if not fresh:
        return 0
    added: dict[str, set[int]] = {}
    for turn, terms in fresh:
        for term in set(terms):
            added.setdefault(term, set()).add(turn)
    existing = _read_blobs(conn, key, sorted(added))
    conn.executemany(
        "INSERT INTO recall_postings (thread_key, term, turns) VALUES (?, ?, ?) "
        "ON CONFLICT (thread_key, term) DO UPDATE SET turns = excluded.turns",
        [(key, term, append(existing.get(term), turns)) for term, turns in added.items()],
    )
    conn.executemany(
        "INSERT INTO recall_docs (thread_key, turn, length) VALUES (?, ?, ?)",
        [(key, turn, _length(terms)) for turn, terms in fresh],
    )
    conn.execute(
        "UPDATE thread_keys SET docs = docs + ?, terms = terms + ? WHERE thread_key = ?",
        (len(fresh), sum(_length(terms) for _, terms in fresh), key),
    )
    return len(fresh)


GAPS = b"\x00"
"""Postings format of schema 6: a byte, then the gaps between the turns as little-endian
uint16s."""
ZGAPS = b"\x01"
"""The same gaps, zlib-compressed (a term in most turns has gaps of 1 again and again)."""
SEGMENTS = b"\x02"
"""Postings format from schema 7 for lists past TAIL_BYTES of gaps (shorter ones, most
terms, stay in GAPS or ZGAPS and are packed again whole, at a cost TAIL_BYTES bounds),
appended to without being decoded: this byte, then
varints `count` (turns) and `last` (the newest turn), then segments. A segment is a varint
`(length << 2) | sealed << 1 | deflated`, then `length` bytes of gaps as above (raw-deflated
when that was smaller). Only the last segment, unsealed, is ever appended to; it is sealed
(merged into the sealed one before it while that stays under SEGMENT_BYTES, and
compressed) once it passes TAIL_BYTES. So adding a turn to a term costs the same at turn
10 and at turn 10,000, and a query decodes only the newest segments."""
_WIDE = 0xFFFF
"""A gap of 0xFFFF or more: this mark, then the gap as two uint16s (low, high)."""
TAIL_BYTES = 128
"""Bytes of raw gaps the appendable last segment holds before it is sealed."""
SEGMENT_BYTES = 2048
"""Bytes of gaps (decoded) a sealed segment holds at most, unless one append was longer."""


def _encode(turns: Sequence[int], last: int) -> bytes:
    """The gaps from `last` through `turns` (ascending, each after `last`) as bytes."""
    gaps = array("H")
    for turn in turns:
        gap = turn - last
        if gap < _WIDE:
            gaps.append(gap)
        else:
            gaps.extend((_WIDE, gap & 0xFFFF, gap >> 16))
        last = turn
    if sys.byteorder == "big":
        gaps.byteswap()
    return gaps.tobytes()


def _decode(raw: bytes) -> list[int]:
    """The gap values of `_encode`'s bytes."""
    gaps = array("H")
    gaps.frombytes(raw)
    if sys.byteorder == "big":
        gaps.byteswap()
    if _WIDE not in gaps:
        return gaps.tolist()
    values: list[int] = []
    i = 0
    while i < len(gaps):
        if gaps[i] == _WIDE:
            values.append(gaps[i + 1] | gaps[i + 2] << 16)
            i += 3
        else:
            values.append(gaps[i])
            i += 1
    return values


def _varint(value: int) -> bytes:
    out = bytearray()
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _read_varint(data: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, at
        shift += 7


class _Segment(NamedTuple):
    data: bytes
    sealed: bool
    deflated: bool

    def raw(self) -> bytes:
        return _inflated(self.data, -15) if self.deflated else self.data


def _inflated(data: bytes, wbits: int) -> bytes:
    """Postings' gaps inflated; damaged ones are named (the index has no checksum)."""
    try:
        return zlib.decompress(data, wbits)
    except zlib.error as exc:
        raise StorageCorrupt(f"a recall posting is damaged: {exc}") from exc


def _sealed(raw: bytes) -> _Segment:
    """A sealed segment of gaps, deflated when that is smaller."""
    squeezed = zlib.compress(raw, 9, -15) if len(raw) > 8 else raw
    return (
        _Segment(squeezed, True, True) if len(squeezed) < len(raw) else _Segment(raw, True, False)
    )


def _parse(blob: bytes) -> tuple[int, int, list[_Segment]]:
    """(count, last, segments) of a SEGMENTS blob."""
    count, at = _read_varint(blob, 1)
    last, at = _read_varint(blob, at)
    segments = []
    while at < len(blob):
        head, at = _read_varint(blob, at)
        length = head >> 2
        segments.append(_Segment(blob[at : at + length], bool(head & 2), bool(head & 1)))
        at += length
    return count, last, segments


def _build(count: int, last: int, segments: Sequence[_Segment]) -> bytes:
    parts = [SEGMENTS, _varint(count), _varint(last)]
    for s in segments:
        parts += [_varint(len(s.data) << 2 | s.sealed << 1 | s.deflated), s.data]
    return b"".join(parts)


def pack(turns: Sequence[int]) -> bytes:
    """Turn numbers (ascending, from 0): GAPS if short, else SEGMENTS, all sealed."""
    raw = _encode(turns[: TAIL_BYTES // 2 + 1], 0)
    if len(raw) <= TAIL_BYTES and len(turns) <= TAIL_BYTES // 2:
        squeezed = zlib.compress(raw, 9) if len(raw) > 8 else raw
        return ZGAPS + squeezed if len(squeezed) < len(raw) else GAPS + raw
    segments: list[_Segment] = []
    last = 0
    per = SEGMENT_BYTES // 2
    for start in range(0, len(turns), per):
        chunk = turns[start : start + per]
        segments.append(_sealed(_encode(chunk, last)))
        last = chunk[-1]
    return _build(len(turns), last, segments)


def append(blob: bytes | None, turns: Iterable[int]) -> bytes:
    """`blob`'s postings with `turns` added.

    A short list (GAPS or ZGAPS: at most TAIL_BYTES of gaps) is merged and packed again
    whole. In a SEGMENTS list, turns after the newest one are appended to the unsealed last
    segment (sealing it when it is full) without decoding the rest; an older turn is merged
    and the list packed again.
    """
    fresh = sorted(set(turns))
    segments: list[_Segment] = []
    blob = bytes(blob) if blob is not None else GAPS
    if blob[:1] != SEGMENTS:  # a short list (most terms): whole, packed again each time
        return pack(sorted(set(unpack(blob)) | set(fresh)))
    count, last, segments = _parse(blob)
    if not fresh:
        return blob
    if count and fresh[0] <= last:
        return pack(sorted(set(unpack(blob)) | set(fresh)))
    added = _encode(fresh, last)
    tail = segments[-1] if segments and not segments[-1].sealed else None
    if tail is not None and len(tail.data) + len(added) <= TAIL_BYTES:
        segments[-1] = _Segment(tail.data + added, False, False)
    else:
        if tail is not None:
            segments.pop()
            before = segments[-1].raw() if segments else None
            if before is not None and len(before) + len(tail.data) <= SEGMENT_BYTES:
                segments[-1] = _sealed(before + tail.data)
            else:
                segments.append(_sealed(tail.data))
        segments.append(_Segment(added, False, False))
    return _build(count + len(fresh), fresh[-1], segments)


def unpack(blob: bytes) -> list[int]:
    """Every turn number of a postings blob, oldest first (any format)."""
    data = bytes(blob)
    if data[:1] == SEGMENTS:
        _, _, segments = _parse(data)
        return list(accumulate(g for s in segments for g in _decode(s.raw())))
    raw = _inflated(data[1:], zlib.MAX_WBITS) if data[:1] == ZGAPS else data[1:]
    return list(accumulate(_decode(raw)))


def _gap_array(raw: bytes) -> np.ndarray:
    """The gap values of `_encode`'s bytes as an int64 array (C speed without wide gaps)."""
    gaps = np.frombuffer(raw, dtype="<u2")
    if (gaps == _WIDE).any():
        return np.array(_decode(raw), dtype=np.int64)
    return gaps.astype(np.int64)


def newest(blob: bytes, limit: int) -> tuple[int, list[int]]:
    """(how many turns, the newest `limit` of them, newest first) of a postings blob.

    In the SEGMENTS format only the newest segments are decoded.
    """
    data = bytes(blob)
    if data[:1] != SEGMENTS:  # a short list: plain lists beat arrays at this size
        turns = unpack(data)
        return len(turns), turns[::-1][:limit]
    count, end, segments = _parse(data)
    parts: list[np.ndarray] = []
    held = 0
    for segment in reversed(segments):
        if held >= limit:
            break
        gaps = _gap_array(segment.raw())
        turns = end - gaps.sum() + np.cumsum(gaps)
        parts.append(turns[::-1])
        held += len(turns)
        end = int(turns[0]) - int(gaps[0]) if len(turns) else end
    if not parts:
        return count, []
    return count, np.concatenate(parts)[:limit].tolist()


DECODED = 1024
"""Long postings lists (SEGMENTS) whose newest turns a process keeps decoded (some 10 KB
each at most)."""


class _Decoded(NamedTuple):
    blob: bytes
    result: tuple[int, list[int]]
    """`newest(blob, limit)`."""
    sealed: tuple[_Segment, ...]
    older: list[int]
    """The newest `limit` turns of the `sealed` segments, newest first."""


_decoded: OrderedDict[tuple[int, str, int | None], _Decoded] = OrderedDict()
"""(thread key, term, limit) -> its list as last decoded here. A long thread's common terms come
up in most messages; archiving a turn only appends to a list's last segment, which is not
sealed, so only that one is decoded again. Checked against the list read, so a stale entry
is never used (nor one of another database with the same key)."""
_decoded_lock = threading.Lock()


def _newest_of(
    key: int, term: str, blob: bytes, limit: int | None = MAX_POSTINGS
) -> tuple[int, list[int]]:
    """`newest(blob, limit)` (None: all), long lists remembered (`_decoded`)."""
    if blob[:1] != SEGMENTS:
        return newest(blob, limit if limit is not None else sys.maxsize)
    with _decoded_lock:
        known = _decoded.get((key, term, limit))
        if known is not None:
            _decoded.move_to_end((key, term, limit))
    if known is not None and known.blob == blob:
        return known.result
    count, end, segments = _parse(blob)
    tail = segments[-1] if segments and not segments[-1].sealed else None
    sealed = tuple(segments[:-1] if tail is not None else segments)
    recent: list[int] = []
    if tail is not None:  # the last segment's turns, newest first, down from `end`
        for gap in reversed(_decode(tail.raw())):
            recent.append(end)
            end -= gap
    if known is not None and known.sealed == sealed:
        older = known.older
    else:  # the sealed segments alone, as a list ending at `end` (its count is not read)
        most = limit if limit is not None else count
        older = newest(_build(count, end, sealed), most)[1] if sealed else []
    result = (count, (recent + older)[:limit])
    with _decoded_lock:
        _decoded[key, term, limit] = _Decoded(blob, result, sealed, older)
        if len(_decoded) > DECODED:
            _decoded.popitem(last=False)
    return result


def _read_blobs(conn: Connection, key: int, terms: Sequence[str]) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    for start in range(0, len(terms), 500):
        chunk = list(terms[start : start + 500])
        for term, blob in conn.execute(
            f"SELECT term, turns FROM recall_postings WHERE thread_key = ? AND term IN "
            f"({','.join('?' * len(chunk))})",
            (key, *chunk),
        ):
            out[str(term)] = bytes(blob)
    return out


def index_packed_turns(
    conn: Connection, rows: Iterable[tuple[str, int, str | bytes]], lock: bool = True
) -> None:
    """Index archive rows `(thread_id, turn, packed messages JSON)` (upgrade, fork).

    `lock` as for `index_turns`.
    """
    by_thread: dict[str, list[tuple[int, Sequence[str]]]] = {}
    for thread_id, turn, packed in rows:
        messages = unpack_turn(packed)
        by_thread.setdefault(thread_id, []).append((int(turn), document_terms(messages)))
    for thread_id, docs in by_thread.items():
        index_turns(conn, thread_id, docs, lock=lock)


@dataclass
class Postings:
    """What the index knows about a query's terms in one thread."""

    docs: int = 0
    """Archived turns indexed in the thread."""
    avg_length: float = 0.0
    """Average number of terms per indexed turn."""
    turns: dict[str, list[int]] = field(default_factory=dict)
    """Term -> the newest (at most MAX_POSTINGS) turns containing it, newest first (lists
    shared with a cache: not to be changed)."""
    counts: dict[str, int] = field(default_factory=dict)
    """Term -> how many turns contain it (0 for a term the thread never used)."""
    key: int = 0
    """The thread's key, for `doc_lengths`."""


def read_postings(conn: Connection, thread_id: str, terms: Sequence[str]) -> Postings:
    """The (newest) postings of `terms` in the thread, and the counts ranking needs."""
    row = conn.execute(
        "SELECT thread_key, docs, terms FROM thread_keys WHERE thread_id = ?", (thread_id,)
    ).fetchone()
    if row is None or not row[1] or not terms:
        return Postings(turns={t: [] for t in terms}, counts={t: 0 for t in terms})
    key, docs, total = int(row[0]), int(row[1]), int(row[2])
    out = Postings(docs=docs, avg_length=total / docs, key=key)
    blobs = _read_blobs(conn, key, list(terms))
    for term in terms:
        blob = blobs.get(term)
        count, turns = _newest_of(key, term, blob) if blob else (0, [])
        out.counts[term] = count
        out.turns[term] = turns
    return out


def turns_with(conn: Connection, thread_id: str, terms: Sequence[str]) -> dict[str, list[int]]:
    """Term -> every turn of the thread holding it, newest first (not MAX_POSTINGS only).

    The lists are shared with a cache (not to be changed): one that only grew at its open
    segment since it was last read here is not decoded again.
    """
    key = thread_key(conn, thread_id)
    blobs = _read_blobs(conn, key, list(terms)) if key is not None else {}
    return {
        term: _newest_of(int(key or 0), term, blobs[term], None)[1] if term in blobs else []
        for term in terms
    }


def holds(turns: Sequence[int], turn: int) -> bool:
    """Whether a list of turns, newest first (`turns_with`), holds `turn`."""
    at = bisect.bisect_left(turns, -turn, key=lambda t: -t)
    return at < len(turns) and turns[at] == turn


def doc_lengths(conn: Connection, key: int, turns: Sequence[int]) -> dict[int, int]:
    """Turn -> its number of terms, for the given turns of a thread (BM25's length norm)."""
    if not turns:
        return {}
    rows = conn.execute(
        f"SELECT turn, length FROM recall_docs WHERE thread_key = ? AND turn IN "
        f"({','.join('?' * len(turns))})",
        (key, *turns),
    )
    return {int(turn): int(length) for turn, length in rows}


def delete_index(conn: Connection, thread_id: str) -> None:
    """Remove a thread from the index, inside the caller's transaction."""
    key = thread_key(conn, thread_id)
    if key is None:
        return
    conn.execute("DELETE FROM recall_postings WHERE thread_key = ?", (key,))
    conn.execute("DELETE FROM recall_docs WHERE thread_key = ?", (key,))
    conn.execute("DELETE FROM thread_keys WHERE thread_key = ?", (key,))
