"""Per-call tool records, so that every tool call runs at most once per approval.

LangGraph re-runs a node from its start when it resumes after `interrupt()`, and a crash
loses what happened since the last checkpoint. Each call's state is therefore kept in the
database, keyed by thread and `tool_call_id`, committed the moment it changes: `running`
just before the tool runs, `done` with its result after. A resumed node reuses a `done`
result instead of running the tool again; a call left `running` (the process died while
it ran) is asked about again, with a note that it may have run.
"""

from __future__ import annotations

import json
import time
from typing import Any

from graph.storage.archive import Archive


def load_call(archive: Archive, thread_id: str, call_id: str) -> dict[str, Any] | None:
    """The record of a tool call: {status: running | done, content, args, decision}."""
    rows = archive.execute(
        "SELECT status, record FROM tool_calls WHERE thread_id = ? AND call_id = ?",
        (thread_id, call_id),
    )
    if not rows:
        return None
    return {"status": rows[0][0], **json.loads(rows[0][1])}


def mark_call(archive: Archive, thread_id: str, call_id: str, status: str, **record: Any) -> None:
    """Record a call's state now (its own transaction): `running` or `done`."""
    archive.execute(
        "INSERT INTO tool_calls (thread_id, call_id, status, record, updated_at) "
        "VALUES (?, ?, ?, ?, ?) ON CONFLICT (thread_id, call_id) DO UPDATE SET "
        "status = excluded.status, record = excluded.record, updated_at = excluded.updated_at",
        (thread_id, call_id, status, json.dumps(record, ensure_ascii=False), time.time()),
    )
