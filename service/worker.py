"""Workers: take a job, run it with the one turn runner, keep its events.

Embedded (the default), `EmbeddedWorkers` runs them as threads of the API process. With
`REDIS_URL`, `uv run python -m service.worker` runs them as separate processes: each says
it is alive every `WORKER_HEARTBEAT_S`, and takes back the jobs of a worker that died. Such a job runs again once (a `restarted` event, then the new answer); a job whose
second worker dies too ends with `error` -> `done`, its message kept as an unanswered turn.
A job whose record and events Redis lost (it restarted without its data) ends the same way
once Redis is back, numbered on from the highest seq its worker gave (see `_end_lost`).
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from graph.errors import ErrorCode, ThreadBusy
from graph.session import ChatApp, Event, TurnEvents, TurnRequest, run_request
from graph.session.app import thread_values
from graph.session.closing import close_interrupted, close_unanswered
from graph.session.context import TurnOutcome
from graph.session.runner import turn_metadata
from graph.session.settle import settled
from graph.session.start import keep_unanswered
from graph.storage.leases import LEASE_S
from graph.storage.persistence import StorageError
from graph.turns import content_text, is_turn_end, retryable
from service.jobs import FINISHED, Broker, Job, JobLost

if TYPE_CHECKING:
    from service.redis_broker import RedisBroker

log = logging.getLogger(__name__)

CANCEL_POLL_S = 0.1
"""How often a running turn looks at its cancel flag (it is read between graph steps)."""
BROKER_BACK_S = 300.0
"""How long a worker that lost its job's broker waits for it to answer again, to end the job."""
LOST = (
    "The job's queue (Redis) lost its events while the turn ran; the message is kept as an "
    "unanswered turn. Retry it."
)


def execute(app: ChatApp, broker: Broker, job: Job) -> None:
    """Run a job the worker took: events kept, status saved before each is visible.

    A job whose broker lost it midway (JobLost) is ended by `_end_lost`.
    """
    numbered = [0]
    try:
        _execute(app, broker, job, numbered)
    except JobLost as exc:
        _end_lost(app, broker, job, numbered[0], exc)


def _execute(app: ChatApp, broker: Broker, job: Job, numbered: list[int]) -> None:
    """`execute` itself; `numbered[0]` follows the highest seq given to an event."""
    request = TurnRequest.from_dict(job.request)
    start_seq = broker.last_seq(job.job_id)
    numbered[0] = start_seq
    events = TurnEvents(
        job.trace_id,
        _sink(broker, job, numbered),
        start_seq=start_seq,
        cancelled=_every(CANCEL_POLL_S, lambda: broker.cancelled(job.job_id)),
    )
    if job.attempts > 1:
        events.metadata("restarted", attempt=job.attempts, reason="the worker running it stopped")
    job.status = "running"
    try:
        if job.turn_before is None and broker.recovers:  # only a re-run needs it
            job.turn_before = _turn_count(app, job.thread_id)
        elif job.attempts > 1 and request.kind == "message":
            rerun = _rerun(app, job, request)
            if rerun is None:  # the dead worker had saved the answer: report it
                broker.save(job)
                _report_saved(app, job, events)
                broker.release(job)
                return
            request = rerun
    except (ThreadBusy, StorageError) as exc:  # as the turn itself would report them
        code = ErrorCode.THREAD_BUSY if isinstance(exc, ThreadBusy) else ErrorCode.STORAGE_ERROR
        events.error(str(exc), code.value)
        events.done()
        broker.release(job)
        return
    broker.save(job)
    outcome = run_request(app, request, events)
    if outcome.pending is None:
        broker.release(job)


def _rerun(app: ChatApp, job: Job, request: TurnRequest) -> TurnRequest | None:
    """What a re-run of a message does, from what the dead worker saved.

    Nothing saved: the message runs again. The message saved but not answered: the turn
    is answered again in place (a retry). Answered after all: None, nothing runs. The
    decision is read under the thread's writer lease, after what the dead worker left
    half-written at the thread's head is put right: a step it finished but did not
    checkpoint (the message's arrival, say) counts as saved, so the message is neither
    lost nor sent twice. (The run itself takes the lease again; meanwhile the broker runs
    no other job of the thread.)
    """
    if job.turn_before is None:
        return request
    deadline = time.monotonic() + LEASE_S
    while True:
        try:
            with settled(app, job.thread_id) as snapshot:
                values = snapshot.values or {}
                messages = values.get("messages", [])
                if int(values.get("turn_count", 0)) <= job.turn_before or not _holds(
                    messages, request.message
                ):
                    return request
                if messages and is_turn_end(messages[-1]) and not retryable(messages):
                    return None
                if not snapshot.next:  # closed already, or no step left: answered anew
                    close_unanswered(app, job.thread_id, ErrorCode.TURN_INTERRUPTED, snapshot)
            # otherwise the retry goes on from the last step the dead worker saved
            return TurnRequest(job.thread_id, kind="retry")
        except ThreadBusy:
            # the dead worker's lease, on another host: it lapses within LEASE_S
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def _holds(messages: list[Any], text: str) -> bool:
    """Whether the thread's last message from the user is `text` (this job's message)."""
    said = next((m for m in reversed(messages) if getattr(m, "type", "") == "human"), None)
    if said is not None and content_text(said).strip() == text.strip():
        return True
    log.warning("a re-run found its thread's last turn not its message: it runs as new")
    return False


def _end_lost(app: ChatApp, broker: Broker, job: Job, numbered: int, exc: JobLost) -> None:
    """End a job the broker lost while it ran (Redis restarted without its data).

    The thread comes first, for it needs no Redis: the message is kept as an unanswered
    turn (TURN_INTERRUPTED) that a retry answers, or its answer stands if it was saved.
    Once Redis answers again, the job's record is put back and its stream ended: `error`
    -> `done` (or the saved answer -> `done`), numbered on from the stream's last kept
    event or, when the stream is gone too, from `numbered`, the highest seq this worker
    gave: above any id its client has seen, so a reconnecting client reads the end.
    """
    log.warning("job %s: its broker lost it mid-turn (%r); it ends interrupted", job.job_id, exc)
    answered = _keep_interrupted(app, job)
    deadline = time.monotonic() + BROKER_BACK_S
    while True:
        try:
            broker.ping()
            start = broker.last_seq(job.job_id) or numbered
            break
        except Exception:  # noqa: BLE001 - still away: wait for it
            if time.monotonic() > deadline:
                log.error(
                    "job %s: the broker did not come back; its client sees no end", job.job_id
                )
                return
            time.sleep(0.2)
    try:
        job.status, job.error_code = "running", None
        broker.restore(job)
        events = TurnEvents(job.trace_id, _sink(broker, job, [start]), start_seq=start)
        if answered:
            _report_saved(app, job, events)
        else:
            events.error(LOST, ErrorCode.TURN_INTERRUPTED.value)
            events.done()
        broker.release(job)
    except (Exception, JobLost) as again:  # noqa: BLE001 - lost again: nothing more to do
        log.error("job %s could not be ended: %r", job.job_id, again)


def _keep_interrupted(app: ChatApp, job: Job) -> bool:
    """Keep the job's message as an unanswered turn (TURN_INTERRUPTED); True if answered.

    A retry, Continue or decision leaves the thread's open turn closed the same way.
    """
    request = TurnRequest.from_dict(job.request)
    try:
        if request.kind != "message":
            close_interrupted(app, job.thread_id)
            return False
        before = job.turn_before if job.turn_before is not None else _turn_count(app, job.thread_id)
        outcome = keep_unanswered(
            app,
            job.thread_id,
            request.message,
            turn_count=before + 1,
            compression_rate=request.compression_rate or app.settings.default_rate,
            code=ErrorCode.TURN_INTERRUPTED,
            sent_at=request.sent_at,
        )
    except Exception as exc:  # noqa: BLE001 - the job must still end
        log.warning("could not keep the message of job %s: %s", job.job_id, exc)
        return False
    return outcome.error_code is None


def _report_saved(app: ChatApp, job: Job, events: TurnEvents) -> None:
    """The saved answer of a turn the dead worker finished, as the job's answer."""
    last = thread_values(app, job.thread_id)["messages"][-1]
    events.token(content_text(last))
    outcome = TurnOutcome(answer=content_text(last))
    events.metadata("turn", **turn_metadata(app, job.thread_id, outcome, events))
    events.done()


def abandon(app: ChatApp, broker: Broker, job: Job, reason: str) -> None:
    """End a job that cannot run again: its message kept unanswered, then error -> done."""
    request = TurnRequest.from_dict(job.request)
    start = broker.last_seq(job.job_id)
    events = TurnEvents(job.trace_id, _sink(broker, job, [start]), start_seq=start)
    if request.kind == "message":
        _keep_interrupted(app, job)
    try:
        events.error(reason, ErrorCode.TURN_INTERRUPTED.value)
        events.done()
    finally:
        broker.release(job)


def _turn_count(app: ChatApp, thread_id: str) -> int:
    """The thread's saved turn count (0 for a thread with no turn yet).

    A failed read raises: a count made up on a failure would make a re-run take the turn
    before for this job's answer.
    """
    return int(thread_values(app, thread_id).get("turn_count", 0))


def _sink(broker: Broker, job: Job, numbered: list[int]) -> Callable[[Event], None]:
    """Keep each event, saving the job's status first so a client never sees it lag.

    `numbered[0]` follows the highest seq given, kept or not (see `_end_lost`).
    """

    def sink(event: Event) -> None:
        numbered[0] = max(numbered[0], int(event["seq"]))
        paused = False
        if event["type"] == "metadata":
            meta = event["metadata"]
            if meta.get("kind") == "turn":
                job.turn = meta.get("turn")
                paused = meta.get("status") == "waiting_human"
                if paused:
                    job.status = "waiting_human"
                    broker.save(job)
        elif event["type"] == "error":
            job.error_code = event["error_code"]
        elif event["type"] == "done":
            code = job.error_code
            job.status = "cancelled" if code == "CANCELLED" else "failed" if code else "done"
            broker.save(job)
        broker.append(job.job_id, event)
        if paused:  # after its event is kept: a resume continues from the right seq
            broker.park(job)  # holds no worker; the decision re-enqueues it

    return sink


def _every(period: float, check: Callable[[], bool]) -> Callable[[], bool]:
    """`check`, asked at most once per `period` seconds (a remote flag costs a round trip)."""
    last = [0.0, False]

    def throttled() -> bool:
        now = time.monotonic()
        if not last[1] and now - float(last[0]) >= period:
            last[0], last[1] = now, check()
        return bool(last[1])

    return throttled


def work(app: ChatApp, broker: Broker, stop: threading.Event) -> None:
    """Take and run jobs until `stop` is set."""
    while not stop.is_set():
        try:
            job = broker.take(timeout=0.5)
        except Exception as exc:  # noqa: BLE001 - the broker may be briefly unreachable
            log.warning("could not take a job: %s", exc)
            stop.wait(1.0)
            continue
        if job is None:
            continue
        try:
            execute(app, broker, job)
        except Exception as exc:  # noqa: BLE001 - one job's failure must not stop the worker
            log.exception("job %s failed outside its turn", job.job_id)
            _fail(broker, job, exc)


def _fail(broker: Broker, job: Job, exc: Exception) -> None:
    """End a job whose events or status could not be kept (the broker failed under it).

    It is marked failed, ended with error -> done where still possible, and released.
    """
    try:
        if job.status not in FINISHED:
            job.status, job.error_code = "failed", ErrorCode.UNKNOWN.value
            broker.save(job)
            events = TurnEvents(
                job.trace_id,
                lambda e: broker.append(job.job_id, e),
                start_seq=broker.last_seq(job.job_id),
            )
            events.error(f"The job failed outside its turn: {exc}", ErrorCode.UNKNOWN.value)
            events.done()
    except Exception:  # noqa: BLE001 - the broker is unreachable: nothing more to do
        log.exception("could not end job %s", job.job_id)
    finally:
        try:
            broker.release(job)
        except Exception:  # noqa: BLE001
            log.exception("could not release job %s", job.job_id)


class EmbeddedWorkers:
    """Worker threads inside the API process (no Redis)."""

    def __init__(self, app: ChatApp, broker: Broker, count: int) -> None:
        self._stop = threading.Event()
        self._threads = [
            threading.Thread(
                target=work, args=(app, broker, self._stop), name=f"worker-{i}", daemon=True
            )
            for i in range(count)
        ]

    def start(self) -> None:
        """Start the threads."""
        for thread in self._threads:
            thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Ask the threads to stop after their current job."""
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout)


def main() -> None:
    """`python -m service.worker`: run jobs from Redis until SIGTERM or Ctrl+C."""
    from graph.session import open_app
    from graph.settings import load_settings
    from service.redis_broker import RedisBroker
    from service.settings import load_service_settings

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    settings = load_service_settings()
    if not settings.redis_url:
        raise SystemExit("REDIS_URL is not set: embedded jobs run inside `python -m service`.")
    chat_settings = load_settings()
    app = open_app(chat_settings)
    broker = RedisBroker(
        settings.redis_url,
        ttl_s=float(settings.event_ttl_s),
        heartbeat_s=float(settings.heartbeat_s),
    )
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    broker.start_heartbeat(stop, on_orphan=lambda job: _recover(app, broker, job))
    threads = [
        threading.Thread(target=work, args=(app, broker, stop), name=f"worker-{i}", daemon=True)
        for i in range(settings.worker_count(chat_settings))
    ]
    for thread in threads:
        thread.start()
    log.info("worker %s: %d threads on %s", broker.worker_id, len(threads), settings.redis_url)
    try:
        while not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        stop.set()
    for thread in threads:
        thread.join(10)
    broker.close()


def _done_kept(broker: Broker, job: Job) -> bool:
    """Whether the job's last kept event is its `done`."""
    last = broker.last_seq(job.job_id)
    kept = broker.events(job.job_id, after=last - 1) if last else []
    return bool(kept) and kept[-1]["type"] == "done"


def _recover(app: ChatApp, broker: RedisBroker, job: Job) -> None:
    """A job whose worker died: run it again once, or end it after a second death.

    A job that had ended is only released; if the worker died between saving its status
    and keeping its `done` event, the `done` is kept now, or its streams would wait for it
    forever. One that had paused for an approval is parked as it would have been.
    """
    if job.status in FINISHED:
        if not _done_kept(broker, job):
            TurnEvents(
                job.trace_id,
                lambda event: broker.append(job.job_id, event),
                start_seq=broker.last_seq(job.job_id),
            ).done()
        broker.release(job)
    elif job.status == "waiting_human":
        broker.park(job)
    elif job.attempts >= 2:
        abandon(
            app,
            broker,
            job,
            "The worker running this turn stopped twice; the message is kept as an "
            "unanswered turn. Retry it when the service is healthy.",
        )
    else:
        broker.requeue(job)


if __name__ == "__main__":
    main()
