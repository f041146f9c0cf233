"""A fake of llama.cpp's OpenAI-compatible chat server, with the habits that broke the app.

As seen with llama-cpp-python's server (issue 33): `response_format` of type json_schema is
refused with HTTP 500 ("Input should be 'text' or 'json_object'"); a streamed request with
`tool_choice` is refused; tools without `tool_choice` are ignored; `stream_options` is
ignored (no usage chunk); with no `max_tokens` it writes until its context is full
(finish_reason=length); a chat template that drops the system role never shows the model
the system text; every tool call is `call_1`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from langchain_core.tools import BaseTool, tool

from graph.settings import Settings, load_settings
from tests.fakes.http_server import FakeHTTPServer, Reply, Request
from tests.fakes.openai_server import _chunk as chunk

Answer = dict[str, Any]
"""What the model says: {"content": str} or {"tool_calls": [{"name", "arguments"}]}."""
Script = Callable[["Seen"], Answer]

CONTEXT_FULL = 4_000
"""Characters written before the context is full when no max_tokens is sent."""
STREAM_TOOLS_REFUSED = "Automatic streaming tool choice is not supported"


@dataclass
class Seen:
    """One chat request as the server saw it, and what its template let through."""

    body: dict[str, Any]
    prompt: list[dict[str, Any]]
    """The messages the model saw (system messages dropped when the template drops them)."""

    @property
    def prompt_text(self) -> str:
        """Every message the model saw, joined."""
        return "\n".join(str(m.get("content") or "") for m in self.prompt)


@dataclass
class LlamaCpp:
    """The fake server's behaviour and what it saw."""

    drops_system: bool = True
    seen: list[Seen] = field(default_factory=list)
    refused: list[dict[str, Any]] = field(default_factory=list)

    @property
    def requests(self) -> list[dict[str, Any]]:
        """Every chat request body, refused ones included."""
        return [*self.refused, *(s.body for s in self.seen)]


def install(
    server: FakeHTTPServer,
    script: list[Script],
    default: Script | None = None,
    drops_system: bool = True,
    props: dict[str, Any] | None = None,
    refuses_tool_rounds: bool = False,
) -> LlamaCpp:
    """Serve /v1/chat/completions like llama.cpp's server; answers come from `script`.

    With `refuses_tool_rounds`, a request holding a tool round (a `tool` message, or an
    assistant message with `tool_calls`) is refused as a chat template with no tool role
    refuses it (Gemma's: roles must alternate).
    """
    fake = LlamaCpp(drops_system=drops_system)

    def handle(req: Request) -> Reply:
        body = req.json()
        kind = (body.get("response_format") or {}).get("type")
        if kind not in (None, "text", "json_object"):
            fake.refused.append(body)
            message = (
                "1 validation error for CreateChatCompletionRequest\nresponse_format.type\n"
                "  Input should be 'text' or 'json_object'"
            )
            return Reply(500, {"error": {"message": message, "type": "internal_server_error"}})
        if refuses_tool_rounds and any(
            m.get("role") == "tool" or m.get("tool_calls") for m in body.get("messages") or []
        ):
            fake.refused.append(body)
            message = "Conversation roles must alternate user/assistant/user/assistant/..."
            return Reply(500, {"error": {"message": message, "type": "internal_server_error"}})
        if body.get("stream") and body.get("tool_choice"):
            fake.refused.append(body)
            return Reply(500, {"error": {"message": STREAM_TOOLS_REFUSED, "type": "server_error"}})
        messages = body.get("messages") or []
        prompt = [m for m in messages if not (fake.drops_system and m.get("role") == "system")]
        seen = Seen(body, prompt)
        fake.seen.append(seen)
        answer = script.pop(0)(seen) if script else (default or echo)(seen)
        if answer.get("tool_calls") and not body.get("tool_choice"):
            answer = {"content": "I would call a tool, but none was offered."}  # ignored
        text = str(answer.get("content") or "")
        finish = "tool_calls" if answer.get("tool_calls") else "stop"
        limit = body.get("max_tokens")
        if limit is None and not answer.get("tool_calls"):
            text, finish = (text * (CONTEXT_FULL // max(1, len(text)) + 1))[:CONTEXT_FULL], "length"
        elif limit is not None and len(text) > int(limit):
            text, finish = text[: int(limit)], "length"
        calls = [
            {
                "id": "call_1",  # the same id every time
                "type": "function",
                "function": {"name": c["name"], "arguments": c["arguments"]},
            }
            for c in answer.get("tool_calls") or []
        ]
        if body.get("stream"):
            return Reply(chunks=_stream(text, calls, finish))
        message: dict[str, Any] = {"role": "assistant", "content": text or None}
        if calls:
            message["tool_calls"] = calls
        return Reply(
            json_body={
                "id": "chatcmpl-llama",
                "object": "chat.completion",
                "created": 0,
                "model": "local.gguf",
                "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                "usage": {"prompt_tokens": 50, "completion_tokens": 10, "total_tokens": 60},
            }
        )

    server.route("POST", "/v1/chat/completions", handle)
    if props is not None:
        server.route("GET", "/props", lambda req: Reply(json_body=props))
    return fake


def _stream(text: str, calls: list[dict[str, Any]], finish: str) -> Iterator[bytes]:
    """SSE chunks with no usage chunk (stream_options is ignored)."""
    yield chunk({"role": "assistant", "content": ""})
    for i in range(0, len(text), 8):
        yield chunk({"content": text[i : i + 8]})
    if calls:
        yield chunk({"tool_calls": [{**c, "index": i} for i, c in enumerate(calls)]})
    yield chunk({}, finish)
    yield b"data: [DONE]\n\n"


def echo(seen: Seen) -> Answer:
    """A base model's habit: say the last message back."""
    return {"content": str(seen.prompt[-1].get("content") or "") if seen.prompt else ""}


def say(text: str) -> Script:
    """Answer `text`."""
    return lambda seen: {"content": text}


def call(name: str, args: dict[str, Any]) -> Script:
    """Call tool `name` with `args`."""
    return lambda seen: {
        "tool_calls": [{"name": name, "arguments": json.dumps(args, ensure_ascii=False)}]
    }


def app_settings(server: FakeHTTPServer, tmp_path: Path, **extra: str) -> Settings:
    """The app's settings against the fake at `server` (`extra` overrides any of them)."""
    env = {
        "OPENAI_BASE_URL": f"{server.url}/v1",
        "CHAT_MODEL": "local.gguf",
        "LLM_MAX_RETRIES": "2",
        "LLM_TIMEOUT_S": "5",
        "CHAT_DB_PATH": str(tmp_path / "chat.sqlite"),
        "TOOL_DECISION": "model",  # the model's own calls, written or native
    }
    return load_settings({**env, **extra})


def calculator(ran: list[str]) -> BaseTool:
    """A calculator tool for `a*b` and `a+b` that records each expression it ran in `ran`."""

    @tool
    def calculator(expression: str) -> str:
        """Evaluate an arithmetic expression."""
        ran.append(expression)
        a, op, b = expression.partition("*") if "*" in expression else expression.partition("+")
        return str(int(a) * int(b) if op == "*" else int(a) + int(b))

    return calculator
