"""Issue 43's smaller service rows: concurrent decisions' losers, the WebSocket token,
a strict `turn_count`, and `history` messages limited like user messages."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tests.service.conftest import Service, start_service

CODE = "이 코드 실행해줘\n```python\nprint(6*7)\n```"


def _paused(client: httpx.Client, thread: str) -> dict[str, Any]:
    paused = client.post("/chat", json={"message": CODE, "thread_id": thread})
    assert paused.status_code == 409 and paused.json()["code"] == "APPROVAL_PENDING", paused.text
    return paused.json()


def _race(service: Service, thread: str, bodies: list[dict[str, Any]]) -> list[httpx.Response]:
    def decide(body: dict[str, Any]) -> httpx.Response:
        with service.client() as client:
            return client.post(f"/api/sessions/{thread}/resume", json=body)

    with ThreadPoolExecutor(len(bodies)) as pool:
        return list(pool.map(decide, bodies))


def _ran(client: httpx.Client, thread: str) -> int:
    """How many times the code ran in the thread (its tool results that hold its output)."""
    turns = client.get(f"/api/sessions/{thread}/export").json()["turns"]
    return sum(
        1
        for turn in turns
        for m in turn["messages"]
        if m["type"] == "tool" and "42" in str(m["data"]["content"])
    )


@pytest.mark.parametrize(
    "bodies",
    [
        [{"approve": True}] * 3,
        [{"approve": True}, {"approve": False}],
    ],
    ids=["approve-x3", "approve+reject"],
)
def test_concurrent_decisions_one_wins_the_others_get_409_nothing_pending(
    service: Service, bodies: list[dict[str, Any]]
) -> None:
    with service.client() as client:
        _paused(client, "t-race")
        answers = _race(service, "t-race", bodies)
        codes = sorted(
            (a.status_code, a.json().get("code", "")) for a in answers if a.status_code != 200
        )
        winners = [
            a
            for a in answers
            if a.status_code == 200 or a.json().get("code") in ("APPROVAL_REJECTED",)
        ]
        assert len(winners) == 1, [a.text for a in answers]
        assert codes.count((409, "NOTHING_PENDING")) == len(bodies) - 1, codes
        assert _ran(client, "t-race") <= 1


def test_a_websocket_and_a_rest_decision_at_once(service: Service) -> None:
    with service.client() as client:
        url = service.url.replace("http", "ws") + "/ws/t-both"
        with connect(url) as ws:
            ws.recv(timeout=10)
            ws.send(json.dumps({"type": "message", "content": CODE}))
            while json.loads(ws.recv(timeout=60))["type"] != "hitl_request":
                pass
            with ThreadPoolExecutor(1) as pool:
                rest = pool.submit(
                    client.post, "/api/sessions/t-both/resume", json={"approve": True}
                )
                ws.send(json.dumps({"type": "human_response", "approve": True}))
                seen = []
                while (message := json.loads(ws.recv(timeout=60)))["type"] != "final":
                    seen.append(message)
                answer = rest.result(timeout=60)
        socket_lost = message["error_code"] == "NOTHING_PENDING" or any(
            m.get("code") == "NOTHING_PENDING" for m in seen
        )
        rest_lost = answer.status_code == 409 and answer.json()["code"] == "NOTHING_PENDING"
        assert socket_lost != rest_lost, (message, seen, answer.text)  # exactly one lost
        assert "INPUT_REJECTED" not in json.dumps([message, seen, answer.json()])
        assert _ran(client, "t-both") == 1


def test_the_websocket_token_by_header_or_subprotocol_not_in_the_url(tmp_path: Path) -> None:
    svc = start_service(tmp_path, API_TOKEN="tok-43")
    try:
        base = svc.url.replace("http", "ws") + "/ws/t1"
        with connect(base, additional_headers={"Authorization": "Bearer tok-43"}) as ws:
            assert json.loads(ws.recv(timeout=10))["type"] == "connected"
        with connect(base, subprotocols=["bearer", "tok-43"]) as ws:  # type: ignore[list-item]
            assert ws.subprotocol == "bearer"  # the token itself is never echoed
            assert json.loads(ws.recv(timeout=10))["type"] == "connected"
        with pytest.raises((InvalidStatus, Exception)) as refused:  # noqa: PT011
            with connect(base + "?token=tok-43", open_timeout=10) as ws:
                ws.recv(timeout=10)
        assert (
            "1008" in str(refused.value)
            or "403" in str(refused.value)
            or "401" in str(refused.value)
        )
    finally:
        svc.proc.stop()


def test_a_documented_setting_allows_the_url_token_with_a_warning(tmp_path: Path) -> None:
    svc = start_service(tmp_path, API_TOKEN="tok-43", WS_QUERY_TOKEN="allow")
    try:
        base = svc.url.replace("http", "ws") + "/ws/t1"
        with connect(base + "?token=tok-43", open_timeout=10) as ws:
            assert json.loads(ws.recv(timeout=10))["type"] == "connected"
    finally:
        svc.proc.stop()
    log = svc.proc.output()
    assert "WS_QUERY_TOKEN" in log and "tok-43" not in log


@pytest.mark.parametrize("count", [True, 1.0, "1"])
def test_turn_count_must_be_an_integer(service: Service, count: Any) -> None:
    with service.client() as client:
        answer = client.post("/chat/jobs", json={"message": "안녕", "turn_count": count})
        assert answer.status_code == 422, answer.text
        assert "turn_count" in answer.text
        assert client.get("/api/sessions").json() == []  # nothing was made


def test_history_answers_are_limited_like_messages(tmp_path: Path) -> None:
    svc = start_service(tmp_path, MAX_MESSAGE_CHARS="2000")
    try:
        with svc.client() as client:
            long = "가" * 2001
            history = [
                {"role": "user", "content": "요약해 줘"},
                {"role": "assistant", "content": long},
            ]
            answer = client.post("/chat/jobs", json={"message": "이어서", "history": history})
            assert answer.status_code == 413, answer.text
            assert answer.json()["code"] == "MESSAGE_TOO_LONG" and "history[1]" in answer.text
            history[1]["content"] = "가" * 2000
            taken = client.post("/chat/jobs", json={"message": "이어서", "history": history})
            assert taken.status_code == 202, taken.text
    finally:
        svc.proc.stop()


def test_a_version_whose_job_was_lost_is_sent_by_retry(tmp_path: Path) -> None:
    """A new version made (as a regenerate does) whose job never ran: retry sends it."""
    from graph.session import load_thread, new_version, open_app
    from graph.settings import load_settings
    from tests.service.conftest import sse

    svc = start_service(tmp_path)
    try:
        with svc.client() as client:
            for text in ("메모 1: 101호", "메모 2: 202호"):
                assert client.post("/chat", json={"message": text, "thread_id": "t-v"}).is_success
            # the version made in another process of the same database, its job lost
            chat = open_app(
                load_settings({"CHAT_DB_PATH": svc.env["CHAT_DB_PATH"]}), tools=[], index=None
            )
            new_version(chat, "t-v", 2, "메모 2: 707호로 바꿔 주세요")
            assert load_thread(chat, "t-v", recent_turns=0).turn_count == 1
            chat.persistence.close()
            retried = client.post("/api/sessions/t-v/retry")
            assert retried.status_code == 202, retried.text
            assert sse(client, retried.json()["job_id"])[-1]["type"] == "done"
            turns = client.get("/api/sessions/t-v/export").json()["turns"]
            assert [t["turn"] for t in turns] == [1, 2]
            assert turns[1]["messages"][0]["data"]["content"] == "메모 2: 707호로 바꿔 주세요"
            versions = client.get("/api/sessions/t-v/turns/2/versions").json()
            assert (versions["shown"], versions["count"]) == (2, 2)
    finally:
        svc.proc.stop()
