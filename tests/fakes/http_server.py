"""A local HTTP server for tests: real clients talk HTTP to it, no network is touched.

Routes map (method, path) to a handler that gets the parsed request and returns a
`Reply`. Every request is recorded so tests can assert what the client sent.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit


@dataclass
class Request:
    """One request as the fake server saw it."""

    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        """The body parsed as JSON."""
        return json.loads(self.body or b"null")


@dataclass
class Reply:
    """What the fake server answers: a status, a JSON body or raw bytes, or a stream."""

    status: int = 200
    json_body: Any = None
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    chunks: Iterable[bytes] | None = None
    delay_s: float = 0.0


Handler = Callable[[Request], Reply]


class FakeHTTPServer:
    """Threaded HTTP server on 127.0.0.1 with an ephemeral port."""

    def __init__(self) -> None:
        self.routes: dict[tuple[str, str], Handler] = {}
        self.requests: list[Request] = []
        self._server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        """Base URL, e.g. http://127.0.0.1:43123."""
        assert self._server is not None
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def route(self, method: str, path: str, handler: Handler) -> None:
        """Answer `method path` (path without query string) with `handler`."""
        self.routes[(method.upper(), path)] = handler

    def start(self) -> None:
        """Start serving in a daemon thread."""
        fake = self

        class _Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                return

            def _handle(self) -> None:
                parts = urlsplit(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                req = Request(
                    method=self.command,
                    path=parts.path,
                    query=parse_qs(parts.query),
                    headers={k.lower(): v for k, v in self.headers.items()},
                    body=body,
                )
                fake.requests.append(req)
                handler = fake.routes.get((self.command, parts.path))
                reply = handler(req) if handler else Reply(404, {"error": "no route"})
                if reply.delay_s:
                    time.sleep(reply.delay_s)
                if reply.chunks is not None:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", "text/event-stream")
                    self.send_header("Transfer-Encoding", "chunked")
                    for k, v in reply.headers.items():
                        self.send_header(k, v)
                    self.end_headers()
                    try:
                        for chunk in reply.chunks:
                            self.wfile.write(f"{len(chunk):X}\r\n".encode() + chunk + b"\r\n")
                            self.wfile.flush()
                        self.wfile.write(b"0\r\n\r\n")
                    except (BrokenPipeError, ConnectionResetError):
                        pass
                    return
                payload = reply.body
                content_type = "text/plain"
                if reply.json_body is not None:
                    payload = json.dumps(reply.json_body).encode()
                    content_type = "application/json"
                self.send_response(reply.status)
                self.send_header("Content-Type", reply.headers.pop("Content-Type", content_type))
                for k, v in reply.headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                try:
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            do_GET = _handle
            do_POST = _handle

        class _Server(ThreadingHTTPServer):
            def handle_error(self, request: Any, client_address: Any) -> None:
                return  # clients hanging up early (timeouts under test) are expected

        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        """Stop serving."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None


@contextmanager
def serve() -> Iterator[FakeHTTPServer]:
    """Run a fake server for the duration of a `with` block."""
    server = FakeHTTPServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()
