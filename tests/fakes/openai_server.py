"""An OpenAI-compatible /v1/chat/completions endpoint on the fake HTTP server."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

from tests.fakes.http_server import FakeHTTPServer, Reply, Request


def _chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
    body = {
        "id": "chatcmpl-fake",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "fake-model",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    return f"data: {json.dumps(body, ensure_ascii=False)}\n\n".encode()


def stream_text(text: str, pieces: int = 4) -> Iterator[bytes]:
    """SSE chunks that spell `text` in a few pieces, then usage and [DONE]."""
    size = max(1, len(text) // pieces)
    yield _chunk({"role": "assistant", "content": ""})
    for i in range(0, len(text), size):
        yield _chunk({"content": text[i : i + size]})
    yield _chunk({}, "stop")
    usage = {
        "id": "chatcmpl-fake",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "fake-model",
        "choices": [],
        "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
    }
    yield f"data: {json.dumps(usage)}\n\n".encode()
    yield b"data: [DONE]\n\n"


def stream_tool_call(name: str, args: dict[str, Any], call_id: str = "call_1") -> Iterator[bytes]:
    """SSE chunks of one tool call."""
    yield _chunk(
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "index": 0,
                    "id": call_id,
                    "type": "function",
                    "function": {"name": name, "arguments": ""},
                }
            ],
        }
    )
    yield _chunk({"tool_calls": [{"index": 0, "function": {"arguments": json.dumps(args)}}]})
    yield _chunk({}, "tool_calls")
    yield b"data: [DONE]\n\n"


Responder = Callable[[dict[str, Any]], Reply]


def text(reply: str) -> Responder:
    return lambda body: Reply(chunks=stream_text(reply))


def slow_text(reply: str, pause_s: float) -> Responder:
    """A reply streamed word by word with a pause before each word (a slow model server)."""

    def chunks() -> Iterator[bytes]:
        yield _chunk({"role": "assistant", "content": ""})
        for word in reply.split(" "):
            time.sleep(pause_s)
            yield _chunk({"content": word + " "})
        yield _chunk({}, "stop")
        yield b"data: [DONE]\n\n"

    return lambda body: Reply(chunks=chunks())


def tool(name: str, args: dict[str, Any], call_id: str = "call_1") -> Responder:
    return lambda body: Reply(chunks=stream_tool_call(name, args, call_id))


def status(code: int) -> Responder:
    return lambda body: Reply(code, {"error": {"message": f"fake {code}", "type": "server_error"}})


def install(
    server: FakeHTTPServer,
    script: list[Responder],
    summary: Callable[[dict[str, Any]], str] | None = None,
    entities: Callable[[dict[str, Any]], list[dict[str, Any]]] | None = None,
    label: Callable[[dict[str, Any]], str] | None = None,
    default: Responder | None = None,
    memory: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """Answer chat calls from `script` in order (then with `default`), summary calls with
    `summary`, structured entity calls with `entities`, safeguard checks with `label`,
    seed 003's memory updates with `memory` ({memory, entities}); return the bodies seen."""
    bodies: list[dict[str, Any]] = []

    def handle(req: Request) -> Reply:
        body = req.json()
        bodies.append(body)
        last = body["messages"][-1]["content"] or ""
        schema = ((body.get("response_format") or {}).get("json_schema") or {}).get("name")
        if schema == "EntityList":  # seed 003's entities from the summary model
            found = entities(body) if entities is not None else []
            return Reply(chunks=stream_text(json.dumps({"entities": found}, ensure_ascii=False)))
        if schema == "MemoryUpdate":  # seed 003's memory update, one call
            update = memory(body) if memory is not None else {"memory": "", "entities": []}
            return Reply(chunks=stream_text(json.dumps(update, ensure_ascii=False)))
        if schema == "SafeguardDecision":  # the safeguard's model check
            found = label(body) if label is not None else "PASS"
            return Reply(chunks=stream_text(json.dumps({"label": found, "reason": "fake"})))
        if body.get("response_format"):  # the router's structured decision
            return Reply(chunks=stream_text(json.dumps({"route": "agent", "reason": "small talk"})))
        said = " ".join(str(m.get("content") or "") for m in body["messages"])
        if (
            summary is not None
            and isinstance(last, str)
            and ("요약하세요" in said or "다시 쓰세요" in said)
        ):
            return Reply(chunks=stream_text(summary(body)))
        if script:
            return script.pop(0)(body)
        if default is not None:
            return default(body)
        return Reply(chunks=stream_text("(no more script)"))

    server.route("POST", "/v1/chat/completions", handle)
    return bodies


def broken(kind: str) -> Responder:
    """A reply that must not be taken as an answer: length, unfinished, empty, empty choices,
    cut tool arguments, or content_filter."""

    def chunks() -> Iterator[bytes]:
        if kind == "no_choices":
            body = {"id": "x", "object": "chat.completion.chunk", "created": 0, "model": "m"}
            yield f"data: {json.dumps(body | {'choices': []})}\n\n".encode()
        elif kind in ("cut_tool_args", "cut_tool_args_stop", "cut_sum_args_stop"):
            cut = (
                '{"expression": "1+'
                if kind == "cut_sum_args_stop"
                else '{"expression": "123456*1000'
            )

            yield _chunk(
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "index": 0,
                            "id": "call_cut",
                            "type": "function",
                            "function": {"name": "calculator", "arguments": ""},
                        }
                    ],
                }
            )
            yield _chunk({"tool_calls": [{"index": 0, "function": {"arguments": cut}}]})
            # cut at the length limit, or cut and the stream ends as a normal call does
            yield _chunk({}, "length" if kind == "cut_tool_args" else "tool_calls")
        else:
            text = {
                "length": "이 답은 중간에서 잘",
                "unfinished": "끝나지 않은 답",
                "empty": "",
            }.get(kind, "")
            yield _chunk({"role": "assistant", "content": text})
            finish = {"length": "length", "empty": "stop", "content_filter": "content_filter"}.get(
                kind
            )
            if finish:
                yield _chunk({}, finish)
        yield b"data: [DONE]\n\n"

    return lambda body: Reply(chunks=chunks())
