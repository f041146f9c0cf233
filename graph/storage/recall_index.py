"""The recall index: which archived turns of a thread contain which search terms.

An inverted index in plain tables (`recall_postings`, `recall_docs`), kept
in the conversation's own database and written in the same transaction as the archived
turn, so any process can recall any thread and nothing is rebuilt in memory. A thread's
postings of a term are one row holding its turn numbers as the gaps between them (`pack`:
2-byte gaps, or those compressed when that is smaller; about 1-2 bytes a posting, against
some 12 for a row per posting). A query reads one row per
term of its own thread and looks at the newest MAX_POSTINGS turns of each, so its cost
does not grow with the archive. Plain SQL rather than SQLite's FTS5 because the
statistics must be per thread (a word common in one conversation is rare in another) and
because the same tables work unchanged on PostgreSQL.
"""

from __future__ import annotations

import sys
import zlib
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import accumulate

from langchain_core.messages import BaseMessage

from graph.storage.db import Connection, lock_thread
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


def index_turns(conn: Connection, thread_id: str, docs: Sequence[tuple[int, Sequence[str]]]) -> int:
    """Add archived turns `(turn, terms)` to the index, inside the caller's transaction.

    A turn indexed before is skipped (an archived turn never changes), so writing a turn
    twice is harmless. Returns the number of turns added.
    """
    if not docs:
        return 0
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
    existing = _read_lists(conn, key, sorted(added))
    conn.executemany(
        "INSERT INTO recall_postings (thread_key, term, turns) VALUES (?, ?, ?) "
        "ON CONFLICT (thread_key, term) DO UPDATE SET turns = excluded.turns",
        [
            (key, term, pack(sorted(set(existing.get(term, [])) | turns)))
            for term, turns in added.items()
        ],
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
"""Postings format: a byte, then the gaps between the turns as little-endian uint16s."""
ZGAPS = b"\x01"
"""The same gaps, zlib-compressed (a term in most turns has gaps of 1 again and again)."""
_WIDE = 0xFFFF
"""A gap of 0xFFFF or more: this mark, then the gap as two uint16s (low, high)."""


def pack(turns: Sequence[int]) -> bytes:
    """Turn numbers (ascending, from 0) as their gaps; see GAPS and ZGAPS."""
    gaps = array("H")
    last = 0
    for turn in turns:
        gap = turn - last
        if gap < _WIDE:
            gaps.append(gap)
        else:
            gaps.extend((_WIDE, gap & 0xFFFF, gap >> 16))
        last = turn
    if sys.byteorder == "big":
        gaps.byteswap()
    raw = gaps.tobytes()
    squeezed = zlib.compress(raw, 9)
    return ZGAPS + squeezed if len(squeezed) < len(raw) else GAPS + raw


def unpack(blob: bytes) -> list[int]:
    """The turn numbers `pack` wrote."""
    data = bytes(blob)
    raw = zlib.decompress(data[1:]) if data[:1] == ZGAPS else data[1:]
    gaps = array("H")
    gaps.frombytes(raw)
    if sys.byteorder == "big":
        gaps.byteswap()
    if _WIDE not in gaps:
        return list(accumulate(gaps))
    values: list[int] = []
    i = 0
    while i < len(gaps):
        if gaps[i] == _WIDE:
            values.append(gaps[i + 1] | gaps[i + 2] << 16)
            i += 3
        else:
            values.append(gaps[i])
            i += 1
    return list(accumulate(values))


def _read_lists(conn: Connection, key: int, terms: Sequence[str]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for start in range(0, len(terms), 500):
        chunk = list(terms[start : start + 500])
        for term, blob in conn.execute(
            f"SELECT term, turns FROM recall_postings WHERE thread_key = ? AND term IN "
            f"({','.join('?' * len(chunk))})",
            (key, *chunk),
        ):
            out[str(term)] = unpack(blob)
    return out


def index_packed_turns(conn: Connection, rows: Iterable[tuple[str, int, str | bytes]]) -> None:
    """Index archive rows `(thread_id, turn, packed messages JSON)` (schema upgrade)."""
    from graph.storage.archive import unpack_turn

    by_thread: dict[str, list[tuple[int, Sequence[str]]]] = {}
    for thread_id, turn, packed in rows:
        messages = unpack_turn(packed)
        by_thread.setdefault(thread_id, []).append((int(turn), document_terms(messages)))
    for thread_id, docs in by_thread.items():
        index_turns(conn, thread_id, docs)


@dataclass
class Postings:
    """What the index knows about a query's terms in one thread."""

    docs: int = 0
    """Archived turns indexed in the thread."""
    avg_length: float = 0.0
    """Average number of terms per indexed turn."""
    turns: dict[str, list[int]] = field(default_factory=dict)
    """Term -> the newest (at most MAX_POSTINGS) turns containing it."""
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
    lists = _read_lists(conn, key, list(terms))
    for term in terms:
        turns = lists.get(term, [])
        out.counts[term] = len(turns)
        out.turns[term] = turns[::-1][:MAX_POSTINGS]
    return out


def turns_with(conn: Connection, thread_id: str, terms: Sequence[str]) -> dict[str, set[int]]:
    """Term -> every turn of the thread holding it (not only the newest MAX_POSTINGS)."""
    key = thread_key(conn, thread_id)
    lists = _read_lists(conn, key, list(terms)) if key is not None else {}
    return {term: set(lists.get(term, [])) for term in terms}


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
