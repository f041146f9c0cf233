"""Going on with a turn already there: an approval's decision, a retry, Continue.

Each takes the thread's writer lease (`graph.session.settle`), reads the state once, checks
there is something to go on with (InputError or NothingPending otherwise), changes what
must change first and runs the graph from the thread's checkpoint
(`graph.session.streaming`), in the same turn: same number, same message.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, RemoveMessage, ToolMessage
from langgraph.types import Command, StateSnapshot

from graph.approval import Answer, decision
from graph.errors import InputError, NothingPending
from graph.nodes.memory import MEMORY_NODE
from graph.session.app import ChatApp, pending_approval, require_thread
from graph.session.closing import NOT_RUN
from graph.session.context import TurnContext, TurnOutcome, turn_context
from graph.session.errors import storage_errors
from graph.session.events import TurnEvents
from graph.session.settle import lease
from graph.session.start import check_message
from graph.session.streaming import stream_turn
from graph.turns import content_text, cut_off, retryable, split_turns


def resume_turn(
    app: ChatApp,
    thread_id: str,
    action: str,
    args: dict[str, Any] | None = None,
    events: TurnEvents | None = None,
    context: TurnContext | None = None,
    *,
    response: str | None = None,
    tool_call_id: str | None = None,
) -> TurnOutcome:
    """Answer a pending approval (see `graph.approval`), the same for every client.

    approve runs the waiting call, edit runs it with `args`, respond hands it `response`
    (the user's free text, checked like a message) as its result without running it, and
    reject ends the task: the call is not run and the turn is closed as APPROVAL_REJECTED
    (the thread no longer waits; the conversation before stays; the next message works).

    The pending approval is read under the writer lease: NothingPending when none waits
    (a decision that lost to another), ApprovalMismatch when `tool_call_id` names another
    call than the one waiting.
    """
    answer = decision(action=action, args=args, response=response)
    if answer.action == "respond":
        answer = Answer("respond", response=check_message(app, answer.response))
    app.persistence.check_file()
    context = context or turn_context(app, thread_id)
    with lease(app, context):
        with storage_errors():
            snapshot = app.graph.get_state(context.config)
        _answers(pending_approval(app, thread_id, snapshot), tool_call_id)
        command: Command[Any] = Command(resume=answer.resume_value())
        return stream_turn(app, context.started(snapshot=snapshot), command, events)


class ApprovalMismatch(InputError):
    """A decision names a tool call other than the one waiting (approvals come in order)."""


def check_decision(app: ChatApp, thread_id: str, tool_call_id: str) -> dict[str, Any]:
    """The pending approval a decision answers; InputError if there is none or another.

    For an adapter that refuses a decision before queueing it (the service's 409);
    `resume_turn` checks again, under the lease, as the decision is applied.
    """
    return _answers(pending_approval(app, thread_id), tool_call_id)


def _answers(pending: dict[str, Any] | None, tool_call_id: str | None) -> dict[str, Any]:
    """`pending`, if a decision naming `tool_call_id` (or none) answers it."""
    if pending is None:
        raise NothingPending("Nothing is waiting for approval in this thread.")
    if tool_call_id and str(pending.get("tool_call_id")) != tool_call_id:
        raise ApprovalMismatch(
            f"The decision answers {tool_call_id!r}, but the call waiting is "
            f"{pending.get('tool_call_id')!r}; approvals come one call at a time, in order."
        )
    return pending


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
    with lease(app, context):
        with storage_errors():
            snapshot = app.graph.get_state(config)
        change = prepare(snapshot, list((snapshot.values or {}).get("messages", [])))
        if change is not None:
            with storage_errors():
                app.graph.update_state(config, change[0], as_node=change[1])
        return stream_turn(app, context.started(snapshot=snapshot), None, events)


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
