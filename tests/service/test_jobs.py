"""Seed 001's job API against a real `python -m service` process: jobs, the SSE stream with
`id: {seq}`, reconnecting with Last-Event-ID, status, cancel, error -> done, per-thread order."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from graph.session import load_thread, open_app
from graph.settings import load_settings
from tests.fakes import openai_server as oai
from tests.fakes.http_server import FakeHTTPServer
from tests.service.conftest import (
    Service,
    check_stream,
    free_port,
    service_env,
    sse,
    start,
    start_service,
)


def _job(client: httpx.Client, message: str, **fields) -> dict:
    response = client.post("/chat/jobs", json={"message": message, **fields})
    assert response.status_code == 202, response.text
    return response.json()


def _saved(tmp_path: Path, thread_id: str):
    """The thread as the database holds it (read by this process, like any other)."""
    app = open_app(
        load_settings(
            {"CHAT_DB_PATH": str(tmp_path / "service.sqlite"), "CHAT_PROVIDER": "offline"}
        ),
        index=None,
    )
    return load_thread(app, thread_id)


def test_a_job_streams_seed_events_and_ends_done(service: Service, tmp_path: Path) -> None:
    with service.client() as client:
        job = _job(client, "안녕하세요, 저는 민지이고 커피를 좋아해요")
        assert set(job) == {"job_id", "trace_id", "thread_id"}
        events = sse(client, job["job_id"])
        check_stream(events)
        assert events[0]["trace_id"] == job["trace_id"]
        answer = "".join(e["content"] for e in events if e["type"] == "token")
        turn = next(
            e["metadata"]
            for e in events
            if e["type"] == "metadata" and e["metadata"]["kind"] == "turn"
        )
        assert turn["thread_id"] == job["thread_id"] and turn["turn"] == 1
        assert turn["route"] and turn["context_chars"] > 0 and turn["summarized"] is False
        status = client.get(f"/chat/status/{job['job_id']}").json()
        nodes = sum(
            1 for e in events if e["type"] == "metadata" and e["metadata"]["kind"] == "node_end"
        )
        assert status == {
            "job_id": job["job_id"],
            "thread_id": job["thread_id"],
            "status": "done",
            "turn": 1,
            "error_code": None,
            "progress": {
                "done": nodes,
                "expected": nodes,
                "ratio": 1.0,
                "current": None,
                "plan_steps": None,
            },
            "user_id": "default",
            "turn_count": None,
            "metadata": None,
        }
    saved = _saved(tmp_path, job["thread_id"])
    assert saved.turns[-1][1][-1].content == answer


def test_reconnecting_with_last_event_id_loses_and_repeats_nothing(service: Service) -> None:
    with service.client() as client:
        job = _job(client, "What is 15% of 2400?")
        whole = sse(client, job["job_id"])
        first = sse(client, job["job_id"], stop_after=4)
        rest = sse(client, job["job_id"], last_event_id=first[-1]["seq"])
        assert first + rest == whole
        check_stream(rest, first=5)
        # a stream read after the job ended is still there, from any point
        assert sse(client, job["job_id"], last_event_id=len(whole) - 1) == whole[-1:]


def test_the_fourth_turn_reports_a_summary(service: Service) -> None:
    with service.client() as client:
        thread = None
        for text in [
            "회의는 3시에 시작해요",
            "장소는 본관 2층이에요",
            "발표자는 지수예요",
            "정리해 줘",
        ]:
            job = _job(client, text, **({"thread_id": thread} if thread else {}))
            thread = job["thread_id"]
            events = sse(client, job["job_id"])
        turn = next(
            e["metadata"]
            for e in events
            if e["type"] == "metadata" and e["metadata"]["kind"] == "turn"
        )
        assert turn["turn"] == 4 and turn["summarized"] is True
        summary = next(
            e["metadata"]
            for e in events
            if e["type"] == "metadata" and e["metadata"]["kind"] == "summary"
        )
        assert summary["turns"] == [1, 2, 3] and summary["compression_rate"] == 0.3


def test_jobs_of_a_busy_thread_run_after_it_in_order(service: Service, tmp_path: Path) -> None:
    with service.client() as client:
        first = _job(client, "첫 번째 메시지")
        thread = first["thread_id"]
        jobs = [first] + [_job(client, f"메시지 {i}", thread_id=thread) for i in range(2, 6)]
        turns = []
        for job in jobs:
            events = sse(client, job["job_id"])
            check_stream(events)
            turns.append(
                next(
                    e["metadata"]["turn"]
                    for e in events
                    if e["type"] == "metadata" and e["metadata"]["kind"] == "turn"
                )
            )
        assert turns == [1, 2, 3, 4, 5]
    said = [str(msgs[0].content) for _, msgs in _saved(tmp_path, thread).turns]
    assert said == ["첫 번째 메시지", "메시지 2", "메시지 3", "메시지 4", "메시지 5"]


def test_bad_requests_get_the_right_status_and_a_clear_message(service: Service) -> None:
    with service.client() as client:
        unknown = client.get("/chat/status/nope")
        assert unknown.status_code == 404 and unknown.json()["code"] == "JOB_NOT_FOUND"
        assert client.get("/chat/stream/nope").status_code == 404
        assert client.post("/chat/cancel/nope").status_code == 404
        malformed = client.post(
            "/chat/jobs", content=b'{"message": ', headers={"content-type": "application/json"}
        )
        assert malformed.status_code == 422 and malformed.json()["code"] == "INVALID_REQUEST"
        too_long = client.post("/chat/jobs", json={"message": "가" * 8001})
        assert too_long.status_code == 413
        assert "8,001" in too_long.json()["message"] and "8,000" in too_long.json()["message"]
        rate = client.post("/chat/jobs", json={"message": "hi", "compression_rate": 0.9})
        assert rate.status_code == 422 and "compression_rate" in rate.json()["message"]
        empty = client.post("/chat/jobs", json={"message": "   "})
        assert empty.status_code == 422 and "empty" in empty.json()["message"]
        strategy = client.post("/chat/jobs", json={"message": "hi", "strategy": "forget_all"})
        assert strategy.status_code == 422
        extra = client.post("/chat/jobs", json={"message": "hi", "temperature": 2})
        assert extra.status_code == 422 and "temperature" in extra.json()["message"]
        bad_thread = client.post("/chat/jobs", json={"message": "hi", "thread_id": "../etc"})
        assert bad_thread.status_code == 422 and "thread id" in bad_thread.json()["message"]
        huge = client.post(
            "/chat/jobs", content=b"x" * 1_000_001, headers={"content-type": "application/json"}
        )
        assert huge.status_code == 413 and huge.json()["code"] == "BODY_TOO_LARGE"
        # nothing of this reached a thread
        assert client.get("/api/sessions").json() == []


def test_health_reports_the_database(service: Service) -> None:
    with service.client() as client:
        assert client.get("/health").json() == {
            "status": "ok",
            "database": "ok",
            "redis": "not used",
        }


def test_docs_render_with_no_internet(service: Service) -> None:
    with service.client() as client:
        page = client.get("/docs")
        assert page.status_code == 200
        assert "https://" not in page.text.replace("https://swagger.io", "")
        assert "/static-offline-docs/swagger-ui-bundle.js" in page.text
        script = client.get("/static-offline-docs/swagger-ui-bundle.js")
        assert script.status_code == 200 and len(script.content) > 100_000
        assert client.get("/static-offline-docs/swagger-ui.css").status_code == 200
        # ReDoc's script as installed, less the logo it fetched from cdn.redoc.ly (issue 44)
        assert "/redoc/redoc.standalone.js" in client.get("/redoc").text
        redoc = client.get("/redoc/redoc.standalone.js")
        assert redoc.status_code == 200 and len(redoc.content) > 100_000
        assert "cdn.redoc.ly" not in redoc.text
        schema = client.get("/openapi.json").json()
        assert {
            "/chat/jobs",
            "/chat/stream/{job_id}",
            "/chat",
            "/api/sessions/{thread_id}/resume",
        } <= set(schema["paths"])


def _response_schema(schema: dict, path: str, method: str) -> str:
    ok = schema["paths"][path][method]["responses"]["200"]["content"]["application/json"]
    body = ok["schema"]
    return str(body.get("$ref") or body.get("items", {}).get("$ref", "")).rsplit("/", 1)[-1]


def test_the_openapi_schema_names_seed_004s_response_models(service: Service) -> None:
    with service.client() as client:
        schema = client.get("/openapi.json").json()
    assert {"SessionStateResponse", "CheckpointListResponse", "ResumeResponse"} <= set(
        schema["components"]["schemas"]
    )
    assert _response_schema(schema, "/api/sessions/{thread_id}", "get") == "SessionStateResponse"
    assert _response_schema(schema, "/api/sessions", "get") == "SessionStateResponse"
    assert (
        _response_schema(schema, "/api/sessions/{thread_id}/checkpoints", "get")
        == "CheckpointListResponse"
    )
    assert _response_schema(schema, "/api/sessions/{thread_id}/resume", "post") == "ResumeResponse"
    fields = schema["components"]["schemas"]["SessionStateResponse"]["properties"]
    assert {"status", "is_waiting_human", "turn_count", "summary_history"} <= set(fields)


def test_uvicorn_factory_serves_the_app_as_seed_001_runs_it(tmp_path: Path) -> None:
    """`uv run uvicorn --factory service.api:create_app --host ... --port ...`."""
    port = free_port()
    env = service_env(tmp_path)
    proc = start(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "--factory",
            "service.api:create_app",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
        ],
        env,
        tmp_path / "uvicorn.log",
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.popen.poll() is None, proc.output()
            try:
                if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, proc.output()
            time.sleep(0.2)
        with httpx.Client(base_url=url, timeout=60) as client:
            created = client.post("/chat/jobs", json={"message": "123 * 456 계산해줘"}).json()
            events = sse(client, created["job_id"])
        check_stream(events)
        answer = "".join(e["content"] for e in events if e["type"] == "token")
        assert "56088" in answer.replace(",", "")
    finally:
        proc.stop()


def test_a_token_is_required_when_set(tmp_path: Path) -> None:
    svc = start_service(tmp_path, API_TOKEN="s3cret-token")
    try:
        with httpx.Client(base_url=svc.url, timeout=30) as bare:
            missing = bare.post("/chat/jobs", json={"message": "hi"})
            assert missing.status_code == 401 and missing.json()["code"] == "UNAUTHORIZED"
            wrong = bare.get("/api/sessions", headers={"Authorization": "Bearer guess"})
            assert wrong.status_code == 401
            assert bare.get("/health").status_code == 401
            assert (
                bare.get(
                    "/chat/status/x", headers={"Authorization": "Basic s3cret-token"}
                ).status_code
                == 401
            )
        with svc.client() as client:
            job = _job(client, "hello")
            check_stream(sse(client, job["job_id"]))
    finally:
        svc.proc.stop()


# --- a model server that answers slowly, for cancel and busy threads


@pytest.fixture
def slow_service(tmp_path: Path, http_server: FakeHTTPServer):
    words = " ".join(f"word{i}" for i in range(60))
    script = [oai.slow_text(words, 0.05) for _ in range(6)]
    oai.install(http_server, script)
    svc = start_service(
        tmp_path,
        OPENAI_API_KEY="sk-test",
        OPENAI_BASE_URL=f"{http_server.url}/v1",
        CHAT_PROVIDER="openai",
    )
    yield svc
    svc.proc.stop()


def test_cancel_mid_stream_keeps_the_message_unanswered(
    slow_service: Service, tmp_path: Path
) -> None:
    with slow_service.client() as client:
        job = _job(client, "긴 답을 천천히 써 줘")
        head = sse(client, job["job_id"], stop_after=1)
        while not any(e["type"] == "token" for e in head):
            head = sse(client, job["job_id"], stop_after=len(head) + 1)
        cancelled = client.post(f"/chat/cancel/{job['job_id']}")
        assert cancelled.status_code == 200
        events = sse(client, job["job_id"])
        check_stream(events)
        assert events[-2]["type"] == "error" and events[-2]["error_code"] == "CANCELLED"
        tokens = [e for e in events if e["type"] == "token" and e["content"].startswith("word")]
        assert 0 < len(tokens) < 60  # it stopped mid-answer
        status = client.get(f"/chat/status/{job['job_id']}").json()
        assert status["status"] == "cancelled" and status["error_code"] == "CANCELLED"
        again = client.post(f"/chat/cancel/{job['job_id']}")
        assert again.status_code == 409 and again.json()["code"] == "JOB_FINISHED"
    view = _saved(tmp_path, job["thread_id"])
    assert view.turn_count == 1 and view.retryable
    assert view.turns[0][1][0].content == "긴 답을 천천히 써 줘"
    assert view.turns[0][1][-1].response_metadata["error_code"] == "CANCELLED"


def test_chat_answers_409_while_the_thread_runs(slow_service: Service) -> None:
    with slow_service.client() as client:
        job = _job(client, "천천히 답해 줘")
        sse(client, job["job_id"], stop_after=1)
        busy = client.post(
            "/chat", json={"message": "지금 끼어들기", "thread_id": job["thread_id"]}
        )
        assert busy.status_code == 409 and busy.json()["code"] == "THREAD_BUSY"
        assert client.get(f"/api/sessions/{job['thread_id']}").json()["status"] == "in_progress"
        check_stream(sse(client, job["job_id"]))
        assert client.get(f"/api/sessions/{job['thread_id']}").json()["status"] == "completed"


def test_a_model_failure_is_error_then_done(tmp_path: Path, http_server: FakeHTTPServer) -> None:
    oai.install(http_server, [oai.status(500)] * 4)
    svc = start_service(
        tmp_path,
        OPENAI_API_KEY="sk-test",
        OPENAI_BASE_URL=f"{http_server.url}/v1",
        CHAT_PROVIDER="openai",
        LLM_MAX_RETRIES="0",
    )
    try:
        with svc.client() as client:
            job = _job(client, "hello there")
            events = sse(client, job["job_id"])
            check_stream(events)
            assert events[-2]["type"] == "error" and events[-2]["error_code"] == "LLM_SERVER_ERROR"
            status = client.get(f"/chat/status/{job['job_id']}").json()
            assert status["status"] == "failed" and status["error_code"] == "LLM_SERVER_ERROR"
            # the sync API says the same, with the turn saved (it can be retried)
            answer = client.post("/chat", json={"message": "again?", "thread_id": job["thread_id"]})
            assert answer.status_code == 200 and answer.json()["error_code"] == "LLM_SERVER_ERROR"
            assert answer.json()["turn"] == 2
    finally:
        svc.proc.stop()


def test_open_streams_are_limited(tmp_path: Path, http_server: FakeHTTPServer) -> None:
    oai.install(http_server, [oai.slow_text(" ".join(["w"] * 40), 0.05)])
    svc = start_service(
        tmp_path,
        OPENAI_API_KEY="sk-test",
        OPENAI_BASE_URL=f"{http_server.url}/v1",
        CHAT_PROVIDER="openai",
        MAX_OPEN_STREAMS="1",
    )
    try:
        with svc.client() as client:
            job = _job(client, "slowly")
            opened = threading.Event()
            result: list = []

            def hold() -> None:
                with (
                    svc.client() as other,
                    other.stream("GET", f"/chat/stream/{job['job_id']}") as r,
                ):
                    opened.set()
                    result.append(r.status_code)
                    for _ in r.iter_lines():
                        pass

            worker = threading.Thread(target=hold)
            worker.start()
            assert opened.wait(30)
            second = client.get(f"/chat/stream/{job['job_id']}")
            assert second.status_code == 429 and second.json()["code"] == "TOO_MANY_STREAMS"
            worker.join(60)
            assert result == [200]
            check_stream(sse(client, job["job_id"]))  # the slot is free again
    finally:
        svc.proc.stop()
