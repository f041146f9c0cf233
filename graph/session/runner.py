"""The one turn runner: a request in, seed 001's events out, for the app and the service.

`run_request` runs a new message, a decision on a pending approval or a retry and reports
it as events (`graph.session.events`); every refusal or failure becomes an `error` event
and the job ends with `done`, except a job that pauses for an approval: it ends with an
`approval_request` and goes on, under the same job, when the decision comes. `start_turn`
runs a request in a worker thread, one turn per conversation at a time.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from typing import Any, Literal

from graph.errors import ErrorCode, InputError, NothingPending, ThreadBusy
from graph.memory import STRATEGIES
from graph.server_queue import running_turn
from graph.session.app import ChatApp, thread_values
from graph.session.context import TurnContext, TurnOutcome, turn_context
from graph.session.events import Event, TurnEvents
from graph.session.resume import continue_turn, resume_turn, retry_turn
from graph.session.start import run_turn
from graph.settings import validate_rate
from graph.storage.persistence import StorageError

log = logging.getLogger(__name__)

RequestKind = Literal["message", "resume", "retry", "continue"]


@dataclass
class TurnRequest:
    """What a job asks for: a message, an approval's decision, a retry, or Continue.

    Continue: the last answer was cut off, and the model goes on from it.
    """

    thread_id: str
    kind: RequestKind = "message"
    message: str = ""
    turn_count: int | None = None
    """The turn's number as the caller counted it; None for the thread's next turn."""
    compression_rate: float | None = None
    """None keeps the thread's rate."""
    strategy: str | None = None
    """None keeps the thread's strategy."""
    sent_at: str | None = None
    action: str = ""
    """resume: approve | reject | edit | respond (`graph.approval`)."""
    args: dict[str, Any] | None = None
    """resume with edit: the arguments the tool runs with."""
    response: str | None = None
    """resume with respond: the user's free text, handed to the waiting call or step."""
    tool_call_id: str | None = None
    """resume: the call the decision answers (checked against the pending one)."""
    history: list[dict[str, str]] | None = None
    """message: earlier turns a new thread starts with (seed 001's `history`), as
    `{"role": "user"|"assistant", "content": ...}` pairs; refused for a thread with turns
    (see `graph.session.start.run_turn`)."""

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON values, for a job queue."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TurnRequest:
        """The request `as_dict` wrote."""
        names = cls.__dataclass_fields__
        return cls(**{k: v for k, v in data.items() if k in names})


def run_request(app: ChatApp, request: TurnRequest, events: TurnEvents) -> TurnOutcome:
    """Run `request` and report it on `events`; never raises for a refused or failed turn.

    The outcome's `refused` is set when nothing was saved; `pending` when the turn waits
    for an approval (then no `done` is sent: the job goes on after the decision).
    """
    context = turn_context(app, request.thread_id)  # the turn's config, made once
    try:
        # the whole request goes before a local server's background embeddings
        with running_turn(app.settings.openai_base_url):
            outcome = _run(app, request, events, context)
    except ThreadBusy as exc:
        return _refuse(events, str(exc), ErrorCode.THREAD_BUSY)
    except NothingPending as exc:  # a decision that lost to another: not a bad input
        return _refuse(events, str(exc), ErrorCode.NOTHING_PENDING)
    except InputError as exc:
        return _refuse(events, str(exc), ErrorCode.INPUT_REJECTED)
    except StorageError as exc:
        return _refuse(events, str(exc), ErrorCode.STORAGE_ERROR)
    except Exception as exc:  # noqa: BLE001 - a job always ends with error -> done
        log.exception("turn of %s failed", request.thread_id)
        return _refuse(events, f"The turn failed unexpectedly: {exc}", ErrorCode.UNKNOWN)
    meta: dict[str, Any] = {}
    try:
        meta = turn_metadata(app, request.thread_id, outcome, events, context)
        events.metadata("turn", **meta)
    except Exception as exc:  # noqa: BLE001 - the turn is saved; its report is a bonus
        log.warning("could not read the turn's metadata: %s", exc)
    if outcome.pending is not None:
        return outcome
    if outcome.error_code:
        events.error(outcome.answer, outcome.error_code, meta.get("safeguard_label"))
    events.done()
    return outcome


def _refuse(events: TurnEvents, message: str, code: ErrorCode) -> TurnOutcome:
    events.error(message, code.value)
    events.done()
    return TurnOutcome(error_code=code.value, refused=message)


def _run(
    app: ChatApp, request: TurnRequest, events: TurnEvents, context: TurnContext
) -> TurnOutcome:
    thread_id = request.thread_id
    if request.kind == "resume":  # the decision is checked against the pending call there
        return resume_turn(
            app,
            thread_id,
            request.action,
            request.args,
            events,
            context,
            response=request.response,
            tool_call_id=request.tool_call_id,
        )
    if request.kind == "retry":
        return retry_turn(app, thread_id, events, context)
    if request.kind == "continue":
        return continue_turn(app, thread_id, events, context)
    keep: dict[str, Any] = {}  # per-thread settings, saved only if the turn is taken
    if request.strategy is not None:
        if request.strategy not in STRATEGIES:
            raise InputError(
                f"Unknown memory strategy {request.strategy!r}; choose one of {STRATEGIES}."
            )
        keep["strategy"] = request.strategy
    if request.compression_rate is not None:
        try:
            keep["rate"] = validate_rate(request.compression_rate)
        except ValueError as exc:
            raise InputError(str(exc)) from exc
    return run_turn(
        app,
        thread_id,
        request.message,
        turn_count=request.turn_count,
        compression_rate=keep.get("rate"),
        events=events,
        sent_at=request.sent_at,
        keep=keep,
        context=context,
        history=request.history,
    )


def turn_metadata(
    app: ChatApp,
    thread_id: str,
    outcome: TurnOutcome,
    events: TurnEvents,
    context: TurnContext | None = None,
) -> dict[str, Any]:
    """The `turn` metadata event: what the turn was, what it cost, how it ended.

    With structured decisions this turn, `decisions` says how each was made (json_schema,
    json_object, text or rule) and `fallbacks` names those the offline rule decided. The
    state is read after the turn (the graph wrote it), with the turn's `context` config.
    """
    if context is None:
        values = thread_values(app, thread_id)
    else:
        values = dict(app.graph.get_state(context.config).values or {})
    sizes = dict(values.get("last_context") or {})
    safeguard = dict(values.get("safeguard") or {})
    meta: dict[str, Any] = {
        "thread_id": thread_id,
        "turn": int(values.get("turn_count", 0)),
        "route": str(values.get("route") or "agent"),
        "summarized": events.summarized,
        "context_chars": int(sizes.get("context_chars", 0)),
        "full_chars": int(sizes.get("full_chars", 0)),
        "status": job_status(outcome),
    }
    if outcome.error_code:
        meta["error_code"] = outcome.error_code
    elif outcome.cut_off:  # an answer kept although cut: the job is done, the answer partial
        meta["error_code"] = meta["cut_off"] = outcome.cut_off
    elif safeguard.get("error_code"):  # answered, its label's code (PII masked, warned)
        meta["error_code"] = safeguard["error_code"]
    if safeguard.get("label"):
        meta["safeguard_label"] = safeguard["label"]
    decisions = [
        {k: v for k, v in d.items() if k != "turn"}
        for d in values.get("decisions") or []
        if int(d.get("turn", -1)) == meta["turn"]
    ]
    if decisions:  # how each structured decision was made; which fell back to the rule
        meta["decisions"] = decisions
        meta["fallbacks"] = list(dict.fromkeys(d["decision"] for d in decisions if d["fallback"]))
    return meta


def job_status(outcome: TurnOutcome) -> str:
    """The status a job of this outcome ends in (the service's rule, from its events)."""
    if outcome.pending is not None:
        return "waiting_human"
    if outcome.error_code == ErrorCode.CANCELLED.value:
        return "cancelled"
    return "failed" if outcome.error_code else "done"


_END = object()


@dataclass
class TurnHandle:
    """A turn running in a worker thread: its events as they come, then its outcome.

    The worker, not the caller, owns the turn: if the caller goes away (a Streamlit rerun,
    a closed tab), the turn still finishes and is saved.
    """

    worker: threading.Thread
    queue: queue.Queue[object]
    stop: threading.Event
    outcome: TurnOutcome | None = None

    def cancel(self) -> None:
        """Ask the turn to stop (seen between graph steps); what was said stays, unanswered."""
        self.stop.set()

    def events(self) -> Iterator[Event]:
        """The turn's events until its worker ends."""
        while True:
            item = self.queue.get()
            if item is _END:
                return
            assert isinstance(item, dict)
            yield item

    def result(self, timeout: float | None = None) -> TurnOutcome:
        """Wait for the turn's outcome."""
        self.worker.join(timeout)
        if self.outcome is None:
            raise TimeoutError("the turn is still running")
        return self.outcome


def start_turn(app: ChatApp, request: TurnRequest) -> TurnHandle:
    """Run `request` in a worker thread, after any turn of the conversation still running."""
    pipe: queue.Queue[object] = queue.Queue()
    stop = threading.Event()
    lock = app.turn_lock(request.thread_id)
    events = TurnEvents(request.thread_id, pipe.put, cancelled=stop.is_set)

    def work() -> None:
        with lock:
            try:
                handle.outcome = run_request(app, request, events)
            finally:
                pipe.put(_END)

    handle = TurnHandle(
        threading.Thread(target=work, name=f"turn-{request.thread_id}", daemon=True), pipe, stop
    )
    handle.worker.start()
    return handle


def wait_idle(app: ChatApp, thread_id: str, timeout: float = 300.0) -> bool:
    """Wait until no turn runs in the conversation; False if it is still busy after `timeout`."""
    lock = app.turn_lock(thread_id)
    if not lock.acquire(timeout=timeout):
        return False
    lock.release()
    return True
