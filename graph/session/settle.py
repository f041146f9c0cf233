"""One writer per thread, and the thread put right before it writes.

Every turn writes under the thread's writer lease (`lease`, over `graph.storage.leases`):
another process that wants the thread meanwhile is told it is busy (ThreadBusy). Taking
the lease settles the thread's head first (`settle_head`): what a process killed between
two writes left there is kept or dropped, so the turn starts from a thread as it would
have been. The lease and the head are the turn's lowest rung above storage: nothing here
reads the turn's state beyond the head.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from langgraph.constants import END
from langgraph.types import StateSnapshot

from graph.errors import ThreadBusy
from graph.session.app import ChatApp
from graph.session.context import TurnContext, turn_context
from graph.session.errors import storage_errors
from graph.storage import DB_ERRORS
from graph.storage.checkpointer import UNSETTLED
from graph.storage.leases import ThreadBusyError, release, writer_lease
from graph.storage.persistence import StorageError

log = logging.getLogger(__name__)


@contextmanager
def lease(app: ChatApp, context: TurnContext) -> Iterator[None]:
    """The thread's writer lease for one turn; ThreadBusy if another process holds it."""
    thread_id = context.thread_id
    done: list[str] = []
    try:
        with storage_errors(), writer_lease(app.persistence.archive, thread_id) as owner:
            settle_head(app, context)
            yield
            done.append(owner)
    except ThreadBusyError as exc:
        raise ThreadBusy(
            "Another turn of this conversation is running (maybe in another window); "
            "nothing was saved. Try again in a moment."
        ) from exc
    except StorageError:
        if not done:
            raise
        # Only giving the lease back failed (a full or locked file): the turn itself was
        # saved and must not be reported refused. Try again briefly; a row left behind is
        # taken over by this process and lapses for others (see graph.storage.leases).
        _release_later(app, thread_id, done[0])


def _release_later(app: ChatApp, thread_id: str, owner: str) -> None:
    """Give back a lease whose release was refused, retrying a few times, never raising."""
    for delay in (0.05, 0.2, 0.5):
        time.sleep(delay)
        try:
            release(app.persistence.archive, thread_id, owner)
            return
        except DB_ERRORS as exc:
            log.warning("thread %s: the writer lease stays until it lapses: %s", thread_id, exc)


@contextmanager
def settled(app: ChatApp, thread_id: str) -> Iterator[StateSnapshot]:
    """The thread's state under its writer lease, its head put right (see `settle_head`).

    For a caller that decides from what a dead process saved and may write before letting
    go (a worker running a job again).

    Raises ThreadBusy while another live process holds the thread.
    """
    context = turn_context(app, thread_id)
    with lease(app, context):
        with storage_errors():
            snapshot = app.graph.get_state(context.config)
        yield snapshot


def settle_head(app: ChatApp, context: TurnContext) -> None:
    """Put right what a process killed between two writes left at the head of the thread.

    A step's results are saved (as pending writes) before the checkpoint after it; a
    process killed in between leaves a finished step, the model's answer say, that the
    state shows but a new message would start without. It is saved as the checkpoint it
    should have been; a message whose arrival step had finished becomes the thread's
    (closed as TURN_INTERRUPTED by the caller). A message recorded as it arrived (LangGraph's
    `input` checkpoint) with nothing run on it is dropped: the thread is as it was before
    it. A pause for approval, a failure or an answer to a pause is left as it is.
    """
    thread_id = context.thread_id
    saver = app.persistence.saver
    head = saver.head(thread_id)  # no values read: most turns find nothing to put right
    if head is None:
        return
    if finished(head):
        app.graph.update_state(context.config, None, as_node=END)
        log.warning("thread %s: a step whose process died as it was saved was kept", thread_id)
    elif head.metadata.get("source") == "input":
        saver.delete_checkpoint(thread_id, head.checkpoint_id)
        log.warning("thread %s: a message whose process died as it arrived was dropped", thread_id)


def finished(head: Any) -> bool:
    """Whether a head's saved writes are a finished step (kept when the thread is settled)."""
    return bool(head.writes) and not any(channel in UNSETTLED for channel in head.writes)
