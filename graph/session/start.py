"""Starting a turn: check the message, take the thread, and run the turn.

`run_turn` is a new message's whole way down: the message and its settings are checked
before anything is written (a refused message changes nothing), the thread's record is
read once into the turn's `TurnContext`, the writer lease is taken (`graph.session.settle`),
a turn a crash left open is closed (`graph.session.closing`), the turn's number is checked
against the saved state, and the graph runs (`graph.session.streaming`). `history` starts
a new thread with earlier turns; `keep_unanswered` saves a message whose turn cannot run.
Going on with a turn already there (an approval's decision, retry, Continue) is
`graph.session.resume`'s.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from graph.context import message_chars
from graph.errors import ErrorCode, InputError, MessageTooLong
from graph.memory.short_term import DEFAULT_TENANT, restored_values, short_term_store
from graph.session.app import ChatApp, require_thread
from graph.session.closing import close_unanswered, keep_closed
from graph.session.context import TurnContext, TurnOutcome, turn_context
from graph.session.errors import storage_errors
from graph.session.events import TurnEvents
from graph.session.settle import lease
from graph.session.streaming import stream_turn
from graph.settings import validate_rate
from graph.storage.archive import update_thread
from graph.text import check_text
from graph.times import TIME_KEY, now_iso, parse_time
from graph.turns import content_text
from graph.untrusted import HISTORY_SOURCE, UNTRUSTED_KEY, history_records

log = logging.getLogger(__name__)

TITLE_CHARS = 40
"""Length of a thread title taken from its first message."""


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
    context = (context or turn_context(app, thread_id)).started(record=record)
    with lease(app, context):
        return _run_turn(app, context, message, turn_count, rate, sent, events, keep or {}, turns)


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
    app: ChatApp, context: TurnContext, turns: list[tuple[HumanMessage, AIMessage]], rate: float
) -> None:
    """Write `turns` as a new thread's first turns (no model call, as an import does)."""
    thread_id = context.thread_id
    messages: list[BaseMessage] = [m for pair in turns for m in pair]
    values = {
        "messages": messages,
        "session_id": thread_id,
        "turn_count": len(turns),
        "compression_rate": rate,
        "strategy": context.strategy,
        "context_budget": context.budget,
        "recall": context.recall,
        "transcript_chars": sum(message_chars(m) for m in messages),
        "untrusted": history_records(1, len(turns)),
    }
    with storage_errors():
        app.graph.update_state(context.config, values, as_node="llm_node")


def _read_back(app: ChatApp, context: TurnContext, rate: float) -> bool:
    """Start a recursive thread with no checkpoint here from its short-term keys in Redis.

    Seed 003's store (`graph.memory.short_term`): another process ran the thread, or an
    in-memory checkpointer lost it with its process. True when the thread was started
    from them; a Redis out of reach changes nothing (the turn goes on as a new thread's).
    """
    if context.strategy != "recursive":
        return False
    store = short_term_store(app.settings)
    if store is None:
        return False
    tenant = str(context.record.get("owner") or DEFAULT_TENANT)
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
        context_budget=context.budget,
        recall=context.recall,
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
    message: str,
    turn_count: int | None,
    rate: float,
    sent: dict[str, str],
    events: TurnEvents | None,
    keep: dict[str, Any],
    history: list[tuple[HumanMessage, AIMessage]] | None = None,
) -> TurnOutcome:
    """The turn itself, under the thread's writer lease: checks against the saved state.

    A turn a crash left open is closed first (TURN_INTERRUPTED), so the new message never
    joins it. `context` holds the thread's record; its state is read here, once (again
    only when something was written before the turn starts).
    """
    thread_id, config = context.thread_id, context.config
    with storage_errors():
        snapshot = app.graph.get_state(config)
        closed = close_unanswered(app, thread_id, ErrorCode.TURN_INTERRUPTED, snapshot, config)
        if closed is not None:
            snapshot = app.graph.get_state(config)  # read again only when a turn was closed
    context = context.started(snapshot=snapshot)
    if context.approval is not None:
        raise InputError("This thread is waiting for a tool approval; answer it first.")
    expected = int(context.values.get("turn_count", 0)) + 1
    if expected == 1 and not history and _read_back(app, context, rate):
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
    if not context.record.get("title"):
        first = content_text(history[0][0]) if history else message
        title = " ".join(first.split())
        changes["title"] = title if len(title) <= TITLE_CHARS else title[: TITLE_CHARS - 1] + "…"
    if changes:
        with storage_errors():
            update_thread(app.persistence.archive, thread_id, **changes)
        context = context.started(record={**context.record, **changes})
    if history:
        _start_with_history(app, context, history, rate)
        with storage_errors():
            context = context.started(snapshot=app.graph.get_state(config))
    payload = _payload(context, message, turn_count, rate, sent)
    return stream_turn(app, context, payload, events)


def _payload(
    context: TurnContext,
    message: str,
    turn_count: int,
    rate: float,
    sent: dict[str, str],
) -> dict[str, Any]:
    """The graph input of a new turn (the thread's settings from the context's record)."""
    return {
        "messages": [HumanMessage(content=message, additional_kwargs=sent)],
        "session_id": context.thread_id,
        "turn_count": turn_count,
        "compression_rate": rate,
        "strategy": context.strategy,
        "context_budget": context.budget,
        "recall": context.recall,
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
    context = turn_context(app, thread_id).started(record=record)
    with lease(app, context):
        payload = _payload(context, check_message(app, text), turn_count, compression_rate, sent)
        return keep_closed(app, context, payload, code)
