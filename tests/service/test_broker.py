"""The in-process broker on its own: a thread's jobs in order, one parked job taken once,
a release that is not the line's head moves nothing, events read from any seq."""

from __future__ import annotations

import asyncio

from service.jobs import Job, LocalBroker


def _job(thread: str, n: int) -> Job:
    return Job(job_id=f"{thread}-{n}", trace_id="t", thread_id=thread, request={"n": n})


def test_a_threads_jobs_run_one_at_a_time_in_order() -> None:
    broker = LocalBroker()
    for n in range(3):
        broker.submit(_job("a", n))
    broker.submit(_job("b", 0))
    first = broker.take(0.1)
    second = broker.take(0.1)
    assert {first.job_id, second.job_id} == {"a-0", "b-0"}
    assert broker.take(0.05) is None  # a-1 waits for a-0
    broker.release(broker.job("a-0"))
    assert broker.take(0.1).job_id == "a-1"


def test_releasing_a_job_that_is_not_running_moves_nothing() -> None:
    broker = LocalBroker()
    broker.submit(_job("a", 0))
    broker.submit(_job("a", 1))
    running = broker.take(0.1)
    broker.release(broker.job("a-1"))  # not the head: must not start a second run
    assert broker.take(0.05) is None
    broker.release(running)
    assert broker.take(0.1).job_id == "a-1"
    assert broker.busy("a")


def test_a_parked_job_is_taken_by_one_decision_only() -> None:
    broker = LocalBroker()
    job = _job("a", 0)
    broker.submit(job)
    broker.take(0.1)
    broker.park(job)
    assert not broker.busy("a")
    assert broker.unpark("a") is job
    assert broker.unpark("a") is None


def test_streams_read_from_any_seq_and_wait_for_new_events() -> None:
    broker = LocalBroker()
    broker.submit(_job("a", 0))
    for seq in (1, 2):
        broker.append("a-0", {"type": "token", "seq": seq, "content": "x"})
    assert [e["seq"] for e in broker.events("a-0", after=1)] == [2]
    assert broker.last_seq("a-0") == 2

    async def later() -> list:
        waiting = asyncio.create_task(broker.wait_events("a-0", 2, timeout=5))
        await asyncio.sleep(0.05)
        broker.append("a-0", {"type": "done", "seq": 3, "content": None})
        return await waiting

    assert [e["seq"] for e in asyncio.run(later())] == [3]
    assert asyncio.run(broker.wait_events("a-0", 3, timeout=0.05)) == []
