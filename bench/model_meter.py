"""What a turn costs on a model server: every request, its kind, tokens and first token.

    meter = ModelMeter(upstream="http://127.0.0.1:8080/v1", server_log=Path(...))
    meter.start()                       # the product's OPENAI_BASE_URL is meter.base_url
    meter.turn = 3                      # the turn the next requests belong to
    ...
    meter.calls                         # one Call per request
    meter.stop()

An HTTP proxy between the product and the model server (the bench's, never the app's): it
forwards each request as it is, one at a time (a local server serves one at a time
anyway), and records

- its kind: router, rerank, safeguard, entities, memory, plan, summary, answer, embed
  (from the request itself: the structured decision's schema name, the prompt's fixed
  text, the endpoint);
- the time to its first token (the first content or tool-call delta of a stream; the
  whole answer of a request that is not streamed);
- its prompt and completion tokens: the server's `usage` when it sends one (non-streamed
  answers, embeddings); from the server's log for a llama-cpp-python server started with
  `--verbose true` (its "prefix-match hit, remaining N prompt tokens to eval" and
  "prompt eval time = ... / N tokens" lines: the prompt tokens it evaluated, the rest came
  from its prefix cache); else estimated from the text (`estimated`).
"""

from __future__ import annotations

import json
import re
import string
import sys
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx

SCHEMA_KINDS = {
    "RouteDecision": "router",
    "JudgementSchema": "rerank",
    "SafeguardDecision": "safeguard",
    "EntityList": "entities",
    "MemoryUpdate": "memory",
}
"""A structured decision's json_schema name -> the kind of call."""
PROMPT_KINDS = (
    ("router", "router.system"),
    ("rerank", "rerank.system"),
    ("entities", "summary.entities"),
    ("safeguard", "safeguard.classify"),
    ("plan", "supervisor.plan"),
    ("memory", "summary.memory_update"),
    ("summary", "summary.generate"),
    ("summary", "summary.digest"),
    ("summary_retry", "summary.retry"),
)
"""A prompt template whose fixed opening marks the kind of call (json_object and text levels
carry no schema name)."""


def _marks() -> list[tuple[str, str]]:
    from prompt import TEMPLATES

    found = []
    for kind, name in PROMPT_KINDS:
        if name not in TEMPLATES:
            continue
        literal = next(string.Formatter().parse(TEMPLATES[name]))[0].strip()[:24]
        if literal:
            found.append((kind, literal))
    return found


_MARKS: list[tuple[str, str]] | None = None


def _text(message: dict[str, Any]) -> str:
    content = message.get("content") or ""
    if isinstance(content, list):
        return " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return str(content)


def request_kind(path: str, body: Any) -> str:
    """What a request to the model server is for (module docstring)."""
    global _MARKS
    if path.endswith("/embeddings"):
        return "embed"
    if not isinstance(body, dict):
        return "other"
    schema = ((body.get("response_format") or {}).get("json_schema") or {}).get("name", "")
    if schema in SCHEMA_KINDS:
        return SCHEMA_KINDS[schema]
    if _MARKS is None:
        _MARKS = _marks()
    blob = "\n".join(_text(m) for m in body.get("messages") or [] if isinstance(m, dict))
    for kind, mark in _MARKS:
        if mark in blob:
            return kind
    return "answer"


@dataclass
class Call:
    """One request to the model server, as the meter saw it."""

    turn: int
    kind: str
    streamed: bool
    status: int = 0
    seconds: float = 0.0
    first_token_s: float | None = None
    """Seconds to the first content or tool-call delta (None: none came)."""
    prompt_tokens: int | None = None
    """The whole prompt, in the server's tokens."""
    prompt_evaluated: int | None = None
    """Prompt tokens the server evaluated (the rest it took from its prefix cache)."""
    completion_tokens: int | None = None
    estimated: bool = False
    """Tokens estimated from the text: the server reported none."""


@dataclass
class _LogReader:
    path: Path | None
    offset: int = 0

    _HIT = re.compile(r"(\d+) prefix-match hit, remaining (\d+) prompt tokens to eval")
    _PROMPT = re.compile(r"prompt eval time =\s*[\d.]+ ms /\s*(\d+) tokens")
    _EVAL = re.compile(r"\beval time =\s*[\d.]+ ms /\s*(\d+) runs")

    def new_lines(self) -> str:
        if self.path is None:
            return ""
        try:
            with self.path.open("rb") as f:
                f.seek(self.offset)
                data = f.read()
        except OSError:
            return ""
        self.offset += len(data)
        return data.decode("utf-8", "replace")

    def read(self, call: Call) -> None:
        """Put the server's counts of the lines since the last call on `call`."""
        text = self.new_lines()
        evaluated = [int(m[1]) for m in self._PROMPT.finditer(text)]
        runs = [int(m[1]) for m in self._EVAL.finditer(text)]
        hits = [(int(m[1]), int(m[2])) for m in self._HIT.finditer(text)]
        if not evaluated:
            return
        call.prompt_evaluated = sum(evaluated)
        cached = sum(h for h, _ in hits)
        if call.prompt_tokens is None:
            call.prompt_tokens = call.prompt_evaluated + cached
        if call.completion_tokens is None and call.kind != "embed":
            call.completion_tokens = sum(runs)


@dataclass
class ModelMeter:
    """The proxy (module docstring). `base_url` ends in /v1 as OPENAI_BASE_URL wants it."""

    upstream: str
    server_log: Path | None = None
    turn: int = 0
    calls: list[Call] = field(default_factory=list)
    _server: ThreadingHTTPServer | None = field(default=None, repr=False)
    _one_at_a_time: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _reader: _LogReader = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.upstream = self.upstream.rstrip("/")
        self._reader = _LogReader(self.server_log)
        self._reader.new_lines()  # what the server logged before the meter started is not ours

    @property
    def base_url(self) -> str:
        assert self._server is not None
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def start(self) -> ModelMeter:
        meter = self
        client = httpx.Client(timeout=httpx.Timeout(3600, connect=10))

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                return

            def _forward(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                path = self.path
                target = meter.upstream + path.removeprefix("/v1")
                try:
                    body = json.loads(raw) if raw else None
                except ValueError:
                    body = None
                headers = {
                    k: v
                    for k, v in self.headers.items()
                    if k.lower() not in ("host", "content-length", "connection", "accept-encoding")
                }
                if self.command == "GET":
                    reply = client.get(target, headers=headers)
                    self._send_whole(reply.status_code, reply.headers, reply.content)
                    return
                call = Call(
                    turn=meter.turn,
                    kind=request_kind(path, body),
                    streamed=bool(isinstance(body, dict) and body.get("stream")),
                )
                with meter._one_at_a_time:
                    meter.calls.append(call)
                    start = time.perf_counter()
                    with client.stream("POST", target, content=raw, headers=headers) as reply:
                        call.status = reply.status_code
                        if call.streamed and reply.status_code == 200:
                            self._relay(reply, call, start)
                        else:
                            content = reply.read()
                            call.first_token_s = time.perf_counter() - start
                            self._usage(content, call)
                            self._send_whole(reply.status_code, reply.headers, content)
                    call.seconds = time.perf_counter() - start
                    time.sleep(0.05)  # the server logs its counts as it finishes
                    meter._reader.read(call)
                    if call.prompt_tokens is None and isinstance(body, dict):
                        call.estimated = True
                        call.prompt_tokens = _estimate(body)

            def _usage(self, content: bytes, call: Call) -> None:
                try:
                    usage = json.loads(content).get("usage") or {}
                except (ValueError, AttributeError):
                    return
                if usage.get("prompt_tokens") is not None:
                    call.prompt_tokens = int(usage["prompt_tokens"])
                if usage.get("completion_tokens") is not None:
                    call.completion_tokens = int(usage["completion_tokens"])

            def _relay(self, reply: httpx.Response, call: Call, start: float) -> None:
                self.send_response(reply.status_code)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                pending = b""
                for chunk in reply.iter_raw():
                    if call.first_token_s is None:
                        pending += chunk
                        if _has_token(pending):
                            call.first_token_s = time.perf_counter() - start
                    self.wfile.write(f"{len(chunk):X}\r\n".encode() + chunk + b"\r\n")
                    self.wfile.flush()
                self.wfile.write(b"0\r\n\r\n")

            def _send_whole(self, status: int, headers: Any, content: bytes) -> None:
                self.send_response(status)
                self.send_header("Content-Type", headers.get("content-type", "application/json"))
                self.send_header("Content-Length", str(len(content)))
                self.end_headers()
                self.wfile.write(content)

            do_GET = _forward
            do_POST = _forward

        self._server = _Quiet(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def of_turn(self, turn: int) -> list[Call]:
        """The turn's calls, once the one in flight (if any) is counted."""
        with self._one_at_a_time:
            return [c for c in self.calls if c.turn == turn]


_DELTA = re.compile(rb'"(?:content|arguments)"\s*:\s*"[^"]')


class _Quiet(ThreadingHTTPServer):
    """The proxy's server, quiet when a client drops an idle kept-alive connection."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


def _has_token(data: bytes) -> bool:
    """Whether a stream so far carries a content or tool-call argument delta."""
    return bool(_DELTA.search(data))


def _estimate(body: dict[str, Any]) -> int:
    """Tokens of a request's messages, estimated as the product does (graph.budgets)."""
    from graph.budgets import estimate_tokens

    return sum(estimate_tokens(_text(m)) for m in body.get("messages") or [] if isinstance(m, dict))
