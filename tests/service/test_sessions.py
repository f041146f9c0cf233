"""Seed 004's REST and WebSocket API against a real service process: /chat, 409 -> resume
(approve, reject, free text, edit), sessions, checkpoints, and the same over a WebSocket."""

from __future__ import annotations

import json
from pathlib import Path

from websockets.sync.client import connect

from tests.service.conftest import Service, check_stream, sse, start_service

CODE = "이 코드 실행해줘\n```python\nprint(6*7)\n```"


def _paused(client, thread: str) -> dict:
    paused = client.post("/chat", json={"message": CODE, "thread_id": thread})
    assert paused.status_code == 409, paused.text
    body = paused.json()
    assert body["code"] == "APPROVAL_PENDING" and body["tool"] == "python_repl"
    assert body["category"] == "code"
    assert body["args"] == {"code": "print(6*7)"} and body["tool_call_id"]
    return body


def test_chat_answers_in_the_response(service: Service) -> None:
    with service.client() as client:
        first = client.post("/chat", json={"message": "제 이름은 민지예요", "thread_id": "t-rest"})
        assert first.status_code == 200, first.text
        body = first.json()
        assert body["thread_id"] == "t-rest" and body["turn"] == 1 and body["answer"]
        second = client.post(
            "/chat", json={"message": "What is 15% of 2400?", "thread_id": "t-rest"}
        )
        assert second.json()["turn"] == 2 and "360" in second.json()["answer"]


def test_approve_runs_the_call_once_and_answers(service: Service) -> None:
    with service.client() as client:
        pending = _paused(client, "t-approve")
        waiting = client.get("/api/sessions/t-approve").json()
        assert waiting["status"] == "waiting_human" and waiting["is_waiting_human"] is True
        assert waiting["pending"]["category"] == "code"
        # another message meanwhile is refused, saying why
        again = client.post("/chat", json={"message": "hello?", "thread_id": "t-approve"})
        assert again.status_code == 409 and again.json()["code"] == "APPROVAL_PENDING"
        wrong = client.post(
            "/api/sessions/t-approve/resume", json={"approve": True, "tool_call_id": "call_other"}
        )
        assert wrong.status_code == 409 and wrong.json()["code"] == "APPROVAL_MISMATCH"
        done = client.post(
            "/api/sessions/t-approve/resume",
            json={"approve": True, "tool_call_id": pending["tool_call_id"]},
        )
        assert done.status_code == 200, done.text
        assert "42" in done.json()["answer"] and done.json()["job_id"] == pending["job_id"]
        # the parked job went on under its own id: its stream holds the whole turn
        status = client.get(f"/chat/status/{pending['job_id']}").json()
        assert status["status"] == "done" and status["turn"] == 1
        events = sse(client, pending["job_id"])
        check_stream(events)  # one job, one numbering, across the pause
        kinds = [e["metadata"]["kind"] for e in events if e["type"] == "metadata"]
        assert "restarted" not in kinds and kinds.count("approval_request") == 1
        nothing = client.post("/api/sessions/t-approve/resume", json={"approve": True})
        assert nothing.status_code == 409 and nothing.json()["code"] == "NOTHING_PENDING"
        done = client.get("/api/sessions/t-approve").json()
        assert done["status"] == "completed" and done["is_waiting_human"] is False


def test_approve_false_ends_the_task_with_approval_rejected(service: Service) -> None:
    with service.client() as client:
        first = client.post(
            "/chat", json={"message": "제 이름은 민지예요", "thread_id": "t-reject"}
        )
        assert first.status_code == 200
        pending = _paused(client, "t-reject")
        refused = client.post("/api/sessions/t-reject/resume", json={"approve": False})
        assert refused.status_code == 409, refused.text
        body = refused.json()
        assert body["code"] == "APPROVAL_REJECTED" and body["turn"] == 2
        # the code names it; the answer says what happened, in words (issue 44: no error code)
        assert body["job_id"] == pending["job_id"] and "거절" in body["answer"]
        # the job ended with the error, then done; its status says it failed, and why
        events = sse(client, pending["job_id"])
        check_stream(events)
        assert events[-2]["type"] == "error" and events[-2]["error_code"] == "APPROVAL_REJECTED"
        status = client.get(f"/chat/status/{pending['job_id']}").json()
        assert status["status"] == "failed" and status["error_code"] == "APPROVAL_REJECTED"
        # the turn is closed: nothing waits, nothing to retry, the turn before is intact
        session = client.get("/api/sessions/t-reject").json()
        assert session["is_waiting_human"] is False and session["pending"] is None
        assert session["status"] == "completed" and session["turn_count"] == 2
        again = client.post("/api/sessions/t-reject/resume", json={"approve": False})
        assert again.status_code == 409 and again.json()["code"] == "NOTHING_PENDING"
        retry = client.post("/api/sessions/t-reject/retry")
        assert retry.status_code == 409 and retry.json()["code"] == "NOTHING_TO_RETRY"
        turns = client.get("/api/sessions/t-reject/export").json()["turns"]
        assert turns[0]["messages"][0]["data"]["content"] == "제 이름은 민지예요"
        closing = turns[1]["messages"][-1]["data"]
        assert closing["response_metadata"]["error_code"] == "APPROVAL_REJECTED"
        # and the next message works, as turn 3, remembering the conversation
        nxt = client.post("/chat", json={"message": "제 이름이 뭐였죠?", "thread_id": "t-reject"})
        assert nxt.status_code == 200, nxt.text
        assert nxt.json()["turn"] == 3 and "민지" in nxt.json()["answer"]


def test_edited_arguments_in_both_shapes(service: Service) -> None:
    with service.client() as client:
        _paused(client, "t-edit")
        edited = client.post(
            "/api/sessions/t-edit/resume", json={"response": {"code": "print('EDITED')"}}
        )
        assert edited.status_code == 200 and "EDITED" in edited.json()["answer"]
        assert "42" not in edited.json()["answer"]
        _paused(client, "t-edit2")
        edited = client.post(
            "/api/sessions/t-edit2/resume",
            json={"action": "edit", "args": {"code": "print('ALSO EDITED')"}},
        )
        assert edited.status_code == 200 and "ALSO EDITED" in edited.json()["answer"]
        _paused(client, "t-edit3")
        for body, says in [
            ({"approve": True, "response": {}}, "exactly one"),
            ({"response": "   "}, "empty"),
            ({"action": "edit"}, "edited arguments"),
            ({"action": "approve", "approve": True}, "not both"),
            ({"response": 42}, ""),
        ]:
            bad = client.post("/api/sessions/t-edit3/resume", json=body)
            assert bad.status_code == 422 and says in bad.json()["message"], (body, bad.text)
        assert client.get("/api/sessions/t-edit3").json()["is_waiting_human"] is True
        approved = client.post("/api/sessions/t-edit3/resume", json={"action": "approve"})
        assert approved.status_code == 200 and "42" in approved.json()["answer"]


def test_a_free_text_response_is_handed_to_the_model(tmp_path: Path, http_server) -> None:
    """Seed 004's `{"response": "..."}`: the call is not run, and the model reads the text
    as its result (a fake OpenAI server shows what the model was sent)."""
    from tests.fakes import openai_server as oai

    bodies = oai.install(
        http_server,
        [oai.tool("python_repl", {"code": "print(6*7)"}, "call_9"), oai.text("알겠습니다, 42.")],
    )
    svc = _on_fake_openai(tmp_path, http_server.url)
    try:
        with svc.client() as client:
            paused = client.post("/chat", json={"message": "6*7 계산 코드", "thread_id": "t-say"})
            assert paused.status_code == 409 and paused.json()["tool_call_id"] == "call_9"
            text = "코드는 돌리지 말고, 답은 42라고 알려 줘"
            said = client.post(
                "/api/sessions/t-say/resume",
                json={"response": text, "tool_call_id": "call_9"},
            )
            assert said.status_code == 200, said.text
            assert said.json()["answer"] == "알겠습니다, 42." and said.json()["turn"] == 1
            chat = [b for b in bodies if not b.get("response_format")]
            tool = [m for m in chat[-1]["messages"] if m["role"] == "tool"]
            assert tool == [
                {
                    "role": "tool",
                    "tool_call_id": "call_9",
                    "content": f"Not run: the user answered instead of approving this call: {text}",
                }
            ]
            exported = client.get("/api/sessions/t-say/export").json()
            assert "[ok]" not in json.dumps(exported)  # the code never ran
            assert client.get("/api/sessions/t-say").json()["is_waiting_human"] is False
    finally:
        svc.proc.stop()


def test_checkpoints_are_listed_a_page_at_a_time(service: Service) -> None:
    with service.client() as client:
        for text in ["회의는 3시", "장소는 본관"]:
            assert (
                client.post("/chat", json={"message": text, "thread_id": "t-p"}).status_code == 200
            )
        whole = client.get("/api/sessions/t-p/checkpoints", params={"limit": 500}).json()
        assert whole["thread_id"] == "t-p" and whole["next_cursor"] is None
        every = [c["checkpoint_id"] for c in whole["checkpoints"]]
        assert len(every) > 4 and every == sorted(every, reverse=True)  # newest first
        size = len(every) // 2 + 1  # two pages: a full one, then the rest
        first = client.get("/api/sessions/t-p/checkpoints", params={"limit": size}).json()
        assert [c["checkpoint_id"] for c in first["checkpoints"]] == every[:size]
        assert first["next_cursor"] == every[size - 1]
        second = client.get(
            "/api/sessions/t-p/checkpoints",
            params={"limit": size, "before": first["next_cursor"]},
        ).json()
        assert [c["checkpoint_id"] for c in second["checkpoints"]] == every[size:]
        assert second["next_cursor"] is None  # the last page
        assert second["thread_id"] == "t-p"
        default = client.get("/api/sessions/t-p/checkpoints").json()
        assert [c["checkpoint_id"] for c in default["checkpoints"]] == every  # 50 a page
        for params in ({"limit": 0}, {"limit": 501}, {"before": " "}):
            bad = client.get("/api/sessions/t-p/checkpoints", params=params)
            assert bad.status_code == 422, (params, bad.text)
        assert client.get("/api/sessions/nope/checkpoints").status_code == 404


def test_sessions_list_read_patch_checkpoints_fork_delete(service: Service) -> None:
    with service.client() as client:
        for text in ["회의는 3시", "장소는 본관", "발표자는 지수", "정리해 줘"]:
            assert (
                client.post("/chat", json={"message": text, "thread_id": "t-s"}).status_code == 200
            )
        listed = client.get("/api/sessions").json()
        assert [s["thread_id"] for s in listed] == ["t-s"]
        session = client.get("/api/sessions/t-s").json()
        assert session["status"] == "completed" and session["turn_count"] == 4
        assert session["compression_rate"] == 0.3 and session["strategy"] == "three_turn"
        entry = session["summary_history"][0]
        assert set(entry) == {
            "thread_id",
            "turns",
            "turn_length",
            "original_chars",
            "summary_chars",
            "compression_rate",
            "summary",
        }
        stats = session["statistics"]
        assert stats["count"] == 1 and stats["original"] == entry["original_chars"]
        assert stats["last_context"]["turn"] == 4
        patched = client.patch(
            "/api/sessions/t-s",
            json={"compression_rate": 0.1, "strategy": "recursive", "title": "회의 준비"},
        )
        assert patched.status_code == 200
        assert (
            patched.json()["compression_rate"],
            patched.json()["strategy"],
            patched.json()["title"],
        ) == (0.1, "recursive", "회의 준비")
        assert client.patch("/api/sessions/t-s", json={"compression_rate": 0.05}).status_code == 422
        assert client.patch("/api/sessions/t-s", json={"title": ""}).status_code == 422
        listing = client.get("/api/sessions/t-s/checkpoints").json()
        assert listing["thread_id"] == "t-s" and listing["next_cursor"] is None
        checkpoints = listing["checkpoints"]
        assert checkpoints and checkpoints[0]["turn"] == 4
        assert {"checkpoint_id", "parent_id", "time", "step", "node", "turn", "metadata"} <= set(
            checkpoints[0]
        )
        assert client.get("/api/sessions/nope").status_code == 404
        # a fork from the checkpoint where turn 4's message was saved, at another rate
        start_of_4 = next(c for c in checkpoints if c["turn"] == 4 and c["node"] == "__start__")
        forked = client.post(
            "/api/sessions/t-s/fork",
            json={"checkpoint_id": start_of_4["checkpoint_id"], "compression_rate": 0.5},
        )
        assert forked.status_code == 201, forked.text
        fork = forked.json()
        assert fork["resumable"] and fork["forked_from"]["turn"] == 4
        job = client.post(f"/api/sessions/{fork['thread_id']}/retry")
        assert job.status_code == 202, job.text
        check_stream(sse(client, job.json()["job_id"]))
        view = client.get(f"/api/sessions/{fork['thread_id']}").json()
        assert [e["compression_rate"] for e in view["summary_history"]] == [0.5]
        assert view["turn_count"] == 4 and view["status"] == "completed"
        assert (
            client.get("/api/sessions/t-s").json()["summary_history"][0]["compression_rate"] == 0.3
        )
        again = client.post(f"/api/sessions/{fork['thread_id']}/retry")
        assert again.status_code == 409 and again.json()["code"] == "NOTHING_TO_RETRY"
        # regenerate, and edit and resend: new versions of turn 4 in the same thread
        listed = len(client.get("/api/sessions").json())
        for body, asked in [({}, "정리해 줘"), ({"message": "장소만 알려 줘"}, "장소만 알려 줘")]:
            job = client.post("/api/sessions/t-s/regenerate", json=body)
            assert job.status_code == 202, job.text
            assert job.json()["thread_id"] == "t-s"
            check_stream(sse(client, job.json()["job_id"]))
            shown = client.get("/api/sessions/t-s").json()
            assert shown["turn_count"] == 4 and shown["status"] == "completed"
            exported = client.get("/api/sessions/t-s/export").json()
            assert [t["turn"] for t in exported["turns"]] == [1, 2, 3, 4]
            assert exported["turns"][-1]["messages"][0]["data"]["content"] == asked
        versions = client.get("/api/sessions/t-s/turns/4/versions").json()
        assert versions == {"turn": 4, "shown": 3, "count": 3}
        assert client.get("/api/sessions/t-s").json()["versions"] == [versions]
        assert client.get("/api/sessions/t-s/turns/2/versions").json()["count"] == 1
        assert client.get("/api/sessions/t-s/turns/9/versions").status_code == 404
        assert "t-s" in [s["thread_id"] for s in client.get("/api/sessions").json()]
        assert len(client.get("/api/sessions").json()) == listed  # no thread was added
        empty = client.post("/api/sessions/t-s/regenerate", json={"message": " "})
        assert empty.status_code == 422
        gone_on = client.post("/api/sessions/t-s/regenerate", json={"turn": 3})
        assert gone_on.status_code == 422 and "gone on" in gone_on.json()["message"]
        # back to version 1: the original last message, and its summaries
        switched = client.post("/api/sessions/t-s/turns/4/versions/1")
        assert switched.status_code == 200 and switched.json()["shown"] == 1
        assert client.post("/api/sessions/t-s/turns/4/versions/7").status_code == 422
        source = client.get("/api/sessions/t-s/export").json()
        assert [t["turn"] for t in source["turns"]] == [1, 2, 3, 4]
        assert source["turns"][-1]["messages"][0]["data"]["content"] == "정리해 줘"
        assert client.get("/api/sessions/t-s").json()["summary_history"][0]["turns"] == [1, 2, 3]
        # edit any turn: a new version of turn 2, whose continuation starts empty
        job = client.post("/api/sessions/t-s/turns/2/versions", json={"message": "회의는 몇 시?"})
        assert job.status_code == 202, job.text
        check_stream(sse(client, job.json()["job_id"]))
        edited = client.get("/api/sessions/t-s/export").json()
        assert [t["turn"] for t in edited["turns"]] == [1, 2]
        assert edited["turns"][-1]["messages"][0]["data"]["content"] == "회의는 몇 시?"
        assert client.post("/api/sessions/t-s/turns/2/versions/1").json()["count"] == 2
        missing = client.post("/api/sessions/t-s/fork", json={"checkpoint_id": "nope"})
        assert missing.status_code == 404 and missing.json()["code"] == "CHECKPOINT_NOT_FOUND"
        assert client.delete(f"/api/sessions/{fork['thread_id']}").status_code == 204
        assert client.delete("/api/sessions/t-s").status_code == 204
        assert client.get("/api/sessions/t-s").status_code == 404
        assert client.get("/api/sessions").json() == []


def test_websocket_conversation_with_an_approval(service: Service) -> None:
    url = service.url.replace("http", "ws") + "/ws/t-ws"
    with connect(url) as ws:
        assert json.loads(ws.recv()) == {"type": "connected", "thread_id": "t-ws"}
        ws.send(json.dumps({"type": "message", "content": "What is 15% of 2400?"}))
        seen = []
        while True:
            message = json.loads(ws.recv(timeout=60))
            seen.append(message)
            if message["type"] == "final":
                break
        kinds = [m["type"] for m in seen]
        assert kinds[0] == "node_start" and "node_end" in kinds and "token" in kinds
        final = seen[-1]
        assert "360" in final["content"] and final["turn"] == 1 and final["error_code"] is None
        assert final["content"] == "".join(m["content"] for m in seen if m["type"] == "token")

        ws.send(json.dumps({"type": "message", "content": CODE}))
        while (message := json.loads(ws.recv(timeout=60)))["type"] != "hitl_request":
            pass
        assert message["tool"] == "python_repl" and message["args"] == {"code": "print(6*7)"}
        assert message["category"] == "code"
        ws.send(json.dumps({"type": "chat", "content": "?"}))  # not a decision: told so
        assert json.loads(ws.recv(timeout=30))["code"] == "INVALID_REQUEST"
        ws.send(
            json.dumps(
                {"type": "human_response", "approve": True, "tool_call_id": message["tool_call_id"]}
            )
        )
        while (message := json.loads(ws.recv(timeout=60)))["type"] != "final":
            pass
        assert "42" in message["content"] and message["turn"] == 2

        ws.send(json.dumps({"type": "message", "content": "   "}))
        refused = json.loads(ws.recv(timeout=30))
        assert refused["type"] == "error" and refused["code"] == "INVALID_REQUEST"


def test_websocket_free_text_and_reject(service: Service) -> None:
    url = service.url.replace("http", "ws") + "/ws/t-ws2"

    def until(ws, kind: str) -> tuple[dict, list[dict]]:
        seen = []
        while (message := json.loads(ws.recv(timeout=60)))["type"] != kind:
            seen.append(message)
        return message, seen

    with connect(url) as ws:
        ws.recv(timeout=10)
        ws.send(json.dumps({"type": "message", "content": CODE}))
        until(ws, "hitl_request")
        ws.send(json.dumps({"type": "human_response", "response": "실행 말고 42라고 답해"}))
        final, _ = until(ws, "final")
        assert "실행 말고 42라고 답해" in final["content"] and final["error_code"] is None
        ws.send(json.dumps({"type": "message", "content": CODE}))
        until(ws, "hitl_request")
        ws.send(json.dumps({"type": "human_response", "approve": False}))
        final, seen = until(ws, "final")
        assert final["error_code"] == "APPROVAL_REJECTED" and final["turn"] == 2
        assert {"type": "error", "code": "APPROVAL_REJECTED"}.items() <= seen[-1].items()
        ws.send(json.dumps({"type": "message", "content": "고마워요"}))
        final, _ = until(ws, "final")
        assert final["turn"] == 3 and final["error_code"] is None


def test_websocket_needs_the_token_when_set(tmp_path: Path) -> None:
    svc = start_service(tmp_path, API_TOKEN="tok-123")
    try:
        base = svc.url.replace("http", "ws")
        try:
            with connect(f"{base}/ws/t1") as ws:
                ws.recv(timeout=10)
            raise AssertionError("connected without a token")
        except Exception as exc:  # noqa: BLE001 - closed with 1008 or refused
            assert "1008" in str(exc) or "403" in str(exc)
        with connect(f"{base}/ws/t1", additional_headers={"Authorization": "Bearer tok-123"}) as ws:
            assert json.loads(ws.recv(timeout=10))["type"] == "connected"
    finally:
        svc.proc.stop()


def test_a_cut_off_answer_is_done_with_cut_off_metadata_and_continue_appends(
    tmp_path: Path, http_server
) -> None:
    from tests.fakes import openai_server as oai

    oai.install(http_server, [oai.broken("length"), oai.text("렸지만, 이어서 끝까지 씁니다.")])
    svc = _on_fake_openai(tmp_path, http_server.url)
    try:
        with svc.client() as client:
            job = client.post("/chat/jobs", json={"message": "긴 답", "thread_id": "t-cut"}).json()
            events = sse(client, job["job_id"])
            check_stream(events)
            assert "error" not in [e["type"] for e in events]  # an answer, not a failure
            turn = next(
                e["metadata"]
                for e in events
                if e["type"] == "metadata" and e["metadata"]["kind"] == "turn"
            )
            assert turn["status"] == "done" and turn["cut_off"] == "LLM_TRUNCATED"
            status = client.get(f"/chat/status/{job['job_id']}").json()
            assert status["status"] == turn["status"]  # the metadata says what the job did
            more = client.post("/api/sessions/t-cut/continue")
            assert more.status_code == 202, more.text
            events = sse(client, more.json()["job_id"])
            check_stream(events)
            tokens = "".join(e["content"] for e in events if e["type"] == "token")
            assert tokens == "렸지만, 이어서 끝까지 씁니다."
            assert client.get("/api/sessions/t-cut").json()["turn_count"] == 1
            exported = client.get("/api/sessions/t-cut/export").json()
            whole = "이 답은 중간에서 잘렸지만, 이어서 끝까지 씁니다."
            assert whole in json.dumps(exported, ensure_ascii=False)
            again = client.post("/api/sessions/t-cut/continue")
            assert again.status_code == 409 and again.json()["code"] == "NOTHING_TO_CONTINUE"
    finally:
        svc.proc.stop()


def test_a_websocket_makes_its_thread_only_when_a_message_is_accepted(service: Service) -> None:
    """Issue 35: connecting made the thread, so a socket that sent nothing, or only refused
    messages, left an empty session in the list."""
    base = service.url.replace("http", "ws")
    with service.client() as client:
        with connect(f"{base}/ws/t-quiet") as ws:
            assert json.loads(ws.recv(timeout=10)) == {"type": "connected", "thread_id": "t-quiet"}
            ws.send(json.dumps({"type": "message", "content": "   "}))
            assert json.loads(ws.recv(timeout=30))["code"] == "INVALID_REQUEST"
            ws.send(json.dumps({"type": "hello"}))
            assert json.loads(ws.recv(timeout=30))["code"] == "INVALID_REQUEST"
        with connect(f"{base}/ws/bad!id") as ws:  # a malformed id is still refused
            refused = json.loads(ws.recv(timeout=10))
            assert refused["type"] == "error" and refused["code"] == "INVALID_REQUEST"
        assert client.get("/api/sessions").json() == []
        assert client.get("/api/sessions/t-quiet").status_code == 404
        with connect(f"{base}/ws/t-quiet") as ws:
            ws.recv(timeout=10)
            ws.send(json.dumps({"type": "message", "content": "안녕하세요"}))
            while json.loads(ws.recv(timeout=60))["type"] != "final":
                pass
        assert [s["thread_id"] for s in client.get("/api/sessions").json()] == ["t-quiet"]


def _on_fake_openai(tmp_path: Path, url: str) -> Service:
    """A service whose model is the fake OpenAI-compatible server at `url`."""
    return start_service(
        tmp_path,
        CHAT_PROVIDER="auto",
        OPENAI_BASE_URL=f"{url}/v1",
        CHAT_MODEL="fake-model",
        LLM_MAX_RETRIES="0",
        RETRIEVAL_MODE="keyword",
        TOOL_DECISION="model",  # the fake server decides the call, not the rule
    )
