"""A fake OpenAI-compatible server that treats `response_format` as a given kind of server.

- `strict`: takes json_schema and json_object and answers the decision as bare JSON
  (OpenAI itself);
- `llama`: answers json_schema with HTTP 500 and the pydantic error llama-cpp-python's
  server gives ("Input should be 'text' or 'json_object'"), takes json_object;
- `ignore`: takes any response_format and ignores it: prose around a ```json fence;
- `garbage`: takes any response_format and answers prose with no JSON in it.

The decision asked for is told by the json_schema's name, or else by the schema's name in
the prompt (`asked_schema`). Every request body is kept, so tests count what was sent.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Literal

from tests.fakes.http_server import FakeHTTPServer, Reply, Request
from tests.fakes.openai_server import stream_text

Behaviour = Literal["strict", "llama", "ignore", "garbage"]

LLAMA_ERROR = (
    "1 validation error for CreateChatCompletionRequest\nresponse_format.type\n"
    "  Input should be 'text' or 'json_object' [type=literal_error, "
    "input_value='json_schema', input_type=str]\n"
    "    For further information visit https://errors.pydantic.dev/2.11/v/literal_error"
)
"""What llama-cpp-python's server answers (HTTP 500) to a json_schema response_format."""

SCHEMAS = ("RouteDecision", "JudgementSchema", "SafeguardDecision", "EntityList", "MemoryUpdate")
"""The structured decisions the app asks for."""

ANSWERS: dict[str, dict[str, Any]] = {
    "RouteDecision": {"route": "agent", "reason": "small talk"},
    "JudgementSchema": {
        "ranked_indices": [1, 2],
        "is_sufficient": True,
        "missing": [],
        "next_action": None,
        "refined_query": "",
        "confidence": 0.9,
    },
    "SafeguardDecision": {"label": "PASS", "reason": "fake"},
    "EntityList": {"entities": [{"key": "budget", "value": "$10,000", "turn": 1}]},
    "MemoryUpdate": {
        "memory": "사용자 철수는 클라우드 비용을 줄이려 하며 예산은 $10,000이다.",
        "entities": [{"key": "budget", "value": "$10,000", "turn": 1}],
    },
}
"""Each decision's answer unless a test gives its own."""

Answer = dict[str, Any] | Callable[[dict[str, Any]], dict[str, Any]]


def response_format_type(body: dict[str, Any]) -> str:
    """The request's response_format type ('' without one)."""
    return str((body.get("response_format") or {}).get("type") or "")


def asked_schema(body: dict[str, Any]) -> str:
    """The decision a request asks for: its json_schema's name or a schema named in its text."""
    named = ((body.get("response_format") or {}).get("json_schema") or {}).get("name")
    if named:
        return str(named)
    text = " ".join(str(m.get("content") or "") for m in body.get("messages", []))
    return next((name for name in SCHEMAS if name in text), "")


def _answer(body: dict[str, Any], text: str) -> Reply:
    """`text` streamed when the request asks for a stream, else one completion."""
    if body.get("stream"):
        return Reply(chunks=stream_text(text))
    completion = {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 0,
        "model": body.get("model", "fake-model"),
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
    }
    return Reply(json_body=completion)


class DecisionServer:
    """Answers /v1/chat/completions as a server of one `Behaviour` does."""

    def __init__(
        self,
        behaviour: Behaviour,
        answers: dict[str, Answer] | None = None,
        chat: str = "네, 알겠습니다.",
        summary: str = "요약: 사용자는 프로젝트 이야기를 했다.",
    ) -> None:
        self.behaviour = behaviour
        self.answers: dict[str, Answer] = {**ANSWERS, **(answers or {})}
        self.chat = chat
        self.summary = summary
        self.bodies: list[dict[str, Any]] = []

    def install(self, server: FakeHTTPServer) -> DecisionServer:
        """Serve on `server`; returns self."""
        server.route("POST", "/v1/chat/completions", self.handle)
        return self

    def handle(self, req: Request) -> Reply:
        """One chat completion request."""
        body = req.json()
        self.bodies.append(body)
        schema = asked_schema(body)
        if not schema:
            last = str(body["messages"][-1]["content"] or "")
            summary = "요약하세요" in last or "다시 쓰세요" in last
            return _answer(body, self.summary if summary else self.chat)
        if self.behaviour == "llama" and response_format_type(body) == "json_schema":
            error = {"message": LLAMA_ERROR, "type": "internal_server_error"}
            return Reply(500, {"error": error})
        answer = self.answers[schema]
        decided = answer(body) if callable(answer) else answer
        if self.behaviour == "ignore":
            shown = json.dumps(decided, ensure_ascii=False, indent=2)
            text = f"Sure! Here is my decision:\n```json\n{shown}\n```\nLet me know if it helps."
        elif self.behaviour == "garbage":
            text = "I think this one is probably fine, to be honest."
        else:
            text = json.dumps(decided, ensure_ascii=False)
        return _answer(body, text)

    def asked(self, schema: str, how: str | None = None) -> list[dict[str, Any]]:
        """Requests for the decision `schema`, with response_format type `how` if given."""
        return [
            b
            for b in self.bodies
            if asked_schema(b) == schema and (how is None or response_format_type(b) == how)
        ]

    def with_format(self, how: str) -> list[dict[str, Any]]:
        """Requests that carried response_format type `how` ('' for none)."""
        return [b for b in self.bodies if response_format_type(b) == how]
