"""The application object: the compiled graph with its persistence and settings.

Also what every part of the session shares: making a thread's record (`new_thread`),
reading it (`require_thread`), its state (`thread_values`) and the approval it waits for
(`pending_approval`). A thread's run
configuration (`config_for`) is `graph.session.context`'s, imported here for them.
"""

from __future__ import annotations

import threading
import uuid
from dataclasses import dataclass, field
from typing import Any

from langgraph.types import StateSnapshot

from graph.approval import approval_in
from graph.errors import InputError
from graph.graph import ChatGraph
from graph.retrieval.index import DocumentIndex
from graph.session.context import config_for
from graph.settings import Settings
from graph.storage.archive import get_thread, register_thread
from graph.storage.persistence import Persistence
from graph.storage.tool_calls import load_call
from graph.text import check_thread_id


@dataclass
class ChatApp:
    """The compiled graph with its persistence and settings; built once per process."""

    graph: ChatGraph
    persistence: Persistence
    settings: Settings
    index: DocumentIndex | None = None
    """The documents' index the graph searches (None when documents are off)."""
    _locks: dict[str, threading.Lock] = field(default_factory=dict, repr=False)
    _guard: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def turn_lock(self, thread_id: str) -> threading.Lock:
        """The lock that keeps one conversation to one running turn at a time."""
        with self._guard:
            return self._locks.setdefault(thread_id, threading.Lock())


def new_thread(app: ChatApp, title: str = "", owner: str = "", **fields: Any) -> str:
    """Create an empty thread (of `owner`, when the service's user made it); return its id.

    `fields` go into its record as it is written (`version_of`: a hidden version slot).
    """
    thread_id = f"session_{uuid.uuid4().hex[:12]}"
    register_thread(app.persistence.archive, thread_id, title, owner, **fields)
    return thread_id


def require_thread(app: ChatApp, thread_id: str) -> dict[str, Any]:
    """The thread's record; InputError for a malformed or unknown thread id."""
    check_thread_id(thread_id)
    record = get_thread(app.persistence.archive, thread_id)
    if record is None:
        raise InputError(f"Unknown thread {thread_id!r}.")
    return record


def thread_values(app: ChatApp, thread_id: str) -> dict[str, Any]:
    """The checkpointed state values of a thread ({} for a new one)."""
    snapshot = app.graph.get_state(config_for(thread_id, app.settings))
    return dict(snapshot.values or {})


def pending_approval(
    app: ChatApp, thread_id: str, snapshot: StateSnapshot | None = None
) -> dict[str, Any] | None:
    """The approval the thread is waiting for, if it is paused.

    `may_have_run` is set when the call was started after an earlier approval and the
    process died before its result was saved: the user is asked again, knowing that.
    `snapshot` is the thread's state when the caller has just read it.
    """
    if snapshot is None:
        snapshot = app.graph.get_state(config_for(thread_id, app.settings))
    pending = approval_in(snapshot.interrupts)
    if pending is None:
        return None
    from graph.nodes.tools import pending_call_key

    key = pending_call_key(snapshot.values or {}, pending)  # type: ignore[arg-type]
    record = load_call(app.persistence.archive, thread_id, key)
    if record is not None and record["status"] == "running":
        pending["may_have_run"] = True
    return pending


def open_app(settings: Settings, **graph_kwargs: Any) -> ChatApp:
    """Open the database and compile the graph on it."""
    from graph.graph import build_graph
    from graph.storage.persistence import open_persistence

    # a bad CHECKPOINT_KEEP_TURNS or RETRIEVAL_MODE is refused here (ValueError), not mid-turn
    settings.keep_turns  # noqa: B018
    settings.search_mode  # noqa: B018
    settings.supervised  # noqa: B018
    settings.token_budgets  # noqa: B018
    settings.safeguard_asks_model  # noqa: B018
    kind = settings.checkpointer_kind  # a bad CHECKPOINTER is refused here too
    persistence = open_persistence(
        settings.database,
        checkpointer=kind,
        redis_url=settings.checkpoint_redis if kind == "redis" else "",
        memory_limits=settings.memory_limits if kind == "memory" else (3600.0, 100),
    )
    if "index" not in graph_kwargs:
        from graph.retrieval import open_index

        graph_kwargs["index"] = open_index(settings)
    if settings.resolved_provider == "openai":
        from graph.providers import get_summarizer_model

        roles = ["router_model"] + (["safeguard_model"] if settings.safeguard_asks_model else [])
        for role in roles:
            if role not in graph_kwargs:
                graph_kwargs[role] = get_summarizer_model(settings)
    graph = build_graph(
        persistence.saver, archive=persistence.archive, settings=settings, **graph_kwargs
    )
    return ChatApp(
        graph=graph,
        persistence=persistence,
        settings=settings,
        index=graph_kwargs.get("index"),
    )
