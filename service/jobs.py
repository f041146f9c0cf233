"""Jobs and the broker that queues them and keeps their events (seed 001).

A job is one turn asked of the service: a new message, a decision on a pending approval,
or a retry. Its events are kept (not popped), so a client can reconnect and read on from
any `seq`. Jobs of one thread run one at a time, in the order they came; a job that waits
for an approval is parked (it holds no worker) and goes on when the decision comes.

`LocalBroker` keeps all of this in the API process (the embedded default); the Redis
broker (`service.redis_broker`) keeps it in Redis for separate worker processes.
"""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from collections import deque
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, Protocol

from graph.session import Event


class JobLost(BaseException):
    """The broker lost a running job: Redis restarted without its data, or cannot be reached.

    Raised where the job's events or status are kept. A BaseException, like a cancellation,
    so that it passes through the turn's own handling of failures (which would report them
    on the very broker that is gone) to the worker, which ends the job once the broker is
    back (see `service.worker`).
    """


JobStatus = Literal["queued", "running", "waiting_human", "done", "failed", "cancelled"]
FINISHED: frozenset[str] = frozenset({"done", "failed", "cancelled"})


@dataclass
class Job:
    """One turn asked of the service, and where it stands."""

    job_id: str
    trace_id: str
    thread_id: str
    request: dict[str, Any]
    """A `TurnRequest.as_dict()`: what to run."""
    status: JobStatus = "queued"
    turn: int | None = None
    error_code: str | None = None
    attempts: int = 0
    """How many times a worker has taken the job (a re-run after a worker died is 2)."""
    turn_before: int | None = None
    """The thread's turn count when the job first ran (to tell what a dead worker saved)."""
    created_at: float = field(default_factory=time.time)
    user_id: str = "default"
    """Who asked for it (seed 001's `user_id`): only they see its status and stream."""
    metadata: dict[str, Any] | None = None
    """The client's own `metadata` (seed 001's optional field), carried as sent."""

    @classmethod
    def new(
        cls,
        thread_id: str,
        request: dict[str, Any],
        user_id: str = "default",
        metadata: dict[str, Any] | None = None,
    ) -> Job:
        """A queued job with fresh ids."""
        return cls(
            job_id=uuid.uuid4().hex,
            trace_id=uuid.uuid4().hex,
            thread_id=thread_id,
            request=request,
            user_id=user_id,
            metadata=metadata,
        )

    def payload(self) -> dict[str, Any]:
        """Seed 001's queue payload: its seven fields and `metadata`.

        `job_id`, `trace_id`, `thread_id`, `query` (the message; "" for a decision, a retry
        or Continue, which have none), `history` (the earlier turns a new thread starts
        with; [] when none was sent: the thread keeps its own), `turn_count` (the turn's
        number as the client gave it, None for the thread's next), `user_id`, `metadata`.
        """
        return {
            "job_id": self.job_id,
            "trace_id": self.trace_id,
            "thread_id": self.thread_id,
            "query": self.request.get("message", ""),
            "history": list(self.request.get("history") or []),
            "turn_count": self.request.get("turn_count"),
            "user_id": self.user_id,
            "metadata": self.metadata,
        }

    def as_dict(self) -> dict[str, Any]:
        """Plain values (for Redis and the status endpoint)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Job:
        """The job `as_dict` wrote."""
        names = cls.__dataclass_fields__
        return cls(**{k: v for k, v in data.items() if k in names})


class Broker(Protocol):
    """Where jobs wait, where their events are kept, and how workers take them."""

    recovers: bool
    """Whether a job can outlive its worker (then a worker notes what it found saved)."""

    def submit(self, job: Job) -> None:
        """Queue a job behind the thread's earlier jobs (a parked job goes on)."""

    def job(self, job_id: str) -> Job | None:
        """A job by id, or None."""

    def save(self, job: Job) -> None:
        """Store the job's status fields."""

    def restore(self, job: Job) -> None:
        """Put back the record of a job the broker lost while it ran (see `JobLost`)."""

    def append(self, job_id: str, event: Event) -> None:
        """Keep one event of the job (events arrive in `seq` order)."""

    def events(self, job_id: str, after: int = 0) -> list[Event]:
        """The job's kept events with `seq` > `after`."""

    async def wait_events(self, job_id: str, after: int, timeout: float) -> list[Event]:
        """Events with `seq` > `after`, waiting up to `timeout` seconds for the first."""

    def last_seq(self, job_id: str) -> int:
        """The `seq` of the job's last kept event (0 before the first)."""

    def cancel(self, job_id: str) -> None:
        """Ask the job to stop (read by its worker between graph steps)."""

    def cancelled(self, job_id: str) -> bool:
        """Whether the job was asked to stop."""

    def busy(self, thread_id: str) -> bool:
        """Whether a job of the thread is queued or running."""

    def unpark(self, thread_id: str) -> Job | None:
        """Take the thread's job that waits for an approval (once: a second caller gets None)."""

    def park(self, job: Job) -> None:
        """Keep a job that waits for an approval; its thread's next job may run."""

    def take(self, timeout: float) -> Job | None:
        """A worker takes the next runnable job (None after `timeout` seconds)."""

    def release(self, job: Job) -> None:
        """A worker is done with the job: the thread's next job may run."""

    def ping(self) -> None:
        """Raise if the broker cannot be reached (for /health)."""

    def close(self) -> None:
        """Free connections."""

    async def aclose(self) -> None:
        """Free the connections the event loop used."""


class LocalBroker:
    """Jobs and events in this process: a queue of threads with work, one job each at a time."""

    recovers = False

    def __init__(self, ttl_s: float = 3600.0) -> None:
        self._ttl_s = ttl_s
        self._finished: deque[tuple[float, str]] = deque()
        self._lock = threading.Condition()
        self._jobs: dict[str, Job] = {}
        self._events: dict[str, list[Event]] = {}
        self._cancelled: set[str] = set()
        self._threads: dict[str, deque[str]] = {}
        self._parked: dict[str, str] = {}
        self._ready: deque[str] = deque()
        self._waiters: dict[str, set[tuple[asyncio.AbstractEventLoop, asyncio.Event]]] = {}

    def submit(self, job: Job) -> None:
        """Queue a job behind the thread's earlier jobs."""
        with self._lock:
            self._jobs[job.job_id] = job
            self._events.setdefault(job.job_id, [])
            if self._parked.get(job.thread_id) == job.job_id:
                del self._parked[job.thread_id]
            line = self._threads.setdefault(job.thread_id, deque())
            line.append(job.job_id)
            if len(line) == 1:
                self._ready.append(job.job_id)
                self._lock.notify()

    def job(self, job_id: str) -> Job | None:
        """A job by id."""
        with self._lock:
            return self._jobs.get(job_id)

    def save(self, job: Job) -> None:
        """Store the job; a finished one is forgotten `ttl_s` seconds later."""
        with self._lock:
            self._jobs[job.job_id] = job
            if job.status in FINISHED:
                self._finished.append((time.time() + self._ttl_s, job.job_id))
            while self._finished and self._finished[0][0] < time.time():
                _, old = self._finished.popleft()
                if old in self._jobs and self._jobs[old].status in FINISHED:
                    del self._jobs[old]
                    self._events.pop(old, None)
                    self._cancelled.discard(old)

    def restore(self, job: Job) -> None:
        """Store the job (this broker never loses one: it lives as long as its workers)."""
        self.save(job)

    def append(self, job_id: str, event: Event) -> None:
        """Keep an event and wake the streams waiting for it."""
        with self._lock:
            self._events.setdefault(job_id, []).append(event)
            # each waiting stream is woken once; it reads everything there is when it runs
            waiters = self._waiters.pop(job_id, set())
        for loop, flag in waiters:
            try:
                loop.call_soon_threadsafe(flag.set)
            except RuntimeError:  # that stream's loop has closed
                pass
        if waiters and event["type"] == "token":
            # Let the stream's thread take the interpreter now: otherwise a worker busy
            # with the rest of its turn holds it, and the answer reaches the client late.
            time.sleep(0)

    def events(self, job_id: str, after: int = 0) -> list[Event]:
        """Kept events after `seq` `after` (seq n is at index n - 1)."""
        with self._lock:
            return list(self._events.get(job_id, [])[after:])

    def last_seq(self, job_id: str) -> int:
        """Events are kept whole from seq 1, so the last seq is their number."""
        with self._lock:
            return len(self._events.get(job_id, []))

    async def wait_events(self, job_id: str, after: int, timeout: float) -> list[Event]:
        """Events after `after`, waiting for the first one up to `timeout` seconds."""
        flag = asyncio.Event()
        waiter = (asyncio.get_running_loop(), flag)
        with self._lock:
            self._waiters.setdefault(job_id, set()).add(waiter)
        try:
            found = self.events(job_id, after)
            if not found:
                try:
                    await asyncio.wait_for(flag.wait(), timeout)
                except TimeoutError:
                    return []
                found = self.events(job_id, after)
            return found
        finally:
            with self._lock:
                waiting = self._waiters.get(job_id)
                if waiting is not None:
                    waiting.discard(waiter)
                    if not waiting:
                        del self._waiters[job_id]

    def cancel(self, job_id: str) -> None:
        """Mark the job; a queued job is dropped from its line when a worker meets it."""
        with self._lock:
            self._cancelled.add(job_id)

    def cancelled(self, job_id: str) -> bool:
        """Whether the job was asked to stop."""
        return job_id in self._cancelled

    def busy(self, thread_id: str) -> bool:
        """A job of the thread is queued or running."""
        with self._lock:
            return bool(self._threads.get(thread_id))

    def unpark(self, thread_id: str) -> Job | None:
        """Take the thread's job that waits for an approval."""
        with self._lock:
            job_id = self._parked.pop(thread_id, None)
            return self._jobs.get(job_id) if job_id else None

    def park(self, job: Job) -> None:
        """Remember the waiting job and let the thread's line move on."""
        with self._lock:
            self._parked[job.thread_id] = job.job_id
        self.release(job)

    def take(self, timeout: float) -> Job | None:
        """The next job whose thread has nothing running."""
        with self._lock:
            if not self._ready and not self._lock.wait_for(lambda: bool(self._ready), timeout):
                return None
            job = self._jobs[self._ready.popleft()]
            job.attempts += 1
            return job

    def release(self, job: Job) -> None:
        """The thread's next job becomes runnable."""
        with self._lock:
            line = self._threads.get(job.thread_id)
            if not line or line[0] != job.job_id:
                return  # not this line's running job: nothing moves
            line.popleft()
            if line:
                self._ready.append(line[0])
                self._lock.notify()
            else:
                del self._threads[job.thread_id]

    async def aclose(self) -> None:
        """Nothing to close."""

    def ping(self) -> None:
        """Always reachable."""

    def close(self) -> None:
        """Wake any waiting worker so it can see it should stop."""
        with self._lock:
            self._lock.notify_all()
