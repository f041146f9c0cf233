"""A thread's checkpoint history and forks from it (LangGraph's time travel, in the product).

A checkpoint is saved after every node; those of the last CHECKPOINT_KEEP_TURNS turns are
kept (see `graph.storage.checkpointer`). `checkpoints` lists them with seed 001's metadata;
`fork_thread` starts a new thread from any of them: the state as it was at that point, and
the archive (summarized turns, summary costs, lost-facts records, pins and the recall
index) up to it. A fork taken in the middle of a turn goes on from there with `retry_turn`,
for example with another compression rate, so both answers can be read side by side.
Sending a turn's message again (regenerate, edit and resend) makes a new version of the
turn in the same thread instead (`graph.session.versions`), built on the same fork.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from langgraph.checkpoint.base import CheckpointMetadata, CheckpointTuple, copy_checkpoint
from langgraph.checkpoint.base.id import uuid6

from graph.context import covered_turns
from graph.errors import CheckpointNotFound, InputError
from graph.session.app import ChatApp, new_thread, require_thread
from graph.session.context import config_for
from graph.session.errors import storage_errors
from graph.session.slots import VERSION_OF
from graph.settings import validate_rate
from graph.storage.archive import delete_archive, update_thread
from graph.storage.checkpointer import FORK_SOURCE, METADATA_KEYS
from graph.storage.forks import copy_for_fork
from graph.times import in_zone
from graph.turns import turn_open


def checkpoints(app: ChatApp, thread_id: str) -> list[dict[str, Any]]:
    """The thread's kept checkpoints, newest first: id, parent, time and seed 001's metadata.

    Also `summarized_to` (the last turn summaries cover there) and `pending_approval`.
    Read from the rows alone: listing does not load any state.
    """
    require_thread(app, thread_id)
    with storage_errors():
        rows = app.persistence.saver.history(thread_id)
    out = []
    for row in rows:
        meta = dict(row["metadata"])
        out.append(
            {
                "checkpoint_id": row["checkpoint_id"],
                "parent_id": row["parent_id"],
                "time": in_zone(row["ts"], app.settings.timezone) if row["ts"] else None,
                **{k: meta[k] for k in METADATA_KEYS if k in meta},
                "pending_approval": row["pending_approval"],
                "metadata": meta,
            }
        )
    return out


CHECKPOINT_PAGE = 50
"""Checkpoints on a page of the listing when the caller does not say (`checkpoint_page`)."""
MAX_CHECKPOINT_PAGE = 500
"""The most a caller may ask for on one page."""


@dataclass(frozen=True)
class CheckpointPage:
    """One page of a thread's checkpoint listing, newest first (seed 004's listing).

    `next_cursor` is the id of the page's last (oldest) checkpoint when older ones follow,
    None on the last page: passed as `before`, it gives the next page.
    """

    thread_id: str
    checkpoints: list[dict[str, Any]]
    next_cursor: str | None = None


def checkpoint_page(
    app: ChatApp, thread_id: str, *, limit: int = CHECKPOINT_PAGE, before: str | None = None
) -> CheckpointPage:
    """The thread's kept checkpoints older than the checkpoint `before` (None: the newest).

    Checkpoint ids grow with time, so a cursor still pages right after its checkpoint was
    pruned. InputError for a limit outside 1..MAX_CHECKPOINT_PAGE or an empty cursor.
    """
    if not 1 <= limit <= MAX_CHECKPOINT_PAGE:
        raise InputError(f"limit must be between 1 and {MAX_CHECKPOINT_PAGE}, not {limit}.")
    if before is not None and not before.strip():
        raise InputError("before must be a checkpoint id (a page's next_cursor).")
    listed = checkpoints(app, thread_id)
    if before is not None:
        listed = [c for c in listed if str(c["checkpoint_id"]) < before]
    page = listed[:limit]
    more = len(listed) > limit
    return CheckpointPage(thread_id, page, str(page[-1]["checkpoint_id"]) if more else None)


def fork_thread(
    app: ChatApp,
    thread_id: str,
    checkpoint_id: str,
    *,
    compression_rate: float | None = None,
    title: str = "",
    named: str | None = None,
    hidden: bool = False,
) -> str:
    """Start a new thread from one of `thread_id`'s kept checkpoints; return its id.

    The new thread holds the state of that checkpoint (with `compression_rate` for the
    summaries still to come, if given) and a copy of the archive up to it; the original is
    not touched. A checkpoint inside a turn leaves that turn to be finished by `retry_turn`.
    `named`: the thread id the fork's state names (its own by default; a new version of a
    turn is forked and then moved under its thread, see `graph.session.versions`), and
    `hidden`: the fork is a version slot of `named` from its first write (never listed).
    """
    record = require_thread(app, thread_id)
    if compression_rate is not None:
        try:
            compression_rate = validate_rate(compression_rate)
        except ValueError as exc:
            raise InputError(str(exc)) from exc
    saver = app.persistence.saver
    found = _kept(app, thread_id, checkpoint_id)
    if found.metadata.get("source") == "input":
        # saved as a message arrived, before it is applied: the state of the checkpoint
        # before it, which is what a fork from there would continue (the first message's
        # has none: the fork starts empty)
        parent = found.parent_config
        if parent is None:
            hidden_under = named if hidden and named else ""
            return _empty_fork(
                app, thread_id, record, checkpoint_id, compression_rate, title, hidden_under
            )
        found = _kept(app, thread_id, parent["configurable"]["checkpoint_id"])
    values = dict(found.checkpoint["channel_values"])
    turn = int(values.get("turn_count", 0))
    # the fork is its source's owner's (the service's user), written with the record
    fork_id = new_thread(
        app,
        title=""
        if hidden
        else title or f"{record.get('title') or thread_id} (fork at turn {turn})",
        owner=str(record.get("owner") or ""),
        **({VERSION_OF: named} if hidden and named else {}),
    )
    values["session_id"] = named or fork_id
    values["summary_history"] = [
        {**entry, "thread_id": named or fork_id} for entry in values.get("summary_history", [])
    ]
    rate = compression_rate if compression_rate is not None else record.get("rate")
    if compression_rate is not None:
        values["compression_rate"] = compression_rate
    try:
        with storage_errors():
            _copy_archive(
                app,
                thread_id,
                fork_id,
                values,
                finished=not _inside_turn(found),
                pinned_before=datetime.fromisoformat(found.checkpoint["ts"]).timestamp(),
            )
            _keep_settings(app, thread_id, record, fork_id, rate, checkpoint_id, turn)
            checkpoint = copy_checkpoint(found.checkpoint)
            checkpoint["id"] = str(uuid6(clock_seq=-1))
            checkpoint["channel_values"] = values
            versions = dict(checkpoint["channel_versions"])
            if compression_rate is not None and "compression_rate" not in versions:
                versions["compression_rate"] = saver.get_next_version(None, None)
                checkpoint["channel_versions"] = versions
            # No pending writes are copied: they are results of the steps after the
            # checkpoint (a pause's included, tied to the source's task ids), which the
            # fork runs again when it goes on; a paused call asks for approval again.
            saver.put(
                {"configurable": {"thread_id": fork_id, "checkpoint_ns": ""}},
                checkpoint,
                cast(
                    CheckpointMetadata,
                    {
                        "source": FORK_SOURCE,
                        "step": int(found.metadata.get("step", -1)),
                        "parents": {},
                        "forked_from": f"{thread_id}/{checkpoint_id}",
                    },
                ),
                versions,
            )
    except BaseException:
        delete_archive(app.persistence.archive, fork_id)  # all of the fork or nothing
        raise
    return fork_id


def _keep_settings(
    app: ChatApp,
    thread_id: str,
    record: dict[str, Any],
    fork_id: str,
    rate: float | None,
    checkpoint_id: str,
    turn: int,
) -> None:
    """The fork's thread-list entry: the source's settings, and where it came from."""
    update_thread(
        app.persistence.archive,
        fork_id,
        **{k: record[k] for k in ("strategy", "budget", "recall") if k in record},
        **({"rate": rate} if rate is not None else {}),
        forked_from={"thread_id": thread_id, "checkpoint_id": checkpoint_id, "turn": turn},
    )


def _empty_fork(
    app: ChatApp,
    thread_id: str,
    record: dict[str, Any],
    checkpoint_id: str,
    compression_rate: float | None,
    title: str,
    hidden_under: str = "",
) -> str:
    """A fork from before the first message: a new, empty thread with the source's settings.

    `hidden_under`: the thread whose hidden version slot it is from its first write.
    """
    fork_id = new_thread(
        app,
        title=""
        if hidden_under
        else title or f"{record.get('title') or thread_id} (fork at turn 0)",
        owner=str(record.get("owner") or ""),
        **({VERSION_OF: hidden_under} if hidden_under else {}),
    )
    rate = compression_rate if compression_rate is not None else record.get("rate")
    try:
        with storage_errors():
            _keep_settings(app, thread_id, record, fork_id, rate, checkpoint_id, 0)
    except BaseException:
        delete_archive(app.persistence.archive, fork_id)
        raise
    return fork_id


def _inside_turn(found: CheckpointTuple) -> bool:
    """Whether nodes were still to run from this checkpoint (it is inside a turn)."""
    messages = found.checkpoint["channel_values"].get("messages") or []
    return not messages or turn_open(messages)


def _kept(app: ChatApp, thread_id: str, checkpoint_id: str) -> CheckpointTuple:
    config = config_for(thread_id, app.settings)
    config["configurable"]["checkpoint_id"] = checkpoint_id
    with storage_errors():
        found = app.persistence.saver.get_tuple(config)
    if found is None or found.config["configurable"].get("checkpoint_id") != checkpoint_id:
        raise CheckpointNotFound(
            f"Checkpoint {checkpoint_id!r} is not kept for this thread (older ones are pruned "
            f"after {app.settings.keep_turns} turns)."
        )
    return found


def _copy_archive(
    app: ChatApp,
    source: str,
    target: str,
    values: dict[str, Any],
    *,
    finished: bool,
    pinned_before: float,
) -> None:
    """Copy what a checkpoint's state refers to into the fork, and index its turns.

    Archived turns; per-turn statistics of the turns before (and of its own turn when it is
    `finished`); summaries, their costs and fact records up to the turns its summaries
    cover; digests made before its turn, and the summaries and digests of its state (those
    of its own turn are there alone); pins made before it.
    """
    archive = app.persistence.archive
    archived = int(values.get("archived_turns", 0))
    covered = covered_turns(values.get("summary_history", []))
    turn = int(values.get("turn_count", 0))
    stats_to = turn if finished else turn - 1
    copy_for_fork(
        archive,
        source,
        target,
        values,
        archived=archived,
        covered=covered,
        turn=turn,
        stats_to=stats_to,
        pinned_before=pinned_before,
    )
