"""Running turns: check the message, stream the graph, hand tokens and the outcome back.

Input is checked before anything is written, so a refused message changes nothing. After
each turn the checkpoints older than the thread's last CHECKPOINT_KEEP_TURNS turns are pruned.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    RemoveMessage,
    ToolMessage,
)
from langchain_core.runnables import RunnableConfig
from langgraph.constants import END
from langgraph.types import Command, StateSnapshot

from graph.approval import Answer, decision
from graph.context import message_chars
from graph.errors import (
    ErrorCode,
    InputError,
    MessageTooLong,
    NothingPending,
    ThreadBusy,
    TurnCancelled,
    error_record,
)
from graph.graph import answer_nodes
from graph.memory.short_term import DEFAULT_TENANT, restored_values, short_term_store
from graph.nodes.fallback import fallback_message
from graph.nodes.llm import (
    CANDIDATE_NODE,
    QUORUM_NODE,
    STREAMED,
    TURN_DEADLINE,
)
from graph.nodes.memory import MEMORY_NODE
from graph.server_queue import running_turn
from graph.session.app import (
    ChatApp,
    approval_in,
    config_for,
    pending_approval,
    require_thread,
    retryable,
)
from graph.session.context import TurnContext, turn_context
from graph.session.errors import storage_errors
from graph.session.events import TurnEvents
from graph.session.records import thread_budget, thread_recall, thread_strategy
from graph.settings import validate_rate
from graph.storage import DB_ERRORS
from graph.storage.archive import update_thread
from graph.storage.checkpointer import FORK_SOURCE, UNSETTLED
from graph.storage.leases import ThreadBusyError, release, writer_lease
from graph.storage.persistence import StorageError, prune_checkpoints
from graph.supervisor import step_event
from graph.text import check_text, is_korean
from graph.times import TIME_KEY, now_iso, parse_time
from graph.tools import TURN_CANCELLED
from graph.turns import (
    CUT_OFF,
    STOPPED,
    content_text,
    cut_off,
    is_turn_end,
    split_turns,
    turn_open,
)
from graph.untrusted import HISTORY_SOURCE, UNTRUSTED_KEY, history_records

log = logging.getLogger(__name__)

TITLE_CHARS = 40
"""Length of a thread title taken from its first message."""


@dataclass
class TurnOutcome:
    """How a turn ended."""

    answer: str = ""
    """Final assistant text ('' while paused)."""
    error_code: str | None = None
    """Set when the turn ended in the fallback answer."""
    pending: dict[str, Any] | None = None
    """Set when the graph paused for approval: category, tool, args, tool_call_id."""
    refused: str | None = None
    """Set when nothing was saved (an empty or out-of-order message, a busy thread, a
    refused write): why, for the user, whose text goes back to the input."""
    cut_off: str | None = None
    """Set when the answer was kept although cut (LLM_TRUNCATED, LLM_TIMEOUT): Continue."""


def sent_now(app: ChatApp) -> str:
    """The current time in the app's time zone, for a message being sent now."""
    return now_iso(app.settings.timezone)


def check_message(app: ChatApp, text: str) -> str:
    """Return the message stripped, or raise InputError if it is empty or too long."""
    stripped = check_text(text).strip()
    if not stripped:
        raise InputError("The message is empty.")
    limit = app.settings.message_limit
    if len(stripped) > limit:
        raise MessageTooLong(
            f"The message has {len(stripped):,} characters; the limit is {limit:,}."
        )
    return stripped


def run_turn(
    app: ChatApp,
    thread_id: str,
    text: str,
    *,
    turn_count: int | None,
    compression_rate: float | None,
    events: TurnEvents | None = None,
    sent_at: str | None = None,
    keep: dict[str, Any] | None = None,
    context: TurnContext | None = None,
    history: Sequence[Mapping[str, str]] | None = None,
) -> TurnOutcome:
    """Run one turn: the user's message at `turn_count` (app.py increments it beforehand).

    A `turn_count` of None means the thread's next turn, for clients that do not count,
    and a `compression_rate` of None the thread's own. `keep` holds per-thread settings
    (rate, strategy) that are saved with the turn, once its checks have passed: a refused
    message changes nothing.

    `sent_at` is when the message was sent (ISO 8601 with a time zone, see `now_iso`); the
    adapters pass the current time, a replayed transcript its own times or none. `context`
    is the turn's (`turn_context`) when the caller made it; otherwise it is made here.

    `history` (seed 001's job field) is earlier turns a *new* thread starts with:
    `{"role": "user"|"assistant", "content": ...}` pairs, oldest first. They are written as
    the thread's turns 1..n (as an import writes them, without a model call), under the
    same writer lease and after the same checks as the message, which is then answered as
    turn n + 1. A thread that has turns keeps its own history (summaries, archive, recall):
    `history` for it is refused (InputError), never merged with or silently dropped in
    favour of what was saved, so two accounts of one conversation cannot disagree unseen.
    """
    message = check_message(app, text)
    if turn_count is not None and (isinstance(turn_count, bool) or not isinstance(turn_count, int)):
        raise InputError(f"turn_count must be an integer, not {turn_count!r}.")
    turns = _history_turns(app, history) if history else []
    record = require_thread(app, thread_id)
    try:
        rate = validate_rate(
            compression_rate
            if compression_rate is not None
            else float(record.get("rate") or app.settings.default_rate)
        )
        sent = {TIME_KEY: parse_time(sent_at)} if sent_at else {}
    except ValueError as exc:
        raise InputError(str(exc)) from exc
    app.persistence.check_file()
    context = context or turn_context(app, thread_id)
    with _lease(app, thread_id):
        return _run_turn(
            app, context, record, message, turn_count, rate, sent, events, keep or {}, turns
        )


def _history_turns(
    app: ChatApp, history: Sequence[Mapping[str, str]]
) -> list[tuple[HumanMessage, AIMessage]]:
    """`history` as (user, assistant) message pairs; InputError for anything else.

    The service checks the same shape before queueing (a 422 naming the item); this is the
    rule itself, for every caller. Each message, the user's and the answer, is held to
    the chat's message limit (MessageTooLong).
    """
    pairs: list[tuple[HumanMessage, AIMessage]] = []
    items = list(history)
    if len(items) % 2:
        raise InputError("history must be whole turns: user and assistant messages in pairs.")
    for i in range(0, len(items), 2):
        said, answered = items[i], items[i + 1]
        if said.get("role") != "user" or answered.get("role") != "assistant":
            raise InputError(
                f"history[{i}] and history[{i + 1}] must be a user message and its answer."
            )
        try:
            asked = check_message(app, str(said.get("content") or ""))
        except InputError as exc:
            raise type(exc)(f"history[{i}]: {exc}") from exc
        try:  # an answer goes into the context as a message does: the same limit
            answer = check_message(app, str(answered.get("content") or ""))
        except InputError as exc:
            raise type(exc)(f"history[{i + 1}]: {exc}") from exc
        # not this app's model's words: data, as a file's text is (`graph.untrusted`)
        said_before = AIMessage(content=answer, additional_kwargs={UNTRUSTED_KEY: HISTORY_SOURCE})
        pairs.append((HumanMessage(content=asked), said_before))
    return pairs


def _start_with_history(
    app: ChatApp,
    context: TurnContext,
    record: dict[str, Any],
    turns: list[tuple[HumanMessage, AIMessage]],
    rate: float,
) -> None:
    """Write `turns` as a new thread's first turns (no model call, as an import does)."""
    thread_id = context.thread_id
    messages: list[BaseMessage] = [m for pair in turns for m in pair]
    values = {
        "messages": messages,
        "session_id": thread_id,
        "turn_count": len(turns),
        "compression_rate": rate,
        "strategy": thread_strategy(app, record),
        "context_budget": thread_budget(app, record),
        "recall": thread_recall(app, record),
        "transcript_chars": sum(message_chars(m) for m in messages),
        "untrusted": history_records(1, len(turns)),
    }
    with storage_errors():
        app.graph.update_state(context.config, values, as_node="llm_node")


def _read_back(app: ChatApp, context: TurnContext, record: dict[str, Any], rate: float) -> bool:
    """Start a recursive thread with no checkpoint here from its short-term keys in Redis.

    Seed 003's store (`graph.memory.short_term`): another process ran the thread, or an
    in-memory checkpointer lost it with its process. True when the thread was started
    from them; a Redis out of reach changes nothing (the turn goes on as a new thread's).
    """
    if thread_strategy(app, record) != "recursive":
        return False
    store = short_term_store(app.settings)
    if store is None:
        return False
    tenant = str(record.get("owner") or DEFAULT_TENANT)
    try:
        kept = store.load(tenant, context.thread_id)
    except Exception as exc:  # noqa: BLE001 - a copy; without it the thread starts anew
        log.warning("short-term memory of %s not read: %s", context.thread_id, exc)
        return False
    if kept is None or kept.turn < 1:
        return False
    values = restored_values(kept, context.thread_id, rate)
    values.update(
        strategy="recursive",
        context_budget=thread_budget(app, record),
        recall=thread_recall(app, record),
    )
    with storage_errors():
        app.graph.update_state(context.config, values, as_node="llm_node")
    log.info(
        "thread %s started from its short-term memory at turn %s", context.thread_id, kept.turn
    )
    return True


def _run_turn(
    app: ChatApp,
    context: TurnContext,
    record: dict[str, Any],
    message: str,
    turn_count: int | None,
    rate: float,
    sent: dict[str, str],
    events: TurnEvents | None,
    keep: dict[str, Any],
    history: list[tuple[HumanMessage, AIMessage]] | None = None,
) -> TurnOutcome:
    """The turn itself, under the thread's writer lease: checks against the saved state."""
    thread_id, config = context.thread_id, context.config
    with storage_errors():
        snapshot = app.graph.get_state(config)
        closed = close_unanswered(app, thread_id, ErrorCode.TURN_INTERRUPTED, snapshot, config)
        if closed is not None:
            snapshot = app.graph.get_state(config)  # read again only when a turn was closed
    context = context.started(record=record, snapshot=snapshot)
    if approval_in(snapshot.interrupts) is not None:
        raise InputError("This thread is waiting for a tool approval; answer it first.")
    expected = int(context.values.get("turn_count", 0)) + 1
    if expected == 1 and not history and _read_back(app, context, record, rate):
        with storage_errors():
            snapshot = app.graph.get_state(config)
        context = context.started(snapshot=snapshot)
        expected = int(context.values.get("turn_count", 0)) + 1
    if history and expected != 1:
        raise InputError(
            f"This thread has {expected - 1} turns and keeps its own history; send history "
            "only with a new thread's first message."
        )
    expected += len(history or [])
    turn_count = expected if turn_count is None else turn_count
    if turn_count != expected:
        raise InputError(f"Turn {turn_count} is out of order; this thread is at turn {expected}.")
    changes = dict(keep)
    if not record.get("title"):
        first = content_text(history[0][0]) if history else message
        title = " ".join(first.split())
        changes["title"] = title if len(title) <= TITLE_CHARS else title[: TITLE_CHARS - 1] + "…"
    if changes:
        with storage_errors():
            update_thread(app.persistence.archive, thread_id, **changes)
        record = {**record, **changes}
    context = context.started(record=record)
    if history:
        _start_with_history(app, context, record, history, rate)
        with storage_errors():
            context = context.started(snapshot=app.graph.get_state(config))
    payload = _payload(app, thread_id, record, message, turn_count, rate, sent)
    return _stream(app, thread_id, payload, events, context)


def _payload(
    app: ChatApp,
    thread_id: str,
    record: dict[str, Any],
    message: str,
    turn_count: int,
    rate: float,
    sent: dict[str, str],
) -> dict[str, Any]:
    """The graph input of a new turn."""
    return {
        "messages": [HumanMessage(content=message, additional_kwargs=sent)],
        "session_id": thread_id,
        "turn_count": turn_count,
        "compression_rate": rate,
        "strategy": thread_strategy(app, record),
        "context_budget": thread_budget(app, record),
        "recall": thread_recall(app, record),
        "continuing": "",  # a new message is never taken for a Continue
    }


def keep_unanswered(
    app: ChatApp,
    thread_id: str,
    text: str,
    *,
    turn_count: int,
    compression_rate: float,
    code: ErrorCode,
    sent_at: str | None = None,
) -> TurnOutcome:
    """Save a message whose turn could not run as an unanswered turn marked `code`.

    For a job that can no longer be run (its worker died twice): the message is kept, and
    answered later by a retry. A message that was saved already is only closed.
    """
    record = require_thread(app, thread_id)
    sent = {TIME_KEY: parse_time(sent_at)} if sent_at else {}
    with _lease(app, thread_id):
        payload = _payload(
            app, thread_id, record, check_message(app, text), turn_count, compression_rate, sent
        )
        return _keep(app, thread_id, payload, code)


def resume_turn(
    app: ChatApp,
    thread_id: str,
    action: str,
    args: dict[str, Any] | None = None,
    events: TurnEvents | None = None,
    context: TurnContext | None = None,
    *,
    response: str | None = None,
) -> TurnOutcome:
    """Answer a pending approval (see `graph.approval`), the same for every client.

    approve runs the waiting call, edit runs it with `args`, respond hands it `response`
    (the user's free text, checked like a message) as its result without running it, and
    reject ends the task: the call is not run and the turn is closed as APPROVAL_REJECTED
    (the thread no longer waits; the conversation before stays; the next message works).
    """
    answer = decision(action=action, args=args, response=response)
    if answer.action == "respond":
        answer = Answer("respond", response=check_message(app, answer.response))
    app.persistence.check_file()
    context = context or turn_context(app, thread_id)
    with _lease(app, thread_id):
        with storage_errors():
            snapshot = app.graph.get_state(context.config)
        if pending_approval(app, thread_id, snapshot) is None:
            raise NothingPending("Nothing is waiting for approval in this thread.")
        command: Command[Any] = Command(resume=answer.resume_value())
        return _stream(app, thread_id, command, events, context.started(snapshot=snapshot))


def retry_turn(
    app: ChatApp,
    thread_id: str,
    events: TurnEvents | None = None,
    context: TurnContext | None = None,
) -> TurnOutcome:
    """Answer the last, unanswered turn again in place: same turn number, same message.

    A thread forked in the middle of a turn (see `graph.session.history`) goes on from its
    checkpoint instead.

    The apology and the tool calls that never ran are removed; tool steps that did run are
    kept (nothing runs twice), and the turn goes on from recall and the model. A crash
    during the retry leaves the message unanswered again (TURN_INTERRUPTED), never lost.
    """

    def prepare(snapshot: StateSnapshot, messages: list[BaseMessage]) -> Change | None:
        if snapshot.next and not snapshot.interrupts and not retryable(messages):
            return None  # a turn stopped between nodes (a fork taken mid-turn): go on
        if snapshot.interrupts or not retryable(messages):
            raise InputError("The last turn has its answer; there is nothing to retry.")
        completed, _ = split_turns(messages)  # an apology ends the turn: it is the last one
        removed = [RemoveMessage(id=m.id or "") for m in _unfinished(completed[-1])]
        return {"messages": removed}, "summary_node"

    return _in_place(app, context or turn_context(app, thread_id), events, prepare)


def continue_turn(
    app: ChatApp,
    thread_id: str,
    events: TurnEvents | None = None,
    context: TurnContext | None = None,
) -> TurnOutcome:
    """Continue: the model goes on from the last, cut-off answer; the text is appended.

    Same turn, same message. The cut-off answer leaves the state for the llm_node's run
    (`continuing` carries its text); whatever happens, the node writes it back, longer or
    as it was.
    """

    def prepare(snapshot: StateSnapshot, messages: list[BaseMessage]) -> Change | None:
        last = messages[-1] if messages else None
        # a memory update that did not run after the answer (stopped) does not count: the
        # next answer's update does its work
        steps = [n for n in snapshot.next if n != MEMORY_NODE]
        if steps or snapshot.interrupts or last is None or not cut_off(last):
            raise InputError("The last answer was not cut off; there is nothing to continue.")
        return {
            "messages": [RemoveMessage(id=last.id or "")],
            "continuing": content_text(last),
        }, "recall_node"

    return _in_place(app, context or turn_context(app, thread_id), events, prepare)


Change = tuple[dict[str, Any], str]
"""A state update and the node it is written as, before a turn goes on in place."""


def _in_place(
    app: ChatApp,
    context: TurnContext,
    events: TurnEvents | None,
    prepare: Callable[[StateSnapshot, list[BaseMessage]], Change | None],
) -> TurnOutcome:
    """Go on with the thread's last turn in place, under its writer lease.

    `prepare` reads the thread's state and says what to change first (None: nothing), or
    raises InputError when there is nothing to go on with.
    """
    thread_id, config = context.thread_id, context.config
    require_thread(app, thread_id)
    app.persistence.check_file()
    with _lease(app, thread_id):
        with storage_errors():
            snapshot = app.graph.get_state(config)
        change = prepare(snapshot, list((snapshot.values or {}).get("messages", [])))
        if change is not None:
            with storage_errors():
                app.graph.update_state(config, change[0], as_node=change[1])
        return _stream(app, thread_id, None, events, context.started(snapshot=snapshot))


def _unfinished(turn: list[BaseMessage]) -> list[BaseMessage]:
    """The messages of an unanswered turn that a retry replaces.

    The closing apology, and every tool step with a call that never ran (its call and all
    its results, so the model sees each call with its answer or not at all).
    """
    results: dict[str, ToolMessage] = {
        m.tool_call_id: m for m in turn if isinstance(m, ToolMessage)
    }
    dropped: list[BaseMessage] = []
    for msg in turn:
        if not isinstance(msg, AIMessage):
            continue
        if not msg.tool_calls:
            dropped.append(msg)
            continue
        answers = [results.get(call["id"] or "") for call in msg.tool_calls]
        if any(a is None or a.content == NOT_RUN for a in answers):
            dropped += [msg, *(a for a in answers if a is not None)]
    return dropped


@contextmanager
def _lease(app: ChatApp, thread_id: str) -> Iterator[None]:
    """The thread's writer lease for one turn; ThreadBusy if another process holds it."""
    done: list[str] = []
    try:
        with storage_errors(), writer_lease(app.persistence.archive, thread_id) as owner:
            _settle_head(app, thread_id)
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
    """The thread's state under its writer lease, its head put right (see `_settle_head`).

    For a caller that decides from what a dead process saved and may write before letting
    go (a worker running a job again).

    Raises ThreadBusy while another live process holds the thread.
    """
    with _lease(app, thread_id):
        with storage_errors():
            snapshot = app.graph.get_state(config_for(thread_id, app.settings))
        yield snapshot


def _settle_head(app: ChatApp, thread_id: str) -> None:
    """Put right what a process killed between two writes left at the head of the thread.

    A step's results are saved (as pending writes) before the checkpoint after it; a
    process killed in between leaves a finished step, the model's answer say, that the
    state shows but a new message would start without. It is saved as the checkpoint it
    should have been; a message whose arrival step had finished becomes the thread's
    (closed as TURN_INTERRUPTED by the caller). A message recorded as it arrived (LangGraph's
    `input` checkpoint) with nothing run on it is dropped: the thread is as it was before
    it. A pause for approval, a failure or an answer to a pause is left as it is.
    """
    saver = app.persistence.saver
    head = saver.head(thread_id)  # no values read: most turns find nothing to put right
    if head is None:
        return
    if _finished(head):
        app.graph.update_state(config_for(thread_id, app.settings), None, as_node=END)
        log.warning("thread %s: a step whose process died as it was saved was kept", thread_id)
    elif head.metadata.get("source") == "input":
        saver.delete_checkpoint(thread_id, head.checkpoint_id)
        log.warning("thread %s: a message whose process died as it arrived was dropped", thread_id)


def _stream(
    app: ChatApp,
    thread_id: str,
    payload: Any,
    events: TurnEvents | None,
    context: TurnContext | None = None,
) -> TurnOutcome:
    """Run the graph for one turn (or its resumption) and report it on `events`.

    Between graph steps the job's cancel flag is read: a cancelled turn stops, and what
    was said stays as an unanswered turn (CANCELLED), never lost.
    """
    context = context or turn_context(app, thread_id)
    config = context.run_config()
    # the turn's model calls share one time limit, however steadily a server streams
    config["configurable"][TURN_DEADLINE] = time.monotonic() + app.settings.turn_timeout_s
    outcome = TurnOutcome()
    last: BaseMessage | None = None
    answering = answer_nodes(app.settings)  # whose tokens are the answer's (not a step's)
    shown: list[str] = []  # the answer's text as the user saw it stream, kept on a stop
    try:
        # a local server's turn goes before its background embeddings (graph.server_queue)
        with storage_errors(), running_turn(app.settings.openai_base_url):
            # A checkpoint after every step, saved before the next one starts: the user's
            # message is on disk before the model runs (a crash keeps it, unanswered), and
            # a fork can start before or after any node.
            if events is not None:  # stop means stop: inside the model's stream too
                config = {**config, "callbacks": [_StopOnToken(events)]}
                # and inside a running python_repl, which keeps what it printed
                config["configurable"][TURN_CANCELLED] = events.is_cancelled
            parts: Any = app.graph.stream(
                payload,
                config,
                stream_mode=["messages", "updates", "tasks", "custom"] if events else ["updates"],
                durability="sync",
            )
            try:
                for mode, chunk in parts:
                    if events is None:
                        pass
                    elif mode == "messages":
                        piece, meta = chunk
                        # chunks as the model writes them; a whole message from a model
                        # that does not stream, or the node's own apology
                        if (
                            meta.get("langgraph_node") in answering
                            and isinstance(piece, AIMessage)
                            and "candidate" not in piece.response_metadata
                            and STREAMED not in piece.response_metadata
                        ):
                            events.token(content_text(piece), node=meta["langgraph_node"])
                            shown.append(content_text(piece))
                    elif mode == "custom":
                        # the llm_node's answer shown through its markup gate, or a chosen
                        # candidate of it, when its answer is the turn's
                        if (
                            "llm_node" in answering
                            and isinstance(chunk, dict)
                            and chunk.get("token")
                        ):
                            events.token(str(chunk["token"]))
                            shown.append(str(chunk["token"]))
                    elif mode == "tasks":
                        started = "input" in chunk
                        if started and chunk.get("name") in answering:
                            shown.clear()  # a new answer (after a tool round) starts over
                        events.metadata(
                            "node_start" if started else "node_end", node=chunk.get("name")
                        )
                    else:
                        report_update(events, chunk)
                    if mode == "updates" and "__interrupt__" in chunk:
                        for interrupt in chunk["__interrupt__"]:
                            outcome.pending = dict(interrupt.value)
                    elif mode == "updates":
                        for node in answering:
                            said = (chunk.get(node) or {}).get("messages")
                            if said:  # llm_node wrote none when it fanned out
                                last = said[-1]
                        if (closed := _closed_by(chunk)) is not None:
                            last = closed  # a rejected approval closed the turn
                    # stop as the next step starts: the step before is saved by then (a
                    # step's messages and updates come before its checkpoint, and a tool's
                    # result stopped there would be lost with its call left unanswered)
                    starting = mode == "tasks" and "input" in chunk
                    if starting and events is not None and events.is_cancelled():
                        raise TurnCancelled
            finally:
                parts.close()  # a stopped stream still writes what it has ("exit")
    except StorageError:
        return _after_storage_error(app, thread_id, payload)
    except TurnCancelled:
        # a stopped turn keeps its message, unanswered (the stream wrote what it had)
        return _keep(app, thread_id, payload, ErrorCode.CANCELLED, context.config, "".join(shown))
    try:  # housekeeping: a failure here changes nothing that was saved
        prune_checkpoints(app.persistence.saver, thread_id, app.settings.keep_turns)
        update_thread(app.persistence.archive, thread_id)
        app.persistence.sweep()  # CHECKPOINTER=memory: idle sessions go
    except DB_ERRORS as exc:
        log.warning("after the turn, pruning or the thread list failed: %s", exc)
    if outcome.pending is None:
        if last is None:  # the stream ended without an answer: read it from the state
            try:
                last = (app.graph.get_state(context.config).values or {})["messages"][-1]
            except DB_ERRORS:
                return _after_storage_error(app, thread_id, payload)
        outcome.answer = content_text(last)
        outcome.error_code = last.response_metadata.get("error_code")
        outcome.cut_off = cut_off(last) or None
    return outcome


CLOSING_NODES = ("tool_node", "step_node")
"""Nodes that end the turn themselves when the user rejects an approval."""


def _closed_by(chunk: Any) -> BaseMessage | None:
    """The answer a closing node's update ends the turn with (an AIMessage, no tool calls)."""
    for node in CLOSING_NODES:
        update = chunk.get(node) if isinstance(chunk, dict) else None
        messages = update.get("messages") if isinstance(update, dict) else None
        if isinstance(messages, list) and messages and is_turn_end(messages[-1]):
            return messages[-1]
    return None


class _StopOnToken(BaseCallbackHandler):
    """Stops the answering model at its next token once the job is cancelled.

    Without it a stop would wait for the whole answer (the graph finishes a running node
    before it stops), and that answer would be saved. Only the answer is stopped: a
    summary being made goes on, so the archive stays whole.
    """

    raise_error = True

    def __init__(self, events: TurnEvents) -> None:
        self.events = events
        self.answering: set[UUID] = set()

    def on_chat_model_start(
        self, serialized: dict[str, Any], messages: Any, *, run_id: UUID, **kwargs: Any
    ) -> None:
        """Note the answering model's runs (those of llm_node and the candidates)."""
        if (kwargs.get("metadata") or {}).get("langgraph_node") in (*ANSWERING, CANDIDATE_NODE):
            self.answering.add(run_id)

    def on_llm_new_token(self, token: Any, *, run_id: UUID, **kwargs: Any) -> None:
        """Raise TurnCancelled in the answer's stream once stop was pressed."""
        if run_id in self.answering and self.events.is_cancelled():
            raise TurnCancelled


def report_update(events: TurnEvents, chunk: dict[str, Any]) -> None:
    """Tool calls, tool results, approval requests and summaries of one graph step.

    Under the supervisor, also its plan (`plan`) and the step that began or ended (`step`).
    """
    for interrupt in chunk.get("__interrupt__", ()):
        if isinstance(interrupt.value, dict) and interrupt.value.get("kind") == "approval":
            request = {k: v for k, v in _plain(interrupt.value).items() if k != "kind"}
            events.metadata("approval_request", **request)
    for node, update in chunk.items():
        if node == "__interrupt__" or not isinstance(update, dict):
            continue
        for msg in update.get("messages", ()):
            if isinstance(msg, AIMessage):
                for call in msg.tool_calls:
                    events.metadata(
                        "tool_call", tool_call_id=call["id"], tool=call["name"], args=call["args"]
                    )
            elif isinstance(msg, ToolMessage):
                events.metadata(
                    "tool_result",
                    tool_call_id=msg.tool_call_id,
                    tool=msg.name,
                    content=content_text(msg)[:TOOL_RESULT_CHARS],
                    status=msg.status,
                )
        if node in ANSWERING and update.get("candidates"):
            events.metadata("candidates", items=_plain(update["candidates"]))
        if node == "plan_node" and update.get("plan"):
            events.metadata("plan", **_plain(update["plan"]))
        if update.get("steps"):  # the supervisor's step that began or ended
            events.metadata("step", **_plain(step_event(update["steps"][-1])))
        if node in ("summary_node", MEMORY_NODE) and update.get("summary_history"):
            # memory_node: the recursive memory, updated after the answer was streamed
            events.metadata("summary", **_plain(update["summary_history"][-1]))


ANSWERING = ("llm_node", QUORUM_NODE)
"""The nodes that write the model's answer: llm_node, or the quorum of its candidates."""

TOOL_RESULT_CHARS = 2_000
"""A tool result's characters in its event (the state keeps all of it)."""


def _plain(value: Any) -> Any:
    """A JSON-safe copy (an event crosses processes as JSON)."""
    import json

    return json.loads(json.dumps(value, default=str, ensure_ascii=False))


def _keep(
    app: ChatApp,
    thread_id: str,
    payload: Any,
    code: ErrorCode,
    config: RunnableConfig | None = None,
    shown: str = "",
) -> TurnOutcome:
    """Make sure `payload`'s message is saved, then close its turn as unanswered (`code`).

    `config` is the thread's (the turn's context holds it); the state is read again here,
    as the graph has written since the turn began. `shown` is the answer's text the user
    saw stream before a stop: it is kept as the turn's answer, marked stopped.
    """
    config = config or config_for(thread_id, app.settings)
    with storage_errors():
        values = dict(app.graph.get_state(config).values or {})
        wanted = payload.get("turn_count") if isinstance(payload, dict) else None
        if wanted is not None and int(values.get("turn_count", 0)) == int(wanted) - 1:
            app.graph.update_state(config, payload, as_node="summary_node")
        final = close_unanswered(app, thread_id, code, config=config, shown=shown)
        if final is None:  # it had finished after all
            final = (app.graph.get_state(config).values or {})["messages"][-1]
        prune_checkpoints(app.persistence.saver, thread_id, app.settings.keep_turns)
        update_thread(app.persistence.archive, thread_id)
    return TurnOutcome(
        answer=content_text(final), error_code=final.response_metadata.get("error_code")
    )


def _after_storage_error(app: ChatApp, thread_id: str, payload: Any) -> TurnOutcome:
    """Say what was saved after a storage error, and close the turn if its message was.

    The database decides, read again (and again, backing off, while it is locked or full,
    for up to RECHECK_S): a step whose results were written but not its checkpoint is put
    right first (see `_settle_head`), as the next turn would. An answered turn was saved
    after all (the error came later); a saved message with no answer becomes an
    unanswered turn (STORAGE_ERROR) so the next message never joins it, and stays one
    even when that closing write is refused too (the next reader closes it as
    TURN_INTERRUPTED). Only a message the database shows absent is "not saved":
    StorageError, and the UI gives the text back. When the thread cannot be settled in
    time, what the next reader will find is read without writing (`_fate`): a message it
    keeps is an unanswered turn (STORAGE_ERROR), never "not saved". One whose fate cannot
    be read at all is reported as such, not as refused.
    """
    deadline = time.monotonic() + RECHECK_S
    delay = 0.05
    while True:
        try:
            with storage_errors():
                _settle_head(app, thread_id)
                snapshot = app.graph.get_state(config_for(thread_id, app.settings))
            break
        except StorageError as exc:
            if time.monotonic() + delay > deadline:
                # the thread cannot be settled (its writes are refused), but what the next
                # reader will find can be read without writing: never "not saved" for a
                # message it will keep (issue 43)
                kept = _fate(app, thread_id, payload)
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
        final = _close_saved(app, thread_id, deadline) or fallback_message(ErrorCode.STORAGE_ERROR)
    return TurnOutcome(
        answer=content_text(final), error_code=final.response_metadata.get("error_code")
    )


def _fate(app: ChatApp, thread_id: str, payload: Any) -> bool | None:
    """Whether the turn `payload` began is kept, as the next reader will settle the thread.

    Read only (a full disk refuses writes, not reads): a message whose arrival checkpoint
    has nothing finished on it is dropped (`_settle_head`); otherwise the saved state
    decides. None when it cannot be read; True for a resumption (its turn was saved).
    """
    if not isinstance(payload, dict):
        return True
    try:
        with storage_errors():
            head = app.persistence.saver.head(thread_id)
            if head is not None and not _finished(head) and head.metadata.get("source") == "input":
                return False
            snapshot = app.graph.get_state(config_for(thread_id, app.settings))
    except StorageError:
        return None
    return _holds_message(snapshot.values or {}, payload)


def _finished(head: Any) -> bool:
    """Whether a head's saved writes are a finished step (kept when the thread is settled)."""
    return bool(head.writes) and not any(channel in UNSETTLED for channel in head.writes)


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


def _close_saved(app: ChatApp, thread_id: str, deadline: float) -> AIMessage | None:
    """Close the saved, unanswered turn as STORAGE_ERROR, retrying until `deadline`.

    None when there was nothing to close, or the write kept failing: the turn then stays
    open, and is closed as TURN_INTERRUPTED by the next reader (never lost, never joined).
    """
    delay = 0.05
    while True:
        try:
            with storage_errors():
                return close_unanswered(app, thread_id, ErrorCode.STORAGE_ERROR)
        except StorageError as exc:
            if time.monotonic() + delay > deadline:
                log.warning("thread %s: the saved message stays open for now: %s", thread_id, exc)
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


NOT_RUN = "Error: not run; the turn was interrupted."
"""Result given to a tool call that never ran in an unanswered turn."""


def close_interrupted(app: ChatApp, thread_id: str) -> StateSnapshot:
    """Close a turn a crash left half-done (TURN_INTERRUPTED), as the thread is opened.

    The message was saved before the model ran; the turn is closed as unanswered so the
    retry button answers it (a message killed as it arrived, before it was applied, is
    dropped by `_settle_head`). A thread another writer is using, a paused one and a fork
    taken mid-turn (finished by `retry_turn`) are left alone. Returns the thread's state
    as it is now.
    """
    config = config_for(thread_id, app.settings)
    with storage_errors():
        snapshot = app.graph.get_state(config)
    messages = (snapshot.values or {}).get("messages", [])
    source = (snapshot.metadata or {}).get("source")
    arrived = source == "input"  # a message recorded as its process died (see _settle_head)
    if source == FORK_SOURCE or not (arrived or (turn_open(messages) and not snapshot.interrupts)):
        return snapshot
    try:
        with _lease(app, thread_id), storage_errors():
            close_unanswered(app, thread_id, ErrorCode.TURN_INTERRUPTED)
            return app.graph.get_state(config)
    except (ThreadBusy, StorageError) as exc:
        # busy: its writer finishes it; a refused write: the thread still reads, as it is
        log.info("the interrupted turn of %s stays open for now: %s", thread_id, exc)
        with storage_errors():
            return app.graph.get_state(config)


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
