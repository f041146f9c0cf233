"""The archive of summarized turns and the list of threads, both in the LangGraph store.

A summarized turn leaves the graph state (the model sees its summary instead) and is kept
here, one item per turn, so the UI can still show and export the whole conversation.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from langgraph.store.base import BaseStore, GetOp, Item, PutOp

THREADS = ("threads",)
"""Namespace of the thread list: key = thread id."""


def _archive_ns(thread_id: str) -> tuple[str, ...]:
    return ("archive", thread_id)


def _stats_ns(thread_id: str) -> tuple[str, ...]:
    return ("context_stats", thread_id)


def _meta_ns(thread_id: str) -> tuple[str, ...]:
    return ("summary_meta", thread_id)


def pack_message(msg: BaseMessage) -> dict[str, Any]:
    """A compact plain-dict form of a message: type, content and only the fields in use.

    LangChain's `messages_to_dict` spends ~400 bytes of empty fields on every message; this
    keeps the archive about as large as the text it holds.
    """
    packed: dict[str, Any] = {"t": msg.type, "c": msg.content}
    if isinstance(msg, AIMessage):
        if msg.tool_calls:
            packed["tc"] = [
                {"name": c["name"], "args": c["args"], "id": c["id"]} for c in msg.tool_calls
            ]
        if msg.response_metadata.get("error_code"):
            packed["ec"] = msg.response_metadata["error_code"]
    if isinstance(msg, ToolMessage):
        packed.update(n=msg.name, tid=msg.tool_call_id, s=msg.status)
        if msg.artifact:
            packed["a"] = msg.artifact
    return packed


def unpack_message(packed: dict[str, Any]) -> BaseMessage:
    """Rebuild a message packed by `pack_message`."""
    kind, content, msg_id = packed["t"], packed["c"], None
    if kind == "human":
        return HumanMessage(content=content, id=msg_id)
    if kind == "tool":
        return ToolMessage(
            content=content,
            id=msg_id,
            name=packed.get("n"),
            tool_call_id=packed.get("tid", ""),
            status=packed.get("s", "success"),
            artifact=packed.get("a"),
        )
    if kind == "system":
        return SystemMessage(content=content, id=msg_id)
    meta = {"error_code": packed["ec"]} if "ec" in packed else {}
    return AIMessage(
        content=content, id=msg_id, tool_calls=packed.get("tc", []), response_metadata=meta
    )


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
                {"turn": first_turn + i, "messages": [pack_message(m) for m in turn]},
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
    return [
        [unpack_message(m) for m in item.value["messages"]]
        for item in items
        if isinstance(item, Item)
    ]


def record_context_stats(store: BaseStore, thread_id: str, stats: dict[str, Any]) -> None:
    """Keep one turn's context size (what the model got vs. the transcript without summaries)."""
    store.put(_stats_ns(thread_id), _key(int(stats["turn"])), stats, index=False)


def record_summary_meta(store: BaseStore, thread_id: str, meta: dict[str, Any]) -> None:
    """Keep what a summary cost (calls, ms, tokens, target), keyed by its first turn."""
    store.put(_meta_ns(thread_id), _key(int(meta["turns"][0])), meta, index=False)


def _all(store: BaseStore, namespace: tuple[str, ...]) -> list[dict[str, Any]]:
    items = store.search(namespace, limit=100_000)
    return [dict(item.value) for item in sorted(items, key=lambda item: item.key)]


def load_context_stats(store: BaseStore, thread_id: str) -> list[dict[str, Any]]:
    """Context sizes of every turn, oldest first."""
    return _all(store, _stats_ns(thread_id))


def load_summary_meta(store: BaseStore, thread_id: str) -> list[dict[str, Any]]:
    """Costs of every summary, oldest first."""
    return _all(store, _meta_ns(thread_id))


def delete_archive(store: BaseStore, thread_id: str, turns: int) -> None:
    """Delete a thread's archived turns 1..turns, its context stats and summary costs."""
    for turn in range(1, turns + 1):
        store.delete(_archive_ns(thread_id), _key(turn))
    for namespace in (_stats_ns(thread_id), _meta_ns(thread_id)):
        for item in store.search(namespace, limit=100_000):
            store.delete(namespace, item.key)


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
