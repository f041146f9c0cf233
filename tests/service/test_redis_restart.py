"""Redis killed mid-stream (SIGKILL, no persistence) and started again on the same port
(issue 34, row 8): the running job's events and record are gone. Its client, reconnecting
with Last-Event-ID, must get `error` (TURN_INTERRUPTED) then `done` numbered above what it
saw, not a 404 and not a stream that never ends; the status says failed, and the message
is kept as an unanswered turn that a retry answers."""

from __future__ import annotations

import json
import shutil
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.fakes import openai_server as oai
from tests.fakes.http_server import FakeHTTPServer
from tests.service.conftest import (
    Proc,
    Service,
    check_stream,
    free_port,
    sse,
    start,
    start_service,
    start_worker,
)
from tests.service.test_jobs import _saved
from tests.service.test_redis import _wait_workers

WORDS = " ".join(f"word{i}" for i in range(80))


class Redis:
    """A redis-server without persistence on a fixed loopback port, killable and restartable."""

    def __init__(self, tmp_path: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.skip("redis-server is not installed (apt install redis-server)")
        self.binary = binary
        self.tmp_path = tmp_path
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.starts = 0
        self.proc = self.start()

    def start(self) -> Proc:
        self.starts += 1
        args = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1"]
        proc = start(
            [*args, "--save", "", "--appendonly", "no"],
            {},
            self.tmp_path / f"redis-{self.starts}.log",
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return proc
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def restart_empty(self) -> None:
        """kill -9 the server (by the PID this test started) and start a new, empty one."""
        self.proc.kill()
        time.sleep(0.5)  # the worker meets a dead server meanwhile
        self.proc = self.start()


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[Redis]:
    server = Redis(tmp_path)
    yield server
    server.proc.stop()


def _read(client: httpx.Client, job_id: str, after: int, until_token: bool) -> list[dict[str, Any]]:
    """The stream's events after `after`: until a token of the answer, or until done.

    Bounded: a stream that never ends fails the test instead of hanging it.
    """
    deadline = time.monotonic() + 30
    events: list[dict[str, Any]] = []
    headers = {"Last-Event-ID": str(after)} if after else {}
    with client.stream("GET", f"/chat/stream/{job_id}", headers=headers) as response:
        assert response.status_code == 200, response.read()
        for line in response.iter_lines():
            assert time.monotonic() < deadline, f"the stream did not end: {events[-3:]}"
            if not line.startswith("data: "):
                continue
            event = json.loads(line[6:])
            events.append(event)
            if event["type"] == "done":
                break
            if until_token and event["type"] == "token" and event["content"].startswith("word"):
                break
    return events


def test_a_redis_restart_mid_stream_ends_the_job_for_its_client_and_keeps_the_turn(
    tmp_path: Path, redis_server: Redis, http_server: FakeHTTPServer
) -> None:
    oai.install(http_server, [oai.slow_text(WORDS, 0.05) for _ in range(4)])
    svc: Service = start_service(
        tmp_path,
        REDIS_URL=redis_server.url,
        SERVICE_WORKERS="1",
        OPENAI_API_KEY="sk-test",
        OPENAI_BASE_URL=f"{http_server.url}/v1",
        CHAT_PROVIDER="openai",
        WORKER_HEARTBEAT_S="0.5",
    )
    try:
        start_worker(svc, tmp_path, "w1")
        _wait_workers(redis_server.url, 1)
        with svc.client() as client:
            job = client.post(
                "/chat/jobs", json={"message": "재시작 중에 답해 줘", "thread_id": "t-r"}
            ).json()
            seen = _read(client, job["job_id"], 0, until_token=True)
            last = seen[-1]["seq"]
            redis_server.restart_empty()
            ended = _read(client, job["job_id"], last, until_token=False)
            assert [e["type"] for e in ended] == ["error", "done"], ended
            assert ended[0]["error_code"] == "TURN_INTERRUPTED"
            assert ended[0]["seq"] > last
            check_stream(ended, first=ended[0]["seq"])
            status = client.get(f"/chat/status/{job['job_id']}").json()
            assert status["status"] == "failed" and status["error_code"] == "TURN_INTERRUPTED"
            # the message was kept as an unanswered turn: the retry answers it in place
            retry = client.post("/api/sessions/t-r/retry")
            assert retry.status_code == 202, retry.text
            answer = sse(client, retry.json()["job_id"])
            check_stream(answer)
            text = "".join(e["content"] for e in answer if e["type"] == "token")
            assert text.strip().endswith("word79") and answer[-2]["type"] != "error"
        view = _saved(tmp_path, "t-r")
        assert view.turn_count == 1 and not view.retryable
        assert [str(m[0].content) for _, m in view.turns] == ["재시작 중에 답해 줘"]
        assert view.turns[0][1][-1].content.strip().endswith("word79")
    finally:
        for proc in svc.extra:
            proc.stop()
        svc.proc.stop()
