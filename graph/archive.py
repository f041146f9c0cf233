"""The archive of summarized turns and the list of threads, both in the LangGraph store.

A summarized turn leaves the graph state (the model sees its summary instead) and is kept
here, one item per turn, so the UI can still show and export the whole conversation.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import BaseMessage, messages_from_dict, messages_to_dict
from langgraph.store.base import BaseStore, GetOp, Item, PutOp

THREADS = ("threads",)
"""Namespace of the thread list: key = thread id."""


def _archive_ns(thread_id: str) -> tuple[str, ...]:
    return ("archive", thread_id)


def _key(turn: int) -> str:
    return f"{turn:08d}"


def archive_turns(
    store: BaseStore, thread_id: str, first_turn: int, turns: Sequence[Sequence[BaseMessage]]
) -> None:
    """Store completed turns `first_turn, first_turn + 1, ...`; writing twice is harmless."""
    store.batch(
        [
            PutOp(
                _archive_ns(thread_id),
                _key(first_turn + i),
                {"turn": first_turn + i, "messages": messages_to_dict(list(turn))},
                index=False,
            )
            for i, turn in enumerate(turns)
        ]
    )


def load_archived(
    store: BaseStore, thread_id: str, first: int, last: int
) -> list[list[BaseMessage]]:
    """Archived turns `first..last` (inclusive), oldest first; missing turns are skipped."""
    if last < first:
        return []
    items = store.batch([GetOp(_archive_ns(thread_id), _key(t)) for t in range(first, last + 1)])
    return [messages_from_dict(item.value["messages"]) for item in items if isinstance(item, Item)]


def delete_archive(store: BaseStore, thread_id: str, turns: int) -> None:
    """Delete a thread's archived turns 1..turns."""
    for turn in range(1, turns + 1):
        store.delete(_archive_ns(thread_id), _key(turn))


def register_thread(store: BaseStore, thread_id: str, title: str = "") -> dict[str, Any]:
    """Add a thread to the list (idempotent) and return its record."""
    item = store.get(THREADS, thread_id)
    if item is not None:
        return dict(item.value)
    now = time.time()
    record = {"thread_id": thread_id, "title": title, "created_at": now, "updated_at": now}
    store.put(THREADS, thread_id, record, index=False)
    return record


def get_thread(store: BaseStore, thread_id: str) -> dict[str, Any] | None:
    """A thread's record, or None for an unknown thread."""
    item = store.get(THREADS, thread_id)
    return dict(item.value) if item is not None else None


def update_thread(store: BaseStore, thread_id: str, **fields: Any) -> dict[str, Any]:
    """Change fields of a thread record (title, strategy, ...) and bump `updated_at`."""
    record = get_thread(store, thread_id)
    if record is None:
        raise KeyError(thread_id)
    record.update(fields, updated_at=time.time())
    store.put(THREADS, thread_id, record, index=False)
    return record


def list_threads(store: BaseStore, limit: int = 500) -> list[dict[str, Any]]:
    """All threads, newest first."""
    items = store.search(THREADS, limit=limit)
    records = [dict(item.value) for item in items]
    return sorted(records, key=lambda r: r.get("created_at", 0), reverse=True)


def forget_thread(store: BaseStore, thread_id: str) -> None:
    """Remove a thread from the list."""
    store.delete(THREADS, thread_id)
