"""Every summary and digest of a thread, stored once, so the state only holds what it uses.

`summary_history` in the state holds the summaries the memory still works with (those no
digest covers, and always the newest), `summary_digests` the digests the context shows.
What a turn reads and writes on its way through the nodes then stays the same size at turn
1,000 as at turn 10. The panel, the API and export read the whole history here (`load`),
joined with the state's entries (a thread written by an earlier version keeps them all in
the state until its next summary stores them here).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from graph.storage import blocks
from graph.storage.archive import Archive
from graph.storage.db import Connection

SUMMARY = "summary"
DIGEST = "digest"
"""The kinds of rows in `summary_items` (see `graph.storage.schema`): one per summary or
digest, with its turn span, the turn it was made at, and the record (the seed's entry, or
the digest; a summary's `time` span when its turns had times)."""


def _span(item: Mapping[str, Any]) -> tuple[int, int]:
    return int(item["turns"][0]), int(item["turns"][-1])


def store(
    archive: Archive,
    thread_id: str,
    kind: str,
    items: Iterable[Mapping[str, Any]],
    made_at: int,
    times: Mapping[str, Sequence[str]] | None = None,
) -> None:
    """Keep `items` (summaries or digests).

    An item kept before with other text (a summary made again after a crash lost the
    state that held the first one) takes the new text: the state is what the model used.
    """
    with archive.lock, archive.conn:
        store_in(archive.conn, thread_id, kind, items, made_at, times)


def store_in(
    conn: Connection,
    thread_id: str,
    kind: str,
    items: Iterable[Mapping[str, Any]],
    made_at: int,
    times: Mapping[str, Sequence[str]] | None = None,
) -> None:
    """As `store`, inside the caller's transaction (it holds the connection)."""
    rows = []
    for item in items:
        first, last = _span(item)
        record = {k: v for k, v in item.items() if k != "thread_id"}  # the row's key says it
        span = (times or {}).get(str(first))
        if kind == SUMMARY and span:
            record["time"] = list(span)
        rows.append((first, last, made_at, record))
    if rows:
        blocks.put_summaries(conn, thread_id, kind, rows)


def load(
    archive: Archive, thread_id: str, state: Mapping[str, Any]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, list[str]]]:
    """The thread's whole summary_history, all its digests and the summaries' times.

    The kept items joined with the state's own: summaries by turn, digests in the order
    they were made; each entry names this thread.
    """
    with archive.lock, archive.conn:
        found = blocks.summaries_of(archive.conn, thread_id)
    history: dict[tuple[int, int], dict[str, Any]] = {}
    digests: dict[tuple[int, int], dict[str, Any]] = {}
    times: dict[str, list[str]] = {}
    for *_, kind, record in found:
        item = dict(record)
        if kind == SUMMARY:
            span = item.pop("time", None)
            if span:
                times[str(item["turns"][0])] = list(span)
            history[_span(item)] = {**item, "thread_id": thread_id}
        else:
            digests[_span(item)] = item
    # the state's own entries win: they are what the model used
    for entry in state.get("summary_history", []):
        history[_span(entry)] = {**entry, "thread_id": thread_id}
    for digest in state.get("summary_digests", []):
        digests[_span(digest)] = dict(digest)
    for first, span in (state.get("summary_times") or {}).items():
        times[str(first)] = list(span)
    order = sorted(history)
    return (
        [history[k] for k in order],
        list(digests.values()),  # in the order they were made
        times,
    )


def copy(archive: Archive, source: str, target: str, covered: int, before_turn: int) -> None:
    """Copy to a fork the summaries up to `covered` and the digests made before `before_turn`.

    The digests of the fork's own turn that it uses are in its state. Runs in the caller's transaction (it holds the connection).
    """
    archive.conn.execute(
        "INSERT INTO summary_items "
        "(thread_id, kind, first_turn, last_turn, made_at, record) "
        "SELECT ?, kind, first_turn, last_turn, made_at, record FROM summary_items "
        "WHERE thread_id = ? AND (kind = ? AND last_turn <= ? OR kind = ? AND made_at < ?) "
        "ON CONFLICT DO NOTHING",
        (target, source, SUMMARY, covered, DIGEST, before_turn),
    )
