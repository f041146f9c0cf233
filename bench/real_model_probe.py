"""Issue 33: how llama-cpp-python's OpenAI-compatible server answers what the product sends.

    uv run python bench/real_model_probe.py [--model smollm2|gemma3-270m] [--url URL]

Starts the server of `bench/real_model_server.py` (or probes `--url`, a running one) and
prints, per probe, the HTTP status and the error text or what came back. The findings are
written down in `bench/real_model_server.py`'s docstring; this script is how they were had.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import real_model_server as rms  # noqa: E402

CALCULATOR = {
    "type": "function",
    "function": {
        "name": "calculator",
        "description": "Evaluate an arithmetic expression.",
        "parameters": {
            "type": "object",
            "properties": {"expression": {"type": "string"}},
            "required": ["expression"],
        },
    },
}
CLOCK = {
    "type": "function",
    "function": {
        "name": "get_current_datetime",
        "description": "The current date and time.",
        "parameters": {"type": "object", "properties": {"timezone": {"type": "string"}}},
    },
}
ROUTE_SCHEMA = {
    "name": "RouteDecision",
    "strict": True,
    "schema": {
        "type": "object",
        "properties": {
            "route": {"type": "string", "enum": ["rag", "agent"]},
            "reason": {"type": "string"},
        },
        "required": ["route", "reason"],
        "additionalProperties": False,
    },
}
ASK_TOOL = [{"role": "user", "content": "What is 15% of 2400? Use the calculator."}]


def _short(text: str, n: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


def post(client: httpx.Client, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """One request: status, seconds, and the JSON answer, the SSE events or the error text."""
    start = time.perf_counter()
    out: dict[str, Any] = {}
    if body.get("stream"):
        with client.stream("POST", path, json=body) as reply:
            out["status"] = reply.status_code
            if reply.status_code != 200:
                out["error"] = reply.read().decode(errors="replace")
            else:
                events = []
                for line in reply.iter_lines():
                    if line.startswith("data: ") and line[6:].strip() != "[DONE]":
                        events.append(json.loads(line[6:]))
                    elif line.strip() == "data: [DONE]":
                        events.append("[DONE]")
                out["events"] = events
    else:
        reply = client.post(path, json=body)
        out["status"] = reply.status_code
        if reply.status_code != 200:
            out["error"] = reply.text
        else:
            out["json"] = reply.json()
    out["seconds"] = round(time.perf_counter() - start, 2)
    return out


def chat(client: httpx.Client, model: str, messages: list[dict[str, Any]], **extra: Any) -> Any:
    return post(client, "/chat/completions", {"model": model, "messages": messages, **extra})


def describe_reply(out: dict[str, Any]) -> str:
    """Status, then the error, or finish_reason, content and tool calls of the answer."""
    head = f"HTTP {out['status']} in {out['seconds']} s"
    if "error" in out:
        return f"{head}: {_short(out['error'], 600)}"
    if "json" in out:
        choice = out["json"]["choices"][0]
        msg = choice["message"]
        calls = [
            (c.get("id"), c["function"]["name"], c["function"]["arguments"])
            for c in msg.get("tool_calls") or []
        ]
        usage = out["json"].get("usage")
        return (
            f"{head}; finish_reason={choice.get('finish_reason')!r}; "
            f"content={_short(str(msg.get('content')), 200)!r}; tool_calls={calls}; usage={usage}"
        )
    events = out["events"]
    text, finishes, calls, usage_chunks = "", [], {}, []
    for ev in events:
        if ev == "[DONE]":
            continue
        if ev.get("usage"):
            usage_chunks.append(ev["usage"])
        for ch in ev.get("choices") or []:
            delta = ch.get("delta") or {}
            text += delta.get("content") or ""
            for tc in delta.get("tool_calls") or []:
                slot = calls.setdefault(tc.get("index", 0), {"id": None, "name": "", "args": ""})
                slot["id"] = slot["id"] or tc.get("id")
                fn = tc.get("function") or {}
                slot["name"] += fn.get("name") or ""
                slot["args"] += fn.get("arguments") or ""
            if ch.get("finish_reason"):
                finishes.append(ch["finish_reason"])
    return (
        f"{head}; {len(events)} SSE events (last {events[-1]!r:.20}); finish_reasons={finishes}; "
        f"content={_short(text, 200)!r}; tool_calls={list(calls.values())}; "
        f"usage chunks={usage_chunks}"
    )


def sections(n: int, size: int = 500) -> list[str]:
    """`n` passages of about `size` characters from the handbook."""
    out: list[str] = []
    for path in sorted((ROOT / "data" / "docs").glob("*.md")):
        lines = [ln for ln in path.read_text("utf-8").splitlines() if "keywords:" not in ln]
        text = " ".join(" ".join(lines).split())
        for i in range(0, len(text) - size, size):
            out.append(text[i : i + size])
            if len(out) == n:
                return out
    return out


RENDER = """
import json, sys
from llama_cpp import Llama, llama_chat_format
from llama_cpp.llama_chat_format import Jinja2ChatFormatter
llm = Llama(model_path=sys.argv[1], vocab_only=True, verbose=False)  # picks its chat format
messages = json.loads(sys.argv[2])
print(f"(chat format: {llm.chat_format})")
if llm.chat_format == "chat_template.default":
    meta = llm.metadata
    eos = llm._model.token_get_text(int(meta.get("tokenizer.ggml.eos_token_id", 0)))
    bos = llm._model.token_get_text(int(meta.get("tokenizer.ggml.bos_token_id", 0)))
    formatter = Jinja2ChatFormatter(meta["tokenizer.chat_template"], eos, bos)
    print(formatter(messages=messages).prompt)
else:
    fmt = getattr(llama_chat_format, "format_" + llm.chat_format.replace("-", ""))
    print(fmt(messages=messages).prompt)
"""


def render(model_id: str) -> str:
    """The prompt the GGUF's own template makes of a system and a user message."""
    gguf = next(
        (rms.gguf_path(m) for m in rms.MODELS if (rms.gguf_path(m) or Path()).stem == model_id),
        None,
    )
    if gguf is None:
        return "(unknown GGUF)"
    messages = [
        {"role": "system", "content": "The secret word is PELICAN. Tell it when asked."},
        {"role": "user", "content": "What is the secret word?"},
    ]
    done = subprocess.run(
        [str(rms.venv_python()), "-c", RENDER, str(gguf), json.dumps(messages)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    return (done.stdout or done.stderr).strip()


def probe(url: str, model: str) -> None:
    print(f"server {url}, model {model!r}")
    with httpx.Client(base_url=url, timeout=600) as client:

        def show(label: str, out: dict[str, Any]) -> None:
            print(f"\n## {label}\n{describe_reply(out)}")

        q = [{"role": "user", "content": "Should 'what is the leave policy?' go to rag or agent?"}]
        for stream in (False, True):
            show(
                f"response_format json_schema strict, stream={stream}",
                chat(
                    client,
                    model,
                    q,
                    stream=stream,
                    max_tokens=80,
                    response_format={"type": "json_schema", "json_schema": ROUTE_SCHEMA},
                ),
            )
        show(
            "response_format json_object",
            chat(
                client,
                model,
                [{"role": "user", "content": "Answer in JSON with a key 'route'."}],
                max_tokens=60,
                response_format={"type": "json_object"},
            ),
        )
        for stream in (False, True):
            show(
                f"tools, no tool_choice, stream={stream}",
                chat(
                    client, model, ASK_TOOL, tools=[CALCULATOR, CLOCK], stream=stream, max_tokens=80
                ),
            )
        for stream in (False, True):
            show(
                f"tools, tool_choice='auto', stream={stream}",
                chat(
                    client,
                    model,
                    ASK_TOOL,
                    tools=[CALCULATOR, CLOCK],
                    tool_choice="auto",
                    stream=stream,
                    max_tokens=80,
                ),
            )
        for stream in (False, True):
            show(
                f"tools, tool_choice=calculator (named), stream={stream}",
                chat(
                    client,
                    model,
                    ASK_TOOL,
                    tools=[CALCULATOR, CLOCK],
                    tool_choice={"type": "function", "function": {"name": "calculator"}},
                    stream=stream,
                    max_tokens=80,
                ),
            )
        for value in (True, False):
            show(
                f"tools + parallel_tool_calls={value}",
                chat(
                    client,
                    model,
                    ASK_TOOL,
                    tools=[CALCULATOR],
                    parallel_tool_calls=value,
                    max_tokens=60,
                ),
            )
        show(
            "stream_options include_usage",
            chat(
                client,
                model,
                [{"role": "user", "content": "Say hello."}],
                stream=True,
                stream_options={"include_usage": True},
                max_tokens=20,
            ),
        )
        show(
            "max_completion_tokens=8 (no max_tokens)",
            chat(
                client,
                model,
                [{"role": "user", "content": "Count from 1 to 50."}],
                max_completion_tokens=8,
            ),
        )
        secret = [
            {"role": "system", "content": "The secret word is PELICAN. Tell it when asked."},
            {"role": "user", "content": "What is the secret word?"},
        ]
        for i in range(3):
            show(
                f"system message holds the secret word, temperature 0, seed {i}",
                chat(client, model, secret, max_tokens=40, temperature=0, seed=i),
            )
        show(
            "the same question, no system message (control)",
            chat(client, model, secret[1:], max_tokens=40, temperature=0),
        )
        print(f"\n## the prompt the GGUF's chat template makes of [system, user]\n{render(model)}")
        call = {
            "id": "call_1",
            "type": "function",
            "function": {"name": "calculator", "arguments": '{"expression": "2400*0.15"}'},
        }
        for content in (None, ""):
            history = [
                ASK_TOOL[0],
                {"role": "assistant", "content": content, "tool_calls": [call]},
                {"role": "tool", "tool_call_id": "call_1", "content": "360"},
            ]
            show(
                f"a tool round's history: assistant content={content!r} with tool_calls, then the tool result",
                chat(client, model, history, tools=[CALCULATOR], max_tokens=40),
            )
        show(
            "a prompt past n_ctx (about 5,000 tokens)",
            chat(client, model, [{"role": "user", "content": "word " * 5000}], max_tokens=5),
        )
        show(
            "a model name the server does not have",
            chat(client, "no-such-model", [{"role": "user", "content": "Hi"}], max_tokens=5),
        )
        show(
            "no max_tokens: 'Write a long story about a cat.'",
            chat(client, model, [{"role": "user", "content": "Write a long story about a cat."}]),
        )
        show(
            "no max_tokens, streamed: 'Write a long story about a cat.'",
            chat(
                client,
                model,
                [{"role": "user", "content": "Write a long story about a cat."}],
                stream=True,
            ),
        )
        ids = []
        for _ in range(3):
            out = chat(
                client,
                model,
                ASK_TOOL,
                tools=[CALCULATOR],
                tool_choice={"type": "function", "function": {"name": "calculator"}},
                max_tokens=60,
            )
            calls = (out.get("json") or {}).get("choices", [{}])[0].get("message", {}).get(
                "tool_calls"
            ) or []
            ids.append([c.get("id") for c in calls])
        print(f"\n## tool_call ids of 3 identical requests (named tool_choice)\n{ids}")
        texts = sections(8)
        times = []
        shape = ""
        for _ in range(3):
            out = post(client, "/embeddings", {"model": model, "input": texts})
            if out["status"] != 200:
                print(f"\n## embeddings\nHTTP {out['status']}: {_short(out.get('error', ''), 600)}")
                break
            times.append(out["seconds"])
            data = out["json"]["data"]
            first = data[0]["embedding"]
            nested = bool(first) and isinstance(first[0], list)
            shape = (
                f"{len(data)} items; item 0 is "
                + (
                    f"a list of {len(first)} vectors of {len(first[0])} floats (per token)"
                    if nested
                    else f"one vector of {len(first)} floats (pooled)"
                )
                + f"; usage={out['json'].get('usage')}"
            )
        if times:
            print(
                f"\n## embeddings, 8 inputs of ~{statistics.mean(len(t) for t in texts):.0f} chars"
                f"\nHTTP 200; {shape}; seconds per batch of 8: {times} "
                f"(median {statistics.median(times)})"
            )
        one = post(client, "/embeddings", {"model": model, "input": texts[0]})
        print(f"\n## embeddings, a single string input\nHTTP {one['status']}", end="")
        if one["status"] == 200:
            emb = one["json"]["data"][0]["embedding"]
            nested = bool(emb) and isinstance(emb[0], list)
            print(f"; {'per-token ' + str(len(emb)) + ' vectors' if nested else len(emb)}")
        else:
            print(f": {_short(one.get('error', ''))}")


@contextmanager
def _server(model: str, url: str | None, pooling: str | None) -> Iterator[tuple[str, str]]:
    if url:
        ident = httpx.get(f"{url}/models").json()["data"][0]["id"]
        yield url, ident
        return
    gguf = rms.ensure_installed(model)
    if gguf is None:
        raise SystemExit(f"{model} is not installed: python bench/real_model_server.py --install")
    with rms.start_server(gguf, pooling=pooling) as server:
        yield server.base_url, server.model_id


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", choices=sorted(rms.MODELS), default=rms.DEFAULT_MODEL)
    parser.add_argument("--url", help="probe a running server (…/v1) instead of starting one")
    parser.add_argument("--pooling", choices=[*rms.POOLING, "none"], default="mean")
    args = parser.parse_args()
    pooling = None if args.pooling == "none" else args.pooling
    print(f"pooling: {args.pooling}")
    with _server(args.model, args.url, pooling) as (url, ident):
        probe(url, ident)


if __name__ == "__main__":
    main()
