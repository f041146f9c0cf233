"""Managing threads: create, list, rename, settings per thread, delete, read, export."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import BaseMessage

from graph.errors import InputError
from graph.memory import STRATEGIES
from graph.memory.short_term import DEFAULT_TENANT, short_term_store
from graph.session.app import ChatApp, new_thread, pending_approval, require_thread
from graph.session.closing import close_interrupted
from graph.session.context import thread_budget, thread_recall, thread_strategy
from graph.session.errors import storage_errors
from graph.session.slots import TurnVersions, delete_slots, export_versions, is_slot, versions_in
from graph.settings import validate_budget, validate_rate
from graph.storage import summaries
from graph.storage.archive import (
    delete_archive,
    get_thread,
    list_threads,
    load_archived,
    load_context_stats,
    load_summary_meta,
    register_thread,
    update_thread,
)
from graph.storage.checkpointer import FORK_SOURCE
from graph.storage.facts import load_facts, read_pins
from graph.text import check_text, check_thread_id
from graph.turns import retryable, split_turns

log = logging.getLogger(__name__)


@dataclass
class ThreadView:
    """Everything the UI shows of a thread, read from the checkpointed state and archive."""

    thread_id: str
    title: str
    turn_count: int
    compression_rate: float
    summary_history: list[dict[str, Any]]
    """Every summary made, oldest first (the state keeps only its working set)."""
    strategy: str
    context_budget: int
    recall: bool
    summary_meta: list[dict[str, Any]]
    context_log: list[dict[str, Any]]
    errors: list[dict[str, Any]]
    turns: list[tuple[int, list[BaseMessage]]] = field(default_factory=list)
    """(turn number, messages) of the turns loaded, oldest first."""
    first_turn_shown: int = 1
    pending: dict[str, Any] | None = None
    comparison: dict[str, list[int]] = field(default_factory=dict)
    """The last strategy comparison: strategy -> context characters per turn."""
    retryable: bool = False
    """The last turn is unanswered and can be answered again in place (`retry_turn`)."""
    resumable: bool = False
    """A fork taken inside a turn that has not gone on yet: `retry_turn` goes on."""
    summary_digests: list[dict[str, Any]] = field(default_factory=list)
    """Every digest made, in order (three_turn)."""
    summary_times: dict[str, list[str]] = field(default_factory=dict)
    """When the turns of each summary were sent (see `ChatState.summary_times`)."""
    forked_from: dict[str, Any] = field(default_factory=dict)
    """The thread, checkpoint and turn this thread was forked from, if it was."""
    route: str = ""
    retrieved: list[dict[str, Any]] = field(default_factory=list)
    retrieval: dict[str, Any] = field(default_factory=dict)
    """The current turn's retrieval loop: outcome, steps with their judgements, menus."""
    state: dict[str, Any] = field(default_factory=dict)
    """The raw checkpointed values, for export and the next-context preview."""
    versions: dict[int, TurnVersions] = field(default_factory=dict)
    """The turns of the line shown that have versions (regenerated or edited), by number."""

    @property
    def is_waiting_human(self) -> bool:
        """Seed 004's flag: a call or step waits for the user's approval (`pending`).

        Read from the saved pause itself, not kept beside it, so it cannot go stale: true
        from the moment the graph pauses until a decision is taken.
        """
        return self.pending is not None


def ensure_thread(app: ChatApp, thread_id: str | None, owner: str = "") -> str:
    """The id of a thread to talk in: a new one for None, and one made under a new id.

    API clients may choose their own ids (seed 004: a session is created when it does not
    exist); a malformed id is an InputError. A thread made here records `owner` (the
    service's user); an existing one keeps its own, which the caller checks.
    """
    if thread_id is None:
        return new_thread(app, owner=owner)
    check_thread_id(thread_id)
    with storage_errors():
        record = register_thread(app.persistence.archive, thread_id, owner=owner)
    if is_slot(record):  # a version parked under another thread is not a conversation
        raise InputError(f"Unknown thread {thread_id!r}.")
    return thread_id


def thread_exists(app: ChatApp, thread_id: str) -> bool:
    """Whether a conversation of that id is there (a malformed id or a version slot is not)."""
    try:
        check_thread_id(thread_id)
    except InputError:
        return False
    with storage_errors():
        record = get_thread(app.persistence.archive, thread_id)
    return record is not None and not is_slot(record)


def threads(app: ChatApp) -> list[dict[str, Any]]:
    """All threads, newest first."""
    return list_threads(app.persistence.archive)


def rename_thread(app: ChatApp, thread_id: str, title: str) -> None:
    """Give a thread a new title."""
    title = check_text(title, "The title").strip()
    if not title:
        raise InputError("A thread title cannot be empty.")
    require_thread(app, thread_id)
    update_thread(app.persistence.archive, thread_id, title=title[:100])


def _save_setting(app: ChatApp, thread_id: str, **fields: Any) -> None:
    """Store settings in a known thread's record (they apply from its next turn)."""
    require_thread(app, thread_id)
    with storage_errors():
        update_thread(app.persistence.archive, thread_id, **fields)


def set_thread_rate(app: ChatApp, thread_id: str, rate: float) -> float:
    """Remember the slider's rate for a thread; it applies from the thread's next summary."""
    try:
        value = validate_rate(rate)
    except ValueError as exc:
        raise InputError(str(exc)) from exc
    _save_setting(app, thread_id, rate=value)
    return value


def set_thread_strategy(app: ChatApp, thread_id: str, strategy: str) -> str:
    """Choose a thread's memory strategy; it applies from the thread's next turn on.

    What was summarized under the earlier strategy stays in `summary_history`, and the new
    strategy starts from those summaries (see `summary_node`), so nothing is forgotten.
    """
    if strategy not in STRATEGIES:
        raise InputError(f"Unknown memory strategy {strategy!r}; choose one of {STRATEGIES}.")
    _save_setting(app, thread_id, strategy=strategy)
    return strategy


def set_thread_budget(app: ChatApp, thread_id: str, chars: int) -> int:
    """Set how many characters of summaries the thread's context holds before digests."""
    try:
        value = validate_budget(chars)
    except (TypeError, ValueError) as exc:
        raise InputError(str(exc)) from exc
    _save_setting(app, thread_id, budget=value)
    return value


def set_thread_recall(app: ChatApp, thread_id: str, enabled: bool) -> bool:
    """Turn recall of earlier turns on or off for a thread, from its next turn."""
    _save_setting(app, thread_id, recall=bool(enabled))
    return bool(enabled)


def save_comparison(app: ChatApp, thread_id: str, sizes: dict[str, list[int]]) -> None:
    """Keep a strategy comparison with the thread, so it is still there after a reload."""
    _save_setting(app, thread_id, comparison={k: [int(c) for c in v] for k, v in sizes.items()})


def delete_thread(app: ChatApp, thread_id: str) -> None:
    """Delete a thread, all of it or nothing: checkpoints, archive, index, list entry.

    With REDIS_URL, its short-term keys (seed 003, recursive threads) go too; a Redis that
    cannot be reached then leaves them to their TTL.
    """
    record = require_thread(app, thread_id)
    with storage_errors():
        delete_slots(app, thread_id)
        delete_archive(app.persistence.archive, thread_id)
        app.persistence.delete_checkpoints(thread_id)  # kept in Redis or in memory
    store = short_term_store(app.settings)
    if store is not None:
        try:
            store.delete(str(record.get("owner") or DEFAULT_TENANT), thread_id)
        except Exception as exc:  # noqa: BLE001 - the keys expire by themselves
            log.warning("short-term keys of %s stay until their TTL: %s", thread_id, exc)


def load_thread(app: ChatApp, thread_id: str, recent_turns: int | None = None) -> ThreadView:
    """Read a thread for display: state values plus archived turns (the last `recent_turns`)."""
    record = require_thread(app, thread_id)
    snapshot = close_interrupted(app, thread_id)
    values = dict(snapshot.values or {})
    with storage_errors():
        history, digests, times = summaries.load(app.persistence.archive, thread_id, values)
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
            record.get("rate") or values.get("compression_rate") or app.settings.default_rate
        ),
        summary_history=history,
        summary_digests=digests,
        summary_times=times,
        strategy=thread_strategy(app, record),
        context_budget=thread_budget(app, record),
        recall=thread_recall(app, record),
        summary_meta=load_summary_meta(app.persistence.archive, thread_id),
        context_log=load_context_stats(app.persistence.archive, thread_id),
        errors=list(values.get("errors", [])),
        turns=turns,
        first_turn_shown=first,
        pending=pending_approval(app, thread_id, snapshot),
        retryable=retryable(values.get("messages", [])),
        resumable=bool(snapshot.next)
        and not snapshot.interrupts
        and (snapshot.metadata or {}).get("source") == FORK_SOURCE,
        forked_from=dict(record.get("forked_from") or {}),
        comparison=dict(record.get("comparison") or {}),
        route=str(values.get("route", "")),
        retrieved=list(values.get("retrieved", [])),
        retrieval=dict(values.get("retrieval") or {}),
        state=values,
        versions=versions_in(record),
    )


COUNT_FIELDS = ("summary_calls", "summary_model_calls")
"""The state's counts an export carries."""

EXPORT_VERSION = 2
"""The export format this code writes (`export_version`). 1: no such field, one line of
turns. 2: `versions`, each turn's versions that are not shown, each a whole export of its
line (`graph.session.versions.export_versions`). Both are imported."""


def export_thread(app: ChatApp, thread_id: str) -> dict[str, Any]:
    """The whole thread as plain JSON: messages (archive + state) and `summary_history`.

    With the versions of its turns that are not shown (`versions`, format 2).
    """
    from langchain_core.messages import messages_to_dict

    view = load_thread(app, thread_id)
    return {
        "export_version": EXPORT_VERSION,
        "thread_id": thread_id,
        "title": view.title,
        "turn_count": view.turn_count,
        "archived_turns": int(view.state.get("archived_turns", 0)),
        "compression_rate": view.compression_rate,
        "turns": [{"turn": n, "messages": messages_to_dict(msgs)} for n, msgs in view.turns],
        "summary_history": view.summary_history,
        "strategy": view.strategy,
        "context_budget": view.context_budget,
        "recall": view.recall,
        "summary_times": view.summary_times,
        "pinned": read_pins(app.persistence.archive, thread_id),
        "lost_facts": [
            {"turns": [first, last], **record}
            for (first, last), record in sorted(
                load_facts(app.persistence.archive, thread_id).items()
            )
        ],
        "summary_digests": view.summary_digests,
        "window_summary": view.state.get("window_summary", ""),
        "memory": view.state.get("memory", ""),
        "entities": view.state.get("entities", []),
        "summary_meta": view.summary_meta,
        "context_log": view.context_log,
        "errors": view.errors,
        # the panel's counts of summaries and merges, and of the model requests they made
        **{k: int(view.state.get(k, 0)) for k in COUNT_FIELDS},
        "versions": export_versions(app, thread_id, export_thread),
    }


def salvage_thread(app: ChatApp, thread_id: str) -> dict[str, Any]:
    """What can still be read of a thread whose state cannot be: its record and archived turns.

    Each archived turn is read on its own, so one bad row loses only itself.
    """
    from langchain_core.messages import messages_to_dict

    from graph.storage.archive import archived_turn_numbers, load_archived_turns

    out: dict[str, Any] = {"thread_id": thread_id, "turns": [], "unreadable_turns": []}
    try:
        out["record"] = get_thread(app.persistence.archive, thread_id)
    except Exception as exc:  # noqa: BLE001 - salvage what can be read
        out["record_error"] = str(exc)
    try:
        numbers = archived_turn_numbers(app.persistence.archive, thread_id)
    except Exception as exc:  # noqa: BLE001
        out["archive_error"] = str(exc)
        numbers = []
    for number in numbers:
        try:
            turn = load_archived_turns(app.persistence.archive, thread_id, [number])[number]
            out["turns"].append({"turn": number, "messages": messages_to_dict(turn)})
        except Exception:  # noqa: BLE001
            out["unreadable_turns"].append(number)
    return out
