"""Versions of a turn in place: regenerate or edit a message, then switch between answers.

Regenerate and edit-and-resend make a new version of a turn in the same thread (any turn
for an edit, whose continuation then starts empty after it); `switch_version` shows
another version, with its own continuation. The UI draws `◀ 2/3 ▶` from `turn_versions`.

Where versions live. A version is a whole line of the conversation: its checkpoints (with
their values, pending writes and packs), archived turns and blocks, summaries, their
costs, lost-facts records, pins, tool-call records and recall index, as that version left
them. The thread's own id always holds the rows of the version shown, so everything that
reads a thread (the panel, the summaries, the next turn, export, the service) follows the
shown version without knowing that versions exist. Each version not shown is parked
under a hidden slot: a thread record with `version_of` naming the thread (the thread list
leaves it out; deleting the thread deletes its slots). The record's `versions` maps a turn
to its slots, one per version, and the version shown, whose slot is empty while it is:

    {"3": {"slots": ["session_a", "session_b", "session_c"], "shown": 2}}

- A new version of turn n: the state before turn n is forked (`fork_thread`: LangGraph's
  checkpoint put with the earlier state, and the archive up to there) into a new slot;
  the shown rows move into the slot of the version shown until now, and the fork's into
  the thread. The caller then runs turn n in the thread, as any turn.
- Switching to version k: the shown rows move into their slot and slot k's into the
  thread. Rows are moved (one UPDATE of `thread_id` per table, in one transaction,
  `graph.storage.archive.move_rows`), never copied, so a switch costs no copy and a version
  keeps everything, a pending approval included.
- The `versions` entries of turns after n belong to the continuation: they move with the
  rows, into the slot's record and back, and so does the record's strategy comparison
  (a replay of the line). The thread's settings (title, rate, strategy, budget, recall)
  are the thread's and stay; so does its writer lease.
- Recall's in-process cache of archived turns is keyed by thread id: it is dropped when
  the thread's recall key, which moves with the rows, changed (a switch made in another
  process, `graph.storage.archive.load_archived_turns`).

Why not a second branch inside the thread's checkpoints: this project's savers keep a
thread's history as a line (channel versions are a per-thread counter, values are pruned
by version order and checkpoints packed per turn number, see `graph.storage.checkpointer`),
so a branch in the same thread id would overwrite the other's values. Moving whole lines
keeps every store keyed by thread right without keying each of them by branch.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import HumanMessage

from graph.errors import CheckpointNotFound, InputError, ThreadBusy
from graph.session.app import ChatApp, require_thread
from graph.session.errors import storage_errors
from graph.session.history import checkpoints, fork_thread
from graph.session.slots import (
    COMPARISON,
    VERSIONS,
    TurnVersions,
    delete_slots,
    entries_of,
    export_versions,
    hide,
    import_versions,
    is_slot,
    new_slot,
    turn_versions,
    versions_in,
)
from graph.session.start import check_message
from graph.session.threads import load_thread
from graph.storage.archive import delete_archive, get_thread, move_rows
from graph.storage.leases import ThreadBusyError, writer_lease
from graph.turns import content_text, turn_open


@dataclass(frozen=True)
class Redo:
    """A turn to send again in place: the thread, its message and its turn number."""

    thread_id: str
    message: str
    turn_count: int


def new_version(app: ChatApp, thread_id: str, turn: int, message: str | None = None) -> Redo:
    """Make a new version of `turn` in the thread and show it; the caller runs the turn.

    With `message` the new version asks that text (edit and resend), without it the same
    text (regenerate). The earlier versions stay, each with its continuation. Any turn can
    be asked again once the last one has ended (or waits for an approval); the new
    version's continuation is empty. The caller runs the turn in the thread (`run_turn`
    with `Redo.message` at `Redo.turn_count`), so it streams, pauses and fails as any does.

    InputError for an unknown turn, a turn still running or an empty or too long message;
    ThreadBusy while a turn runs; CheckpointNotFound when no checkpoint from before the
    turn is kept (pruned by CHECKPOINT_KEEP_TURNS, or the thread was imported after it).
    """
    record = require_thread(app, thread_id)
    if is_slot(record):
        raise InputError(f"Unknown thread {thread_id!r}.")
    _rows_must_move(app)
    unsent = unsent_version(app, thread_id, message)
    if unsent is not None and unsent.turn_count == turn:
        return unsent  # made before, never answered: it is sent now, not made again
    # the turn and those after it (the last one says whether a turn is still running)
    count = load_thread(app, thread_id, recent_turns=0).turn_count
    view = load_thread(app, thread_id, recent_turns=max(1, count - turn + 1))
    turns = dict(view.turns)
    if turn not in turns:
        raise InputError(f"This conversation has no turn {turn} to send again.")
    if turn_open(view.turns[-1][1]) and not view.pending:
        raise InputError(
            "The conversation's last turn is still running; a message can be sent again "
            "once it has ended."
        )
    said = next((m for m in turns[turn] if isinstance(m, HumanMessage)), turns[turn][0])
    text = check_message(app, message if message is not None else content_text(said))
    source, checkpoint_id = _before(app, thread_id, record, turn, checkpoints)
    with _quiet(app, thread_id):
        record = require_thread(app, thread_id)
        # the fork and a new slot are hidden slots from their first write: a process dying
        # before the move leaves no conversation listed, only rows no record names
        fork = fork_thread(app, source, checkpoint_id, named=thread_id, hidden=True)
        archive = app.persistence.archive
        try:
            with storage_errors():
                entries = entries_of(record)
                entry = entries.get(str(turn)) or {
                    "slots": [new_slot(app, thread_id, record)],
                    "shown": 1,
                }
                slots = [*entry["slots"], fork]
                # what the new version asks is kept with it, in the same transaction as
                # the move: a process dying before its turn runs leaves it to be sent
                asked = {**dict(entry.get(ASKED) or {}), str(len(slots)): text}
                _move(
                    app,
                    thread_id,
                    entries,
                    turn,
                    away=entry["slots"][int(entry["shown"]) - 1],
                    back=fork,
                    entry={"slots": slots, "shown": len(slots), ASKED: asked},
                )
        except BaseException:
            delete_archive(archive, fork)
            raise
    return Redo(thread_id=thread_id, message=text, turn_count=turn)


ASKED = "asked"
"""Key of a `versions` entry: version number -> the message a new version asks, kept as it
is made (see `unsent_version`)."""


def unsent_version(app: ChatApp, thread_id: str, message: str | None = None) -> Redo | None:
    """The version shown of the thread's next turn, made but never answered, to send now.

    `new_version` shows the new version (the line before its turn) and keeps its message
    in one transaction; its turn runs next. When the process died in between, or the
    run was refused or its job lost, the thread shows the version with no turn of it: it
    is sent again with the message it was made with (or `message`), at that turn. None
    when the shown line has no such version.
    """
    record = require_thread(app, thread_id)
    count = load_thread(app, thread_id, recent_turns=0).turn_count
    entry = entries_of(record).get(str(count + 1))
    if entry is None:
        return None
    kept = dict(entry.get(ASKED) or {}).get(str(entry["shown"]))
    if kept is None and message is None:
        return None
    text = check_message(app, message if message is not None else str(kept))
    return Redo(thread_id=thread_id, message=text, turn_count=count + 1)


def redo_last_turn(
    app: ChatApp,
    thread_id: str,
    message: str | None = None,
    *,
    turn: int | None = None,
) -> Redo:
    """A new version of the thread's last turn, shown in place, to send its message again.

    With `message` that text in its place (edit and resend), without it the same text
    (regenerate); the earlier version stays, to switch back to (`graph.session.versions`).
    `turn` is the turn the user asked to redo: if the conversation went on since (another
    window, a turn still running), nothing is done. The caller runs the turn in the thread
    (`run_turn` with `Redo.message` at `Redo.turn_count`).

    A version of the next turn made but never answered (`unsent_version`) is sent again
    instead, with its message (or `message`), no new version made.

    InputError when there is no such last turn or the message is empty or too long;
    CheckpointNotFound when no checkpoint from before the last message is kept.
    """
    unsent = unsent_version(app, thread_id, message)
    if unsent is not None and turn in (None, unsent.turn_count):
        return unsent  # a version made but never answered: it is sent, not made again
    view = load_thread(app, thread_id, recent_turns=1)
    if not view.turns:
        raise InputError("This conversation has no message to send again yet.")
    number, messages = view.turns[-1]
    if (turn is not None and turn != number) or (turn_open(messages) and not view.pending):
        raise InputError(
            "The conversation has gone on (or its last turn is still running); only the "
            "last turn, once it has ended or waits for an approval, can be sent again."
        )
    return new_version(app, thread_id, number, message)


def switch_version(app: ChatApp, thread_id: str, turn: int, version: int) -> TurnVersions:
    """Show version `version` (from 1) of `turn`, with its own continuation.

    InputError for a turn without versions or a version it does not have; ThreadBusy
    while a turn of the conversation runs.
    """
    _rows_must_move(app)
    with _quiet(app, thread_id):
        record = require_thread(app, thread_id)
        entries = entries_of(record)
        entry = entries.get(str(turn))
        if entry is None or is_slot(record):
            raise InputError(f"Turn {turn} of this conversation has no other versions.")
        slots = list(entry["slots"])
        if not 1 <= version <= len(slots):
            raise InputError(f"Turn {turn} has versions 1 to {len(slots)}, not {version}.")
        shown = int(entry["shown"])
        if version != shown:
            with storage_errors():
                _move(
                    app,
                    thread_id,
                    entries,
                    turn,
                    away=slots[shown - 1],
                    back=slots[version - 1],
                    entry={"slots": slots, "shown": version},
                )
    return TurnVersions(turn, version, len(slots))


def _rows_must_move(app: ChatApp) -> None:
    """Refuse a turn's versions where the checkpoints do not move with the archive."""
    if not app.persistence.rows_move:
        raise InputError(
            "A turn's versions (send again, edit and resend, switch) need the checkpoints "
            "in the database: they are not available with "
            f"CHECKPOINTER={app.persistence.checkpointer}. Fork the conversation instead."
        )


def _move(
    app: ChatApp,
    thread_id: str,
    entries: dict[str, dict[str, Any]],
    turn: int,
    *,
    away: str,
    back: str,
    entry: dict[str, Any],
) -> None:
    """Park the shown line in slot `away`, show the one in slot `back`; record it.

    The rows and the three records that say where each line is are written in one
    transaction (`move_rows` with `records`): a process killed at any point leaves the
    switch done or not begun, never a version shown over another's line.
    """
    archive = app.persistence.archive
    parked = {n: e for n, e in entries.items() if int(n) > turn}
    theirs = get_thread(archive, back) or {}
    brought = entries_of(theirs)
    # a strategy comparison replays the line it was made on: it goes with the line
    mine = dict((get_thread(archive, thread_id) or {}).get(COMPARISON) or {})
    compared = dict(theirs.get(COMPARISON) or {})
    kept = {n: e for n, e in entries.items() if int(n) < turn}
    try:
        move_rows(
            archive,
            [(thread_id, away), (back, thread_id)],
            records={
                away: {VERSIONS: parked, COMPARISON: mine},
                back: {VERSIONS: {}, COMPARISON: {}},
                thread_id: {
                    VERSIONS: {**kept, str(turn): entry, **brought},
                    COMPARISON: compared,
                },
            },
        )
    finally:
        _forget(app, thread_id, away, back)


def _forget(app: ChatApp, *threads: str) -> None:
    """Drop what the saver remembers of threads whose rows were just moved."""
    for thread in threads:
        app.persistence.saver.forget_thread(thread)
        app.persistence.saver.forget_packs(thread)


def _before(
    app: ChatApp, thread_id: str, record: dict[str, Any], turn: int, checkpoints: Any
) -> tuple[str, str]:
    """A kept checkpoint from before `turn`: (the thread or slot keeping it, its id).

    The thread's own first; then the slots of its versions at `turn` or later, whose lines
    share everything before their turn (a version's line starts at its fork).
    """
    candidates = [thread_id] + [
        slot
        for n, entry in sorted(entries_of(record).items(), key=lambda item: int(item[0]))
        if int(n) >= turn
        for slot in entry["slots"]
    ]
    for source in candidates:
        kept = checkpoints(app, source)
        arrival = next(
            (c for c in kept if c.get("source") == "input" and c.get("turn") == turn), None
        ) or next(  # a turn saved without running (kept unanswered): from the turn before it
            (c for c in kept if int(c.get("turn", 0)) == turn - 1), None
        )
        if arrival is not None:
            return source, str(arrival["checkpoint_id"])
    raise CheckpointNotFound(
        f"Turn {turn} cannot be sent again here: this conversation keeps no checkpoint "
        f"from before it (only the last {app.settings.keep_turns} turns keep theirs, and "
        "an imported or forked conversation starts with none)."
    )


@contextmanager
def _quiet(app: ChatApp, thread_id: str) -> Iterator[None]:
    """No turn of the thread runs meanwhile, in this process or another (ThreadBusy)."""
    lock = app.turn_lock(thread_id)
    if not lock.acquire(blocking=False):
        raise ThreadBusy("A turn of this conversation is running; try again once it ends.")
    try:
        with writer_lease(app.persistence.archive, thread_id):
            yield
    except ThreadBusyError as exc:
        raise ThreadBusy(
            "Another turn of this conversation is running (maybe in another window); "
            "try again in a moment."
        ) from exc
    finally:
        lock.release()


__all__ = [
    "Redo",
    "TurnVersions",
    "delete_slots",
    "export_versions",
    "hide",
    "import_versions",
    "is_slot",
    "new_slot",
    "new_version",
    "redo_last_turn",
    "switch_version",
    "turn_versions",
    "unsent_version",
    "versions_in",
]
