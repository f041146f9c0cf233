"""Archived turns packed by the block: the turns of one aligned block in one compressed row.

A turn's messages are written in a row of their own when it is archived (`archive_turns`),
so a summary stores only the turns it adds. Once a block of BLOCK_TURNS turns (1-30,
31-60, ...) is archived to its end, its turns are packed together into one
`archive_blocks` row and their own rows keep only their statistics. zlib then compresses
each turn against the turns before it, not only against the preset dictionary: on the
benchmark's 1,000-turn transcript the archived messages take 55 KB instead of 232 KB, and
a block is one row instead of thirty. Reading a turn of a packed block unpacks the block
(a few milliseconds); recall keeps the turns it read unpacked (`Archive.recent`).

Rewriting a turn of a packed block (a transcript imported again, a strategy that
archives again) unpacks the block into its rows first and packs it again afterwards.
Everything here runs inside the caller's transaction, with the archive's lock held.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from graph.storage.db import Connection, tables
from graph.storage.packing import dump, pack_json, unpack_json

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
"""One row per packed block: `turns` is `pack_json` of [[turn, packed messages], ...]. A
rowid table: WITHOUT ROWID rows of a few KB spill into overflow pages of their own."""


def block_start(turn: int) -> int:
    """The first turn of the block holding `turn`."""
    return (turn - 1) // BLOCK_TURNS * BLOCK_TURNS + 1


def _starts(turns: Iterable[int]) -> list[int]:
    return sorted({block_start(t) for t in turns})


def _in(values: Sequence[Any]) -> str:
    return f"({','.join('?' * len(values))})"


def read_blocks(
    conn: Connection, thread_id: str, starts: Sequence[int]
) -> dict[int, dict[int, Any]]:
    """The packed blocks starting at `starts` (those that exist): start -> {turn: value}."""
    out: dict[int, dict[int, Any]] = {}
    for i in range(0, len(starts), 500):
        chunk = list(starts[i : i + 500])
        rows = conn.execute(
            f"SELECT first_turn, turns FROM archive_blocks WHERE thread_id = ? "
            f"AND first_turn IN {_in(chunk)}",
            (thread_id, *chunk),
        ).fetchall()
        for start, packed in rows:
            out[int(start)] = {int(turn): value for turn, value in unpack_json(packed)}
    return out


def unseal(conn: Connection, thread_id: str, turns: Iterable[int]) -> None:
    """Unpack the packed blocks holding `turns` back into their turns' rows."""
    for start, block in read_blocks(conn, thread_id, _starts(turns)).items():
        conn.executemany(
            "INSERT INTO archive_turns (thread_id, turn, messages) VALUES (?, ?, ?) "
            "ON CONFLICT (thread_id, turn) DO UPDATE SET messages = excluded.messages",
            [(thread_id, turn, pack_json(value)) for turn, value in sorted(block.items())],
        )
        conn.execute(
            "DELETE FROM archive_blocks WHERE thread_id = ? AND first_turn = ?",
            (thread_id, start),
        )


def seal(conn: Connection, thread_id: str, start: int) -> bool:
    """Pack the archived turns of the block at `start` into one row; False if it has none."""
    rows = conn.execute(
        "SELECT turn, messages FROM archive_turns WHERE thread_id = ? AND turn BETWEEN ? AND ? "
        "AND messages IS NOT NULL ORDER BY turn",
        (thread_id, start, start + BLOCK_TURNS - 1),
    ).fetchall()
    if not rows:
        return False
    block = read_blocks(conn, thread_id, [start]).get(start, {})
    block.update((int(turn), unpack_json(packed)) for turn, packed in rows)
    conn.execute(
        "INSERT INTO archive_blocks (thread_id, first_turn, turns) VALUES (?, ?, ?) "
        "ON CONFLICT (thread_id, first_turn) DO UPDATE SET turns = excluded.turns",
        (thread_id, start, pack_json(sorted(block.items()))),
    )
    conn.execute(
        "UPDATE archive_turns SET messages = NULL WHERE thread_id = ? AND turn BETWEEN ? AND ?",
        (thread_id, start, start + BLOCK_TURNS - 1),
    )
    return True


def seal_full(conn: Connection, thread_id: str, turns: Sequence[int]) -> None:
    """Pack each block that the just archived `turns` touch and that they archive to its end."""
    if not turns:
        return
    last = max(turns)
    for start in _starts(turns):
        if start + BLOCK_TURNS - 1 <= last:
            seal(conn, thread_id, start)


def seal_archived(conn: Connection) -> int:
    """Pack every block archived to its end, in every thread (the upgrade to version 8)."""
    sealed = 0
    for thread_id, last in conn.execute(
        "SELECT thread_id, max(turn) FROM archive_turns WHERE messages IS NOT NULL "
        "GROUP BY thread_id"
    ).fetchall():
        full = [t for t in range(1, int(last) + 1, BLOCK_TURNS) if t + BLOCK_TURNS - 1 <= last]
        sealed += sum(seal(conn, str(thread_id), start) for start in full)
    return sealed


def read_turns(conn: Connection, thread_id: str, turns: Sequence[int]) -> dict[int, Any]:
    """The packed messages (`pack_message` dicts) of the archived `turns` that exist."""
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
    for block in read_blocks(conn, thread_id, _starts(rest)).values():
        out.update((t, block[t]) for t in rest if t in block)
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
        for (packed,) in conn.execute(
            "SELECT turns FROM archive_blocks WHERE thread_id = ? AND first_turn BETWEEN ? AND ?",
            (thread_id, block_start(first), last),
        ).fetchall():
            for turn, value in unpack_json(packed):
                if first <= turn <= last and turn not in out:
                    out[int(turn)] = value
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
            numbers.update(int(turn) for turn, _ in unpack_json(packed))
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
        threads = sorted(
            str(row[0])
            for row in conn.execute(f"SELECT thread_id FROM archive_turns{union}").fetchall()
        )
        threads = list(dict.fromkeys(threads))
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


def copy_blocks(conn: Connection, source: str, target: str, upto: int) -> None:
    """Copy the source's archived turns up to `upto` that are packed into the target.

    A block archived to its end by then is copied whole; one that `upto` cuts goes into
    the target's turn rows, its turns up to `upto` only.
    """
    conn.execute(
        "INSERT INTO archive_blocks (thread_id, first_turn, turns) SELECT ?, first_turn, turns "
        "FROM archive_blocks WHERE thread_id = ? AND first_turn + ? <= ?",
        (target, source, BLOCK_TURNS - 1, upto),
    )
    cut = block_start(upto)
    if cut + BLOCK_TURNS - 1 > upto:
        for turn, value in sorted(read_blocks(conn, source, [cut]).get(cut, {}).items()):
            if turn <= upto:
                conn.execute(
                    "INSERT INTO archive_turns (thread_id, turn, messages) VALUES (?, ?, ?) "
                    "ON CONFLICT (thread_id, turn) DO UPDATE SET messages = excluded.messages",
                    (target, turn, pack_json(value)),
                )
