"""Seed 001's job contract against real `python -m service` processes (embedded, and Redis
with a worker process): the payload's seven fields plus `metadata` (validated, carried,
`history` starting a new thread), `progress` in `/chat/status`, and the metadata event's
JSON Schema at `/schemas/metadata.json`, which every event of the stream satisfies."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest
import redis

from graph.session.events import SCHEMA_PATH
from tests.service.conftest import (
    ROOT,
    Service,
    check_stream,
    service_env,
    sse,
    start_service,
    start_worker,
)

HISTORY = [
    {"role": "user", "content": "제 이름은 민지이고 커피를 좋아해요"},
    {"role": "assistant", "content": "반가워요, 민지 님. 커피를 좋아하시는군요."},
    {"role": "user", "content": "회의는 3시에 시작해요"},
    {"role": "assistant", "content": "회의가 3시에 시작한다고 기억해 둘게요."},
]
METADATA = {"client": "seed-001-test", "tags": ["a", "b"], "nested": {"n": 1}}


def _problem(response: httpx.Response, status: int, code: str, *words: str) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["code"] == code, body
    for word in words:
        assert word in body["message"], body["message"]
    return str(body["message"])


def _full_job(client: httpx.Client, **extra: Any) -> dict[str, Any]:
    body = {
        "query": "제 이름과 회의 시간이 뭐였죠?",
        "history": HISTORY,
        "turn_count": 3,
        "user_id": "minji",
        "metadata": METADATA,
        **extra,
    }
    response = client.post("/chat/jobs", json=body)
    assert response.status_code == 202, response.text
    return dict(response.json())


def _check_finished(client: httpx.Client, job: dict[str, Any]) -> list[dict[str, Any]]:
    events = sse(client, job["job_id"])
    check_stream(events)
    validator = jsonschema.Draft202012Validator(client.get("/schemas/metadata.json").json())
    for event in events:
        if event["type"] == "metadata":
            validator.validate(event)
    status = client.get(f"/chat/status/{job['job_id']}").json()
    assert status["status"] == "done" and status["turn"] == 3
    assert status["user_id"] == "minji" and status["turn_count"] == 3
    assert status["metadata"] == METADATA
    nodes = sum(
        1 for e in events if e["type"] == "metadata" and e["metadata"]["kind"] == "node_end"
    )
    assert status["progress"] == {
        "done": nodes,
        "expected": nodes,
        "ratio": 1.0,
        "current": None,
        "plan_steps": None,
    }
    session = client.get(f"/api/sessions/{job['thread_id']}").json()
    assert session["turn_count"] == 3 and session["title"].startswith("제 이름은 민지")
    turns = client.get(f"/api/sessions/{job['thread_id']}/export").json()["turns"]
    said = [m["data"]["content"] for t in turns for m in t["messages"]]
    assert said[:4] == [h["content"] for h in HISTORY]
    return events


def test_the_payload_fields_are_taken_carried_and_shown(service: Service) -> None:
    with service.client() as client:
        # a new thread's turn is 1 (or after its history): refused before a thread is made
        early = client.post("/chat/jobs", json={"message": "처음", "turn_count": 2})
        _problem(early, 409, "TURN_OUT_OF_ORDER", "turn_count is 2", "next turn is 1")
        assert client.get("/api/sessions").json() == []
        job = _full_job(client)
        events = _check_finished(client, job)
        answer = "".join(e["content"] for e in events if e["type"] == "token")
        assert answer  # the message was answered as turn 3, after the history's two

        # the thread keeps its own history from now on: history is refused for it, and a
        # wrong turn number is named
        again = client.post(
            "/chat/jobs",
            json={"message": "또 물어볼게요", "thread_id": job["thread_id"], "history": HISTORY},
        )
        _problem(again, 409, "HISTORY_CONFLICT", "3 turns", "keeps its own history")
        wrong = client.post(
            "/chat/jobs",
            json={"message": "다음 턴", "thread_id": job["thread_id"], "turn_count": 7},
        )
        assert _problem(wrong, 409, "TURN_OUT_OF_ORDER", "7", "4")
        assert wrong.json()["expected_turn"] == 4
        right = client.post(
            "/chat/jobs",
            json={"message": "다음 턴", "thread_id": job["thread_id"], "turn_count": 4},
        )
        assert right.status_code == 202
        check_stream(sse(client, right.json()["job_id"]))
        plain = client.get(f"/chat/status/{right.json()['job_id']}").json()
        assert plain["turn"] == 4 and plain["user_id"] == "default" and plain["metadata"] is None


def test_history_messages_are_held_to_the_message_limit(tmp_path: Path) -> None:
    svc = start_service(tmp_path, MAX_MESSAGE_CHARS="100")
    try:
        with svc.client() as client:
            long = [{"role": "user", "content": "x" * 150}, HISTORY[1]]
            response = client.post("/chat/jobs", json={"message": "hi", "history": long})
            _problem(response, 413, "MESSAGE_TOO_LONG", "history[0]", "100")
    finally:
        svc.proc.stop()


def test_the_schema_endpoint_serves_the_one_schema_file(service: Service) -> None:
    response = httpx.get(f"{service.url}/schemas/metadata.json", timeout=30)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/schema+json")
    assert response.json() == json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(response.json())


def test_a_queued_job_expects_the_turns_steps(service: Service) -> None:
    with service.client() as client:
        first = client.post("/chat/jobs", json={"message": "What is 15% of 2400?"}).json()
        second = client.post(
            "/chat/jobs", json={"message": "고마워요", "thread_id": first["thread_id"]}
        ).json()
        early = client.get(f"/chat/status/{second['job_id']}").json()
        if early["status"] == "queued":  # usually: the thread's first job is still running
            assert early["progress"]["done"] == 0 and early["progress"]["expected"] >= 4
        check_stream(sse(client, first["job_id"]))
        check_stream(sse(client, second["job_id"]))
        later = client.get(f"/chat/status/{first['job_id']}").json()["progress"]
        # the tool turn: safeguard, router (the service has documents), summary, recall,
        # llm, tool, llm
        assert later["done"] == later["expected"] == 7


def test_user_id_must_be_the_tokens_user(tmp_path: Path) -> None:
    users_file = tmp_path / "users.jsonl"
    env = service_env(tmp_path, USERS_FILE=str(users_file))
    made = subprocess.run(  # noqa: S603 - our own interpreter and module
        [sys.executable, "-m", "service.users", "add", "alice"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    token = made.stdout.strip()
    svc = start_service(tmp_path, USERS_FILE=str(users_file), API_TOKEN="legacy-token-for-health")
    try:
        with httpx.Client(
            base_url=svc.url, headers={"Authorization": f"Bearer {token}"}, timeout=60
        ) as client:
            other = client.post("/chat/jobs", json={"message": "hi", "user_id": "bob"})
            _problem(other, 403, "USER_MISMATCH", "'bob'", "'alice'")
            own = client.post("/chat/jobs", json={"message": "hi", "user_id": "alice"})
            assert own.status_code == 202
            status = client.get(f"/chat/status/{own.json()['job_id']}").json()
            assert status["user_id"] == "alice"
    finally:
        svc.proc.stop()


@pytest.fixture
def redis_service(tmp_path: Path, redis_url: str):
    svc = start_service(tmp_path, REDIS_URL=redis_url, SERVICE_WORKERS="1")
    yield svc
    for proc in svc.extra:
        proc.stop()
    svc.proc.stop()


def test_the_redis_queue_carries_the_seed_payload(
    redis_service: Service, redis_url: str, tmp_path: Path
) -> None:
    store = redis.Redis.from_url(redis_url, decode_responses=True)
    with redis_service.client() as client:
        job = _full_job(client)
        # no worker yet: the payload waits in chat:jobs as the seed lists it
        queued = [json.loads(item) for item in store.lrange("chat:jobs", 0, -1)]
        assert [item["job_id"] for item in queued] == [job["job_id"]]
        payload = queued[0]
        assert list(payload) == [
            "job_id",
            "trace_id",
            "thread_id",
            "query",
            "history",
            "turn_count",
            "user_id",
            "metadata",
        ]
        assert payload == {
            **job,
            "query": "제 이름과 회의 시간이 뭐였죠?",
            "history": HISTORY,
            "turn_count": 3,
            "user_id": "minji",
            "metadata": METADATA,
        }
        waiting = client.get(f"/chat/status/{job['job_id']}").json()
        assert waiting["status"] == "queued" and waiting["progress"]["done"] == 0
        assert waiting["progress"]["expected"] >= 4 and waiting["metadata"] == METADATA
        start_worker(redis_service, tmp_path, "w1")
        deadline = time.monotonic() + 60
        while client.get(f"/chat/status/{job['job_id']}").json()["status"] == "queued":
            assert time.monotonic() < deadline
            time.sleep(0.1)
        _check_finished(client, job)
