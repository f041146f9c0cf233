"""Running turns and reading threads: the API that app.py and graph.replay share.

Input is checked before anything is written, so a refused message changes nothing. After
each turn the thread's older checkpoints are pruned: the newest one holds the whole state.
"""

from __future__ import annotations

import queue
import sqlite3
import threading
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import AIMessageChunk, BaseMessage, HumanMessage
from langchain_core.runnables import RunnableConfig
from langgraph.types import Command

from graph.archive import (
    delete_archive,
    forget_thread,
    get_thread,
    list_threads,
    load_archived,
    load_context_stats,
    load_summary_meta,
    register_thread,
    update_thread,
)
from graph.context import context_chars
from graph.errors import InputError
from graph.graph import ChatGraph
from graph.memory import STRATEGIES, strategy_context
from graph.nodes import planned_summary
from graph.persistence import Persistence, StorageError, prune_checkpoints
from graph.settings import Settings, validate_rate
from graph.times import TIME_KEY, now_iso, parse_time
from graph.turns import content_text, split_turns

TokenSink = Callable[[str], None]
TITLE_CHARS = 40
"""Length of a thread title taken from its first message."""


@dataclass
class ChatApp:
    """The compiled graph with its persistence and settings; built once per process."""

    graph: ChatGraph
    persistence: Persistence
    settings: Settings
    _locks: dict[str, threading.Lock] = field(default_factory=dict, repr=False)
    _guard: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def turn_lock(self, thread_id: str) -> threading.Lock:
        """The lock that keeps one conversation to one running turn at a time."""
        with self._guard:
            return self._locks.setdefault(thread_id, threading.Lock())


_DONE = object()


@dataclass
class TurnHandle:
    """A turn running in a worker thread: its tokens as they come, then its outcome.

    The worker, not the caller, owns the turn: if the caller goes away (a Streamlit rerun,
    a closed tab), the turn still finishes and is saved.
    """

    worker: threading.Thread
    queue: queue.Queue[object]
    outcome: TurnOutcome | None = None
    error: BaseException | None = None

    def tokens(self) -> Iterator[str]:
        """Tokens of the answer until the turn ends."""
        while True:
            item = self.queue.get()
            if item is _DONE:
                return
            yield str(item)

    def result(self, timeout: float | None = None) -> TurnOutcome:
        """Wait for the turn; raise what it raised (InputError, StorageError, ...)."""
        self.worker.join(timeout)
        if self.error is not None:
            raise self.error
        if self.outcome is None:
            raise TimeoutError("the turn is still running")
        return self.outcome


def start_turn(
    app: ChatApp, thread_id: str, call: Callable[[TokenSink], TurnOutcome]
) -> TurnHandle:
    """Run `call(on_token)` (a run_turn or resume_turn) in a worker, one per conversation."""
    tokens: queue.Queue[object] = queue.Queue()
    lock = app.turn_lock(thread_id)

    def work() -> None:
        with lock:
            try:
                handle.outcome = call(tokens.put)
            except BaseException as exc:  # noqa: BLE001 - handed to whoever waits
                handle.error = exc
            finally:
                tokens.put(_DONE)

    handle = TurnHandle(
        threading.Thread(target=work, name=f"turn-{thread_id}", daemon=True), tokens
    )
    handle.worker.start()
    return handle


def wait_idle(app: ChatApp, thread_id: str, timeout: float = 300.0) -> bool:
    """Wait until no turn runs in the conversation; False if it is still busy after `timeout`."""
    lock = app.turn_lock(thread_id)
    if not lock.acquire(timeout=timeout):
        return False
    lock.release()
    return True


@dataclass
class TurnOutcome:
    """How a turn ended."""

    answer: str = ""
    """Final assistant text ('' while paused)."""
    error_code: str | None = None
    """Set when the turn ended in the fallback answer."""
    pending: dict[str, Any] | None = None
    """Set when the graph paused for approval: tool, args, tool_call_id."""


@dataclass
class ThreadView:
    """Everything the UI shows of a thread, read from the checkpointed state and archive."""

    thread_id: str
    title: str
    turn_count: int
    compression_rate: float
    summary_history: list[dict[str, Any]]
    strategy: str
    summary_meta: list[dict[str, Any]]
    context_log: list[dict[str, Any]]
    errors: list[dict[str, Any]]
    turns: list[tuple[int, list[BaseMessage]]] = field(default_factory=list)
    """(turn number, messages) of the turns loaded, oldest first."""
    first_turn_shown: int = 1
    pending: dict[str, Any] | None = None
    route: str = ""
    retrieved: list[dict[str, Any]] = field(default_factory=list)
    state: dict[str, Any] = field(default_factory=dict)
    """The raw checkpointed values, for export and the next-context preview."""


def _config(thread_id: str, settings: Settings) -> RunnableConfig:
    return {
        "configurable": {"thread_id": thread_id},
        "recursion_limit": 4 * settings.tool_round_limit + 10,
    }


def sent_now(app: ChatApp) -> str:
    """The current time in the app's time zone, for a message being sent now."""
    return now_iso(app.settings.timezone)


def new_thread(app: ChatApp, title: str = "") -> str:
    """Create an empty thread and return its id."""
    thread_id = f"session_{uuid.uuid4().hex[:12]}"
    register_thread(app.persistence.archive, thread_id, title)
    return thread_id


def threads(app: ChatApp) -> list[dict[str, Any]]:
    """All threads, newest first."""
    return list_threads(app.persistence.archive)


def rename_thread(app: ChatApp, thread_id: str, title: str) -> None:
    """Give a thread a new title."""
    title = title.strip()
    if not title:
        raise InputError("A thread title cannot be empty.")
    _require_thread(app, thread_id)
    update_thread(app.persistence.archive, thread_id, title=title[:100])


def set_thread_rate(app: ChatApp, thread_id: str, rate: float) -> float:
    """Remember the slider's rate for a thread; it applies from the thread's next summary."""
    try:
        value = validate_rate(rate)
    except ValueError as exc:
        raise InputError(str(exc)) from exc
    _require_thread(app, thread_id)
    with _storage_errors():
        update_thread(app.persistence.archive, thread_id, rate=value)
    return value


def set_thread_strategy(app: ChatApp, thread_id: str, strategy: str) -> str:
    """Choose a thread's memory strategy; it applies from the thread's next turn on.

    What was summarized under the earlier strategy stays in `summary_history`, and the new
    strategy starts from those summaries (see `summary_node`), so nothing is forgotten.
    """
    if strategy not in STRATEGIES:
        raise InputError(f"Unknown memory strategy {strategy!r}; choose one of {STRATEGIES}.")
    _require_thread(app, thread_id)
    with _storage_errors():
        update_thread(app.persistence.archive, thread_id, strategy=strategy)
    return strategy


def thread_strategy(app: ChatApp, record: dict[str, Any]) -> str:
    """The strategy a thread record names, or the configured default."""
    name = str(record.get("strategy") or "")
    return name if name in STRATEGIES else app.settings.default_strategy


def delete_thread(app: ChatApp, thread_id: str) -> None:
    """Delete a thread: checkpoints, archive and its entry in the list."""
    _require_thread(app, thread_id)
    app.persistence.saver.delete_thread(thread_id)
    delete_archive(app.persistence.archive, thread_id)
    forget_thread(app.persistence.archive, thread_id)


def _require_thread(app: ChatApp, thread_id: str) -> dict[str, Any]:
    record = get_thread(app.persistence.archive, thread_id)
    if record is None:
        raise InputError(f"Unknown thread {thread_id!r}.")
    return record


def _values(app: ChatApp, thread_id: str) -> dict[str, Any]:
    snapshot = app.graph.get_state(_config(thread_id, app.settings))
    return dict(snapshot.values or {})


def pending_approval(app: ChatApp, thread_id: str) -> dict[str, Any] | None:
    """The approval the thread is waiting for, if it is paused."""
    return _approval(app.graph.get_state(_config(thread_id, app.settings)).interrupts)


def _approval(interrupts: Sequence[Any]) -> dict[str, Any] | None:
    for interrupt in interrupts:
        if isinstance(interrupt.value, dict) and interrupt.value.get("kind") == "approval":
            return dict(interrupt.value)
    return None


def check_message(app: ChatApp, text: str) -> str:
    """Return the message stripped, or raise InputError if it is empty or too long."""
    stripped = text.strip()
    if not stripped:
        raise InputError("The message is empty.")
    limit = app.settings.message_limit
    if len(stripped) > limit:
        raise InputError(f"The message has {len(stripped):,} characters; the limit is {limit:,}.")
    return stripped


def run_turn(
    app: ChatApp,
    thread_id: str,
    text: str,
    *,
    turn_count: int,
    compression_rate: float,
    on_token: TokenSink | None = None,
    sent_at: str | None = None,
) -> TurnOutcome:
    """Run one turn: the user's message at `turn_count` (app.py increments it beforehand).

    `sent_at` is when the message was sent (ISO 8601 with a time zone, see `now_iso`); the
    adapters pass the current time, a replayed transcript its own times or none.
    """
    message = check_message(app, text)
    try:
        rate = validate_rate(compression_rate)
        sent = {TIME_KEY: parse_time(sent_at)} if sent_at else {}
    except ValueError as exc:
        raise InputError(str(exc)) from exc
    record = _require_thread(app, thread_id)
    snapshot = app.graph.get_state(_config(thread_id, app.settings))
    if _approval(snapshot.interrupts) is not None:
        raise InputError("This thread is waiting for a tool approval; answer it first.")
    expected = int((snapshot.values or {}).get("turn_count", 0)) + 1
    if turn_count != expected:
        raise InputError(f"Turn {turn_count} is out of order; this thread is at turn {expected}.")
    if not record.get("title"):
        title = " ".join(message.split())
        with _storage_errors():
            update_thread(
                app.persistence.archive,
                thread_id,
                title=title if len(title) <= TITLE_CHARS else title[: TITLE_CHARS - 1] + "…",
            )
    payload = {
        "messages": [HumanMessage(content=message, additional_kwargs=sent)],
        "session_id": thread_id,
        "turn_count": turn_count,
        "compression_rate": rate,
        "strategy": thread_strategy(app, record),
    }
    return _stream(app, thread_id, payload, on_token)


def resume_turn(
    app: ChatApp,
    thread_id: str,
    action: str,
    args: dict[str, Any] | None = None,
    on_token: TokenSink | None = None,
) -> TurnOutcome:
    """Answer a pending approval with approve, reject or edit (with new args)."""
    if action not in ("approve", "reject", "edit"):
        raise InputError(f"Unknown decision {action!r}.")
    if pending_approval(app, thread_id) is None:
        raise InputError("Nothing is waiting for approval in this thread.")
    return _stream(app, thread_id, Command(resume={"action": action, "args": args}), on_token)


@contextmanager
def _storage_errors() -> Iterator[None]:
    """Turn SQLite errors (locked, read-only, full) into a StorageError the UI can show."""
    try:
        yield
    except sqlite3.Error as exc:
        raise StorageError(
            f"The conversation could not be saved ({exc}). Nothing that was saved before is "
            "lost; please try again."
        ) from exc


def _stream(app: ChatApp, thread_id: str, payload: Any, on_token: TokenSink | None) -> TurnOutcome:
    config = _config(thread_id, app.settings)
    outcome = TurnOutcome()
    last: BaseMessage | None = None
    with _storage_errors():
        # One checkpoint per turn: the turn is the unit the user sees, and older checkpoints
        # are pruned anyway. A pause for approval or an error still persists ("exit" writes
        # on interrupt and on exceptions); only a hard kill mid-turn loses that turn.
        parts: Any = app.graph.stream(
            payload, config, stream_mode=["messages", "updates"], durability="exit"
        )
        for mode, chunk in parts:
            if mode == "messages":
                piece, meta = chunk
                if (
                    on_token
                    and meta.get("langgraph_node") == "llm_node"
                    and isinstance(piece, AIMessageChunk)
                    and piece.content
                ):
                    on_token(content_text(piece))
            elif mode == "updates" and "__interrupt__" in chunk:
                for interrupt in chunk["__interrupt__"]:
                    outcome.pending = dict(interrupt.value)
            elif mode == "updates" and chunk.get("llm_node"):
                last = chunk["llm_node"]["messages"][-1]
        prune_checkpoints(app.persistence.saver, thread_id)
        update_thread(app.persistence.archive, thread_id)
    if outcome.pending is None:
        if last is None:  # the stream ended without an answer: read it from the state
            last = _values(app, thread_id)["messages"][-1]
        outcome.answer = content_text(last)
        outcome.error_code = last.response_metadata.get("error_code")
    return outcome


def load_thread(app: ChatApp, thread_id: str, recent_turns: int | None = None) -> ThreadView:
    """Read a thread for display: state values plus archived turns (the last `recent_turns`)."""
    record = _require_thread(app, thread_id)
    values = _values(app, thread_id)
    archived = int(values.get("archived_turns", 0))
    completed, current = split_turns(values.get("messages", []))
    live = [(archived + i + 1, turn) for i, turn in enumerate(completed)]
    if current:
        live.append((archived + len(completed) + 1, current))
    total = archived + len(live)
    first = 1 if recent_turns is None else max(1, total - recent_turns + 1)
    archived_shown = load_archived(app.persistence.archive, thread_id, first, archived)
    turns = [(first + i, t) for i, t in enumerate(archived_shown)] + [
        (n, t) for n, t in live if n >= first
    ]
    return ThreadView(
        thread_id=thread_id,
        title=str(record.get("title") or ""),
        turn_count=int(values.get("turn_count", 0)),
        compression_rate=float(
            record.get("rate", values.get("compression_rate", app.settings.default_rate))
        ),
        summary_history=list(values.get("summary_history", [])),
        strategy=thread_strategy(app, record),
        summary_meta=load_summary_meta(app.persistence.archive, thread_id),
        context_log=load_context_stats(app.persistence.archive, thread_id),
        errors=list(values.get("errors", [])),
        turns=turns,
        first_turn_shown=first,
        pending=pending_approval(app, thread_id),
        route=str(values.get("route", "")),
        retrieved=list(values.get("retrieved", [])),
        state=values,
    )


@dataclass
class NextContext:
    """What the next model call would receive if the user sent a message now."""

    messages: list[BaseMessage]
    chars: int
    summarize_first: list[int]
    """Turns that will be summarized before that call (empty when none are due)."""


def preview_next_context(view: ThreadView, placeholder: str = "…") -> NextContext:
    """The context of the next turn's first model call, with a placeholder message.

    Summaries due before that call are listed in `summarize_first`; the context shown is the
    one the model gets if they have not been made yet (as after a failed summary).
    """
    state = {
        **view.state,
        "messages": [*view.state.get("messages", []), HumanMessage(content=placeholder)],
        "turn_count": view.turn_count + 1,
        "strategy": view.strategy,
    }
    context = strategy_context(state)
    return NextContext(
        messages=context,
        chars=context_chars(context),
        summarize_first=planned_summary(state),  # type: ignore[arg-type]
    )


def export_thread(app: ChatApp, thread_id: str) -> dict[str, Any]:
    """The whole thread as plain JSON: messages (archive + state) and `summary_history`."""
    from langchain_core.messages import messages_to_dict

    view = load_thread(app, thread_id)
    return {
        "thread_id": thread_id,
        "title": view.title,
        "turn_count": view.turn_count,
        "compression_rate": view.compression_rate,
        "turns": [{"turn": n, "messages": messages_to_dict(msgs)} for n, msgs in view.turns],
        "summary_history": view.summary_history,
        "strategy": view.strategy,
        "summary_digests": view.state.get("summary_digests", []),
        "window_summary": view.state.get("window_summary", ""),
        "memory": view.state.get("memory", ""),
        "entities": view.state.get("entities", []),
        "summary_meta": view.summary_meta,
        "context_log": view.context_log,
        "errors": view.errors,
    }


def open_app(settings: Settings, **graph_kwargs: Any) -> ChatApp:
    """Open the database and compile the graph on it."""
    from graph.graph import build_graph
    from graph.persistence import open_persistence

    persistence = open_persistence(settings.db_path)
    if "index" not in graph_kwargs:
        from graph.retrieval import open_index

        graph_kwargs["index"] = open_index(settings)
    if "router_model" not in graph_kwargs and settings.resolved_provider == "openai":
        from graph.providers import get_summarizer_model

        graph_kwargs["router_model"] = get_summarizer_model(settings)
    graph = build_graph(
        persistence.saver, archive=persistence.archive, settings=settings, **graph_kwargs
    )
    return ChatApp(graph=graph, persistence=persistence, settings=settings)
