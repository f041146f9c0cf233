"""A thread's record: making one, and the settings it holds or the configured defaults.

Below `turns` and `threads` (both read a record's settings) and `slots` (a version slot is
a record too); imports only `graph.session.app` of this package.
"""

from __future__ import annotations

import uuid
from typing import Any

from graph.memory import STRATEGIES
from graph.session.app import ChatApp
from graph.storage.archive import register_thread


def new_thread(app: ChatApp, title: str = "", owner: str = "", **fields: Any) -> str:
    """Create an empty thread (of `owner`, when the service's user made it); return its id.

    `fields` go into its record as it is written (`version_of`: a hidden version slot).
    """
    thread_id = f"session_{uuid.uuid4().hex[:12]}"
    register_thread(app.persistence.archive, thread_id, title, owner, **fields)
    return thread_id


def thread_budget(app: ChatApp, record: dict[str, Any]) -> int:
    """The thread's summary budget, or the configured default."""
    value = record.get("budget")
    return int(value) if isinstance(value, int) else app.settings.summary_budget


def thread_recall(app: ChatApp, record: dict[str, Any]) -> bool:
    """Whether the thread recalls earlier turns, or the configured default."""
    value = record.get("recall")
    return value if isinstance(value, bool) else app.settings.recall_enabled


def thread_strategy(app: ChatApp, record: dict[str, Any]) -> str:
    """The strategy a thread record names, or the configured default."""
    name = str(record.get("strategy") or "")
    return name if name in STRATEGIES else app.settings.default_strategy
