"""Importing a thread exported by `export_thread`: the same thread again, in a new id.

An export holds the whole conversation: every turn's messages (tool steps included, with
their times), the summaries and what each strategy kept, the thread's settings, pinned
facts, the lost-facts records, summary costs and per-turn context sizes. Importing it
writes all of that back as it was, without calling a model: the turns already summarized
go to the archive (and the recall index), the rest into the thread's state, so the next
message continues the conversation exactly where the export left it.

The versions of its turns (regenerated or edited, `graph.session.versions`) come back as
they were: each version not shown is a whole export of its line, imported as a hidden slot
of the new thread. An export without `export_version` is of format 1, from before versions.

A file that is not such an export is refused with a message saying what is wrong, and a
failure half-way removes the half-written thread: an import lands whole or not at all.
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, messages_from_dict

from graph.context import message_chars
from graph.errors import InputError
from graph.memory import STRATEGIES
from graph.memory.pins import MAX_PINS
from graph.session.app import ChatApp, new_thread
from graph.session.context import config_for
from graph.session.errors import storage_errors
from graph.session.slots import delete_slots, hide, import_versions, new_slot
from graph.session.threads import COUNT_FIELDS, EXPORT_VERSION
from graph.settings import validate_budget, validate_rate
from graph.state import SUMMARY_FIELDS
from graph.storage.archive import (
    STATS_FIELDS,
    archive_turns,
    delete_archive,
    record_context_stats,
    record_summary_meta,
    update_thread,
)
from graph.storage.facts import insert_pin, record_facts
from graph.text import check_text
from graph.turns import content_text

STATE_FIELDS = ("summary_digests", "window_summary", "memory", "entities", "summary_times")
"""What the memory strategies keep in the state, copied as exported."""


def is_export(data: Any) -> bool:
    """Whether `data` looks like `export_thread`'s output (turns carrying their messages)."""
    turns = data.get("turns") if isinstance(data, dict) else None
    return (
        isinstance(turns, list)
        and bool(turns)
        and isinstance(turns[0], dict)
        and ("messages" in turns[0])
    )


IMPORTED_MARK = " (imported)"
"""What an imported thread's title ends with, unless the importer names its own mark."""


def import_thread(app: ChatApp, data: dict[str, Any], mark: str = IMPORTED_MARK) -> str:
    """Write an exported thread back as a new thread; return its id.

    The versions of its turns come back too (format 2; a file of format 1 has none). Its
    title is the original's with `mark` after it (the app passes its language's), so the
    copy is told apart from the original in the list of conversations.
    Raises InputError when the export is malformed (nothing is written then).
    """
    return _import(app, data, None, mark)


def _import(app: ChatApp, data: dict[str, Any], root: str | None, mark: str = "") -> str:
    """An export as a new thread, or (with `root`) as a hidden slot of thread `root`."""
    version = data.get("export_version", 1)
    if not isinstance(version, int) or not 1 <= version <= EXPORT_VERSION:
        raise InputError(
            f"The export is of format {version!r}; this version of the app reads formats 1 "
            f"to {EXPORT_VERSION}."
        )
    if root is not None and not data.get("turns") and not data.get("versions"):
        return new_slot(app, root, {})  # a version made but never answered
    if root is not None and not is_export(data):
        raise InputError("A version in the export is not an exported conversation.")
    turns = _read_turns(data)
    settings = _read_settings(app, data)
    history = [_summary(entry, i) for i, entry in enumerate(data.get("summary_history") or [], 1)]
    archived = _archived(data, history, len(turns))
    pins = [p for p in data.get("pinned") or [] if isinstance(p, dict) and p.get("fact")]
    if len(pins) > MAX_PINS:
        raise InputError(f"The export has {len(pins)} pinned facts; at most {MAX_PINS} are kept.")
    title = check_text(str(data.get("title") or ""), "The title").strip()
    if mark and root is None:  # a copy, not the original (a hidden version keeps its own)
        title = f"{title[: 100 - len(mark)]}{mark}" if title else mark.strip()
    title = title[:100]
    for key in COUNT_FIELDS:
        if key in data:
            _count(data, key)  # refused before anything is written
    thread_id = new_thread(app, title=title)
    try:
        with storage_errors():
            if root is not None:
                hide(app, thread_id, root)
            _write(app, thread_id, data, turns, settings, history, archived, pins)
            import_versions(
                app, thread_id, root or thread_id, data.get("versions"), len(turns), _import
            )
    except BaseException:
        if root is None:
            delete_slots(app, thread_id)
        delete_archive(app.persistence.archive, thread_id)
        raise
    return thread_id


def _write(
    app: ChatApp,
    thread_id: str,
    data: dict[str, Any],
    turns: list[list[BaseMessage]],
    settings: dict[str, Any],
    history: list[dict[str, Any]],
    archived: int,
    pins: list[dict[str, Any]],
) -> None:
    archive = app.persistence.archive
    update_thread(archive, thread_id, **settings)
    if archived:
        archive_turns(archive, thread_id, 1, turns[:archived])
    live = [m for turn in turns[archived:] for m in turn]
    values: dict[str, Any] = {
        "messages": live,
        "session_id": thread_id,
        "turn_count": len(turns),
        "compression_rate": settings["rate"],
        "strategy": settings["strategy"],
        "context_budget": settings["budget"],
        "recall": settings["recall"],
        "summary_history": [{**e, "thread_id": thread_id} for e in history],
        "archived_turns": archived,
        "transcript_chars": sum(message_chars(m) for turn in turns for m in turn),
        "errors": [e for e in data.get("errors") or [] if isinstance(e, dict)],
        **{k: data[k] for k in STATE_FIELDS if k in data},
        **{k: _count(data, k) for k in COUNT_FIELDS if k in data},
    }
    app.graph.update_state(config_for(thread_id, app.settings), values, as_node="llm_node")
    for meta in data.get("summary_meta") or []:
        if isinstance(meta, dict) and meta.get("turns"):
            record_summary_meta(archive, thread_id, meta)
    for stats in data.get("context_log") or []:
        if isinstance(stats, dict) and all(k in stats for k in STATS_FIELDS):
            record_context_stats(archive, thread_id, stats)
    for record in data.get("lost_facts") or []:
        if isinstance(record, dict) and len(record.get("turns") or []) == 2:
            first, last = (int(n) for n in record["turns"])
            fields = {k: v for k, v in record.items() if k != "turns"}
            record_facts(archive, thread_id, first, last, fields)
    for pin in pins:
        insert_pin(archive, thread_id, pin, MAX_PINS)


def _count(data: dict[str, Any], key: str) -> int:
    """A count of the export (summaries made, model requests): a whole number from 0."""
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InputError(f"The export's {key} must be a whole number from 0, not {value!r}.")
    return value


def _read_turns(data: dict[str, Any]) -> list[list[BaseMessage]]:
    """Every turn's messages, checked: numbered 1, 2, ..., each opening with the user."""
    turns: list[list[BaseMessage]] = []
    for i, turn in enumerate(data.get("turns") or [], 1):
        if not isinstance(turn, dict) or turn.get("turn") != i:
            raise InputError(f"Turn {i} of the export is missing or out of order.")
        try:
            messages = messages_from_dict(turn.get("messages") or [])
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(f"Turn {i} of the export has an unreadable message ({exc}).") from exc
        if not messages or messages[0].type != "human":
            raise InputError(f"Turn {i} of the export does not start with the user's message.")
        for msg in messages:
            check_text(content_text(msg), f"Turn {i}")
        turns.append(messages)
    if not turns:
        raise InputError("The export has no turns.")
    last = turns[-1][-1]
    if isinstance(last, AIMessage) and last.tool_calls:
        raise InputError(
            "The export ends in a tool call waiting for approval; answer it, then export again."
        )
    return turns


def _read_settings(app: ChatApp, data: dict[str, Any]) -> dict[str, Any]:
    strategy = str(data.get("strategy") or app.settings.default_strategy)
    if strategy not in STRATEGIES:
        raise InputError(f"Unknown memory strategy {strategy!r} in the export.")
    try:
        rate = validate_rate(data.get("compression_rate", app.settings.default_rate))
        budget = validate_budget(data.get("context_budget", app.settings.summary_budget))
    except (TypeError, ValueError) as exc:
        raise InputError(f"The export's settings are out of range: {exc}") from exc
    recall = data.get("recall", app.settings.recall_enabled)
    return {"rate": rate, "strategy": strategy, "budget": budget, "recall": bool(recall)}


def _summary(entry: Any, number: int) -> dict[str, Any]:
    if not isinstance(entry, dict) or any(k not in entry for k in SUMMARY_FIELDS):
        raise InputError(f"Summary {number} of the export lacks some of {SUMMARY_FIELDS}.")
    return {k: entry[k] for k in SUMMARY_FIELDS}


def _archived(data: dict[str, Any], history: list[dict[str, Any]], total: int) -> int:
    """How many turns were archived: as exported, or (older exports) the last one summarized."""
    value = data.get("archived_turns")
    if value is None:
        value = max((max(e["turns"]) for e in history if e.get("turns")), default=0)
    archived = int(value)
    if not 0 <= archived <= total:
        raise InputError(f"The export archives {archived} turns but has {total}.")
    return archived
