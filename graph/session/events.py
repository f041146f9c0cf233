"""Seed 001's event stream of a turn: `token`, `metadata`, `error`, `done`.

Every event has `type`, `trace_id` and `seq` (per job, from 1, strictly increasing).
`token` carries `content` and `node`; `metadata` a JSON object under `metadata` whose
`kind` says what it reports (see `MetadataKind`); `error` carries `content` and
`error_code`; `done` has `content: null` and is always the last event, right after an
`error` when there is one. The Streamlit app renders these events in its own process and
the service forwards them; both get them from `graph.session.runner`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Literal

EventType = Literal["token", "metadata", "error", "done"]

MetadataKind = Literal[
    "node_start",  # a graph node began: node
    "node_end",  # a graph node finished: node
    "tool_call",  # the model asked for a tool: tool_call_id, tool, args
    "tool_result",  # a tool answered: tool_call_id, tool, content, status
    "approval_request",  # a call waits for the user's decision: category, tool, args, tool_call_id
    "summary",  # a summary was made this turn: the summary_history entry
    "candidates",  # ANSWER_CANDIDATES > 1: the step's candidates with scores, one chosen
    "restarted",  # the job's worker died; another one runs the turn again
    "turn",  # the turn's outcome: thread_id, turn, route, summarized, context size, ...
    "plan",  # AGENT_MODE=supervisor: the intent and plan: goal, parts, category, steps, how
    "step",  # a plan's step began or ended: n, agent, question, category, status, sources
]

Event = dict[str, Any]
EventSink = Callable[[Event], None]


class TurnEvents:
    """Numbers a job's events and hands each to `sink`; nothing is sent after `done`.

    `start_seq` continues a job's numbering (a job resumed after an approval or re-run
    after its worker died). `cancelled` is polled by the turn between graph steps.
    """

    def __init__(
        self,
        trace_id: str,
        sink: EventSink,
        *,
        start_seq: int = 0,
        cancelled: Callable[[], bool] | None = None,
    ) -> None:
        self.trace_id = trace_id
        self._sink = sink
        self._seq = start_seq
        self._cancelled = cancelled
        self._lock = threading.Lock()
        self.finished = False
        self.summarized = False
        """Whether a summary was made in this job (a `summary` event was sent)."""

    def is_cancelled(self) -> bool:
        """Whether the job was asked to stop."""
        return bool(self._cancelled and self._cancelled())

    def _emit(self, type_: EventType, **fields: Any) -> Event | None:
        with self._lock:
            if self.finished:
                return None
            self._seq += 1
            event: Event = {"type": type_, "trace_id": self.trace_id, "seq": self._seq, **fields}
            self.finished = type_ == "done"
            self._sink(event)
            return event

    def token(self, content: str, node: str = "llm_node") -> None:
        """A piece of the answer as the model writes it."""
        if content:
            self._emit("token", content=content, node=node)

    def metadata(self, kind: MetadataKind, **fields: Any) -> None:
        """Something the turn did: a node, a tool call, a summary, the outcome."""
        self.summarized = self.summarized or kind == "summary"
        self._emit("metadata", metadata={"kind": kind, **fields})

    def error(self, content: str, error_code: str) -> None:
        """Why the turn failed or was refused; `done` follows."""
        self._emit("error", content=content, error_code=error_code)

    def done(self) -> None:
        """The last event of the job."""
        self._emit("done", content=None)
