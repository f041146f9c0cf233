"""Jobs and events in Redis, under seed 001's keys, for API and worker processes apart.

- `chat:jobs`: the list workers take jobs from; each item is the seed's payload
  {job_id, trace_id, thread_id, query}.
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
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import Callable
from typing import Any

import redis
import redis.asyncio as aioredis

from graph.session import Event
from graph.storage.leases import dead_here, is_local, new_owner
from service.jobs import FINISHED, Job

log = logging.getLogger(__name__)

JOBS = "chat:jobs"
READ_GRACE_S = 5.0
"""How long past its own block time a stream read may take before Redis is taken for gone."""
SILENT_BEATS = 5
"""A worker on another host that misses this many heartbeats is taken for dead."""


def _dead(owner: str, store: Any) -> bool:
    """Whether the worker `owner` (host:pid:nonce, as a lease owner) is gone.

    On this host the process table answers at once (a busy worker that is slow to beat is
    not dead; a killed one is noticed at the next beat); elsewhere, its heartbeat expiring.
    """
    if is_local(owner):
        return dead_here(owner)
    return not store.exists(f"chat:worker:{owner}")


# Queue a job behind its thread's line; only the head of a line waits in chat:jobs.
_SUBMIT = """
redis.call('SET', KEYS[3], ARGV[3])
if redis.call('GET', KEYS[4]) == ARGV[1] then redis.call('DEL', KEYS[4]) end
if redis.call('RPUSH', KEYS[1], ARGV[1]) == 1 then redis.call('RPUSH', KEYS[2], ARGV[2]) end
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
    """The seed's queue payload."""
    return json.dumps(
        {
            "job_id": job.job_id,
            "trace_id": job.trace_id,
            "thread_id": job.thread_id,
            "query": job.request.get("message", ""),
        },
        ensure_ascii=False,
    )


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
        self._submit(
            keys=[
                f"chat:thread:{job.thread_id}",
                JOBS,
                self._job_key(job.job_id),
                f"chat:parked:{job.thread_id}",
            ],
            args=[job.job_id, payload, json.dumps(job.as_dict(), ensure_ascii=False)],
        )

    def job(self, job_id: str) -> Job | None:
        """A job by id."""
        raw = self._redis.get(self._job_key(job_id))
        return Job.from_dict(json.loads(raw)) if raw else None

    def save(self, job: Job) -> None:
        """Store the job; a finished one expires with its events."""
        ttl = self.ttl_s if job.status in FINISHED else None
        self._redis.set(
            self._job_key(job.job_id), json.dumps(job.as_dict(), ensure_ascii=False), ex=ttl
        )
        if ttl:
            self._redis.expire(f"chat:payload:{job.job_id}", ttl)

    def append(self, job_id: str, event: Event) -> None:
        """Add the event under the id 0-{seq} and keep the stream for EVENT_TTL_S more."""
        key = self._stream_key(job_id)
        pipe = self._redis.pipeline(transaction=False)
        pipe.xadd(key, {"data": json.dumps(event, ensure_ascii=False)}, id=f"0-{event['seq']}")
        pipe.expire(key, self.ttl_s)
        pipe.execute()

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
        """Whether the cancel flag is set."""
        return bool(self._redis.exists(f"chat:cancel:{job_id}"))

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
        return job

    def release(self, job: Job) -> None:
        """Off the thread's line and this worker's list; the thread's next job is queued."""
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
