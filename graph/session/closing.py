"""Closing turns that did not finish: unanswered, interrupted, stopped or cut by storage.

A turn that never got its answer is closed with an apology marked with why
(`close_unanswered`): its tool calls that never ran get error results, so every call keeps
its answer, and the retry button answers the turn again in place. Who closes what:

- the turn itself, when the user stops it (`keep_closed`: CANCELLED, what was streamed stays) or
  the database refuses a write (`after_storage_error`: the database, read again, decides
  what was saved; a saved message with no answer becomes an unanswered turn);
- the thread's next reader, for a turn a crash left open (`close_interrupted`:
  TURN_INTERRUPTED);
- a worker, for a job that can no longer run (`graph.session.start.keep_unanswered`).

Every function here takes the turn's context (or makes it once, at a public entry) and
reads the state with its config; the lease and the head below are `graph.session.settle`'s.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.runnables import RunnableConfig
from langgraph.types import StateSnapshot

from graph.approval import approval_in
from graph.errors import ErrorCode, ThreadBusy, error_record
from graph.nodes.fallback import fallback_message
from graph.session.app import ChatApp
from graph.session.context import TurnContext, TurnOutcome, config_for, turn_context
from graph.session.errors import storage_errors
from graph.session.settle import finished, lease, settle_head
from graph.storage.archive import update_thread
from graph.storage.checkpointer import FORK_SOURCE
from graph.storage.persistence import StorageError, prune_checkpoints
from graph.text import is_korean
from graph.turns import CUT_OFF, STOPPED, content_text, split_turns, turn_open

log = logging.getLogger(__name__)

NOT_RUN = "Error: not run; the turn was interrupted."
"""Result given to a tool call that never ran in an unanswered turn."""


def close_unanswered(
    app: ChatApp,
    thread_id: str,
    code: ErrorCode,
    snapshot: Any = None,
    config: RunnableConfig | None = None,
    shown: str = "",
) -> AIMessage | None:
    """Close a turn that never got its answer with an apology marked `code`; None if none.

    Its tool calls that never ran get error results first, so every call keeps its answer.
    A turn paused for approval is not unanswered. `snapshot` is the thread's state when the
    caller has just read it, `config` its config when the caller holds it.

    A turn the user stopped (CANCELLED) keeps what it had written (`shown`, as streamed)
    as its answer, marked `stopped`; it is still unanswered, so a retry answers it again.
    """
    config = config or config_for(thread_id, app.settings)
    snapshot = snapshot if snapshot is not None else app.graph.get_state(config)
    messages = list((snapshot.values or {}).get("messages", []))
    if snapshot.interrupts or not turn_open(messages):
        return None
    _, current = split_turns(messages)
    answered = {m.tool_call_id for m in current if isinstance(m, ToolMessage)}
    missing = [
        ToolMessage(
            content=NOT_RUN,
            tool_call_id=call["id"] or "",
            name=call["name"],
            status="error",
        )
        for msg in current
        if isinstance(msg, AIMessage)
        for call in msg.tool_calls
        if call["id"] not in answered
    ]
    closing = fallback_message(code, _user_writes_korean(messages))
    if code == ErrorCode.CANCELLED and shown.strip():  # the user's stop: what was written stays
        closing = AIMessage(
            content=shown.strip(), response_metadata=dict(closing.response_metadata)
        )
    if code == ErrorCode.CANCELLED:
        closing.response_metadata[STOPPED] = True
    continuing = str((snapshot.values or {}).get("continuing") or "")
    if continuing:  # a Continue that never finished: the cut-off answer goes back as it was
        closing = AIMessage(
            content=f"{continuing}{shown}" if code == ErrorCode.CANCELLED else continuing,
            response_metadata={CUT_OFF: ErrorCode.LLM_TRUNCATED.value},
        )
    turn = int((snapshot.values or {}).get("turn_count", 0))
    errors = [
        *(snapshot.values or {}).get("errors", []),
        error_record(turn, "turn", code, code.value),
    ]
    app.graph.update_state(
        config,
        {"messages": [*missing, closing], "errors": errors, "continuing": ""},
        as_node="llm_node",
    )
    return closing


def _user_writes_korean(messages: Sequence[BaseMessage]) -> bool:
    """Whether the user's newest message with words is Korean: a note follows the user.

    Not the whole turn: a tool's result or a document may be Korean in an English
    conversation. A message with no letters (`2+2`, code alone) says nothing; the one
    before it decides, and Korean (the app's language) when none does.
    """
    for msg in reversed(messages):
        if isinstance(msg, HumanMessage):
            text = content_text(msg)
            if is_korean(text):
                return True
            if re.search(r"[A-Za-z]{2,}", re.sub(r"```.*?(```|$)", "", text, flags=re.S)):
                return False
    return True


def close_interrupted(app: ChatApp, thread_id: str) -> StateSnapshot:
    """Close a turn a crash left half-done (TURN_INTERRUPTED), as the thread is opened.

    The message was saved before the model ran; the turn is closed as unanswered so the
    retry button answers it (a message killed as it arrived, before it was applied, is
    dropped by `settle_head`). A thread another writer is using, a paused one and a fork
    taken mid-turn (finished by `retry_turn`) are left alone. Returns the thread's state
    as it is now.
    """
    context = turn_context(app, thread_id)
    config = context.config
    with storage_errors():
        snapshot = app.graph.get_state(config)
    messages = (snapshot.values or {}).get("messages", [])
    source = (snapshot.metadata or {}).get("source")
    arrived = source == "input"  # a message recorded as its process died (see settle_head)
    if source == FORK_SOURCE or not (arrived or (turn_open(messages) and not snapshot.interrupts)):
        return snapshot
    try:
        with lease(app, context), storage_errors():
            close_unanswered(app, thread_id, ErrorCode.TURN_INTERRUPTED, config=config)
            return app.graph.get_state(config)
    except (ThreadBusy, StorageError) as exc:
        # busy: its writer finishes it; a refused write: the thread still reads, as it is
        log.info("the interrupted turn of %s stays open for now: %s", thread_id, exc)
        with storage_errors():
            return app.graph.get_state(config)


def keep_closed(
    app: ChatApp, context: TurnContext, payload: Any, code: ErrorCode, shown: str = ""
) -> TurnOutcome:
    """Make sure `payload`'s message is saved, then close its turn as unanswered (`code`).

    The state is read again here, with the turn's config, as the graph has written since
    the turn began (and once more when the message had to be written first). `shown` is
    the answer's text the user saw stream before a stop: it is kept as the turn's answer,
    marked stopped.
    """
    thread_id, config = context.thread_id, context.config
    with storage_errors():
        snapshot = app.graph.get_state(config)
        wanted = payload.get("turn_count") if isinstance(payload, dict) else None
        if (
            wanted is not None
            and int((snapshot.values or {}).get("turn_count", 0)) == int(wanted) - 1
        ):
            app.graph.update_state(config, payload, as_node="summary_node")
            snapshot = app.graph.get_state(config)
        final = close_unanswered(app, thread_id, code, snapshot, config, shown)
        if final is None:  # it had finished after all (nothing was written since the read)
            final = (snapshot.values or {})["messages"][-1]
        prune_checkpoints(app.persistence.saver, thread_id, app.settings.keep_turns)
        update_thread(app.persistence.archive, thread_id)
    return TurnOutcome(
        answer=content_text(final), error_code=final.response_metadata.get("error_code")
    )


def after_storage_error(app: ChatApp, context: TurnContext, payload: Any) -> TurnOutcome:
    """Say what was saved after a storage error, and close the turn if its message was.

    The database decides, read again (and again, backing off, while it is locked or full,
    for up to RECHECK_S): a step whose results were written but not its checkpoint is put
    right first (`settle_head`), as the next turn would. An answered turn was saved after
    all (the error came later); a saved message with no answer becomes an unanswered turn
    (STORAGE_ERROR) so the next message never joins it, and stays one even when that closing
    write is refused too (the next reader closes it as TURN_INTERRUPTED). Only a message the
    database shows absent is "not saved": StorageError, and the UI gives the text back. When
    the thread cannot be settled in time, what the next reader will find is read without
    writing (`_fate`): a message it keeps is an unanswered turn (STORAGE_ERROR), never "not
    saved". One whose fate cannot be read at all is reported as such, not as refused.
    """
    deadline = time.monotonic() + RECHECK_S
    delay = 0.05
    while True:
        try:
            with storage_errors():
                settle_head(app, context)
                snapshot = app.graph.get_state(context.config)
            break
        except StorageError as exc:
            if time.monotonic() + delay > deadline:
                # the thread cannot be settled (its writes are refused), but what the next
                # reader will find can be read without writing: never "not saved" for a
                # message it will keep (issue 43)
                kept = _fate(app, context, payload)
                if kept is None:
                    raise StorageError(_UNCONFIRMED) from exc
                if not kept:
                    raise StorageError(_NOT_SAVED) from exc
                return TurnOutcome(
                    answer=content_text(fallback_message(ErrorCode.STORAGE_ERROR)),
                    error_code=ErrorCode.STORAGE_ERROR.value,
                )
            time.sleep(delay)
            delay = min(2 * delay, 1.0)
    values = snapshot.values or {}
    if isinstance(payload, dict) and not _holds_message(values, payload):
        raise StorageError(_NOT_SAVED)
    pending = approval_in(snapshot.interrupts)
    if pending is not None:  # the pause was saved: the turn waits for the decision
        return TurnOutcome(pending=pending)
    messages = values.get("messages", [])
    if messages and isinstance(messages[-1], AIMessage) and not messages[-1].tool_calls:
        final: AIMessage = messages[-1]
    else:
        final = _close_saved(app, context, deadline) or fallback_message(ErrorCode.STORAGE_ERROR)
    return TurnOutcome(
        answer=content_text(final), error_code=final.response_metadata.get("error_code")
    )


def _fate(app: ChatApp, context: TurnContext, payload: Any) -> bool | None:
    """Whether the turn `payload` began is kept, as the next reader will settle the thread.

    Read only (a full disk refuses writes, not reads): a message whose arrival checkpoint
    has nothing finished on it is dropped (`settle_head`); otherwise the saved state
    decides. None when it cannot be read; True for a resumption (its turn was saved).
    """
    if not isinstance(payload, dict):
        return True
    try:
        with storage_errors():
            head = app.persistence.saver.head(context.thread_id)
            if head is not None and not finished(head) and head.metadata.get("source") == "input":
                return False
            snapshot = app.graph.get_state(context.config)
    except StorageError:
        return None
    return _holds_message(snapshot.values or {}, payload)


def _holds_message(values: dict[str, Any], payload: dict[str, Any]) -> bool:
    """Whether the saved state holds the new turn `payload` began: its number and message."""
    wanted = payload.get("turn_count")
    if wanted is None or int(values.get("turn_count", 0)) != int(wanted):
        return False
    sent = [content_text(m) for m in payload.get("messages", []) if isinstance(m, HumanMessage)]
    said = next(
        (m for m in reversed(values.get("messages", [])) if isinstance(m, HumanMessage)), None
    )
    return not sent or (said is not None and content_text(said) == sent[-1])


def _close_saved(app: ChatApp, context: TurnContext, deadline: float) -> AIMessage | None:
    """Close the saved, unanswered turn as STORAGE_ERROR, retrying until `deadline`.

    None when there was nothing to close, or the write kept failing: the turn then stays
    open, and is closed as TURN_INTERRUPTED by the next reader (never lost, never joined).
    """
    delay = 0.05
    while True:
        try:
            with storage_errors():
                return close_unanswered(
                    app, context.thread_id, ErrorCode.STORAGE_ERROR, config=context.config
                )
        except StorageError as exc:
            if time.monotonic() + delay > deadline:
                log.warning(
                    "thread %s: the saved message stays open for now: %s", context.thread_id, exc
                )
                return None
            time.sleep(delay)
            delay = min(2 * delay, 1.0)


RECHECK_S = 10.0
"""How long, after a storage error, the database is read again to tell what was saved."""
_NOT_SAVED = (
    "The message could not be saved (the database refused the write). Nothing that was saved "
    "before is lost; please try again."
)
_UNCONFIRMED = (
    "The database could not be read to tell whether the message was saved. Open the "
    "conversation again before sending it once more: it may be there."
)
