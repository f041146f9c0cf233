"""Seed 001's event stream of a turn: `token`, `metadata`, `error`, `done`.

Every event has `type`, `trace_id` and `seq` (per job, from 1, strictly increasing).
`token` carries `content` and `node`; `metadata` a JSON object under `metadata` whose
`kind` says what it reports (see `MetadataKind`); `error` carries `content` and
`error_code`; `done` has `content: null` and is always the last event, right after an
`error` when there is one. The Streamlit app renders these events in its own process and
the service forwards them; both get them from `graph.session.runner`.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
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
        """Something the turn did: a node, a tool call, a summary, the outcome.

        Seed 001's optional `node`, `error_code` and `safeguard_label` are also beside
        `metadata` when the object holds them (`EVENT_FIELDS`).
        """
        self.summarized = self.summarized or kind == "summary"
        beside = {k: fields[k] for k in EVENT_FIELDS if fields.get(k)}
        self._emit("metadata", metadata={"kind": kind, **fields}, **beside)

    def error(self, content: str, error_code: str, safeguard_label: str | None = None) -> None:
        """Why the turn failed or was refused; `done` follows."""
        label = {"safeguard_label": safeguard_label} if safeguard_label else {}
        self._emit("error", content=content, error_code=error_code, **label)

    def done(self) -> None:
        """The last event of the job."""
        self._emit("done", content=None)


EVENT_FIELDS = ("node", "error_code", "safeguard_label")
"""A `metadata` event's optional fields in seed 001, copied from its object when it has them."""

SCHEMA_PATH = Path(__file__).with_name("metadata.schema.json")
"""The JSON Schema of a `metadata` event's object: every kind above with its fields. The
service publishes this file at `GET /schemas/metadata.json` and the tests validate every
metadata event of real turns against it; it is the one place the fields are written down."""


@cache
def metadata_schema() -> dict[str, Any]:
    """The metadata event's JSON Schema (`SCHEMA_PATH`), read once."""
    return dict(json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))


MAIN_LINE = ("safeguard_node", "summary_node", "recall_node", "llm_node")
"""The nodes every answered turn passes, in order (`graph.graph`): what `progress` expects
of a turn before its events say more."""

STEP_RUNNING = frozenset({"running"})
"""A plan step's statuses that are not yet an outcome (any other status is a finished step)."""


def progress(events: Iterable[Event], line: tuple[str, ...] = MAIN_LINE) -> dict[str, Any]:
    """How far a job is, from its events alone: steps done of the steps expected.

    A step is a graph node's run (`node_start` .. `node_end`) or, when a `plan` event gave
    the turn a plan, one of its steps (a `step` event whose status is an outcome). Before
    the events say more, a turn is expected to pass `line`; a node off the line (the router,
    the document search, a tool) adds itself when it starts, a model step that asked for
    tools adds the tool step and the model step after it, a plan adds its steps, and a
    line node the turn went past (a retry starts at recall) drops out. `restarted` (the
    worker died; the turn runs again) starts the count over; `done` closes it, so a
    finished job is `done == expected` whatever path it took (a blocked message ends at
    the safeguard). A node that stops for an approval is not done: it waits (`current`)
    and counts once, when it finishes after the decision.

    Returns `done`, `expected`, `ratio` (done / expected, 1.0 when finished), `current`
    (the node or plan step running, or None) and `plan_steps` (None without a plan).
    """
    done = 0
    running: list[str] = []
    ahead = list(line)
    promised: list[str] = []
    paused: list[str] = []
    """Nodes that stopped for an approval: not done; they run again on the decision."""
    waiting: str | None = None
    asked_tools = False
    plan_steps: int | None = None
    steps_done: set[Any] = set()
    step_now: str | None = None
    finished = False
    for event in events:
        kind = event.get("type")
        if kind == "done":
            finished = True
            break
        if kind != "metadata":
            continue
        meta = event.get("metadata") or {}
        what = meta.get("kind")
        if what == "restarted":
            done, running, ahead, promised, paused = 0, [], list(line), [], []
            plan_steps, steps_done, step_now, asked_tools = None, set(), None, False
            waiting = None
        elif what == "node_start":
            node = str(meta.get("node"))
            if node in running:
                continue  # the same step again (a tool resumed after its approval)
            running.append(node)
            if node in paused:
                paused.remove(node)  # going on after the decision: the same step
            elif node in ahead:
                del ahead[: ahead.index(node) + 1]
            elif node in promised:
                promised.remove(node)
            if node == "llm_node":
                asked_tools = False
        elif what == "node_end":
            node = str(meta.get("node"))
            if node in running:
                running.remove(node)
            if node == waiting:  # it stopped for the approval, unfinished
                paused.append(node)
                waiting = None
                continue
            done += 1
            if node == "llm_node" and asked_tools:
                promised += ["tool_node", "llm_node"]
        elif what == "tool_call":
            asked_tools = True
        elif what == "approval_request":
            waiting = running[-1] if running else None
        elif what == "plan":
            plan_steps = len(meta.get("steps") or [])
        elif what == "step":
            label = f"step {meta.get('n')}: {meta.get('agent')}"
            if str(meta.get("status")) in STEP_RUNNING:
                step_now = label
            else:
                steps_done.add(meta.get("n"))
                step_now = None if step_now == label else step_now
    done += len(steps_done)
    if finished:
        return {
            "done": done,
            "expected": done,
            "ratio": 1.0,
            "current": None,
            "plan_steps": plan_steps,
        }
    left = max(0, (plan_steps or 0) - len(steps_done))
    expected = done + len(running) + len(paused) + len(ahead) + len(promised) + left
    return {
        "done": done,
        "expected": expected,
        "ratio": round(done / expected, 3) if expected else 0.0,
        "current": step_now or next(iter(running[::-1] + paused[::-1]), None),
        "plan_steps": plan_steps,
    }
