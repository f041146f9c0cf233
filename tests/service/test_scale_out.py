"""Past one machine (issue 14): two API processes and three worker processes share one
PostgreSQL database and one Redis. Thirty conversations of ten turns run at once, each turn
sent to the API the other one was not; one worker is killed with SIGKILL while it streams an
answer, and one API process is killed and started again in the middle of the run (the
streams it served are read on from the other API). Every turn is answered
exactly once, no job is lost, every thread is whole, and either API continues any
conversation. Real PostgreSQL, Redis, API and worker processes; the model is a fake
OpenAI-compatible server that answers slowly, naming the message it answers."""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis

from graph.session import load_thread, open_app
from graph.settings import load_settings
from tests.fakes import openai_server as oai
from tests.fakes.http_server import FakeHTTPServer, Reply
from tests.service.conftest import Proc, Service, check_stream, start_service, start_worker
from tests.service.test_redis import _wait_workers

CONVERSATIONS = 30
TURNS = 10
WORDS = 12
PAUSE_S = 0.02
"""Each answer streams WORDS words PAUSE_S apart, so a worker can be killed mid-answer."""

DRAIN_DEADLINE_S = 60.0
"""How long a restart waits for the POSTs the API has received to be answered."""

JOB_DEADLINE_S = 120.0
"""A job's stream not ended by then fails the test (a lost `done` must not hang CI)."""

_TAG = re.compile(r"c\d\d t\d\d")


def _echo(body: dict[str, Any]) -> Reply:
    """An answer that names the message it answers, streamed word by word."""
    users = [m for m in body["messages"] if m["role"] == "user"]
    found = _TAG.search(str(users[-1]["content"])) if users else None
    tag = found.group(0) if found else "?"
    words = " ".join(f"w{i}" for i in range(WORDS))
    return oai.slow_text(f"answer {tag} {words}", PAUSE_S)(body)


class Apis:
    """The two API processes; one may be down while it restarts."""

    def __init__(self, services: list[Service]) -> None:
        self.services = services
        self.down: set[int] = set()
        self.lock = threading.Lock()
        self.reconnects = 0
        """Streams that were cut (their API went away) and read on from the other one."""
        self.posting = [0, 0]
        """POSTs each API has been sent and not yet answered."""

    def _index(self, preferred: int) -> int:
        index = preferred % 2
        return 1 - index if index in self.down else index

    def pick(self, preferred: int) -> Service:
        with self.lock:
            return self.services[self._index(preferred)]

    @contextmanager
    def posting_to(self, preferred: int) -> Iterator[Service]:
        """An API that is up, counted as busy until its answer to the POST has come back."""
        with self.lock:
            index = self._index(preferred)
            self.posting[index] += 1
            service = self.services[index]
        try:
            yield service
        finally:
            with self.lock:
                self.posting[index] -= 1

    def restart(self, index: int, tmp_path: Path) -> None:
        with self.lock:
            self.down.add(index)
        old = self.services[index]
        # No new request goes to it; the POSTs it received are answered first (a job
        # accepted or not, never half-sent: _send does not resend a cut POST).
        deadline = time.monotonic() + DRAIN_DEADLINE_S
        while True:
            with self.lock:
                if not self.posting[index]:
                    break
            assert time.monotonic() < deadline, f"API {index}'s POSTs were not answered"
            time.sleep(0.05)
        old.proc.kill()  # a crash: the event streams it serves are cut mid-answer
        port = int(old.url.rsplit(":", 1)[1])
        env = {k: v for k, v in old.env.items() if k != "PORT"}
        overrides = {k: env[k] for k in _SHARED if k in env}
        fresh = start_service(tmp_path, f"api{index}-restarted", port=port, **overrides)
        fresh.extra = old.extra
        with self.lock:
            self.services[index] = fresh
            self.down.discard(index)


_SHARED = (
    "REDIS_URL",
    "DATABASE_URL",
    "SERVICE_WORKERS",
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "CHAT_PROVIDER",
    "WORKER_HEARTBEAT_S",
)


def _follow(apis: Apis, job_id: str, preferred: int, watch: Any = None) -> list[dict[str, Any]]:
    """A job's events to its `done`, reconnecting (Last-Event-ID) to the other API if the
    one streaming it goes away. `watch(event)` sees each event as it comes."""
    events: list[dict[str, Any]] = []
    attempt = 0
    deadline = time.monotonic() + JOB_DEADLINE_S
    while True:
        assert time.monotonic() < deadline, f"job {job_id} did not end: {events[-2:]}"
        service = apis.pick(preferred + attempt)
        headers = {"Last-Event-ID": str(events[-1]["seq"])} if events else {}
        try:
            with (
                httpx.Client(base_url=service.url, timeout=20) as client,
                client.stream("GET", f"/chat/stream/{job_id}", headers=headers) as response,
            ):
                assert response.status_code == 200, response.read()
                for line in response.iter_lines():
                    if not line.startswith("data: "):
                        continue
                    event = json.loads(line[6:])
                    events.append(event)
                    if watch is not None:
                        watch(event)
                    if event["type"] == "done":
                        return events
        except httpx.TransportError:
            with apis.lock:
                apis.reconnects += 1
        attempt += 1
        time.sleep(0.2)


def _send(apis: Apis, preferred: int, payload: dict[str, Any]) -> dict[str, Any]:
    """POST a job to an API that is up (the other one while it restarts)."""
    for attempt in range(50):
        try:
            with (
                apis.posting_to(preferred + attempt) as service,
                httpx.Client(base_url=service.url, timeout=60) as client,
            ):
                response = client.post("/chat/jobs", json=payload)
        except httpx.ConnectError:  # refused: nothing was received, sending again is safe
            time.sleep(0.2)
            continue
        assert response.status_code == 202, response.text
        return dict(response.json())
    raise AssertionError("no API took the job")


def _worker_of(store: redis.Redis, job_id: str) -> str | None:
    """The worker (host:pid:nonce) whose processing list holds the job."""
    for key in store.scan_iter(match="chat:processing:*"):
        if any(job_id in str(item) for item in store.lrange(key, 0, -1)):
            return str(key).removeprefix("chat:processing:")
    return None


@pytest.mark.scale_out
@pytest.mark.timeout(900)
def test_thirty_conversations_on_two_apis_and_three_workers_survive_a_kill_and_a_restart(
    tmp_path: Path, pg_url: str, redis_url: str, http_server: FakeHTTPServer
) -> None:
    oai.install(http_server, [], summary=lambda body: "요약: 대화가 이어졌습니다.", default=_echo)
    shared = {
        "REDIS_URL": redis_url,
        "DATABASE_URL": pg_url,
        "SERVICE_WORKERS": "4",
        "OPENAI_API_KEY": "sk-test",
        "OPENAI_BASE_URL": f"{http_server.url}/v1",
        "CHAT_PROVIDER": "openai",
        "WORKER_HEARTBEAT_S": "0.5",
    }
    services = [start_service(tmp_path, f"api{i}", **shared) for i in range(2)]
    apis = Apis(services)
    workers: list[Proc] = [start_worker(services[0], tmp_path, f"w{i}") for i in range(3)]
    _wait_workers(redis_url, 3)
    store = redis.Redis.from_url(redis_url, decode_responses=True)
    killed: dict[str, Any] = {}
    restarted = threading.Event()

    def kill_its_worker(job_id: str, event: dict[str, Any]) -> None:
        """Kill the worker streaming this job, after its first token, before its done."""
        if killed or event["type"] != "token":
            return
        owner = _worker_of(store, job_id)
        assert owner is not None, "the streaming job is on no worker's list"
        pid = int(owner.split(":")[1])
        (victim,) = [w for w in workers if w.popen.pid == pid]
        victim.kill()
        killed.update(job=job_id, pid=pid, at=event["seq"])

    def converse(i: int) -> list[tuple[str, list[dict[str, Any]]]]:
        thread = f"conv-{i:02d}"
        jobs = []
        for turn in range(1, TURNS + 1):
            preferred = i + turn
            message = f"c{i:02d} t{turn:02d}: 메모 {i * 100 + turn}번을 기억해 주세요."
            job = _send(apis, preferred, {"message": message, "thread_id": thread})
            watch = None
            if i == 7 and turn == 3:
                watch = lambda event, job_id=job["job_id"]: kill_its_worker(job_id, event)  # noqa: E731
            events = _follow(apis, job["job_id"], preferred, watch)
            if i == 0 and turn == 5 and not restarted.is_set():
                restarted.set()
                apis.restart(1, tmp_path)
            jobs.append((job["job_id"], events))
        return jobs

    started = time.monotonic()
    try:
        with ThreadPoolExecutor(CONVERSATIONS) as pool:
            results = list(pool.map(converse, range(CONVERSATIONS)))
        elapsed = time.monotonic() - started

        assert killed, "no worker was killed"
        assert restarted.is_set()
        done = 0
        reruns = 0
        with httpx.Client(base_url=apis.pick(0).url, timeout=60) as client:
            for i, jobs in enumerate(results):
                assert len(jobs) == TURNS
                for turn, (job_id, events) in enumerate(jobs, 1):
                    check_stream(events)
                    assert events[-2]["type"] != "error", (i, turn, events[-2])
                    answer = "".join(e["content"] for e in events if e["type"] == "token")
                    reruns += any(
                        e["type"] == "metadata" and e["metadata"]["kind"] == "restarted"
                        for e in events
                    )
                    assert f"answer c{i:02d} t{turn:02d}" in answer, [
                        (e["type"], e.get("metadata") or e.get("content")) for e in events
                    ][-12:]
                    status = client.get(f"/chat/status/{job_id}").json()
                    assert status["status"] == "done", status
                    done += 1
        assert done == CONVERSATIONS * TURNS  # no job lost
        assert reruns >= 1  # the killed worker's job ran again on another worker
        assert apis.reconnects >= 1  # the restart cut streams, read on from the other API

        # every thread whole: its ten messages in order, each answered once, as sent
        settings = load_settings({"DATABASE_URL": pg_url, "CHAT_PROVIDER": "offline"})
        reader = open_app(settings, tools=[], index=None)
        try:
            for i in range(CONVERSATIONS):
                view = load_thread(reader, f"conv-{i:02d}")
                assert view.turn_count == TURNS and not view.retryable
                assert [n for n, _ in view.turns] == list(range(1, TURNS + 1))
                for turn, (_, messages) in enumerate(view.turns, 1):
                    users = [m for m in messages if m.type == "human"]
                    answers = [m for m in messages if m.type == "ai" and not m.tool_calls]
                    assert len(users) == 1 and f"c{i:02d} t{turn:02d}" in str(users[0].content)
                    assert len(answers) == 1
                    assert f"answer c{i:02d} t{turn:02d}" in str(answers[0].content)
                assert [e["turns"] for e in view.summary_history] == [
                    [1, 2, 3],
                    [4, 5, 6],
                    [7, 8, 9],
                ]
        finally:
            reader.persistence.close()

        # either API continues any conversation
        for index in (0, 1):
            job = _send(apis, index, {"message": "c99 t11: 이어서", "thread_id": "conv-07"})
            events = _follow(apis, job["job_id"], index)
            check_stream(events)
        print(
            f"{CONVERSATIONS}x{TURNS} turns in {elapsed:.1f} s on 2 APIs and 3 workers; "
            f"worker {killed['pid']} killed at event {killed['at']} of job {killed['job']}; "
            f"{reruns} job(s) re-run; API 1 restarted, {apis.reconnects} stream(s) read on "
            "from the other API"
        )
    finally:
        for proc in workers:
            proc.stop()
        for service in apis.services:
            service.proc.stop()
