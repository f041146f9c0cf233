"""Who may reach the service, against a real `python -m service` process: foreign pages
(Host, Origin), listening past loopback with no token, and users who see only their own
threads and jobs (issue 34, rows 1-3)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tests.service.conftest import ROOT, Service, free_port, service_env, sse, start_service

CODE = "이 코드 실행해줘\n```python\nprint(6*7)\n```"


def _ws(service: Service, thread: str) -> str:
    return service.url.replace("http://", "ws://") + f"/ws/{thread}"


def test_foreign_origin_cannot_open_the_websocket(service: Service) -> None:
    url = _ws(service, "t-ws-evil")
    with pytest.raises(InvalidStatus) as refused:
        with connect(url, origin="http://evil.example", open_timeout=10) as ws:  # type: ignore[arg-type]
            ws.send('{"type": "message", "content": "' + "print(1)" + '"}')
            pytest.fail(f"a foreign page's WebSocket was accepted: {ws.recv(5)}")
    assert refused.value.response.status_code == 403
    assert b"ORIGIN_NOT_ALLOWED" in refused.value.response.body
    # the page of the service itself still talks, and so does a client with no Origin
    own = service.url  # http://127.0.0.1:<port>
    for extra in ({"origin": own}, {}):
        with connect(_ws(service, "t-ws-own"), open_timeout=10, **extra) as ws:  # type: ignore[arg-type]
            assert '"connected"' in str(ws.recv(10))
    with service.client() as client:  # nothing ran, nothing was made for the foreign page
        assert "t-ws-evil" not in [s["thread_id"] for s in client.get("/api/sessions").json()]


def test_foreign_host_is_refused_and_own_names_answer(service: Service) -> None:
    port = service.url.rsplit(":", 1)[1]
    with service.client() as client:
        client.post("/chat", json={"message": "제 PIN은 4321이에요", "thread_id": "t-pin"})
        rebound = client.get("/api/sessions", headers={"Host": f"evil.example:{port}"})
        assert rebound.status_code == 403, rebound.text
        assert rebound.json()["code"] == "HOST_NOT_ALLOWED" and "4321" not in rebound.text
        bare = client.get("/api/sessions/t-pin/export", headers={"Host": "evil.example"})
        assert bare.status_code == 403 and "4321" not in bare.text
        for name in (f"localhost:{port}", f"127.0.0.1:{port}", "localhost"):
            assert client.get("/api/sessions", headers={"Host": name}).status_code == 200


def test_foreign_origin_cannot_change_state_and_own_origin_can(service: Service) -> None:
    with service.client() as client:
        evil = client.post(
            "/chat/jobs",
            json={"message": "hello", "thread_id": "t-csrf"},
            headers={"Origin": "http://evil.example"},
        )
        assert evil.status_code == 403 and evil.json()["code"] == "ORIGIN_NOT_ALLOWED"
        nulled = client.delete("/api/sessions/t-csrf", headers={"Origin": "null"})
        assert nulled.status_code == 403
        assert "t-csrf" not in [s["thread_id"] for s in client.get("/api/sessions").json()]
        # a page of the service itself (Swagger UI's "Try it out"), as a browser sends it
        browser = {"Origin": service.url, "Sec-Fetch-Site": "same-origin"}
        own = client.post(
            "/chat/jobs", json={"message": "hello", "thread_id": "t-csrf"}, headers=browser
        )
        assert own.status_code == 202, own.text
        assert sse(client, own.json()["job_id"])[-1]["type"] == "done"
        # reading needs no Origin check (the browser keeps a foreign page from reading it)
        assert client.get("/api/sessions/t-csrf", headers=browser).status_code == 200


def test_listening_past_loopback_without_a_token_does_not_start(tmp_path: Path) -> None:
    env = service_env(tmp_path, HOST="0.0.0.0", PORT=str(free_port()))  # noqa: S104
    env.pop("API_TOKEN", None)
    env.pop("USERS_FILE", None)
    proc = subprocess.Popen(  # noqa: S603 - our own interpreter and module
        [sys.executable, "-m", "service"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        _, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail("HOST=0.0.0.0 with no token started serving")
    assert proc.returncode != 0
    message = err.decode()
    assert "0.0.0.0" in message and "API_TOKEN" in message
    assert "python -m service.users add" in message


def _users(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # noqa: S603 - our own interpreter and module
        [sys.executable, "-m", "service.users", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_each_user_sees_only_their_own_threads_and_jobs(tmp_path: Path) -> None:
    users_file = tmp_path / "users.jsonl"
    env = service_env(tmp_path, USERS_FILE=str(users_file))
    alice = _users(env, "add", "alice").stdout.strip()
    bob = _users(env, "add", "bob").stdout.strip()
    assert alice and bob and alice != bob
    assert alice not in users_file.read_text()  # only hashes are kept
    listed = _users(env, "list").stdout
    assert "alice" in listed and "bob" in listed and alice not in listed

    svc = start_service(tmp_path, USERS_FILE=str(users_file), API_TOKEN="legacy-token-for-health")
    try:
        a = httpx.Client(base_url=svc.url, headers={"Authorization": f"Bearer {alice}"}, timeout=60)
        b = httpx.Client(base_url=svc.url, headers={"Authorization": f"Bearer {bob}"}, timeout=60)
        assert httpx.get(f"{svc.url}/api/sessions").status_code == 401
        said = a.post("/chat", json={"message": "제 PIN은 4321이에요", "thread_id": "t-a"})
        assert said.status_code == 200, said.text
        paused = a.post("/chat", json={"message": CODE, "thread_id": "t-a-code"})
        assert paused.status_code == 409 and paused.json()["code"] == "APPROVAL_PENDING"
        job = a.post("/chat/jobs", json={"message": "What is 15% of 2400?", "thread_id": "t-a"})
        job_id = job.json()["job_id"]

        # bob: every way in is a 404, as if the thread and the job did not exist
        assert [s["thread_id"] for s in b.get("/api/sessions").json()] == []
        refused = {
            "get": b.get("/api/sessions/t-a"),
            "export": b.get("/api/sessions/t-a/export"),
            "checkpoints": b.get("/api/sessions/t-a/checkpoints"),
            "patch": b.patch("/api/sessions/t-a", json={"title": "mine now"}),
            "fork": b.post("/api/sessions/t-a/fork", json={"checkpoint_id": "x"}),
            "regenerate": b.post("/api/sessions/t-a/regenerate", json={}),
            "retry": b.post("/api/sessions/t-a/retry"),
            "continue": b.post("/api/sessions/t-a/continue"),
            "resume": b.post("/api/sessions/t-a-code/resume", json={"approve": True}),
            "chat": b.post("/chat", json={"message": "hi", "thread_id": "t-a"}),
            "job": b.post("/chat/jobs", json={"message": "hi", "thread_id": "t-a"}),
            "status": b.get(f"/chat/status/{job_id}"),
            "stream": b.get(f"/chat/stream/{job_id}"),
            "cancel": b.post(f"/chat/cancel/{job_id}"),
            "delete": b.delete("/api/sessions/t-a"),
        }
        for route, answer in refused.items():
            assert answer.status_code == 404, (route, answer.status_code, answer.text)
            assert "4321" not in answer.text, route
            assert answer.json()["code"] in ("SESSION_NOT_FOUND", "JOB_NOT_FOUND"), route
        with pytest.raises(InvalidStatus) as socket_refused:
            connect(
                _ws(svc, "t-a-code"),
                additional_headers={"Authorization": f"Bearer {bob}"},
                open_timeout=10,
            )
        assert socket_refused.value.response.status_code == 404

        # alice still has all of it, untouched
        assert sse(a, job_id)[-1]["type"] == "done"
        assert a.get(f"/chat/status/{job_id}").json()["status"] == "done"
        mine = {s["thread_id"]: s for s in a.get("/api/sessions").json()}
        assert set(mine) == {"t-a", "t-a-code"} and mine["t-a"]["title"] != "mine now"
        assert "4321" in a.get("/api/sessions/t-a/export").text
        approved = a.post("/api/sessions/t-a-code/resume", json={"approve": True})
        assert approved.status_code == 200 and "42" in approved.json()["answer"]
        with connect(_ws(svc, "t-a"), subprotocols=["bearer", alice], open_timeout=10) as ws:  # type: ignore[list-item]
            assert '"connected"' in str(ws.recv(10))

        # bob's own thread is his alone; the legacy token is the user `default`
        assert b.post("/chat", json={"message": "hi", "thread_id": "t-b"}).status_code == 200
        assert a.get("/api/sessions/t-b").status_code == 404
        legacy = {"Authorization": "Bearer legacy-token-for-health"}
        assert httpx.get(f"{svc.url}/api/sessions", headers=legacy).json() == []
        assert b.delete("/api/sessions/t-b").status_code == 204

        # revoked: bob's token no longer opens anything, from the next request
        assert _users(env, "revoke", "bob").returncode == 0
        assert b.get("/api/sessions").status_code == 401
        assert a.get("/api/sessions").status_code == 200
    finally:
        svc.proc.stop()


def test_allowed_hosts_and_origins(tmp_path: Path) -> None:
    svc = start_service(
        tmp_path, ALLOWED_HOSTS="chat.example.com", ALLOWED_ORIGINS="https://app.example.com"
    )
    try:
        with svc.client() as client:
            named = client.get("/api/sessions", headers={"Host": "chat.example.com"})
            assert named.status_code == 200
            assert client.get("/health", headers={"Host": "other.example"}).status_code == 403
            page = {"Origin": "https://app.example.com"}
            made = client.post("/chat/jobs", json={"message": "hi"}, headers=page)
            assert made.status_code == 202, made.text
            other = {"Origin": "https://other.example.com"}
            assert (
                client.post("/chat/jobs", json={"message": "hi"}, headers=other).status_code == 403
            )
    finally:
        svc.proc.stop()
