"""Issue 34, rows 4-6, against a real `python -m service`: a chunked body past the limit, a
stream asked past its end, per-client stream slots, and every error as `{code, message}`
(odd numbers and text in JSON, bodies that are not UTF-8 or nest too deep, unknown routes
and methods, bad WebSocket frames and ids)."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.fakes import openai_server as oai
from tests.fakes.http_server import FakeHTTPServer
from tests.service.conftest import Service, check_stream, sse, start_service

JSON = {"content-type": "application/json"}


def _rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def _problem(response: httpx.Response, status: int, code: str | None = None) -> dict:
    """The response is `status` with a `{code, message}` body (and `code` when given)."""
    assert response.status_code == status, (response.status_code, response.text[:300])
    body = response.json()
    assert isinstance(body.get("code"), str) and isinstance(body.get("message"), str), body
    assert "detail" not in body or body["code"] == "INVALID_REQUEST", body
    if code is not None:
        assert body["code"] == code, body
    return body


# ---- row 4: a chunked body is counted as it is read


def test_a_chunked_body_past_the_limit_is_refused_without_reading_it(service: Service) -> None:
    total = 64 * 1024 * 1024
    sent = [0]

    def body() -> Iterator[bytes]:
        chunk = b'{"message": "' + b"x" * (256 * 1024 - 13)
        while sent[0] < total:
            sent[0] += len(chunk)
            yield chunk
            chunk = b"x" * (256 * 1024)

    before = _rss_mib(service.proc.popen.pid)
    with service.client() as client:
        started = time.monotonic()
        response = client.post("/chat/jobs", content=body(), headers=JSON)
        took = time.monotonic() - started
    after = _rss_mib(service.proc.popen.pid)
    _problem(response, 413, "BODY_TOO_LARGE")
    assert "1,000,000" in response.json()["message"]
    # the service stopped reading at the limit: the client could not send the rest, and
    # the process did not grow by the body
    assert sent[0] < total / 2, (sent[0], took)
    assert after - before < 40, (before, after)
    with service.client() as client:  # and it serves on
        assert client.get("/health").status_code == 200


def test_a_chunked_body_under_the_limit_is_read(service: Service) -> None:
    def body() -> Iterator[bytes]:
        yield b'{"message": '
        yield b'"hello there"}'

    with service.client() as client:
        response = client.post("/chat/jobs", content=body(), headers=JSON)
        assert response.status_code == 202, response.text
        check_stream(sse(client, response.json()["job_id"]))


def test_a_raw_chunked_body_past_the_limit_gets_413(service: Service) -> None:
    port = int(service.url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(
            b"POST /chat/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        )
        chunk = b"x" * 65536
        try:
            for _ in range(40):  # 2.6 MB, past the 1 MB limit
                sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        except OSError:
            pass  # the service closed the connection once it had answered
        reply = b""
        while b"\r\n\r\n" not in reply or not reply.rstrip().endswith(b"}"):
            data = sock.recv(65536)
            if not data:
                break
            reply += data
    head, _, payload = reply.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413"), reply[:300]
    assert json.loads(payload)["code"] == "BODY_TOO_LARGE"


# ---- row 5: a stream asked past its end, and per-client stream slots


def test_a_stream_asked_past_the_end_of_a_finished_job_ends_at_once(tmp_path: Path) -> None:
    svc = start_service(tmp_path, MAX_OPEN_STREAMS="4")
    try:
        with svc.client() as client:
            job = client.post("/chat/jobs", json={"message": "What is 15% of 2400?"}).json()
            whole = sse(client, job["job_id"])
            check_stream(whole)
            last = whole[-1]["seq"]
            for asked in (last, last + 1, 9999, last, last):  # more than MAX_OPEN_STREAMS
                started = time.monotonic()
                response = client.get(
                    f"/chat/stream/{job['job_id']}",
                    headers={"Last-Event-ID": str(asked)},
                    timeout=5,
                )
                assert response.status_code == 204 and response.content == b""
                assert time.monotonic() - started < 2
            # ...and no slot was kept: a stream from the start still opens and ends
            assert sse(client, job["job_id"]) == whole
            assert sse(client, job["job_id"], last_event_id=last - 1) == whole[-1:]
    finally:
        svc.proc.stop()


def _slow(tmp_path: Path, http_server: FakeHTTPServer, jobs: int, **env: str) -> Service:
    oai.install(http_server, [oai.slow_text(" ".join(["w"] * 80), 0.05)] * jobs)
    return start_service(
        tmp_path,
        OPENAI_API_KEY="sk-test",
        OPENAI_BASE_URL=f"{http_server.url}/v1",
        CHAT_PROVIDER="openai",
        **env,
    )


def _hold(open_client, job_id: str, count: int) -> tuple[list[threading.Thread], list[int]]:
    """`count` streams of the job held open (read to the end) by clients `open_client` makes."""
    opened = threading.Barrier(count + 1)
    statuses: list[int] = []

    def hold() -> None:
        with open_client() as other, other.stream("GET", f"/chat/stream/{job_id}") as r:
            statuses.append(r.status_code)
            opened.wait(30)
            for _ in r.iter_lines():
                pass

    holders = [threading.Thread(target=hold) for _ in range(count)]
    for holder in holders:
        holder.start()
    opened.wait(30)
    return holders, statuses


def test_stream_slots_are_counted_per_client(tmp_path: Path, http_server: FakeHTTPServer) -> None:
    svc = _slow(tmp_path, http_server, 1, MAX_OPEN_STREAMS="4", MAX_STREAMS_PER_CLIENT="2")
    try:
        with svc.client() as client:
            job = client.post("/chat/jobs", json={"message": "slowly"}).json()
            holders, statuses = _hold(svc.client, job["job_id"], 2)
            third = client.get(f"/chat/stream/{job['job_id']}")
            _problem(third, 429, "TOO_MANY_STREAMS")
            assert "per client" in third.json()["message"]
            # another client (another loopback address) still gets a slot
            transport = httpx.HTTPTransport(local_address="127.0.0.2")
            with httpx.Client(base_url=svc.url, transport=transport, timeout=60) as other:
                check_stream(sse(other, job["job_id"]))
            for holder in holders:
                holder.join(60)
            assert statuses == [200, 200]
            check_stream(sse(client, job["job_id"]))  # the slots are free again
    finally:
        svc.proc.stop()


def test_stream_slots_are_counted_per_user(tmp_path: Path, http_server: FakeHTTPServer) -> None:
    from service.users import add_user

    users = tmp_path / "users.jsonl"
    tokens = {name: add_user(users, name) for name in ("alice", "bob")}
    svc = _slow(
        tmp_path,
        http_server,
        2,
        USERS_FILE=str(users),
        API_TOKEN="health-token",
        MAX_OPEN_STREAMS="8",
        MAX_STREAMS_PER_CLIENT="1",
    )

    def as_user(name: str) -> httpx.Client:
        headers = {"Authorization": f"Bearer {tokens[name]}"}
        return httpx.Client(base_url=svc.url, headers=headers, timeout=60)

    try:
        with as_user("alice") as alice, as_user("bob") as bob:
            job_a = alice.post("/chat/jobs", json={"message": "slowly"}).json()
            job_b = bob.post("/chat/jobs", json={"message": "slowly too"}).json()
            holders, statuses = _hold(lambda: as_user("alice"), job_a["job_id"], 1)
            second = alice.get(f"/chat/stream/{job_a['job_id']}")
            _problem(second, 429, "TOO_MANY_STREAMS")
            assert "user:alice" in second.json()["message"]
            # bob, from the same address, has a slot of his own
            check_stream(sse(bob, job_b["job_id"]))
            holders[0].join(60)
            assert statuses == [200]
    finally:
        svc.proc.stop()


# ---- row 6: every error is {code, message} with the right status


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_a_number_that_is_not_finite_is_422(service: Service, number: str) -> None:
    with service.client() as client:
        body = f'{{"message": "hi", "compression_rate": {number}}}'.encode()
        problem = _problem(client.post("/chat/jobs", content=body, headers=JSON), 422)
        assert "compression_rate" in problem["message"]
        assert "finite" in problem["message"]
        problem = _problem(client.post("/chat", content=body, headers=JSON), 422)
        assert "compression_rate" in problem["message"]
        assert client.get("/api/sessions").json() == []


def test_a_lone_surrogate_in_a_title_is_422(service: Service) -> None:
    with service.client() as client:
        job = client.post("/chat/jobs", json={"message": "hi", "thread_id": "t-sur"}).json()
        check_stream(sse(client, job["job_id"]))
        body = b'{"title": "bad \\ud800 title"}'
        problem = _problem(client.patch("/api/sessions/t-sur", content=body, headers=JSON), 422)
        assert "title" in problem["message"] and "surrogate" in problem["message"]
        message = b'{"message": "\\udfff"}'
        _problem(client.post("/chat/jobs", content=message, headers=JSON), 422)
        # a pair is a character, and a title may hold it
        good = b'{"title": "ok \\ud83d\\ude00"}'
        assert client.patch("/api/sessions/t-sur", content=good, headers=JSON).status_code == 200
        assert client.get("/api/sessions/t-sur").json()["title"] == "ok \U0001f600"


def test_a_body_that_is_not_utf8_or_nests_too_deep_is_400(service: Service) -> None:
    with service.client() as client:
        latin = '{"message": "café"}'.encode("latin-1")
        _problem(client.post("/chat/jobs", content=latin, headers=JSON), 400, "INVALID_ENCODING")
        deep = b'{"message": "hi", "thread_id": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
        _problem(client.post("/chat/jobs", content=deep, headers=JSON), 400, "JSON_TOO_DEEP")
        nested = b"[" * 50 + b"]" * 50
        _problem(client.post("/chat/jobs", content=nested, headers=JSON), 400, "JSON_TOO_DEEP")
        assert client.get("/health").status_code == 200


def test_unknown_routes_and_wrong_methods_say_so(service: Service) -> None:
    with service.client() as client:
        _problem(client.get("/no/such/thing"), 404, "NOT_FOUND")
        wrong = client.put("/chat/jobs", json={"message": "hi"})
        _problem(wrong, 405, "METHOD_NOT_ALLOWED")
        assert "POST" in wrong.headers["allow"]
        _problem(client.delete("/health"), 405, "METHOD_NOT_ALLOWED")
        _problem(client.get("/chat/status/nope"), 404, "JOB_NOT_FOUND")
        _problem(client.get("/api/sessions/bad%00id"), 404, "SESSION_NOT_FOUND")


def _ws(service: Service, path: str) -> str:
    return service.url.replace("http", "ws") + path


def _final(ws) -> dict:
    while (message := json.loads(ws.recv(timeout=60)))["type"] != "final":
        pass
    return message


def test_a_bad_websocket_frame_gets_an_error_frame_and_the_socket_stays(
    service: Service,
) -> None:
    with connect(_ws(service, "/ws/t-frames")) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "connected"
        for frame, code in [
            ("not json at all", "INVALID_REQUEST"),
            (b"\x00\x01binary", "INVALID_FRAME"),
            ('{"type": "message", "content": "\\ud800"}', "INVALID_REQUEST"),
            ("[" * 1000 + "]" * 1000, "JSON_TOO_DEEP"),
            ('{"type": "dance"}', "INVALID_REQUEST"),
        ]:
            ws.send(frame)
            error = json.loads(ws.recv(timeout=10))
            assert error["type"] == "error" and error["code"] == code, (frame, error)
            assert error["message"]
        ws.send(json.dumps({"type": "message", "content": "What is 15% of 2400?"}))
        assert "360" in _final(ws)["content"]


def test_a_malformed_websocket_thread_id_is_refused_with_a_policy_close(
    service: Service,
) -> None:
    for path in ("/ws/bad%00id", "/ws/" + "x" * 101):
        with connect(_ws(service, path)) as ws:
            error = json.loads(ws.recv(timeout=10))
            assert error["type"] == "error" and error["code"] == "INVALID_REQUEST", error
            assert "thread id" in error["message"]
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    with connect(_ws(service, "/ws/t-fine")) as ws:  # and the service serves on
        assert json.loads(ws.recv(timeout=10))["type"] == "connected"
