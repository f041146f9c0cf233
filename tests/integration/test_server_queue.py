"""Issue 42, item 3: one server, one queue. Document embedding never delays a turn.

A fake single-slot server records when each chat and embedding request ran; the real
client code, index and graph talk to it over HTTP.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from graph.retrieval import open_index
from graph.server_queue import ServerQueue, queue_for
from graph.session import TurnEvents, new_thread, open_app
from graph.session.runner import TurnRequest, run_request
from graph.settings import load_settings
from tests.fakes import openai_server as oai
from tests.fakes.embeddings_server import FakeEmbeddings
from tests.fakes.http_server import FakeHTTPServer, Reply, Request

ROOT = Path(__file__).resolve().parents[2]


def _env(server: FakeHTTPServer, tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {
        "OPENAI_BASE_URL": f"{server.url}/v1",
        "CHAT_MODEL": "local-model",
        "LLM_MAX_RETRIES": "0",
        "EMBEDDING_WAIT_S": "0",
        "CHAT_DB_PATH": str(tmp_path / "chat.sqlite"),
        "DOCS_DIR": str(ROOT / "data" / "docs"),
        "INDEX_DIR": str(tmp_path / "index"),
    }
    env.update(extra)
    return env


def test_a_compatible_server_with_no_embedding_model_is_not_asked_to_embed(
    http_server: FakeHTTPServer, tmp_path: Path
) -> None:
    embeddings = FakeEmbeddings(http_server)
    settings = load_settings(_env(http_server, tmp_path))
    assert settings.embedding_model_name == ""
    index = open_index(settings)
    status = index.status()
    assert status["mode"] == "keyword" and status["keyword_reason"] == "shared_server"
    assert not status["degraded"]  # a choice, said as such, not a failure
    assert index.search("재택근무 지원금은 얼마?", k=1)
    assert embeddings.requests == 0


def test_openai_itself_keeps_its_embedding_model_and_a_named_one_is_used() -> None:
    assert load_settings({"OPENAI_API_KEY": "sk"}).embedding_model_name == "text-embedding-3-small"
    named = load_settings({"OPENAI_BASE_URL": "http://127.0.0.1:1/v1", "EMBEDDING_MODEL": "m"})
    assert named.embedding_model_name == "m"
    assert load_settings({}).embedding_model_name == ""  # offline: no embeddings at all


def test_a_background_request_waits_for_running_turns_and_one_is_in_flight() -> None:
    queue = ServerQueue()
    events: list[str] = []
    inside = threading.Event()

    def embed() -> None:
        with queue.background():
            events.append("embed")

    with queue.turn():
        worker = threading.Thread(target=embed)
        worker.start()
        time.sleep(0.3)
        events.append("turn still running")
    worker.join(5)
    assert events == ["turn still running", "embed"]

    def hold() -> None:
        with queue.background():
            inside.set()
            time.sleep(0.3)
            events.append("batch done")

    holder = threading.Thread(target=hold)
    holder.start()
    inside.wait(5)
    with queue.foreground():  # a turn's own query waits for the batch already sent
        events.append("query")
    holder.join(5)
    assert events[-2:] == ["batch done", "query"]


@contextmanager
def _held_turns(queue: ServerQueue | None) -> Iterator[list[tuple[float, float]]]:
    """When each turn held `queue`: the product's own span of a turn, not its caller's."""
    assert queue is not None
    spans: list[tuple[float, float]] = []
    hold = queue.turn
    held = [0.0]  # since when the queue has had a turn (a request holds it, and its stream)

    @contextmanager
    def timed() -> Iterator[None]:
        with hold():
            if queue.turns == 1:
                held[0] = time.monotonic()
            try:
                yield
            finally:
                if queue.turns == 1:
                    spans.append((held[0], time.monotonic()))

    queue.turn = timed  # type: ignore[method-assign]
    try:
        yield spans
    finally:
        del queue.turn  # the queue is the process's: the class's own method again


def test_embedding_batches_wait_while_a_turn_runs_and_never_overlap(
    http_server: FakeHTTPServer, tmp_path: Path
) -> None:
    """The chat's own server embeds (EMBEDDING_MODEL set to the chat model): no embedding
    request runs while a turn does, and at most one is in flight."""
    spans: dict[str, list[tuple[float, float]]] = {"chat": [], "embed": []}
    lock = threading.Lock()
    texts: dict[float, str] = {}
    vectors = FakeEmbeddings(http_server, delay_s=0.05)
    embed_route = http_server.routes[("POST", "/v1/embeddings")]

    def timed(kind: str, handler: Any) -> Any:
        def serve(req: Request) -> Reply:
            start = time.monotonic()
            reply = handler(req)
            if reply.delay_s:
                time.sleep(reply.delay_s)
                reply.delay_s = 0
            with lock:
                spans[kind].append((start, time.monotonic()))
                if kind == "embed":
                    texts[start] = str(req.json().get("input"))[:80]
            return reply

        return serve

    oai.install(http_server, [], default=oai.slow_text("재택근무 지원금은 월 3만 원입니다.", 0.05))
    chat_route = http_server.routes[("POST", "/v1/chat/completions")]
    http_server.route("POST", "/v1/chat/completions", timed("chat", chat_route))
    http_server.route("POST", "/v1/embeddings", timed("embed", embed_route))
    settings = load_settings(
        _env(http_server, tmp_path, EMBEDDING_MODEL="local-model", RETRIEVAL_LOOP="off")
    )
    app = open_app(settings, tools=[])
    thread = new_thread(app)
    try:
        with _held_turns(queue_for(settings.openai_base_url)) as turns:
            assert app.index is not None and app.index.status()["building"] is not None
            for message in ["안녕", "재택근무 지원금은 얼마야?", "고마워요"]:
                run_request(
                    app, TurnRequest(thread, message=message), TurnEvents(thread, lambda e: None)
                )
                time.sleep(0.3)  # a gap: the build goes on between turns
            assert app.index.wait_vectors(60)
    finally:
        app.persistence.close()
    assert vectors.sizes and set(vectors.sizes) == {1}  # auto: one section a request
    embeds = sorted(spans["embed"])
    for (_, a_end), (b_start, _) in zip(embeds, embeds[1:], strict=False):
        assert b_start >= a_end - 0.01, "two embedding requests overlapped"
    assert len(turns) == 3
    for turn_start, turn_end in turns:
        # while a turn holds the queue no embedding request is sent; the one a background thread had
        # already let go when the turn began may still reach the server (the one batch of
        # one section a turn can wait behind)
        started_inside = [s for s, _ in embeds if turn_start <= s < turn_end]
        assert len(started_inside) <= 1, [texts[s] for s in started_inside]
    assert len(spans["chat"]) >= 3
