"""The recall index: which archived turns of a thread contain which search terms.

An inverted index in plain tables (`recall_terms`, `recall_postings`, `recall_docs`), kept
in the conversation's own database and written in the same transaction as the archived
turn, so any process can recall any thread and nothing is rebuilt in memory. A query reads
only the postings of its own terms in its own thread: its cost follows how often those
terms occur, not how long the archive is. Plain SQL rather than SQLite's FTS5 because the
statistics must be per thread (a word common in one conversation is rare in another) and
because the same tables work unchanged on PostgreSQL.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from langchain_core.messages import BaseMessage

from graph.turns import turn_document

MAX_POSTINGS = 2000
"""Turns read per query term at most: a term in more turns than this says nothing anyway."""


def document_terms(turn: Sequence[BaseMessage]) -> list[str]:
    """The search terms of a turn (morphemes, compound pieces, English stems, numbers)."""
    from graph.retrieval.tokenize import recall_tokens

    return recall_tokens(turn_document(turn))


def thread_key(conn: sqlite3.Connection, thread_id: str, create: bool = False) -> int | None:
    """The thread's small integer key (made on first use when `create`), or None."""
    row = conn.execute("SELECT thread_key FROM thread_keys WHERE thread_id = ?", (thread_id,))
    found = row.fetchone()
    if found is not None:
        return int(found[0])
    if not create:
        return None
    cur = conn.execute("INSERT INTO thread_keys (thread_id) VALUES (?)", (thread_id,))
    return int(cur.lastrowid or 0)


def _term_ids(conn: sqlite3.Connection, terms: Iterable[str]) -> dict[str, int]:
    unique = sorted(set(terms))
    conn.executemany("INSERT OR IGNORE INTO recall_terms (term) VALUES (?)", [(t,) for t in unique])
    ids: dict[str, int] = {}
    for start in range(0, len(unique), 500):
        chunk = unique[start : start + 500]
        marks = ",".join("?" * len(chunk))
        for term_id, term in conn.execute(
            f"SELECT term_id, term FROM recall_terms WHERE term IN ({marks})", chunk
        ):
            ids[term] = int(term_id)
    return ids


def index_turns(
    conn: sqlite3.Connection, thread_id: str, docs: Sequence[tuple[int, Sequence[str]]]
) -> int:
    """Add archived turns `(turn, terms)` to the index, inside the caller's transaction.

    A turn indexed before is skipped (an archived turn never changes), so writing a turn
    twice is harmless. Returns the number of turns added.
    """
    if not docs:
        return 0
    key = thread_key(conn, thread_id, create=True)
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
    ids = _term_ids(conn, (t for _, terms in fresh for t in terms))
    conn.executemany(
        "INSERT OR IGNORE INTO recall_postings (thread_key, term_id, turn) VALUES (?, ?, ?)",
        [(key, ids[t], turn) for turn, terms in fresh for t in set(terms)],
    )
    conn.executemany(
        "INSERT INTO recall_docs (thread_key, turn, length) VALUES (?, ?, ?)",
        [(key, turn, len(terms)) for turn, terms in fresh],
    )
    conn.execute(
        "UPDATE thread_keys SET docs = docs + ?, terms = terms + ? WHERE thread_key = ?",
        (len(fresh), sum(len(terms) for _, terms in fresh), key),
    )
    return len(fresh)


def index_packed_turns(conn: sqlite3.Connection, rows: Iterable[tuple[str, int, str]]) -> None:
    """Index archive rows `(thread_id, turn, packed messages JSON)` (schema upgrade)."""
    from graph.storage.archive import unpack_message

    by_thread: dict[str, list[tuple[int, Sequence[str]]]] = {}
    for thread_id, turn, packed in rows:
        messages = [unpack_message(m) for m in json.loads(packed)]
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
    """Term -> the turns containing it (empty for a term the thread never used)."""
    lengths: dict[int, int] = field(default_factory=dict)
    """Turn -> its number of terms, for the turns that contain any query term."""


def read_postings(conn: sqlite3.Connection, thread_id: str, terms: Sequence[str]) -> Postings:
    """The postings of `terms` in the thread, with the statistics ranking needs."""
    row = conn.execute(
        "SELECT thread_key, docs, terms FROM thread_keys WHERE thread_id = ?", (thread_id,)
    ).fetchone()
    if row is None or not row[1] or not terms:
        return Postings(turns={t: [] for t in terms})
    key, docs, total = int(row[0]), int(row[1]), int(row[2])
    out = Postings(docs=docs, avg_length=total / docs)
    for term in terms:
        out.turns[term] = [
            int(r[0])
            for r in conn.execute(
                "SELECT p.turn FROM recall_postings p JOIN recall_terms t "
                "ON t.term_id = p.term_id WHERE p.thread_key = ? AND t.term = ? LIMIT ?",
                (key, term, MAX_POSTINGS + 1),
            )
        ]
    wanted = sorted({turn for turns in out.turns.values() for turn in turns})
    for start in range(0, len(wanted), 500):
        chunk = wanted[start : start + 500]
        for turn, length in conn.execute(
            f"SELECT turn, length FROM recall_docs WHERE thread_key = ? AND turn IN "
            f"({','.join('?' * len(chunk))})",
            (key, *chunk),
        ):
            out.lengths[int(turn)] = int(length)
    return out


def delete_index(conn: sqlite3.Connection, thread_id: str) -> None:
    """Remove a thread from the index, inside the caller's transaction."""
    key = thread_key(conn, thread_id)
    if key is None:
        return
    conn.execute("DELETE FROM recall_postings WHERE thread_key = ?", (key,))
    conn.execute("DELETE FROM recall_docs WHERE thread_key = ?", (key,))
    conn.execute("DELETE FROM thread_keys WHERE thread_key = ?", (key,))
