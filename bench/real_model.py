"""Issue 33 benchmark: a 15-turn conversation through the product, on a real local model.

    uv run python bench/real_model.py --engine real [--model smollm2|gemma3-270m] [--turns N]
    uv run python bench/real_model.py --engine offline
    uv run python bench/real_model.py --engine fake

It replays `bench/data/real_model_conversation.json` (Korean and English; personal facts
stated at turns 1-4 and asked back at turns 11-15, after the summaries of turns 4, 7 and
10; tool and handbook questions; written and committed before any run against a model)
through the application API (`open_app`, `run_request`), the code path the app and the
service share, in a new database, and prints the same table for each engine:

- answers that end in the apology (`오류 코드:` / `error code:`), on turns that should all
  be answered; empty answers and storage errors;
- summaries: within ±25% of `int(original_chars * compression_rate)`, marked as a
  fallback (if the product records that), copying prompt text;
- router and rerank decisions parsed vs fallen back (if the product records them: 'n/a'
  when it does not), and the product's own warnings, counted;
- tool calls asked and run;
- fact-recall questions whose expected answer is in the answer;
- seconds per turn (median, max);
- for the real engine, the HTTP statuses the server logged per endpoint.

Engines: `real` starts llama-cpp-python's server (`bench/real_model_server.py`, which must
be installed: `python bench/real_model_server.py --install`) and points OPENAI_BASE_URL,
CHAT_MODEL and SUMMARY_MODEL at it, with the model name it reports (EMBEDDING_MODEL is left
unset, the product's default: keyword search; `--embed` sets it to the chat model);
`offline` is the built-in offline engine; `fake` a scripted OpenAI-compatible server
(`tests/fakes/`) that behaves as a capable model would. A proxy (`bench/model_meter.py`)
counts every request to the model server: its kind, tokens and time to first token. Other settings come from the
environment as the app reads them (e.g. `LLM_TIMEOUT_S`, `RETRIEVAL_MODE`); the document
index is built first, timed apart from the turns.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import statistics
import string
import sys
import tempfile
import time
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import real_model_server as rms  # noqa: E402
from bench.model_meter import Call, ModelMeter, request_kind  # noqa: E402
from graph.session import (  # noqa: E402
    TurnEvents,
    TurnRequest,
    load_thread,
    new_thread,
    open_app,
    run_request,
)
from graph.settings import load_settings  # noqa: E402

CONVERSATION = ROOT / "bench" / "data" / "real_model_conversation.json"
ENGINES = ("real", "offline", "fake")
APOLOGY_MARKS = ("오류 코드:", "error code:")
SUMMARY_TOLERANCE = 0.25
CHAT_MODEL_ITSELF = "@chat"
"""EMBEDDING_MODEL's value in `extra_settings` that means the chat model's own name."""
_OWN_ENV = ("OPENAI_", "CHAT_", "DATABASE_URL", "SUMMARY_MODEL", "EMBEDDING_MODEL")
"""Environment variables the bench sets itself for each engine (the rest pass through)."""


def load_conversation(turns: int | None = None, path: Path = CONVERSATION) -> list[dict[str, Any]]:
    """The scripted turns, the first `turns` of them."""
    data = json.loads(path.read_text("utf-8"))["turns"]
    return data if turns is None else data[:turns]


def normalize(text: str) -> str:
    """NFKC, case-folded, whitespace removed: how an expected string is found in an answer."""
    return "".join(unicodedata.normalize("NFKC", text).casefold().split())


def contains_any(answer: str, expected: list[str]) -> bool:
    """Whether one of the expected strings occurs in the answer."""
    body = normalize(answer)
    return any(normalize(e) in body for e in expected)


SAID_VERBATIM = frozenset(
    {"system.no_documents", "system.not_found_menus", "system.in_preparation"}
)
"""Templates that are sentences the model is told to answer with, word for word: a summary
of such an answer may hold them."""


def prompt_fragments(min_chars: int = 12) -> list[str]:
    """The fixed text of the prompt templates, in lines of at least `min_chars` characters.

    A summary that contains one of them repeats the instructions instead of summarizing.
    """
    from prompt import TEMPLATES

    out: set[str] = set()
    for name, template in TEMPLATES.items():
        if name in SAID_VERBATIM:
            continue
        for literal, *_ in string.Formatter().parse(template):
            for line in literal.splitlines():
                line = line.strip(" -:")
                if len(line.replace(" ", "")) >= min_chars:
                    out.add(line)
    return sorted(out)


def copies_prompt(summary: str, user_texts: list[str]) -> bool:
    """A summary that repeats prompt text, or is nothing but one user message verbatim."""
    text = summary.strip()
    if any(fragment in text for fragment in prompt_fragments()):
        return True
    return any(text == u.strip() for u in user_texts)


# ---- results


@dataclass
class TurnResult:
    """One turn as the user saw it, and what the product reported of it."""

    turn: int
    kind: str
    user: str
    answer: str = ""
    error_code: str | None = None
    refused: str | None = None
    seconds: float = 0.0
    route: str = ""
    tool_calls: list[str] = field(default_factory=list)
    """Tools the model asked for (tool_call events)."""
    tool_runs: list[str] = field(default_factory=list)
    """Tools that answered (tool_result events), with their status."""
    approvals: int = 0
    """Approvals asked (each one answered with `DECLINE`: the call is not run)."""
    summarized: bool = False
    hit: bool | None = None
    """For a turn with expected strings: whether one is in the answer."""
    decisions: dict[str, Counter[str]] | None = None
    fallback_reasons: Counter[str] = field(default_factory=Counter)
    """Why structured decisions fell back, as the product recorded it."""
    calls: list[Call] = field(default_factory=list)
    """Every request the turn made to the model server (with a meter)."""

    @property
    def apology(self) -> bool:
        """The turn ended in the fallback apology."""
        lowered = self.answer.lower()
        return bool(self.error_code) or any(m.lower() in lowered for m in APOLOGY_MARKS)


@dataclass
class BenchResult:
    """A whole run: the turns, the thread's summaries and what the engine did."""

    engine: str
    describe: str
    turns: list[TurnResult]
    summaries: list[dict[str, Any]]
    summary_meta: list[dict[str, Any]]
    turn_count: int
    index: dict[str, Any]
    index_seconds: float
    server_busy_seconds: float | None
    warnings: Counter[str]
    http: Counter[str]
    server_pid: int | None = None
    server_log: str = ""
    script: list[dict[str, Any]] = field(default_factory=list)
    """The scripted turns that were played."""


# ---- engines


@dataclass
class Engine:
    """Settings that point the product at an engine, and what to say about it."""

    name: str
    describe: str
    settings: dict[str, str]
    http: Callable[[], Counter[str]] = Counter
    """HTTP statuses per endpoint so far."""
    server: rms.RunningServer | None = None
    idle: Callable[[], float] | None = None
    """Wait until the model server answers again; the seconds waited."""
    meter: ModelMeter | None = None
    """The proxy that counts every request to the model server (bench/model_meter.py)."""


class NotInstalled(RuntimeError):
    """The real engine's server or model is not installed."""


@contextmanager
def engine(
    name: str,
    model: str = rms.DEFAULT_MODEL,
    pooling: str | None = "mean",
    chat_format: str | None = None,
    n_ctx: int = 8192,
) -> Iterator[Engine]:
    """Start the engine (a server for `real` and `fake`) and stop it afterwards."""
    if name == "offline":
        yield Engine("offline", "the built-in offline engine", {"CHAT_PROVIDER": "offline"})
        return
    if name == "fake":
        from tests.fakes.http_server import serve

        with serve() as http:
            FakeModel().install(http)
            meter = ModelMeter(f"{http.url}/v1").start()
            try:
                yield Engine(
                    "fake",
                    "scripted OpenAI-compatible fake server (tests/fakes), answering as a "
                    "capable model",
                    _openai_settings(meter.base_url, "fake-model", key="sk-fake"),
                    http=lambda: Counter(
                        f"{r.method} {r.path} {200 if (r.method, r.path) in http.routes else 404}"
                        for r in http.requests
                    ),
                    meter=meter,
                )
            finally:
                meter.stop()
        return
    gguf = rms.ensure_installed(model)
    if gguf is None:
        raise NotInstalled(
            f"{model} or llama-cpp-python's server is not installed under {rms.cache_dir()}; "
            "run: python bench/real_model_server.py --install"
        )
    with rms.start_server(
        gguf, pooling=pooling, chat_format=chat_format, verbose=True, n_ctx=n_ctx
    ) as server:
        version = _server_version()
        meter = ModelMeter(server.base_url, server.log_path).start()
        try:
            yield Engine(
                "real",
                f"{rms.describe(model)}; llama-cpp-python {version}; served as "
                f"{server.model_id!r}, embeddings pooling {pooling or 'none (per token)'}, "
                f"n_ctx {n_ctx}",
                _openai_settings(meter.base_url, server.model_id),
                http=lambda: _logged_statuses(server.log_path),
                server=server,
                idle=lambda: _wait_idle(server.base_url, server.model_id),
                meter=meter,
            )
        finally:
            meter.stop()


def _openai_settings(base_url: str, model_id: str, key: str = "") -> dict[str, str]:
    settings = {
        "CHAT_PROVIDER": "openai",
        "OPENAI_BASE_URL": base_url,
        "CHAT_MODEL": model_id,
        "SUMMARY_MODEL": model_id,
        "LLM_TEMPERATURE": "0",
        "LLM_SEED": "42",
    }  # no EMBEDDING_MODEL: the product's default (the chat's server does not embed)
    if key:
        settings["OPENAI_API_KEY"] = key
    return settings


def _server_version() -> str:
    import subprocess

    done = subprocess.run(
        [str(rms.venv_python()), "-c", "import llama_cpp; print(llama_cpp.__version__)"],
        capture_output=True,
        text=True,
    )
    return done.stdout.strip() or "?"


_LOGGED = re.compile(r'"(GET|POST) (/\S*) HTTP/[\d.]+" (\d{3})')


def _logged_statuses(log: Path) -> Counter[str]:
    """HTTP statuses per endpoint from the server's access log (uvicorn's lines)."""
    try:
        text = log.read_text(errors="replace")
    except OSError:
        return Counter()
    return Counter(f"{m[1]} {m[2]} {m[3]}" for m in _LOGGED.finditer(text))


def _wait_idle(base_url: str, model_id: str) -> float:
    """Seconds until the server answers a one-token request (it serves one at a time).

    A client that gave up on a long request (embedding every section at once, say) leaves
    the server working on it; the turns should not be timed behind that.
    """
    start = time.perf_counter()
    body = {"model": model_id, "messages": [{"role": "user", "content": "hi"}], "max_tokens": 1}
    try:
        httpx.post(f"{base_url}/chat/completions", json=body, timeout=3600)
    except httpx.HTTPError:
        pass
    return time.perf_counter() - start


# ---- the fake model


class FakeModel:
    """An OpenAI-compatible model that behaves as a capable one would, for `--engine fake`.

    It tells the product's calls apart by their prompts (the templates under prompt/), not
    by any request shape, so it keeps up with how the product asks: JSON decisions (route,
    rerank, entities, safeguard) as JSON, summaries near the asked length, tool calls for
    arithmetic and the time, and answers quoting the best-matching line of its context.
    """

    def install(self, http: Any) -> None:
        """Serve /v1/chat/completions, /v1/embeddings and /v1/models on `http`."""
        from tests.fakes.http_server import Reply

        http.route("POST", "/v1/chat/completions", lambda req: self.chat(req.json()))
        http.route("POST", "/v1/embeddings", lambda req: Reply(json_body=self.embed(req.json())))
        http.route(
            "GET",
            "/v1/models",
            lambda req: Reply(json_body={"object": "list", "data": [{"id": "fake-model"}]}),
        )

    def embed(self, body: dict[str, Any]) -> dict[str, Any]:
        from graph.retrieval.embeddings import HashingEmbeddings

        inputs = body["input"] if isinstance(body["input"], list) else [body["input"]]
        vectors = HashingEmbeddings().embed_documents([str(t) for t in inputs])
        return {
            "object": "list",
            "data": [
                {"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vectors)
            ],
            "model": "fake-model",
            "usage": {"prompt_tokens": 0, "total_tokens": 0},
        }

    def kind(self, body: dict[str, Any]) -> str:
        return request_kind("/v1/chat/completions", body)

    def chat(self, body: dict[str, Any]) -> Any:
        kind = self.kind(body)
        messages = body["messages"]
        question = next((_text(m) for m in reversed(messages) if m["role"] == "user"), "")
        if kind == "router":
            route = (
                "rag"
                if re.search(r"지원금|교육비|규정|정책|policy|handbook", question)
                else "agent"
            )
            return _answer(body, json.dumps({"route": route, "reason": "fake"}))
        if kind == "rerank":
            judgement = {
                "ranked_indices": [1, 2, 3],
                "is_sufficient": True,
                "missing": [],
                "next_action": None,
                "refined_query": "",
                "confidence": 0.9,
            }
            return _answer(body, json.dumps(judgement))
        if kind == "entities":
            return _answer(body, json.dumps({"entities": []}))
        if kind == "safeguard":
            return _answer(body, json.dumps({"label": "PASS", "reason": "fake"}))
        if kind in ("summary", "summary_retry"):
            return _answer(body, self.summary(messages, retry=kind == "summary_retry"))
        last = messages[-1]
        if last["role"] == "tool":
            english = re.search(r"[A-Za-z]{3}", question) is not None
            result = _text(last)
            text = f"The result is {result}." if english else f"결과는 {result}입니다."
            return _answer(body, text)
        if body.get("tools"):
            call = self.tool_for(question)
            if call is not None:
                return _tool_call(body, *call)
        return _answer(body, self.quote(messages, question))

    @staticmethod
    def tool_for(question: str) -> tuple[str, dict[str, Any]] | None:
        percent = re.search(r"(\d+(?:\.\d+)?)\s*%\s*of\s*(\d+(?:\.\d+)?)", question)
        if percent:
            return "calculator", {"expression": f"{percent[2]} * {percent[1]} / 100"}
        if re.search(r"몇\s?시|what time", question, re.IGNORECASE):
            return "get_current_datetime", {}
        runs = re.findall(r"[\d\s.+\-*/()]{3,}", question)
        arithmetic = [r.strip() for r in runs if re.search(r"\d\s*[+\-*/]\s*[\d(]", r)]
        if arithmetic:
            return "calculator", {"expression": max(arithmetic, key=len)}
        return None

    @staticmethod
    def summary(messages: list[dict[str, Any]], retry: bool) -> str:
        prompt = "\n".join(_text(m) for m in messages)
        found = re.search(r"약 (\d+)\s*자", prompt)
        target = int(found[1]) if found else 200
        if retry:
            source = _text(messages[-1])
        else:
            lines = [ln for ln in prompt.splitlines() if ln.startswith(("사용자:", "User:"))]
            source = " ".join(ln.split(":", 1)[1].strip() for ln in lines) or prompt
        return source[:target].strip()

    @staticmethod
    def quote(messages: list[dict[str, Any]], question: str) -> str:
        """A plausible answer: an acknowledgement of a statement, or for a question the
        context line that shares most character pairs with it (Korean words carry particles,
        so whole words rarely match)."""
        english = re.search(r"[A-Za-z]{3}", question) is not None
        if not question.rstrip().endswith("?"):
            return "Got it, I will remember that." if english else "알겠습니다. 기억해 둘게요."
        asked = _pairs(question)
        best, score = "", 0
        for message in messages[:-1]:
            for line in re.split(r"(?<=[.!?])\s+|\n", _text(message)):
                line = line.strip()
                common = len(asked & _pairs(line))
                if (
                    line
                    and not line.startswith("(")
                    and line != question.strip()
                    and common > score
                ):
                    best, score = line, common
        if best:
            return f"As far as I know: {best}" if english else f"제가 알기로는 이렇습니다: {best}"
        if english:
            return "Here is one idea: keep it short and simple, for example 'kodate'."
        return "좋은 생각이에요. 하나 제안드리면, 간단한 것부터 시작해 보세요."


def _pairs(text: str) -> set[str]:
    """Character pairs of the text's words (lower-cased), punctuation left out."""
    words = re.findall(r"\w+", text.lower())
    return {w[i : i + 2] for w in words for i in range(len(w) - 1)} - {
        "습니",
        "니다",
        "어요",
        "에요",
    }


def _text(message: dict[str, Any]) -> str:
    content = message.get("content") or ""
    if isinstance(content, list):
        return " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return str(content)


def _answer(body: dict[str, Any], text: str) -> Any:
    from tests.fakes import openai_server as oai
    from tests.fakes.http_server import Reply

    if body.get("stream"):
        return Reply(chunks=oai.stream_text(text))
    return Reply(json_body=_completion({"role": "assistant", "content": text}, "stop"))


def _tool_call(body: dict[str, Any], name: str, args: dict[str, Any]) -> Any:
    from tests.fakes import openai_server as oai
    from tests.fakes.http_server import Reply

    call_id = f"call_{time.monotonic_ns()}"
    if body.get("stream"):
        return Reply(chunks=oai.stream_tool_call(name, args, call_id))
    call = {
        "id": call_id,
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(args)},
    }
    return Reply(
        json_body=_completion(
            {"role": "assistant", "content": None, "tool_calls": [call]}, "tool_calls"
        )
    )


def _completion(message: dict[str, Any], finish: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 0,
        "model": "fake-model",
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
    }


# ---- running the conversation


class _LogCounter(logging.Handler):
    """Counts the product's log lines (info and above) by level, logger and text."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.counts: Counter[str] = Counter()

    def emit(self, record: logging.LogRecord) -> None:
        text = " ".join(record.getMessage().split())
        text = text if len(text) <= 150 else text[:149] + "…"
        self.counts[f"{record.levelname} {record.name}: {text}"] += 1


def settings_env(extra: dict[str, str], workdir: Path) -> dict[str, str]:
    """The environment as the app would read it, with the engine's and the run's settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(_OWN_ENV)}
    env.update(
        {
            "CHAT_DB_PATH": str(workdir / "chat.sqlite"),
            "INDEX_DIR": str(workdir / "index"),
            "DOCS_DIR": str(ROOT / "data" / "docs"),
            "FILES_DIR": str(ROOT / "data"),
        }
    )
    env.update(extra)
    return env


def _decisions(
    turn_meta: dict[str, Any], values: dict[str, Any], turn: int
) -> dict[str, Counter[str]] | None:
    """Structured decisions (router, rerank, ...) of the turn: how each was had, per name.

    Read defensively from what the product records: the turn event's `decisions` (or only
    its `fallbacks`), else the state's `decisions` of this turn. Each entry counts as
    "fallback" or as "parsed (<how>)". None when the product records none of these fields.
    """
    if isinstance(turn_meta.get("decisions"), list):
        entries = list(turn_meta["decisions"])
    elif isinstance(values.get("decisions"), list):
        entries = [
            d for d in values["decisions"] if isinstance(d, dict) and d.get("turn", turn) == turn
        ]
    elif isinstance(turn_meta.get("fallbacks"), list):
        entries = [{"decision": str(n), "fallback": True} for n in turn_meta["fallbacks"]]
    else:
        return None
    found: dict[str, Counter[str]] = {}
    for entry in entries:
        if not isinstance(entry, dict):
            continue
        name = str(entry.get("decision") or entry.get("kind") or entry.get("name") or "?")
        if _fell_back(entry):
            label = "fallback"
        else:
            label = f"parsed ({entry.get('how') or '?'})"
        found.setdefault(name, Counter())[label] += 1
    return found


def _fell_back(entry: dict[str, Any]) -> bool:
    if isinstance(entry.get("fallback"), bool):
        return bool(entry["fallback"])
    how = str(entry.get("how") or entry.get("outcome") or entry.get("status") or "").lower()
    return any(w in how for w in ("fallback", "rule", "fail"))


DECLINE = "Do not run it; answer without it."
"""The bench's answer to every approval: the call is not run and the model goes on."""


def run_turns(
    app: Any,
    thread: str,
    turns: list[dict[str, Any]],
    on_turn: Callable[[TurnResult], None] | None = None,
    meter: ModelMeter | None = None,
) -> list[TurnResult]:
    """Send each scripted turn through the turn runner; a pending approval is declined.

    Declined with a free-text answer (`DECLINE`), not a reject: a reject ends the task with
    APPROVAL_REJECTED (seed 004), and the bench measures the model's answer without the call.
    """
    from graph.session.app import thread_values

    results = []
    for spec in turns:
        result = TurnResult(int(spec["turn"]), str(spec["kind"]), str(spec["user"]))
        events: list[dict[str, Any]] = []
        if meter is not None:
            meter.turn = result.turn
        start = time.perf_counter()
        outcome = run_request(
            app, TurnRequest(thread, message=spec["user"]), TurnEvents(thread, events.append)
        )
        while outcome.pending is not None and result.approvals < 5:
            result.approvals += 1
            decision = TurnRequest(
                thread,
                kind="resume",
                action="respond",
                response=DECLINE,
                tool_call_id=str(outcome.pending.get("tool_call_id") or ""),
            )
            outcome = run_request(app, decision, TurnEvents(thread, events.append))
        result.seconds = time.perf_counter() - start
        if meter is not None:
            result.calls = meter.of_turn(result.turn)
        result.answer = outcome.answer
        result.error_code = outcome.error_code
        result.refused = outcome.refused
        turn_meta: dict[str, Any] = {}
        for event in events:
            meta = event.get("metadata") or {}
            if meta.get("kind") == "tool_call":
                result.tool_calls.append(str(meta.get("tool")))
            elif meta.get("kind") == "tool_result":
                result.tool_runs.append(f"{meta.get('tool')}:{meta.get('status', '?')}")
            elif meta.get("kind") == "summary":
                result.summarized = True
            elif meta.get("kind") == "turn":
                turn_meta = meta
        result.route = str(turn_meta.get("route", ""))
        try:
            values = thread_values(app, thread)
        except Exception:  # noqa: BLE001 - the report reads what it can
            values = {}
        result.decisions = _decisions(turn_meta, values, result.turn)
        for entry in turn_meta.get("decisions") or []:
            if isinstance(entry, dict) and entry.get("fallback") and entry.get("reason"):
                reason = " ".join(str(entry["reason"]).split())
                result.fallback_reasons[f"{entry.get('decision')}: {reason[:140]}"] += 1
        if spec.get("expect"):
            result.hit = contains_any(result.answer, list(spec["expect"]))
        results.append(result)
        if on_turn is not None:
            on_turn(result)
    return results


def run_bench(
    engine_name: str,
    *,
    model: str = rms.DEFAULT_MODEL,
    turns: int | None = None,
    pooling: str | None = "mean",
    chat_format: str | None = None,
    extra_settings: dict[str, str] | None = None,
    on_turn: Callable[[TurnResult], None] | None = None,
    workdir: Path | None = None,
    conversation: Path = CONVERSATION,
) -> BenchResult:
    """Run the scripted conversation on an engine in a new database and report it."""
    script = load_conversation(turns, conversation)
    watcher = _LogCounter()
    product_log = logging.getLogger("graph")
    level = product_log.level
    product_log.setLevel(logging.INFO)  # what the product adapted (graph.compat says it at info)
    product_log.addHandler(watcher)
    try:
        with tempfile.TemporaryDirectory(prefix="real-model-") as tmp:
            work = workdir or Path(tmp)
            with engine(engine_name, model, pooling, chat_format) as eng:
                extra = dict(extra_settings or {})
                if extra.get("EMBEDDING_MODEL") == CHAT_MODEL_ITSELF:
                    extra["EMBEDDING_MODEL"] = eng.settings["CHAT_MODEL"]
                env = settings_env({**eng.settings, **extra}, work)
                app = open_app(load_settings(env))
                try:
                    start = time.perf_counter()
                    index = app.index.status() if app.index is not None else {}
                    index_s = time.perf_counter() - start
                    busy = eng.idle() if eng.idle is not None else None
                    thread = new_thread(app, "issue 33 bench")
                    results = run_turns(app, thread, script, on_turn, eng.meter)
                    view = load_thread(app, thread)
                    if app.index is not None:
                        index = app.index.status()
                finally:
                    app.persistence.close()
                return BenchResult(
                    engine=eng.name,
                    describe=eng.describe,
                    turns=results,
                    summaries=list(view.summary_history),
                    summary_meta=list(view.summary_meta),
                    turn_count=view.turn_count,
                    index=index,
                    index_seconds=index_s,
                    server_busy_seconds=busy,
                    warnings=watcher.counts,
                    http=eng.http(),
                    server_pid=eng.server.pid if eng.server else None,
                    server_log=str(eng.server.log_path) if eng.server else "",
                    script=script,
                )
    finally:
        product_log.removeHandler(watcher)
        product_log.setLevel(level)


# ---- the table


def summary_fallback(entry: dict[str, Any], meta: dict[str, Any] | None) -> str | None:
    """Why a summary is a fallback ('' if it is not one); None when nothing records it.

    The product may mark it on the entry or in the summary's cost record (`summary_meta`),
    as a flag or as the reason.
    """
    for source in (entry, entry.get("metadata"), meta, (meta or {}).get("metadata")):
        if isinstance(source, dict) and "fallback" in source:
            value = source["fallback"]
            if isinstance(value, bool):
                return "yes" if value else ""
            return str(value or "")
    return None


def summary_rows(result: BenchResult) -> list[dict[str, Any]]:
    """Each summary: its turns, target, length, off-target share, fallback mark, copy check."""
    metas = {
        (int(m["turns"][0]), int(m["turns"][-1])): m
        for m in result.summary_meta
        if isinstance(m, dict) and m.get("turns")
    }
    users = [t.user for t in result.turns]
    rows = []
    for entry in result.summaries:
        target = int(int(entry["original_chars"]) * float(entry["compression_rate"]))
        chars = int(entry["summary_chars"])
        rows.append(
            {
                "turns": f"{entry['turns'][0]}-{entry['turns'][-1]}",
                "target": target,
                "chars": chars,
                "off": (chars - target) / target if target else 0.0,
                "fallback": summary_fallback(
                    entry, metas.get((int(entry["turns"][0]), int(entry["turns"][-1])))
                ),
                "copies_prompt": copies_prompt(str(entry.get("summary", "")), users),
                "text": str(entry.get("summary", "")),
            }
        )
    return rows


def _clip(text: str, n: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


def format_table(result: BenchResult) -> str:
    """The report: a row per turn, then the totals the issue asks for."""
    lines = [f"engine: {result.engine} — {result.describe}"]
    idx = result.index
    if idx:
        problems = "; ".join(str(p) for p in idx.get("problems", [])) or "none"
        lines.append(
            f"document index: {idx.get('chunks')} chunks, search {idx.get('mode')} "
            f"(asked {idx.get('wanted_mode')}), degraded={idx.get('degraded')}, built in "
            f"{result.index_seconds:.1f} s; problems: {_clip(problems, 300)}"
        )
    if result.server_busy_seconds is not None:
        lines.append(f"server busy after the index build: {result.server_busy_seconds:.1f} s")
    lines.append("")
    lines.append(
        f"{'turn':>4} {'kind':<6} {'s':>6} {'route':<8} {'tools asked → run':<40} {'sum':<3} {'apology':<18} {'hit':<3} answer"
    )
    for t in result.turns:
        tools = f"{','.join(t.tool_calls) or '-'} → {','.join(t.tool_runs) or '-'}"
        if t.approvals:
            tools += f" ({t.approvals} approval declined)"
        hit = "-" if t.hit is None else ("yes" if t.hit else "no")
        apology = (t.error_code or "yes") if t.apology else "-"
        lines.append(
            f"{t.turn:>4} {t.kind:<6} {t.seconds:>6.1f} {t.route or '-':<8} {_clip(tools, 40):<40} "
            f"{'S' if t.summarized else '-':<3} {apology:<18} {hit:<3} {_clip(t.refused or t.answer, 70)!r}"
        )
    lines.append("")
    n = len(result.turns)
    apologies = [t for t in result.turns if t.apology]
    codes = Counter(t.error_code or "?" for t in apologies)
    lines.append(
        f"answers that end in an apology: {len(apologies)}/{n} (every turn should be answered)"
        + (f" — {dict(codes)}" if codes else "")
    )
    empty = sum(1 for t in result.turns if not t.answer.strip() and not t.refused)
    storage = sum(1 for t in result.turns if t.error_code == "STORAGE_ERROR" or t.refused)
    lines.append(
        f"empty answers: {empty}; storage errors or refused turns: {storage}; turn count stored: {result.turn_count}"
    )
    rows = summary_rows(result)
    within = sum(1 for r in rows if abs(r["off"]) <= SUMMARY_TOLERANCE)
    marks = [r["fallback"] for r in rows]
    fallback = (
        f"{sum(1 for m in marks if m)}"
        if any(m is not None for m in marks)
        else "0 (no summary carries a 'fallback' mark)"
    )
    lines.append(
        f"summaries: {len(rows)} (expected {sum(1 for t in result.turns if t.turn in (4, 7, 10, 13))}); "
        f"within ±25% of target: {within}/{len(rows)}; marked fallback: {fallback}; "
        f"copying prompt text: {sum(1 for r in rows if r['copies_prompt'])}"
    )
    for r in rows:
        lines.append(
            f"  turns {r['turns']}: {r['chars']} chars for a target of {r['target']} "
            f"({r['off']:+.0%}){' FALLBACK: ' + r['fallback'] if r['fallback'] else ''}"
            f"{' COPIES PROMPT TEXT' if r['copies_prompt'] else ''}: {_clip(r['text'], 90)!r}"
        )
    lines.append(f"router / rerank decisions: {_format_decisions(result.turns)}")
    reasons: Counter[str] = Counter()
    for t in result.turns:
        reasons.update(t.fallback_reasons)
    lines += [f"  {n:>3} × fell back: {reason}" for reason, n in reasons.most_common(6)]
    asked = sum(len(t.tool_calls) for t in result.turns)
    ran = sum(len(t.tool_runs) for t in result.turns)
    ok = sum(1 for t in result.turns for r in t.tool_runs if r.endswith(":success"))
    script = {int(s["turn"]): s for s in result.script}
    tool_turns = [t for t in result.turns if t.kind == "tool"]
    right_tool = sum(1 for t in tool_turns if script[t.turn].get("tool") in t.tool_calls)
    lines.append(
        f"tool calls: {asked} asked, {ran} run ({ok} with status success); the expected tool "
        f"was called on {right_tool}/{len(tool_turns)} tool turns"
    )
    recall = [t for t in result.turns if t.kind == "recall"]
    lines.append(
        f"fact recall: {sum(1 for t in recall if t.hit)}/{len(recall)} answers hold the fact"
        + (
            f" ({', '.join(f'turn {t.turn}: ' + ('yes' if t.hit else 'no') for t in recall)})"
            if recall
            else ""
        )
    )
    other = [t for t in result.turns if t.hit is not None and t.kind != "recall"]
    lines.append(
        f"tool and document answers with the expected string: {sum(1 for t in other if t.hit)}/{len(other)}"
    )
    secs = [t.seconds for t in result.turns]
    if secs:
        lines.append(
            f"seconds per turn: median {statistics.median(secs):.1f}, max {max(secs):.1f}, total {sum(secs):.0f}"
        )
    marked = [t.turn for t in result.turns if bench_markup(t.answer)]
    marked_summaries = [r["turns"] for r in rows if bench_markup(r["text"])]
    lines.append(
        f"markup (the bench's own check, not the product's filter): {len(marked)} answers "
        f"{marked or ''} and {len(marked_summaries)} stored summaries {marked_summaries or ''}"
    )
    lines += cost_table(result.turns)
    if result.warnings:
        lines.append("the product's log lines, info and above (by text):")
        lines += [f"  {count:>3} × {msg}" for msg, count in result.warnings.most_common()]
    if result.http:
        lines.append(
            "HTTP requests by endpoint and status"
            + (
                " (the server logs a request when it answers it: one the client gave up on "
                "before is not counted)"
                if result.engine == "real"
                else ""
            )
        )
        lines += [f"  {count:>4} × {key}" for key, count in sorted(result.http.items())]
    return "\n".join(lines)


_BENCH_MARKUP = re.compile(
    r"</?tool_call>|<\|[a-z_]+\|>|\[/?INST\]|<start_of_turn>|<end_of_turn>"
    r'|"name"\s*:\s*"[^"]*"\s*,\s*"(?:arguments|parameters)"|^\s*functions\.\w+\s*:'
    r'|"(?:arguments|parameters)"\s*:\s*\{'
    r"|\b[a-z_]+\(\{['\"]",
    re.MULTILINE,
)
"""Markup as the bench finds it on its own (not `graph.markup`): tool-call tags or JSON,
a call in a function's notation (`calculator({'expression': ...})`, as a transcript shows
one), chat-template tokens."""


def bench_markup(text: str) -> bool:
    """Whether an answer or a summary holds tool-call markup or template tokens."""
    return bool(_BENCH_MARKUP.search(text))


def cost_table(turns: list[TurnResult]) -> list[str]:
    """Per turn: the requests by kind, prompt tokens (whole / evaluated), completion
    tokens and the answer's time to first token. `~` marks counts estimated from text."""
    metered = [t for t in turns if t.calls]
    if not metered:
        return []
    lines = [
        "",
        "what each turn cost (requests by kind; prompt tokens whole / evaluated by the server, "
        "the rest from its prefix cache; completion tokens; the answer's first token):",
        f"{'turn':>4} {'requests':<44} {'prompt':>7} {'evaluated':>9} {'compl.':>6} {'ttft s':>6}",
    ]
    evaluated_per_turn: list[int] = []
    for t in metered:
        kinds = Counter(c.kind for c in t.calls)
        prompt = sum(c.prompt_tokens or 0 for c in t.calls)
        evaluated = sum(
            c.prompt_evaluated if c.prompt_evaluated is not None else (c.prompt_tokens or 0)
            for c in t.calls
        )
        completion = sum(c.completion_tokens or 0 for c in t.calls)
        mark = "~" if any(c.estimated for c in t.calls) else ""
        answers = [c for c in t.calls if c.kind == "answer" and c.first_token_s is not None]
        ttft = f"{answers[0].first_token_s:.1f}" if answers else "-"
        listing = ", ".join(f"{k} {n}" for k, n in sorted(kinds.items()))
        lines.append(
            f"{t.turn:>4} {_clip(listing, 44):<44} {mark}{prompt:>6} {mark}{evaluated:>8} "
            f"{completion:>6} {ttft:>6}"
        )
        evaluated_per_turn.append(evaluated)
    total = Counter(c.kind for t in metered for c in t.calls)
    lines.append(
        f"requests in all: {sum(total.values())} ({', '.join(f'{k} {n}' for k, n in sorted(total.items()))}); "
        f"prompt tokens evaluated per turn: median {statistics.median(evaluated_per_turn):.0f}, "
        f"total {sum(evaluated_per_turn)}"
    )
    return lines


def _format_decisions(turns: list[TurnResult]) -> str:
    recorded = [t.decisions for t in turns if t.decisions is not None]
    if not recorded:
        return "n/a (the product does not record them)"
    total: dict[str, Counter[str]] = {}
    for decisions in recorded:
        for name, counts in decisions.items():
            total.setdefault(name, Counter()).update(counts)
    if not total:
        return "none asked of a model (the offline rule decides without one)"
    return "; ".join(
        f"{name}: " + ", ".join(f"{n} {label}" for label, n in sorted(c.items()))
        for name, c in sorted(total.items())
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", choices=ENGINES, default="real")
    parser.add_argument("--model", choices=sorted(rms.MODELS), default=rms.DEFAULT_MODEL)
    parser.add_argument("--turns", type=int, default=15)
    parser.add_argument(
        "--pooling",
        choices=[*rms.POOLING, "none"],
        default="mean",
        help="real engine: embeddings one per input (mean, ...) or per token (none)",
    )
    parser.add_argument(
        "--chat-format",
        default=None,
        help="real engine: the server's --chat_format (default: the GGUF's own template); "
        "e.g. gemma, whose template drops the system role (then set LLM_SYSTEM_ROLE=user)",
    )
    parser.add_argument("--out", type=Path, help="also write the answers and summaries as JSON")
    parser.add_argument(
        "--embed",
        action="store_true",
        help="EMBEDDING_MODEL set to the chat model: the server also embeds the documents",
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a product setting for the run (e.g. PROMPT_LAYOUT=one_system); repeatable",
    )
    parser.add_argument(
        "--conversation",
        type=Path,
        default=CONVERSATION,
        help="the scripted turns (default: the 15-turn conversation; "
        "bench/data/tool_requests.json: ten further tool requests)",
    )
    args = parser.parse_args()

    def progress(t: TurnResult) -> None:
        print(
            f"  turn {t.turn}: {t.seconds:.1f} s, {t.error_code or 'answered'}: {_clip(t.answer, 60)!r}",
            file=sys.stderr,
            flush=True,
        )

    try:
        result = run_bench(
            args.engine,
            model=args.model,
            turns=args.turns,
            pooling=None if args.pooling == "none" else args.pooling,
            chat_format=args.chat_format,
            on_turn=progress,
            conversation=args.conversation,
            extra_settings={
                **dict(item.split("=", 1) for item in args.set),
                **({"EMBEDDING_MODEL": CHAT_MODEL_ITSELF} if args.embed else {}),
            },
        )
    except NotInstalled as exc:
        raise SystemExit(str(exc)) from exc
    print(format_table(result))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        payload = {
            "engine": result.engine,
            "describe": result.describe,
            "turns": [
                {
                    "turn": t.turn,
                    "user": t.user,
                    "answer": t.answer,
                    "error_code": t.error_code,
                    "seconds": round(t.seconds, 2),
                    "tool_calls": t.tool_calls,
                    "tool_runs": t.tool_runs,
                    "hit": t.hit,
                }
                for t in result.turns
            ],
            "summaries": result.summaries,
        }
        args.out.write_text(json.dumps(payload, ensure_ascii=False, indent=1), "utf-8")


if __name__ == "__main__":
    main()
