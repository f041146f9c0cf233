"""Issue 42, item 6: each decision is the rule's, the model's, or both with the rule deciding.

A fake OpenAI-compatible server answers the structured decisions; the real client, graph
and index run. Which default applies is what bench/decisions.py measured.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from graph.session import TurnEvents, new_thread, open_app
from graph.session.app import thread_values
from graph.session.runner import TurnRequest, run_request
from graph.settings import load_settings
from tests.fakes import openai_server as oai
from tests.fakes.http_server import FakeHTTPServer, Reply

ROOT = Path(__file__).resolve().parents[2]
DOC_QUESTION = "재택근무 지원금은 한 달에 얼마 나와?"


def _app(server: FakeHTTPServer, tmp_path: Path, route: str, **extra: str):
    bodies: list[dict[str, Any]] = []

    def handle(req: Any) -> Reply:
        body = req.json()
        bodies.append(body)
        schema = ((body.get("response_format") or {}).get("json_schema") or {}).get("name")
        if schema == "RouteDecision":
            return Reply(chunks=oai.stream_text(json.dumps({"route": route, "reason": "fake"})))
        return Reply(chunks=oai.stream_text("재택근무 지원금은 월 3만 원입니다."))

    server.route("POST", "/v1/chat/completions", handle)
    env = {
        "OPENAI_BASE_URL": f"{server.url}/v1",
        "CHAT_MODEL": "local-model",
        "LLM_MAX_RETRIES": "0",
        "CHAT_DB_PATH": str(tmp_path / "chat.sqlite"),
        "DOCS_DIR": str(ROOT / "data" / "docs"),
        "INDEX_DIR": str(tmp_path / "index"),
        "RETRIEVAL_LOOP": "off",
    }
    env.update(extra)
    return open_app(load_settings(env), tools=[]), bodies


def _route(app: Any, message: str) -> dict[str, Any]:
    thread = new_thread(app)
    run_request(app, TurnRequest(thread, message=message), TurnEvents(thread, lambda e: None))
    return thread_values(app, thread)


def _asked_router(bodies: list[dict[str, Any]]) -> int:
    return sum(
        1
        for b in bodies
        if ((b.get("response_format") or {}).get("json_schema") or {}).get("name")
        == "RouteDecision"
    )


def test_a_local_server_routes_by_the_rule_with_no_call_by_default(
    http_server: FakeHTTPServer, tmp_path: Path
) -> None:
    app, bodies = _app(http_server, tmp_path, route="agent")
    try:
        assert app.settings.router_mode == "rule" and app.settings.rerank_mode == "rule"
        values = _route(app, DOC_QUESTION)
    finally:
        app.persistence.close()
    assert _asked_router(bodies) == 0  # one call fewer a turn, and the measured better route
    assert values["route"] == "rag"


def test_model_takes_the_models_route(http_server: FakeHTTPServer, tmp_path: Path) -> None:
    app, bodies = _app(http_server, tmp_path, route="agent", ROUTER_DECISION="model")
    try:
        values = _route(app, DOC_QUESTION)
    finally:
        app.persistence.close()
    assert _asked_router(bodies) == 1
    assert values["route"] == "agent"


@pytest.mark.parametrize(("said", "agreed"), [("agent", False), ("rag", True)])
def test_both_asks_the_model_and_the_rule_decides_where_they_disagree(
    http_server: FakeHTTPServer, tmp_path: Path, said: str, agreed: bool
) -> None:
    app, bodies = _app(http_server, tmp_path, route=said, ROUTER_DECISION="both")
    try:
        values = _route(app, DOC_QUESTION)
    finally:
        app.persistence.close()
    assert _asked_router(bodies) == 1
    assert values["route"] == "rag"  # the rule's, either way
    record = next(d for d in values["decisions"] if d["decision"] == "router")
    assert record["agreed"] is agreed


def test_openai_itself_keeps_the_model_and_a_bad_value_is_named() -> None:
    assert load_settings({"OPENAI_API_KEY": "sk"}).router_mode == "model"
    assert load_settings({"OPENAI_BASE_URL": "http://127.0.0.1:1/v1"}).rerank_mode == "rule"
    with pytest.raises(ValueError, match="RERANK_DECISION"):
        _ = load_settings({"RERANK_DECISION": "sometimes"}).rerank_mode


def test_a_plain_tool_request_is_served_by_the_rule_and_the_model_words_the_result(
    http_server: FakeHTTPServer, tmp_path: Path
) -> None:
    """TOOL_DECISION auto (both) on a local server: Qwen2.5-Coder-0.5B answered 1234 * 56 as
    7098 from memory. The rule calls the calculator; the model is asked in words, once."""
    from langchain_core.tools import tool

    @tool
    def calculator(expression: str) -> str:
        """Evaluate an arithmetic expression."""
        a, _, b = expression.partition("*")
        return str(int(a) * int(b))

    bodies = oai.install(http_server, [], default=oai.text("1234 * 56 = 69104입니다."))
    env = {
        "OPENAI_BASE_URL": f"{http_server.url}/v1",
        "CHAT_MODEL": "local-model",
        "LLM_MAX_RETRIES": "0",
        "CHAT_DB_PATH": str(tmp_path / "chat.sqlite"),
    }
    app = open_app(load_settings(env), tools=[calculator], index=None)
    events: list[dict[str, Any]] = []
    try:
        assert app.settings.tool_mode == "both"
        thread = new_thread(app)
        outcome = run_request(
            app,
            TurnRequest(thread, message="What is 1234 * 56?"),
            TurnEvents(thread, events.append),
        )
    finally:
        app.persistence.close()
    ran = [
        e["metadata"]
        for e in events
        if e["type"] == "metadata" and e["metadata"].get("kind") == "tool_result"
    ]
    assert [r["tool"] for r in ran] == ["calculator"]
    assert outcome.answer == "1234 * 56 = 69104입니다."
    assert len(bodies) == 1 and "tools" not in bodies[0]  # one call, in words
    assert "69104" in bodies[0]["messages"][-1]["content"]
