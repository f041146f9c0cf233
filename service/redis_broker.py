"""Jobs and events in Redis, under seed 001's keys, for API and worker processes apart.

- `chat:jobs`: the list workers take jobs from; each item is the seed's payload
  {job_id, trace_id, thread_id, query, history, turn_count, user_id, metadata}
  (`Job.payload`). A worker takes the job by its id: its record (below) holds the same
  fields, written with the payload in one script, and the status.
- `chat:stream:{job_id}`: the job's events as a Redis Stream whose entry ids are
  `0-{seq}`, so any API process can read on from a `Last-Event-ID`; kept `EVENT_TTL_S`
  after the last event, never popped.
- `chat:cancel:{job_id}`: the cancel flag.
- `chat:job:{job_id}`: the job's record (status, turn, error code, attempts, request).
- `chat:thread:{thread_id}`: the thread's line of job ids; only its head is in `chat:jobs`,
  so a thread's jobs run one at a time, in order, whichever worker takes them.
- `chat:parked:{thread_id}`: the job waiting for an approval.
- `chat:processing:{worker_id}` and `chat:worker:{worker_id}`: what a worker has taken, and
  its heartbeat; the jobs of a dead worker are taken back (see `_dead`).
- `chat:epoch`: a random name the first job after Redis (re)started gave it; an API process
  that finds it changed knows Redis lost its data meanwhile.

A Redis that restarts without its data loses the record and events of the jobs its workers
are running. A worker writes its running job's events and status only while the record is
there (or raises `JobLost`), and ends such a job once Redis is back: `error` and `done`
numbered after the highest seq it gave (see `service.worker`). Meanwhile an API process
asked for a job it cannot find, soon after such a loss, waits a moment for it
(`RESTORE_WAIT_S`) rather than answering "not found".
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

import redis
import redis.asyncio as aioredis

from graph.session import Event
from graph.storage.leases import dead_here, is_local, new_owner
from service.jobs import FINISHED, Job, JobLost

log = logging.getLogger(__name__)

JOBS = "chat:jobs"
READ_GRACE_S = 5.0
"""How long past its own block time a stream read may take before Redis is taken for gone."""
SILENT_BEATS = 5
"""A worker on another host that misses this many heartbeats is taken for dead."""
EPOCH = "chat:epoch"
RESTORE_WAIT_S = 5.0
"""How long a lookup of an unknown job waits for a worker to put it back after Redis lost
its data (a worker notices at its job's next event, and ends it as soon as Redis answers)."""
RESTORE_GRACE_S = 60.0
"""How long after noticing such a loss an unknown job is waited for at all."""
DOWN = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)
"""What redis-py raises while the server cannot be reached."""


def _dead(owner: str, store: Any) -> bool:
    """Whether the worker `owner` (host:pid:nonce, as a lease owner) is gone.

    On this host the process table answers at once (a busy worker that is slow to beat is
    not dead; a killed one is noticed at the next beat); elsewhere, its heartbeat expiring.
    """
    if is_local(owner):
        return dead_here(owner)
    return not store.exists(f"chat:worker:{owner}")


# Queue a job behind its thread's line; only the head of a line waits in chat:jobs.
# Returns Redis's epoch (named by the first job after it started).
_SUBMIT = """
redis.call('SET', KEYS[3], ARGV[3])
if redis.call('GET', KEYS[4]) == ARGV[1] then redis.call('DEL', KEYS[4]) end
if redis.call('RPUSH', KEYS[1], ARGV[1]) == 1 then redis.call('RPUSH', KEYS[2], ARGV[2]) end
redis.call('SET', KEYS[5], ARGV[4], 'NX')
return redis.call('GET', KEYS[5])
"""

# Keep a running job's event only while its record exists (Redis did not lose it).
_APPEND = """
if redis.call('EXISTS', KEYS[2]) == 0 then return 0 end
redis.call('XADD', KEYS[1], ARGV[1], 'data', ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1
"""

# Take a finished job off its thread's line; the next one (if any) goes to chat:jobs.
_RELEASE = """
redis.call('LREM', KEYS[3], 1, ARGV[2])
if redis.call('LINDEX', KEYS[1], 0) ~= ARGV[1] then return end
redis.call('LPOP', KEYS[1])
local nxt = redis.call('LINDEX', KEYS[1], 0)
if nxt then
  local payload = redis.call('GET', 'chat:payload:' .. nxt)
  if payload then redis.call('RPUSH', KEYS[2], payload) end
end
"""

# Put a job taken back from a dead worker at the front of the queue, in one step.
_REQUEUE = """
redis.call('LREM', KEYS[1], 1, ARGV[1])
redis.call('LPUSH', KEYS[2], ARGV[1])
"""


def _payload(job: Job) -> str:
    """The seed's queue payload (`Job.payload`: its seven fields and `metadata`)."""
    return json.dumps(job.payload(), ensure_ascii=False)


class RedisBroker:
    """The broker of `service.jobs`, kept in Redis."""

    recovers = True

    def __init__(self, url: str, ttl_s: float = 3600.0, heartbeat_s: float = 1.0) -> None:
        self.url = url
        self.ttl_s = int(ttl_s)
        self.heartbeat_s = heartbeat_s
        self.worker_id = new_owner()
        # Typed Any: redis-py's return types are unions of sync and async forms.
        self._redis: Any = redis.Redis.from_url(url, decode_responses=True)
        self._async: Any = None
        self._submit = self._redis.register_script(_SUBMIT)
        self._release = self._redis.register_script(_RELEASE)
        self._requeue = self._redis.register_script(_REQUEUE)
        self._append = self._redis.register_script(_APPEND)
        self._running: set[str] = set()
        """The jobs this worker has taken and not released (their record must stay)."""
        self._lock = threading.Lock()
        self._epoch: str | None = None
        self._lost_at: float | None = None

    # keys
    @staticmethod
    def _job_key(job_id: str) -> str:
        return f"chat:job:{job_id}"

    @staticmethod
    def _stream_key(job_id: str) -> str:
        return f"chat:stream:{job_id}"

    def _processing(self, worker_id: str | None = None) -> str:
        return f"chat:processing:{worker_id or self.worker_id}"

    # Broker
    def submit(self, job: Job) -> None:
        """Queue a job behind the thread's earlier jobs."""
        payload = _payload(job)
        self._redis.set(f"chat:payload:{job.job_id}", payload)
        epoch = self._submit(
            keys=[
                f"chat:thread:{job.thread_id}",
                JOBS,
                self._job_key(job.job_id),
                f"chat:parked:{job.thread_id}",
                EPOCH,
            ],
            args=[
                job.job_id,
                payload,
                json.dumps(job.as_dict(), ensure_ascii=False),
                uuid.uuid4().hex,
            ],
        )
        self._note_epoch(str(epoch))

    def job(self, job_id: str) -> Job | None:
        """A job by id; soon after Redis lost its data, one its worker may still put back."""
        key = self._job_key(job_id)
        raw = self._redis.get(key)
        if raw is None and self._lost_lately():
            deadline = time.monotonic() + RESTORE_WAIT_S
            while raw is None and time.monotonic() < deadline:
                time.sleep(0.1)
                raw = self._redis.get(key)
        return Job.from_dict(json.loads(raw)) if raw else None

    def _note_epoch(self, epoch: str) -> None:
        """Remember Redis's epoch; a different one means it lost its data since."""
        with self._lock:
            if self._epoch is not None and epoch != self._epoch:
                log.warning("Redis lost its data (restarted without it); jobs may be put back")
                self._lost_at = time.monotonic()
            self._epoch = epoch

    def _lost_lately(self) -> bool:
        """Whether this process saw Redis lose its data within RESTORE_GRACE_S."""
        if self._epoch is None:
            return False  # never knew it before: nothing to compare with
        self._redis.set(EPOCH, uuid.uuid4().hex, nx=True)
        self._note_epoch(str(self._redis.get(EPOCH)))
        return self._lost_at is not None and time.monotonic() - self._lost_at < RESTORE_GRACE_S

    def save(self, job: Job) -> None:
        """Store the job; a finished one expires with its events.

        A job this worker runs is stored only over its record: JobLost if that is gone.
        """
        ttl = self.ttl_s if job.status in FINISHED else None
        running = self._runs(job.job_id)
        try:
            stored = self._redis.set(
                self._job_key(job.job_id),
                json.dumps(job.as_dict(), ensure_ascii=False),
                ex=ttl,
                xx=running,
            )
            if ttl:
                self._redis.expire(f"chat:payload:{job.job_id}", ttl)
        except DOWN as exc:
            if running:
                raise JobLost(job.job_id) from exc
            raise
        if running and not stored:
            raise JobLost(job.job_id)

    def append(self, job_id: str, event: Event) -> None:
        """Add the event under the id 0-{seq} and keep the stream for EVENT_TTL_S more.

        An event of a job this worker runs is kept only while the job's record exists:
        JobLost if Redis lost it (or cannot be reached).
        """
        key = self._stream_key(job_id)
        data = json.dumps(event, ensure_ascii=False)
        if self._runs(job_id):
            try:
                kept = self._append(
                    keys=[key, self._job_key(job_id)],
                    args=[f"0-{event['seq']}", data, self.ttl_s],
                )
            except DOWN as exc:
                raise JobLost(job_id) from exc
            if not kept:
                raise JobLost(job_id)
            return
        pipe = self._redis.pipeline(transaction=False)
        pipe.xadd(key, {"data": data}, id=f"0-{event['seq']}")
        pipe.expire(key, self.ttl_s)
        pipe.execute()

    def restore(self, job: Job) -> None:
        """Put back the record of a job this worker runs, after Redis lost it."""
        ttl = self.ttl_s if job.status in FINISHED else None
        self._redis.set(
            self._job_key(job.job_id), json.dumps(job.as_dict(), ensure_ascii=False), ex=ttl
        )

    def _runs(self, job_id: str) -> bool:
        with self._lock:
            return job_id in self._running

    def events(self, job_id: str, after: int = 0) -> list[Event]:
        """Kept events with seq > `after`."""
        entries = self._redis.xrange(self._stream_key(job_id), min=f"(0-{after}", max="+")
        return [json.loads(fields["data"]) for _, fields in entries]

    def last_seq(self, job_id: str) -> int:
        """The seq of the last kept event."""
        last = self._redis.xrevrange(self._stream_key(job_id), count=1)
        return int(str(last[0][0]).split("-")[1]) if last else 0

    async def wait_events(self, job_id: str, after: int, timeout: float) -> list[Event]:
        """Block on the stream (XREAD) for events after `after`."""
        if self._async is None:
            # No socket timeout: redis-py's default (5 s) would cut a longer XREAD block
            # short with an error; the read is bounded by its own block time instead.
            self._async = aioredis.Redis.from_url(
                self.url, decode_responses=True, socket_timeout=None, socket_keepalive=True
            )
        async with asyncio.timeout(timeout + READ_GRACE_S):
            reply = await self._async.xread(
                {self._stream_key(job_id): f"0-{after}"}, block=max(1, int(timeout * 1000))
            )
        return [json.loads(fields["data"]) for _, entries in reply for _, fields in entries]

    def cancel(self, job_id: str) -> None:
        """Set the cancel flag."""
        self._redis.set(f"chat:cancel:{job_id}", "1", ex=self.ttl_s)

    def cancelled(self, job_id: str) -> bool:
        """Whether the cancel flag is set (JobLost for a running job if Redis is away)."""
        try:
            return bool(self._redis.exists(f"chat:cancel:{job_id}"))
        except DOWN as exc:
            if self._runs(job_id):
                raise JobLost(job_id) from exc
            raise

    def busy(self, thread_id: str) -> bool:
        """A job of the thread is queued or running."""
        return bool(self._redis.llen(f"chat:thread:{thread_id}"))

    def unpark(self, thread_id: str) -> Job | None:
        """Take the thread's job waiting for an approval (GETDEL: one caller gets it)."""
        job_id = self._redis.getdel(f"chat:parked:{thread_id}")
        return self.job(job_id) if job_id else None

    def park(self, job: Job) -> None:
        """Remember the waiting job and free its thread's line and its worker."""
        self.save(job)
        self._redis.set(f"chat:parked:{job.thread_id}", job.job_id)
        self.release(job)

    def take(self, timeout: float) -> Job | None:
        """Move the next payload to this worker's processing list and load its job."""
        raw = self._redis.blmove(JOBS, self._processing(), timeout, "LEFT", "RIGHT")
        if raw is None:
            return None
        job = self.job(json.loads(raw)["job_id"])
        if job is None:  # expired meanwhile: nothing to run
            self._redis.lrem(self._processing(), 1, raw)
            return None
        job.attempts += 1
        self.save(job)
        with self._lock:
            self._running.add(job.job_id)
        return job

    def release(self, job: Job) -> None:
        """Off the thread's line and this worker's list; the thread's next job is queued."""
        with self._lock:
            self._running.discard(job.job_id)
        self._release(
            keys=[f"chat:thread:{job.thread_id}", JOBS, self._processing()],
            args=[job.job_id, _payload(job)],
        )

    def requeue(self, job: Job) -> None:
        """Move a job taken back from a dead worker to the front of the queue.

        One script takes it off this worker's list and queues it: a death in between
        loses nothing.
        """
        self._requeue(keys=[self._processing(), JOBS], args=[_payload(job)])

    def ping(self) -> None:
        """Raise if Redis does not answer."""
        self._redis.ping()

    def close(self) -> None:
        """Close the connections (and stop the heartbeat)."""
        self._redis.delete(f"chat:worker:{self.worker_id}")
        self._redis.close()

    async def aclose(self) -> None:
        """Close the event loop's connection (the streams' reads)."""
        if self._async is not None:
            await self._async.aclose()
            self._async = None

    # liveness
    def start_heartbeat(
        self, stop: threading.Event, on_orphan: Callable[[Job], None]
    ) -> threading.Thread:
        """Say this worker is alive every beat, and take back the jobs of silent workers."""

        def beat() -> None:
            while not stop.is_set():
                try:
                    self._redis.set(
                        f"chat:worker:{self.worker_id}",
                        "1",
                        px=int(self.heartbeat_s * 1000 * SILENT_BEATS),
                    )
                    self.reclaim(on_orphan)
                except Exception as exc:  # noqa: BLE001 - try again next beat
                    log.warning("heartbeat failed: %s", exc)
                stop.wait(self.heartbeat_s)

        thread = threading.Thread(target=beat, name="heartbeat", daemon=True)
        thread.start()
        return thread

    def reclaim(self, on_orphan: Callable[[Job], None]) -> int:
        """Hand each job of a dead worker to `on_orphan` once; return how many."""
        count = 0
        for key in self._redis.scan_iter(match="chat:processing:*"):
            owner = str(key).removeprefix("chat:processing:")
            if owner == self.worker_id or not _dead(owner, self._redis):
                continue
            # Move each item to our own list first: if we die too, the next reaper has it.
            while (raw := self._redis.lmove(key, self._processing(), "LEFT", "RIGHT")) is not None:
                job = self.job(json.loads(raw)["job_id"])
                if job is None:
                    self._redis.lrem(self._processing(), 1, raw)
                    continue
                log.warning("worker %s died holding job %s", owner, job.job_id)
                on_orphan(job)  # requeue, release or abandon: each takes it off our list
                count += 1
        return count
