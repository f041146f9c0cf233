"""Archived turns packed by the block: one compressed row per block of archived turns.

A turn's messages are written in a row of their own when it is archived (`archive_turns`),
so a summary stores only the turns it adds. Once a block of BLOCK_TURNS turns (1-30,
31-60, ...) is archived to its end, its turns go into one `archive_blocks` row, together
with what was recorded of the summaries that lie within it: each summary's entry, its
costs and its facts record. Their own rows are deleted (a turn's row keeps its
statistics). zlib then compresses each turn against the turns before it, and an
extractive summary against the turns it quotes, not only against the preset dictionary:
on the benchmark's 1,000-turn transcript the archived messages alone take 57 KB instead
of 232 KB, and a block is one row instead of about seventy.

Digests (and their facts records) span blocks and stay in rows. A write that falls in a
packed block (a summary stored after its turns were packed, a rewritten turn, an import)
goes into the block. Reading one turn unpacks its block (about a millisecond); recall
keeps the turns it read unpacked (`Archive.recent`). Everything here runs inside the
caller's transaction, with the archive's lock held.
"""

from __future__ import annotations

import json
import logging
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from typing import Any

from graph.errors import StorageCorrupt
from graph.storage.db import DB_ERRORS, Connection, lock_thread, tables
from graph.storage.packing import dump, loads, pack_json, pack_text, unpack_json, unpack_text

log = logging.getLogger(__name__)

BLOCK_TURNS = 30
"""Turns in a packed block (a multiple of three: ten summaries of the default strategy)."""

BLOCKS_TABLE = """
CREATE TABLE IF NOT EXISTS archive_blocks (
    thread_id TEXT NOT NULL,
    first_turn INTEGER NOT NULL,
    turns BLOB NOT NULL,
    PRIMARY KEY (thread_id, first_turn)
);
"""
"""One row per packed block: `turns` is a `Block` as it packs itself. A rowid table:
WITHOUT ROWID rows of a few KB spill into overflow pages of their own."""

SUMMARY = "summary"
"""The `summary_items` kind packed with its turns (digests stay in rows)."""


def block_start(turn: int) -> int:
    """The first turn of the block holding `turn`."""
    return (turn - 1) // BLOCK_TURNS * BLOCK_TURNS + 1


def _within(first: int, last: int) -> int | None:
    """The start of the one block holding turns first..last, or None if they span two."""
    start = block_start(first)
    return start if block_start(last) == start else None


def _in(values: Sequence[Any]) -> str:
    return f"({','.join('?' * len(values))})"


PARTS = ("c", "f", "s", "t", "x")
"""A block's parts in the order stored: costs, facts records, summaries, turns, and the
turns' context statistics (from version 9; a block packed before has no such line)."""


class Block:
    """What a packed block holds, by key: turns, summaries, facts records, costs, stats.

    Stored as one compressed text with each part's JSON on a line of its own (compact
    JSON has no line break): a reader parses only the parts it needs (the costs of every
    block, say, not its turns), while the summaries still compress against the turns
    they quote.
    """

    def __init__(self, parts: dict[str, Any] | None = None) -> None:
        parts = {p: [] for p in PARTS} if parts is None else parts
        self.whole = all(part in parts for part in PARTS)
        """Whether every part was read (only such a block may be stored again)."""
        self.turns: dict[int, Any] = {int(t): v for t, v in parts.get("t", [])}
        """Turn -> its packed messages (`pack_message` dicts)."""
        self.summaries: dict[tuple[int, int], tuple[int, Any]] = {
            (int(a), int(b)): (int(made), record) for a, b, made, record in parts.get("s", [])
        }
        """(first, last) -> (made at turn, the summary's record) of `summary_items`."""
        self.facts: dict[tuple[int, int], Any] = {
            (int(a), int(b)): record for a, b, record in parts.get("f", [])
        }
        """(first, last) -> the summary's `memory_facts` record."""
        self.costs: dict[int, Any] = {int(t): meta for t, meta in parts.get("c", [])}
        """First turn -> the summary's `summary_costs` meta."""
        self.stats: dict[int, Any] = {int(t): row for t, row in parts.get("x", [])}
        """Turn -> its context statistics as `archive_turns.stats` holds them (a list)."""

    def part(self, name: str) -> dict[Any, Any]:
        """The records of one part by its letter (`PARTS`)."""
        parts: dict[str, dict[Any, Any]] = {
            "c": self.costs,
            "f": self.facts,
            "s": self.summaries,
            "t": self.turns,
            "x": self.stats,
        }
        return parts[name]

    @classmethod
    def load(
        cls, stored: bytes | memoryview, parts: str = "cfstx", what: str = "a packed block"
    ) -> Block:
        """A block as `pack` stored it, with the `parts` named (all by default).

        Raises:
            StorageCorrupt: the block is damaged; `what` names it.
        """
        lines = unpack_text(stored, what).split("\n", len(PARTS) - 1)
        if len(lines) == len(PARTS) - 1:  # packed by version 8: no statistics
            lines.append("[]")
        if len(lines) != len(PARTS):
            raise StorageCorrupt(f"{what} is damaged: {len(lines)} parts, not {len(PARTS)}")
        return cls(
            {p: loads(line, what) for p, line in zip(PARTS, lines, strict=True) if p in parts}
        )

    def pack(self) -> bytes:
        """The block as stored."""
        if not self.whole:
            raise ValueError("a block read without all of its parts cannot be stored")
        parts = {
            "c": sorted(self.costs.items()),
            "f": [[a, b, r] for (a, b), r in sorted(self.facts.items())],
            "s": [[a, b, m, r] for (a, b), (m, r) in sorted(self.summaries.items())],
            "t": sorted(self.turns.items()),
            "x": sorted(self.stats.items()),
        }
        return pack_text("\n".join(dump(parts[p]) for p in PARTS))


def _read(
    conn: Connection, thread_id: str, starts: Sequence[int], parts: str = "cfstx"
) -> dict[int, Block]:
    """The packed blocks starting at `starts` (those that exist), whole by default."""
    out: dict[int, Block] = {}
    for i in range(0, len(starts), 500):
        chunk = list(starts[i : i + 500])
        rows = conn.execute(
            f"SELECT first_turn, turns FROM archive_blocks WHERE thread_id = ? "
            f"AND first_turn IN {_in(chunk)}",
            (thread_id, *chunk),
        ).fetchall()
        out.update(
            (int(start), Block.load(packed, parts, _named(thread_id, int(start))))
            for start, packed in rows
        )
    return out


def _named(thread_id: str, start: int) -> str:
    """A packed block as an error names it."""
    return f"the packed turns {start}-{start + BLOCK_TURNS - 1} of thread {thread_id}"


def _all(
    conn: Connection, thread_id: str, first: int = 1, last: int = 2**62, parts: str = "cfstx"
) -> list[Block]:
    """The thread's packed blocks that hold turns of first..last, in order.

    `parts` as for `Block.load`.
    """
    rows = conn.execute(
        "SELECT first_turn, turns FROM archive_blocks WHERE thread_id = ? "
        "AND first_turn BETWEEN ? AND ? ORDER BY first_turn",
        (thread_id, block_start(first), last),
    ).fetchall()
    return [Block.load(packed, parts, _named(thread_id, int(start))) for start, packed in rows]


def _save(conn: Connection, thread_id: str, start: int, block: Block) -> None:
    conn.execute(
        "INSERT INTO archive_blocks (thread_id, first_turn, turns) VALUES (?, ?, ?) "
        "ON CONFLICT (thread_id, first_turn) DO UPDATE SET turns = excluded.turns",
        (thread_id, start, block.pack()),
    )


# --- writing ---------------------------------------------------------------------------


def put_turns(conn: Connection, thread_id: str, turns: Sequence[tuple[int, Any]]) -> None:
    """Store archived turns `(turn, packed messages)`; then pack the blocks they complete.

    A turn of a packed block goes into the block; the others into their rows.
    """
    packed = _read(conn, thread_id, sorted({block_start(t) for t, _ in turns}))
    rows = []
    for turn, value in turns:
        block = packed.get(block_start(turn))
        if block is not None:
            block.turns[turn] = value
        else:
            rows.append((thread_id, turn, pack_json(value)))
    for start, block in packed.items():
        _save(conn, thread_id, start, block)
    conn.executemany(
        "INSERT INTO archive_turns (thread_id, turn, messages) VALUES (?, ?, ?) "
        "ON CONFLICT (thread_id, turn) DO UPDATE SET messages = excluded.messages",
        rows,
    )
    if turns:
        last = max(t for t, _ in turns)
        for start in sorted({block_start(t) for t, _ in turns}):
            if start not in packed and start + BLOCK_TURNS - 1 <= last:
                seal(conn, thread_id, start)


def put_summaries(
    conn: Connection, thread_id: str, kind: str, items: Sequence[tuple[int, int, int, Any]]
) -> None:
    """Store `summary_items` `(first, last, made at, record)` of one kind.

    An item stored before with other text takes the new text (the state is what the model
    used); a summary within a packed block goes into the block.
    """
    spans = {_within(a, b) for a, b, _, _ in items} if kind == SUMMARY else set()
    packed = _read(conn, thread_id, sorted(s for s in spans if s is not None))
    rows: list[tuple[str, str, int, int, int, bytes]] = []
    changed: set[int] = set()
    for first, last, made, record in items:
        start = _within(first, last) if kind == SUMMARY else None
        block = packed.get(start) if start is not None else None
        if block is None or start is None:
            rows.append((thread_id, kind, first, last, made, pack_json(record)))
        elif (first, last) not in block.summaries or block.summaries[first, last][1] != record:
            kept = block.summaries.get((first, last), (made, None))[0]
            block.summaries[first, last] = (kept, record)
            changed.add(start)
    for start in sorted(changed):
        _save(conn, thread_id, start, packed[start])
    if rows:
        conn.executemany(
            "INSERT INTO summary_items "
            "(thread_id, kind, first_turn, last_turn, made_at, record) VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (thread_id, kind, first_turn, last_turn) DO UPDATE SET "
            "record = excluded.record WHERE summary_items.record != excluded.record",
            rows,
        )


def put_facts(conn: Connection, thread_id: str, first: int, last: int, record: Any) -> None:
    """Store a `memory_facts` record; a summary's within a packed block goes into it."""
    home = block_start(first)
    within = not record.get("digest") and _within(first, last) == home
    if within and _block_record(conn, thread_id, home, "f", (first, last), record):
        conn.execute(
            "DELETE FROM memory_facts WHERE thread_id = ? AND first_turn = ? AND last_turn = ?",
            (thread_id, first, last),
        )
        return
    _block_record(conn, thread_id, home, "f", (first, last))  # one per span: the row wins
    conn.execute(
        "INSERT INTO memory_facts (thread_id, first_turn, last_turn, record) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (thread_id, first_turn, last_turn) DO UPDATE SET record = excluded.record",
        (thread_id, first, last, pack_json(record)),
    )


def put_cost(conn: Connection, thread_id: str, meta: Any) -> None:
    """Store a summary's `summary_costs` meta; one within a packed block goes into it."""
    first, last = int(meta["turns"][0]), int(meta["turns"][-1])
    home = block_start(first)
    if _within(first, last) == home and _block_record(conn, thread_id, home, "c", first, meta):
        conn.execute(
            "DELETE FROM summary_costs WHERE thread_id = ? AND first_turn = ?", (thread_id, first)
        )
        return
    _block_record(conn, thread_id, home, "c", first)  # keyed by the first turn: the row wins
    conn.execute(
        "INSERT INTO summary_costs (thread_id, first_turn, meta) VALUES (?, ?, ?) "
        "ON CONFLICT (thread_id, first_turn) DO UPDATE SET meta = excluded.meta",
        (thread_id, first, pack_json(meta)),
    )


def _block_record(
    conn: Connection, thread_id: str, start: int, part: str, key: Any, value: Any = None
) -> bool:
    """Put `value` under `key` in part `part` of the packed block at `start`.

    With no value, drop the key there. False if there is no such block (or no such key to
    drop). Dropping first reads that part alone: a digest's record, written beside old blocks,
    does not parse their turns.
    """
    if value is None:
        peek = _read(conn, thread_id, [start], part).get(start)
        if peek is None or key not in peek.part(part):
            return False
    block = _read(conn, thread_id, [start]).get(start)
    if block is None:
        return False
    if value is None:
        del block.part(part)[key]
    else:
        block.part(part)[key] = value
    _save(conn, thread_id, start, block)
    return True


def seal(conn: Connection, thread_id: str, start: int, lock: bool = True) -> bool:
    """Pack the block at `start`: its turns' messages and its summaries' records.

    False if it holds no archived turn, or a row that cannot be read: the block then stays
    in rows (the readers take both), and the damage costs that row only, as before.
    `lock` takes the thread's lock first (PostgreSQL), so that a fork copying the
    thread's rows does not see them half moved; the upgrade holds a lock of its own.
    """
    if lock:
        lock_thread(conn, thread_id)
    try:
        gathered = _gather(conn, thread_id, start)
    except StorageCorrupt as exc:  # a damaged row (a DB error by type, but not the database's)
        log.warning("block %d of thread %s left unpacked: %s", start, thread_id, exc)
        return False
    except DB_ERRORS:
        raise
    except Exception as exc:  # noqa: BLE001 - a row that cannot be read: leave them all
        log.warning("block %d of thread %s left unpacked: %s", start, thread_id, exc)
        return False
    if gathered is None:
        return False
    block, facts, costs = gathered
    span = (thread_id, start, start + BLOCK_TURNS - 1)
    _save(conn, thread_id, start, block)
    conn.execute(
        "DELETE FROM archive_turns WHERE thread_id = ? AND turn BETWEEN ? AND ?",
        span,
    )
    conn.execute(
        "DELETE FROM summary_items WHERE thread_id = ? AND kind = 'summary' "
        "AND first_turn >= ? AND last_turn <= ?",
        span,
    )
    conn.executemany(
        "DELETE FROM memory_facts WHERE thread_id = ? AND first_turn = ? AND last_turn = ?",
        [(thread_id, a, b) for a, b in facts],
    )
    conn.executemany(
        "DELETE FROM summary_costs WHERE thread_id = ? AND first_turn = ?",
        [(thread_id, t) for t in costs],
    )
    return True


def _gather(
    conn: Connection, thread_id: str, start: int
) -> tuple[Block, list[tuple[int, int]], list[int]] | None:
    """The block at `start` with its rows added, and the keys of the rows it takes.

    Those are the facts and costs rows; None if it has no archived turn. Raises on a row
    that cannot be read.
    """
    end = start + BLOCK_TURNS - 1
    rows = conn.execute(
        "SELECT turn, messages FROM archive_turns WHERE thread_id = ? AND turn BETWEEN ? AND ? "
        "AND messages IS NOT NULL",
        (thread_id, start, end),
    ).fetchall()
    if not rows:
        return None
    block = _read(conn, thread_id, [start]).get(start) or Block()
    block.turns.update((int(turn), unpack_json(packed)) for turn, packed in rows)
    span = (thread_id, start, end)
    block.stats.update(
        (int(turn), json.loads(stats))
        for turn, stats in conn.execute(
            "SELECT turn, stats FROM archive_turns WHERE thread_id = ? AND turn BETWEEN ? AND ? "
            "AND stats IS NOT NULL",
            span,
        ).fetchall()
    )
    for first, last, made, record in conn.execute(
        "SELECT first_turn, last_turn, made_at, record FROM summary_items WHERE thread_id = ? "
        "AND kind = 'summary' AND first_turn >= ? AND last_turn <= ?",
        span,
    ).fetchall():
        block.summaries[int(first), int(last)] = (int(made), unpack_json(record))
    facts = [
        (int(first), int(last), unpack_json(record))
        for first, last, record in conn.execute(
            "SELECT first_turn, last_turn, record FROM memory_facts WHERE thread_id = ? "
            "AND first_turn >= ? AND last_turn <= ?",
            span,
        ).fetchall()
    ]
    facts = [f for f in facts if not f[2].get("digest")]
    block.facts.update(((a, b), r) for a, b, r in facts)
    costs = [
        (int(first), unpack_json(meta))
        for first, meta in conn.execute(
            "SELECT first_turn, meta FROM summary_costs WHERE thread_id = ? "
            "AND first_turn BETWEEN ? AND ?",
            span,
        ).fetchall()
    ]
    costs = [(t, m) for t, m in costs if int(m["turns"][-1]) <= end]
    block.costs.update(costs)
    return block, [(a, b) for a, b, _ in facts], [t for t, _ in costs]


def seal_archived(conn: Connection) -> int:
    """Pack every block archived to its end, in every thread (the upgrade to version 8)."""
    sealed = 0
    for thread_id, last in conn.execute(
        "SELECT thread_id, max(turn) FROM archive_turns WHERE messages IS NOT NULL "
        "GROUP BY thread_id"
    ).fetchall():
        full = [t for t in range(1, int(last) + 1, BLOCK_TURNS) if t + BLOCK_TURNS - 1 <= last]
        sealed += sum(seal(conn, str(thread_id), start, lock=False) for start in full)
    return sealed


# --- reading ---------------------------------------------------------------------------


def read_turns(
    conn: Connection,
    thread_id: str,
    turns: Sequence[int],
    cache: OrderedDict[tuple[str, int], dict[int, Any]] | None = None,
) -> dict[int, Any]:
    """The packed messages (`pack_message` dicts) of the archived `turns` that exist.

    With `cache`, (thread, first turn) -> a block's turns: blocks found there are not read,
    and blocks read go there, as most recently used (the caller bounds it).
    """
    out: dict[int, Any] = {}
    wanted = sorted(set(turns))
    for i in range(0, len(wanted), 500):
        chunk = wanted[i : i + 500]
        rows = conn.execute(
            "SELECT turn, messages FROM archive_turns WHERE thread_id = ? AND messages IS NOT "
            f"NULL AND turn IN {_in(chunk)}",
            (thread_id, *chunk),
        ).fetchall()
        out.update((int(turn), unpack_json(packed)) for turn, packed in rows)
    rest = [t for t in wanted if t not in out]
    starts = sorted({block_start(t) for t in rest})
    known: dict[int, dict[int, Any]] = {}
    if cache is not None:
        for start in starts:
            if (thread_id, start) in cache:
                known[start] = cache[thread_id, start]
                cache.move_to_end((thread_id, start))
    fresh = _read(conn, thread_id, [s for s in starts if s not in known], "t")
    for start, block in fresh.items():
        known[start] = block.turns
        if cache is not None:
            cache[thread_id, start] = block.turns
    for held in known.values():
        out.update((t, held[t]) for t in rest if t in held)
    return out


def read_range(conn: Connection, thread_id: str, first: int, last: int) -> list[tuple[int, Any]]:
    """The archived turns `first..last` (inclusive) that exist, oldest first."""
    out = {
        int(turn): unpack_json(packed)
        for turn, packed in conn.execute(
            "SELECT turn, messages FROM archive_turns WHERE thread_id = ? AND turn BETWEEN ? "
            "AND ? AND messages IS NOT NULL",
            (thread_id, first, last),
        ).fetchall()
    }
    if first <= last:
        for block in _all(conn, thread_id, first, last, parts="t"):
            out.update((t, v) for t, v in block.turns.items() if first <= t <= last)
    return sorted(out.items())


def archived_numbers(conn: Connection, thread_id: str) -> list[int]:
    """The numbers of a thread's archived turns, in order.

    A packed block that cannot be read counts as all of its turns (for a salvage, which
    then names them as unreadable rather than losing the rest).
    """
    numbers = {
        int(row[0])
        for row in conn.execute(
            "SELECT turn FROM archive_turns WHERE thread_id = ? AND messages IS NOT NULL",
            (thread_id,),
        ).fetchall()
    }
    for start, packed in conn.execute(
        "SELECT first_turn, turns FROM archive_blocks WHERE thread_id = ?", (thread_id,)
    ).fetchall():
        try:
            numbers.update(Block.load(packed, "t").turns)
        except Exception:  # noqa: BLE001 - any damage: the whole block is unreadable
            numbers.update(range(int(start), int(start) + BLOCK_TURNS))
    return sorted(numbers)


def archived_rows(conn: Connection, thread_id: str | None = None) -> Iterator[tuple[str, int, str]]:
    """Every archived turn as `(thread_id, turn, JSON text)`, one thread or all of them.

    For the recall index's rebuilds (`index_packed_turns` reads the text as a stored turn).
    """
    packed = "archive_blocks" in tables(conn)
    if thread_id is not None:
        threads = [thread_id]
    else:
        union = " UNION SELECT thread_id FROM archive_blocks" if packed else ""
        found = conn.execute(f"SELECT thread_id FROM archive_turns{union}").fetchall()
        threads = sorted({str(row[0]) for row in found})
    for thread in threads:
        if packed:
            turns = read_range(conn, thread, 1, 2**62)
        else:  # a file before version 8, during its upgrade
            turns = [
                (int(turn), unpack_json(messages))
                for turn, messages in conn.execute(
                    "SELECT turn, messages FROM archive_turns WHERE thread_id = ? AND messages "
                    "IS NOT NULL ORDER BY turn",
                    (thread,),
                ).fetchall()
            ]
        for turn, value in turns:
            yield thread, turn, dump(value)


def summaries_of(conn: Connection, thread_id: str) -> list[tuple[int, int, int, str, Any]]:
    """The thread's `summary_items`, in rows and packed, in the order they were made.

    Each as `(made at, first, last, kind, record)`.
    """
    rows = conn.execute(
        "SELECT made_at, first_turn, last_turn, kind, record FROM summary_items "
        "WHERE thread_id = ?",
        (thread_id,),
    ).fetchall()
    found = {(str(k), int(a), int(b)): (int(m), unpack_json(r)) for m, a, b, k, r in rows}
    for block in _all(conn, thread_id, parts="s"):
        for (a, b), (made, record) in block.summaries.items():
            found[SUMMARY, a, b] = (made, record)
    return sorted((m, a, b, k, r) for (k, a, b), (m, r) in found.items())


def facts_of(
    conn: Connection, thread_id: str, first: int = 1, last: int = 2**62
) -> list[tuple[int, int, Any]]:
    """The thread's `memory_facts` records within turns first..last, rows and packed, by span.

    Each as `(first, last, record)`, one per span: PostgreSQL may see a record in its row
    and, packed meanwhile, in its block too.
    """
    rows = conn.execute(
        "SELECT first_turn, last_turn, record FROM memory_facts WHERE thread_id = ? "
        "AND first_turn >= ? AND last_turn <= ?",
        (thread_id, first, last),
    ).fetchall()
    found = {(int(a), int(b)): unpack_json(r) for a, b, r in rows}
    for block in _all(conn, thread_id, first, last, parts="f"):
        found.update(((a, b), r) for (a, b), r in block.facts.items() if first <= a and b <= last)
    return [(a, b, found[a, b]) for a, b in sorted(found)]


def costs_of(conn: Connection, thread_id: str) -> list[Any]:
    """The thread's `summary_costs` metas, in rows and packed, one per first turn, in order."""
    rows = conn.execute("SELECT meta FROM summary_costs WHERE thread_id = ?", (thread_id,))
    found = {int(meta["turns"][0]): meta for meta in (unpack_json(r[0]) for r in rows.fetchall())}
    for block in _all(conn, thread_id, parts="c"):
        found.update(block.costs)
    return [found[first] for first in sorted(found)]


# --- forks -----------------------------------------------------------------------------


def copy_blocks(
    conn: Connection, source: str, target: str, upto: int, covered: int, stats_to: int
) -> None:
    """Copy into a fork what the source's packed blocks hold of it.

    A block whose turns were all archived, and whose summaries all made, by the fork's
    checkpoint (`upto` turns archived, summaries `covered` turns) is copied whole; from the
    one that this cuts, the turns up to `upto`, the summaries' records up to `covered`
    and the statistics of turns up to `stats_to` go into the target's rows.
    """
    whole = min(upto, covered)
    conn.execute(
        "INSERT INTO archive_blocks (thread_id, first_turn, turns) SELECT ?, first_turn, turns "
        "FROM archive_blocks WHERE thread_id = ? AND first_turn + ? <= ?",
        (target, source, BLOCK_TURNS - 1, whole),
    )
    cut = list(range(block_start(whole + 1), max(upto, covered) + 1, BLOCK_TURNS))
    for block in _read(conn, source, cut).values():
        put_turns(conn, target, [(t, v) for t, v in block.turns.items() if t <= upto])
        put_summaries(
            conn,
            target,
            SUMMARY,
            [(a, b, m, r) for (a, b), (m, r) in block.summaries.items() if b <= covered],
        )
        for (a, b), record in block.facts.items():
            if b <= covered:
                put_facts(conn, target, a, b, record)
        for meta in block.costs.values():
            if int(meta["turns"][0]) <= covered:
                put_cost(conn, target, meta)
        conn.executemany(
            "INSERT INTO archive_turns (thread_id, turn, stats) VALUES (?, ?, ?) "
            "ON CONFLICT (thread_id, turn) DO UPDATE SET stats = excluded.stats",
            [(target, t, dump(row)) for t, row in sorted(block.stats.items()) if t <= stats_to],
        )


def stats_of(conn: Connection, thread_id: str) -> dict[int, Any]:
    """Turn -> context statistics (a list) of the thread's packed blocks."""
    out: dict[int, Any] = {}
    for block in _all(conn, thread_id, parts="x"):
        out.update(block.stats)
    return out
