"""Streaming a turn: the graph run once for the turn, its steps reported as events.

`stream_turn` runs the compiled graph with a checkpoint after every step
(`durability="sync"`), hands the answer's tokens, tool calls and results, approvals,
plans and summaries to the turn's `TurnEvents` as they come, stops between steps (and
inside the answer's stream) when the job is cancelled, and returns the `TurnOutcome`. A
stop or a storage error is handed down to `graph.session.closing`; after the turn, the
thread's old checkpoints are pruned.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage

from graph.errors import ErrorCode, TurnCancelled
from graph.graph import answer_nodes
from graph.nodes.llm import CANDIDATE_NODE, QUORUM_NODE, STREAMED, TURN_DEADLINE
from graph.nodes.memory import MEMORY_NODE
from graph.server_queue import running_turn
from graph.session.app import ChatApp
from graph.session.closing import after_storage_error, keep_closed
from graph.session.context import TurnContext, TurnOutcome
from graph.session.errors import storage_errors
from graph.session.events import TurnEvents
from graph.storage import DB_ERRORS
from graph.storage.archive import update_thread
from graph.storage.persistence import StorageError, prune_checkpoints
from graph.supervisor import step_event
from graph.tools import TURN_CANCELLED
from graph.turns import content_text, cut_off, is_turn_end

log = logging.getLogger(__name__)


def stream_turn(
    app: ChatApp, context: TurnContext, payload: Any, events: TurnEvents | None
) -> TurnOutcome:
    """Run the graph for one turn (or its resumption) and report it on `events`.

    `payload` is the graph's input: a new turn's, a `Command` resuming a pause, or None to
    go on from the thread's checkpoint. Between graph steps the job's cancel flag is read:
    a cancelled turn stops, and what was said stays as an unanswered turn (CANCELLED),
    never lost. A storage error hands the turn to `closing.after_storage_error`, which says
    what was saved.
    """
    thread_id = context.thread_id
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
        return after_storage_error(app, context, payload)
    except TurnCancelled:
        # a stopped turn keeps its message, unanswered (the stream wrote what it had)
        return keep_closed(app, context, payload, ErrorCode.CANCELLED, "".join(shown))
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
                return after_storage_error(app, context, payload)
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
    return json.loads(json.dumps(value, default=str, ensure_ascii=False))
