"""What an OpenAI-compatible server does not take, learned from its answers, at the HTTP layer.

Servers that speak OpenAI's API differ in what they accept. llama.cpp's server, for one,
answers `stream_options` by ignoring it, a streamed request with `tool_choice` by refusing
it, `max_completion_tokens` by not knowing it, and a chat template may drop the system
role. `CompatTransport` sits under the OpenAI client (so every call kind goes through it:
answers, summaries, decisions) and keeps the request OpenAI-shaped where the server takes
it, adapting it where the server says it does not:

- an optional parameter the server refuses by name (`stream_options`,
  `parallel_tool_calls`, `tool_choice`, `max_completion_tokens`) is left out from then on;
- a streamed request with tools that the server refuses is sent again without streaming,
  and its answer handed back as the stream the client asked for (one chunk); later
  requests with tools are not streamed;
- `max_completion_tokens` (what the client sends) is also sent as `max_tokens`, which
  compatible servers read, and an assistant tool-call message's `content: null` is sent as
  "" (llama-cpp-python's server refuses null there with HTTP 500);
- with the system role folded (`LLM_SYSTEM_ROLE=user`, or `auto` and the server's
  `/props` shows a chat template without a system role), system text goes at the top of
  the first user message, and neighbouring user messages are joined (templates that
  drop the system role also want the roles to alternate);
- a request with a tool round (the assistant's calls, a `tool` result) that the server
  refuses for it (a template with no tool role, roles that must alternate) is sent again
  with the rounds written as text, `<tool_call>` and `<tool_response>` blocks, and so
  from then on;
- a refusal that says the request is unsupported (a 4xx, or a 5xx naming an unsupported
  or invalid input) is marked `x-should-retry: false`, so the client does not ask again.

What was learned is kept per server URL for the life of the process (`profile_for`).
Nothing here special-cases a model: it acts only on what the server answers.
"""

from __future__ import annotations

import json
import logging
import re
import threading
from dataclasses import dataclass, field
from typing import Any, Literal

import httpx2

log = logging.getLogger(__name__)

OPTIONAL_PARAMS = ("stream_options", "parallel_tool_calls", "tool_choice", "max_completion_tokens")
"""Parameters a request works without; one the server refuses by name is left out."""

_UNSUPPORTED = re.compile(
    r"not supported|unsupported|not implemented|input should be|unknown (?:field|parameter)"
    r"|extra (?:fields|inputs) (?:are )?not permitted|unrecognized|invalid (?:value|type)",
    re.IGNORECASE,
)
"""An error text that says the request itself is wrong, so asking again cannot help."""
_STREAMING = re.compile(r"stream", re.IGNORECASE)
_NO_RETRY_STATUS = range(400, 500)

SystemRole = Literal["system", "user", "auto"]


@dataclass
class ServerProfile:
    """What one server was seen to refuse, and how its chat template treats system text."""

    dropped: set[str] = field(default_factory=set)
    """Optional parameters it refused by name; left out of every later request."""
    stream_tools: bool = True
    """False once it refused a streamed request with tools."""
    fold_system: bool | None = None
    """Whether system text goes into the first user message (None: not known yet)."""
    tool_rounds_as_text: bool = False
    """True once it refused a tool round (an assistant `tool_calls` message, a `tool`
    message) and took it written as text: `<tool_call>` and `<tool_response>` blocks."""
    refusals: int = 0
    """Requests it refused as unsupported (each sent once, never retried)."""
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def notes(self) -> list[str]:
        """What was adapted, for the sidebar and the logs."""
        found = [f"{name} left out (refused)" for name in sorted(self.dropped)]
        if not self.stream_tools:
            found.append("tool rounds not streamed (refused)")
        if self.fold_system:
            found.append("system prompt folded into the first user message")
        if self.tool_rounds_as_text:
            found.append("tool rounds sent as text (<tool_call>, <tool_response>)")
        return found


_PROFILES: dict[str, ServerProfile] = {}
_PROFILES_LOCK = threading.Lock()


def profile_for(base_url: str) -> ServerProfile:
    """The profile of the server at `base_url` (one per URL and process)."""
    key = base_url.rstrip("/")
    with _PROFILES_LOCK:
        return _PROFILES.setdefault(key, ServerProfile())


def forget_profiles() -> None:
    """Forget what every server was seen to refuse (tests start each server afresh)."""
    with _PROFILES_LOCK:
        _PROFILES.clear()


def unsupported(status: int, text: str) -> bool:
    """Whether an error answer says the request is unsupported (retrying cannot help)."""
    if status in _NO_RETRY_STATUS and status not in (408, 409, 429):
        return True
    return status >= 500 and bool(_UNSUPPORTED.search(text))


class CompatTransport(httpx2.BaseTransport):
    """An httpx2 transport that adapts chat requests to what the server takes (module doc)."""

    def __init__(
        self,
        base_url: str,
        system_role: SystemRole = "auto",
        inner: httpx2.BaseTransport | None = None,
        compatible: bool = True,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.compatible = compatible
        """A compatible server (not OpenAI's own): reads max_tokens, may have /props."""
        self.inner = inner or httpx2.HTTPTransport()
        self.profile = profile_for(self.base_url)
        if system_role != "auto":
            self.profile.fold_system = system_role == "user"
        self.system_role = system_role

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        """Send `request` as the server takes it; see the module docstring."""
        if request.method != "POST" or not request.url.path.endswith("/chat/completions"):
            return self._send(request)
        try:
            body = json.loads(request.read() or b"null")
        except ValueError:
            return self._send(request)
        if not isinstance(body, dict):
            return self._send(request)
        if self.profile.fold_system is None:
            self.profile.fold_system = self._template_drops_system(request)
        body = self._shape(body)
        # a streamed tool round this server refused is asked unstreamed (and handed back
        # as the stream the client asked for); a tool round it cannot place goes as text
        unstream = bool(body.get("stream") and body.get("tools") and not self.profile.stream_tools)
        as_text = self.profile.tool_rounds_as_text

        def send(shaped: dict[str, Any]) -> httpx2.Response:
            if unstream:
                return self._unstreamed(request, shaped)
            return self._send(_rebuilt(request, shaped))

        response = send(body)
        for _ in range(len(OPTIONAL_PARAMS) + 3):
            if response.status_code < 400:
                self._learned(unstream, as_text)
                return response
            text = _read_text(response)
            refused = [p for p in OPTIONAL_PARAMS if p in body and p in text]
            if refused:
                with self.profile.lock:
                    self.profile.dropped.update(refused)
                log.info("%s refused %s; left out from now on", self.base_url, refused)
                body = self._shape(body, rounds_as_text=as_text)
            elif (
                not unstream
                and body.get("stream")
                and body.get("tools")
                and _STREAMING.search(text)
            ):
                unstream = True
            elif not as_text and has_tool_rounds(body.get("messages")) and _TOOL_ROUND.search(text):
                as_text = True
                body = self._shape(body, rounds_as_text=True)
            else:
                return self._refusal(response, text)
            response = send(body)
        return response

    def _learned(self, unstreamed: bool, as_text: bool) -> None:
        """Keep what a request that went through had to do to go through."""
        with self.profile.lock:
            if unstreamed and self.profile.stream_tools:
                self.profile.stream_tools = False
                log.info(
                    "%s refused streamed tool calls; tool rounds are not streamed", self.base_url
                )
            if as_text and not self.profile.tool_rounds_as_text:
                self.profile.tool_rounds_as_text = True
                log.info("%s refused a tool round; tool rounds go as text", self.base_url)

    def _shape(self, body: dict[str, Any], rounds_as_text: bool = False) -> dict[str, Any]:
        """The request as this server takes it: refused parameters out, max_tokens in."""
        shaped = {k: v for k, v in body.items() if k not in self.profile.dropped}
        if (rounds_as_text or self.profile.tool_rounds_as_text) and isinstance(
            shaped.get("messages"), list
        ):
            shaped["messages"] = tool_rounds_as_text(shaped["messages"])
        if self.compatible and "max_completion_tokens" in body and "max_tokens" not in body:
            shaped["max_tokens"] = body["max_completion_tokens"]
        if not shaped.get("stream"):
            shaped.pop("stream_options", None)
        if self.compatible and isinstance(shaped.get("messages"), list):
            shaped["messages"] = [
                {**m, "content": ""}
                if m.get("role") == "assistant" and m.get("content") is None
                else m
                for m in shaped["messages"]
            ]
        if self.profile.fold_system and isinstance(shaped.get("messages"), list):
            shaped["messages"] = fold_system(shaped["messages"])
        return shaped

    def _unstreamed(self, request: httpx2.Request, body: dict[str, Any]) -> httpx2.Response:
        """Ask without streaming and hand the answer back as the stream that was asked for."""
        plain = {k: v for k, v in body.items() if k not in ("stream", "stream_options")}
        response = self._send(_rebuilt(request, plain))
        if response.status_code >= 400:
            return response
        try:
            answer = json.loads(response.read())
        except ValueError:
            return response
        return httpx2.Response(
            200,
            headers={"content-type": "text/event-stream"},
            content=as_stream(answer),
            request=request,
        )

    def _refusal(self, response: httpx2.Response, text: str) -> httpx2.Response:
        if unsupported(response.status_code, text):
            with self.profile.lock:
                self.profile.refusals += 1
            response.headers["x-should-retry"] = "false"
        return response

    def _template_drops_system(self, request: httpx2.Request) -> bool:
        """auto: fold when the server's /props shows a chat template with no system role."""
        if self.system_role != "auto" or not self.compatible:
            return self.system_role == "user"
        root = self.base_url.removesuffix("/v1")
        try:
            answer = self._send(
                httpx2.Request("GET", f"{root}/props", headers={"accept": "application/json"}),
            )
            if answer.status_code != 200:
                return False
            template = str(json.loads(answer.read()).get("chat_template") or "")
        except (httpx2.HTTPError, ValueError, AttributeError):
            return False
        drops = bool(template) and "system" not in template
        if drops:
            log.info("%s: its chat template has no system role; folding it", self.base_url)
        return drops

    def _send(self, request: httpx2.Request) -> httpx2.Response:
        return self.inner.handle_request(request)

    def close(self) -> None:
        """Close the inner transport."""
        self.inner.close()


_TOOL_ROUND = re.compile(r"tool|role|alternat|function", re.IGNORECASE)
"""An error text about a message the server cannot place: a tool round's role or shape."""


def has_tool_rounds(messages: Any) -> bool:
    """Whether a request's messages hold a tool round (assistant calls or a tool result)."""
    return isinstance(messages, list) and any(
        isinstance(m, dict) and (m.get("role") == "tool" or m.get("tool_calls")) for m in messages
    )


def tool_rounds_as_text(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Tool rounds written as text, the way Hermes-style templates show them to a model.

    An assistant message's calls become `<tool_call>{"name", "arguments"}</tool_call>`
    blocks after its text; tool results become one user message of `<tool_response>`
    blocks. A server whose template has no tool role takes these as plain turns.
    """
    out: list[dict[str, Any]] = []
    for message in messages:
        role = message.get("role")
        if role == "assistant" and message.get("tool_calls"):
            blocks = []
            for call in message["tool_calls"]:
                function = call.get("function") or {}
                raw = function.get("arguments") or "{}"
                try:
                    args = json.loads(raw) if isinstance(raw, str) else raw
                except ValueError:
                    args = raw
                shown = {"name": function.get("name", ""), "arguments": args}
                blocks.append(f"<tool_call>\n{json.dumps(shown, ensure_ascii=False)}\n</tool_call>")
            text = "\n".join(part for part in (_text(message).strip(), *blocks) if part)
            out.append({"role": "assistant", "content": text})
        elif role == "tool":
            block = f"<tool_response>\n{_text(message)}\n</tool_response>"
            if out and out[-1].get("role") == "user" and out[-1].get("tool_results"):
                out[-1]["content"] += "\n" + block
            else:
                out.append({"role": "user", "content": block, "tool_results": True})
        else:
            out.append(message)
    return [{k: v for k, v in m.items() if k != "tool_results"} for m in out]


def fold_system(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """System text at the top of the first user message; neighbouring user messages joined."""
    system = [_text(m) for m in messages if m.get("role") in ("system", "developer")]
    rest = [dict(m) for m in messages if m.get("role") not in ("system", "developer")]
    merged: list[dict[str, Any]] = []
    for msg in rest:
        if merged and msg.get("role") == "user" and merged[-1].get("role") == "user":
            merged[-1]["content"] = f"{_text(merged[-1])}\n\n{_text(msg)}"
        else:
            merged.append(msg)
    joined = "\n\n".join(s for s in system if s)
    if joined:
        first = next((m for m in merged if m.get("role") == "user"), None)
        if first is None:
            merged.insert(0, {"role": "user", "content": joined})
        else:
            first["content"] = f"{joined}\n\n{_text(first)}"
    return merged


def _text(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, list):
        return "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return str(content or "")


def as_stream(answer: dict[str, Any]) -> bytes:
    """A chat completion as the server-sent events a streamed request would have got."""
    head = {k: answer.get(k) for k in ("id", "created", "model")}
    head["object"] = "chat.completion.chunk"
    choices = answer.get("choices") or []
    chunks: list[dict[str, Any]] = []
    if choices:
        choice = choices[0]
        message = choice.get("message") or {}
        delta: dict[str, Any] = {"role": "assistant", "content": message.get("content") or ""}
        if message.get("tool_calls"):
            delta["tool_calls"] = [
                {**call, "index": i} for i, call in enumerate(message["tool_calls"])
            ]
        chunks.append({**head, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]})
        finish = choice.get("finish_reason")
        chunks.append({**head, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]})
    else:
        chunks.append({**head, "choices": []})
    if answer.get("usage"):
        chunks.append({**head, "choices": [], "usage": answer["usage"]})
    events = [f"data: {json.dumps(c, ensure_ascii=False)}\n\n".encode() for c in chunks]
    return b"".join(events) + b"data: [DONE]\n\n"


def _rebuilt(request: httpx2.Request, body: dict[str, Any]) -> httpx2.Request:
    headers = {k: v for k, v in request.headers.items() if k.lower() != "content-length"}
    return httpx2.Request(
        request.method,
        request.url,
        headers=headers,
        content=json.dumps(body, ensure_ascii=False).encode(),
        extensions=request.extensions,
    )


def _read_text(response: httpx2.Response) -> str:
    try:
        return response.read().decode("utf-8", "replace")[:2000]
    except httpx2.HTTPError:
        return ""
