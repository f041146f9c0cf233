"""Jobs on Redis (seed 001's keys) with worker processes: the same API, jobs of one thread in
order across workers, approvals parked, and a worker killed mid-job (once: re-run; twice:
error -> done with the message kept unanswered). Real redis-server, real processes."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import httpx
import pytest
import redis

from tests.fakes import openai_server as oai
from tests.fakes.http_server import FakeHTTPServer
from tests.service.conftest import Service, check_stream, sse, start_service, start_worker
from tests.service.test_jobs import _saved


def _wait_workers(url: str, count: int, timeout: float = 30) -> None:
    client = redis.Redis.from_url(url)
    deadline = time.monotonic() + timeout
    while sum(1 for _ in client.scan_iter(match="chat:worker:*")) < count:
        assert time.monotonic() < deadline, "workers did not start"
        time.sleep(0.1)


@pytest.fixture
def redis_service(tmp_path: Path, redis_url: str):
    svc = start_service(tmp_path, REDIS_URL=redis_url, SERVICE_WORKERS="2")
    yield svc
    for proc in svc.extra:
        proc.stop()
    svc.proc.stop()


def test_jobs_run_on_worker_processes_under_seed_keys(
    redis_service: Service, redis_url: str, tmp_path: Path
) -> None:
    for name in ("w1", "w2"):
        start_worker(redis_service, tmp_path, name)
    _wait_workers(redis_url, 2)
    with redis_service.client() as client:
        assert client.get("/health").json()["redis"] == "ok"
        jobs = []
        for thread in ("t-a", "t-b"):
            for i in range(3):
                response = client.post(
                    "/chat/jobs", json={"message": f"{thread} 메시지 {i}", "thread_id": thread}
                )
                assert response.status_code == 202
                jobs.append(response.json())
        for job in jobs:
            check_stream(sse(client, job["job_id"]))
            assert client.get(f"/chat/status/{job['job_id']}").json()["status"] == "done"
        store = redis.Redis.from_url(redis_url, decode_responses=True)
        key = f"chat:stream:{jobs[0]['job_id']}"
        assert store.type(key) == "stream" and store.ttl(key) > 0
        assert store.xrange(key)[0][0] == "0-1"
        assert store.llen("chat:jobs") == 0
        # reconnecting reads from Redis, from any point, through any API process
        whole = sse(client, jobs[1]["job_id"])
        assert sse(client, jobs[1]["job_id"], last_event_id=3) == whole[3:]
        other = start_service(tmp_path, name="api2", REDIS_URL=redis_url, SERVICE_WORKERS="2")
        redis_service.extra.append(other.proc)
        with other.client() as second:
            assert sse(second, jobs[1]["job_id"], last_event_id=3) == whole[3:]
            assert second.get(f"/chat/status/{jobs[1]['job_id']}").json()["status"] == "done"
    for thread in ("t-a", "t-b"):
        said = [str(m[0].content) for _, m in _saved(tmp_path, thread).turns]
        assert said == [f"{thread} 메시지 {i}" for i in range(3)]


def test_an_approval_parks_the_job_and_the_decision_requeues_it(
    redis_service: Service, redis_url: str, tmp_path: Path
) -> None:
    start_worker(redis_service, tmp_path, "w1")
    _wait_workers(redis_url, 1)
    with redis_service.client() as client:
        code = "이 코드 실행해줘\n```python\nprint(6*7)\n```"
        paused = client.post("/chat", json={"message": code, "thread_id": "t-p"})
        assert paused.status_code == 409 and paused.json()["code"] == "APPROVAL_PENDING"
        job_id = paused.json()["job_id"]
        assert client.get(f"/chat/status/{job_id}").json()["status"] == "waiting_human"
        store = redis.Redis.from_url(redis_url, decode_responses=True)
        assert store.get("chat:parked:t-p") == job_id and store.llen("chat:thread:t-p") == 0
        # the parked job holds no worker: another thread's job runs meanwhile
        assert (
            client.post("/chat", json={"message": "hello", "thread_id": "t-q"}).status_code == 200
        )
        done = client.post("/api/sessions/t-p/resume", json={"approve": True})
        assert (
            done.status_code == 200
            and "42" in done.json()["answer"]
            and done.json()["job_id"] == job_id
        )
        events = sse(client, job_id)
        check_stream(events)
        kinds = [e["metadata"]["kind"] for e in events if e["type"] == "metadata"]
        assert kinds.index("approval_request") < kinds.index("tool_result")


@pytest.fixture
def slow_redis_service(tmp_path: Path, redis_url: str, http_server: FakeHTTPServer):
    words = " ".join(f"word{i}" for i in range(80))
    oai.install(http_server, [oai.slow_text(words, 0.05) for _ in range(4)])
    svc = start_service(
        tmp_path,
        REDIS_URL=redis_url,
        SERVICE_WORKERS="1",
        OPENAI_API_KEY="sk-test",
        OPENAI_BASE_URL=f"{http_server.url}/v1",
        CHAT_PROVIDER="openai",
        WORKER_HEARTBEAT_S="0.5",
    )
    yield svc
    for proc in svc.extra:
        proc.stop()
    svc.proc.stop()


def _until_token(client: httpx.Client, job_id: str, after_kind: str | None = None) -> None:
    """Follow the stream until an answer token (after a metadata of `after_kind`, if given)."""
    armed = after_kind is None
    with client.stream("GET", f"/chat/stream/{job_id}") as response:
        for line in response.iter_lines():
            if not line.startswith("data: "):
                continue
            event = json.loads(line[6:])
            if event["type"] == "metadata" and event["metadata"]["kind"] == after_kind:
                armed = True
            if armed and event["type"] == "token" and event["content"].startswith("word"):
                return
            assert event["type"] != "done", "the job ended before the worker could be killed"


def test_a_worker_killed_mid_job_is_replaced_and_the_turn_answered_once(
    slow_redis_service: Service, redis_url: str, tmp_path: Path
) -> None:
    first = start_worker(slow_redis_service, tmp_path, "w1")
    _wait_workers(redis_url, 1)
    with slow_redis_service.client() as client:
        job = client.post(
            "/chat/jobs", json={"message": "천천히 길게 답해 줘", "thread_id": "t-k"}
        ).json()
        _until_token(client, job["job_id"])
        first.kill()
        start_worker(slow_redis_service, tmp_path, "w2")
        events = sse(client, job["job_id"])
        check_stream(events)
        restarted = [
            i
            for i, e in enumerate(events)
            if e["type"] == "metadata" and e["metadata"]["kind"] == "restarted"
        ]
        assert len(restarted) == 1 and events[restarted[0]]["metadata"]["attempt"] == 2
        after = "".join(e["content"] for e in events[restarted[0] :] if e["type"] == "token")
        assert after.strip().endswith("word79") and events[-2]["type"] != "error"
        assert client.get(f"/chat/status/{job['job_id']}").json()["status"] == "done"
    view = _saved(tmp_path, "t-k")
    assert view.turn_count == 1 and not view.retryable
    assert [str(m[0].content) for _, m in view.turns] == ["천천히 길게 답해 줘"]
    assert view.turns[0][1][-1].content.strip().endswith("word79")


def test_a_job_whose_second_worker_dies_ends_unanswered(
    slow_redis_service: Service, redis_url: str, tmp_path: Path
) -> None:
    first = start_worker(slow_redis_service, tmp_path, "w1")
    _wait_workers(redis_url, 1)
    with slow_redis_service.client() as client:
        job = client.post(
            "/chat/jobs", json={"message": "두 번 죽는 작업", "thread_id": "t-d"}
        ).json()
        _until_token(client, job["job_id"])
        first.kill()
        second = start_worker(slow_redis_service, tmp_path, "w2")
        _until_token(client, job["job_id"], after_kind="restarted")
        second.kill()
        start_worker(slow_redis_service, tmp_path, "w3")
        events = sse(client, job["job_id"])
        check_stream(events)
        assert events[-2]["type"] == "error" and events[-2]["error_code"] == "TURN_INTERRUPTED"
        status = client.get(f"/chat/status/{job['job_id']}").json()
        assert status["status"] == "failed" and status["error_code"] == "TURN_INTERRUPTED"
    view = _saved(tmp_path, "t-d")
    assert view.turn_count == 1 and view.retryable
    assert view.turns[0][1][0].content == "두 번 죽는 작업"


def test_cancel_through_redis_stops_the_turn_on_its_worker(
    slow_redis_service: Service, redis_url: str, tmp_path: Path
) -> None:
    start_worker(slow_redis_service, tmp_path, "w1")
    _wait_workers(redis_url, 1)
    with slow_redis_service.client() as client:
        job = client.post("/chat/jobs", json={"message": "멈출 작업", "thread_id": "t-c"}).json()
        _until_token(client, job["job_id"])
        assert client.post(f"/chat/cancel/{job['job_id']}").status_code == 200
        assert redis.Redis.from_url(redis_url).exists(f"chat:cancel:{job['job_id']}")
        events = sse(client, job["job_id"])
        check_stream(events)
        assert events[-2]["type"] == "error" and events[-2]["error_code"] == "CANCELLED"
        assert client.get(f"/chat/status/{job['job_id']}").json()["status"] == "cancelled"
    view = _saved(tmp_path, "t-c")
    assert view.turn_count == 1 and view.retryable
    assert view.turns[0][1][0].content == "멈출 작업"


def test_a_stream_read_may_stay_quiet_longer_than_the_clients_socket_timeout(
    redis_url: str,
) -> None:
    """A quiet spell past redis-py's default socket timeout (5 s) is an empty batch, not an
    error that cuts the client's event stream (seen when a replacement worker started slowly)."""
    from service.redis_broker import RedisBroker

    broker = RedisBroker(redis_url)

    async def read() -> tuple[list, list]:
        try:
            quiet = await broker.wait_events("quiet-job", 0, timeout=6.5)
            broker.append("quiet-job", {"type": "done", "trace_id": "t", "seq": 1, "content": None})
            return quiet, await broker.wait_events("quiet-job", 0, timeout=6.5)
        finally:
            await broker.aclose()

    quiet, found = asyncio.run(read())
    broker.close()
    assert quiet == [] and [e["seq"] for e in found] == [1]


def test_a_worker_dead_between_a_jobs_status_and_its_done_event_leaves_no_stream_waiting(
    redis_url: str,
) -> None:
    """The status is saved before the `done` event is kept (a client never sees it lag);
    a worker killed in between left a finished job whose stream never ended. The reaper
    keeps the `done` now, once."""
    from graph.session import TurnEvents
    from service.jobs import Job
    from service.redis_broker import RedisBroker
    from service.worker import _recover

    broker = RedisBroker(redis_url)
    try:
        job = Job.new("t-gap", {"thread_id": "t-gap", "kind": "message", "message": "hi"})
        events = TurnEvents(job.trace_id, lambda e: broker.append(job.job_id, e))
        events.token("answer")
        job.status = "done"
        broker.save(job)  # ... and the worker died here
        _recover(None, broker, job)  # type: ignore[arg-type]
        kept = broker.events(job.job_id)
        check_stream(kept)
        assert [e["type"] for e in kept] == ["token", "done"]
        _recover(None, broker, job)  # type: ignore[arg-type]
        assert len(broker.events(job.job_id)) == 2  # not twice
    finally:
        broker.close()
