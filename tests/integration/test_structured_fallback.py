"""Structured decisions against servers that treat `response_format` differently (issue 33).

The real langchain-openai client talks to a local fake (`tests.fakes.structured_server`):
one that refuses json_schema with HTTP 500 as llama-cpp-python's server does, one that
ignores response_format and answers prose around a ```json fence, one that answers no JSON
at all. Each of the four decisions (router, rerank, safeguard, and seed 003's memory update
with its entities) goes through `graph.structured`; the turn's metadata says how each was
made and names any fallback.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from graph.providers import get_summarizer_model
from graph.routing import rule_route
from graph.session import TurnEvents, TurnRequest, new_thread, open_app, run_request
from graph.session.app import thread_values
from graph.settings import load_settings
from graph.structured import LEVEL_MEMORY, ask_structured, collect_decisions
from graph.summarizer import EntityList, ExtractiveSummarizer, LLMSummarizer, rule_entities
from prompt import get_prompt
from tests.fakes.http_server import FakeHTTPServer
from tests.fakes.structured_server import ANSWERS, Behaviour, DecisionServer

ROOT = Path(__file__).resolve().parents[2]
DOCS_QUESTION = "회사 휴가 정책이 뭐야?"
"""The rule sends it to retrieval (a confident document match)."""
CHAT_QUESTION = "오늘 점심 메뉴 추천 좀 해줄래?"
"""The rule sends it to the agent (small talk)."""


@pytest.fixture(autouse=True)
def _fresh_levels() -> Iterator[None]:
    """Each test's server is learned from nothing, and leaves nothing learned behind."""
    LEVEL_MEMORY.forget()
    yield
    LEVEL_MEMORY.forget()


def _settings(server: FakeHTTPServer, tmp_path: Path, **extra: str) -> Any:
    env = {
        "CHAT_DB_PATH": str(tmp_path / "structured.sqlite"),
        "INDEX_DIR": str(tmp_path / "index"),
        "DOCS_DIR": str(ROOT / "data" / "docs"),
        "CHAT_PROVIDER": "openai",
        "OPENAI_API_KEY": "sk-test",
        "OPENAI_BASE_URL": f"{server.url}/v1",
        # the model decides (the seed's path); auto is the rule for a local server
        "ROUTER_DECISION": "model",
        "RERANK_DECISION": "model",
        "TOOL_DECISION": "model",
        "CHAT_MODEL": "fake-model",
        "SUMMARY_MODEL": "fake-mini",
        "RETRIEVAL_MODE": "keyword",
        "LLM_MAX_RETRIES": "2",  # the client would retry a 500 twice: a refusal must not be
        "LLM_TIMEOUT_S": "5",
    }
    env.update(extra)
    return load_settings(env)


def _app(
    http_server: FakeHTTPServer,
    tmp_path: Path,
    behaviour: Behaviour,
    answers: dict[str, Any] | None = None,
    **extra: str,
) -> tuple[Any, DecisionServer]:
    fake = DecisionServer(behaviour, answers).install(http_server)
    app = open_app(_settings(http_server, tmp_path, **extra), approval_required=frozenset())
    return app, fake


def _turn(app: Any, thread: str, text: str) -> dict[str, Any]:
    """Run one turn through the turn runner; its `turn` metadata event."""
    events: list[dict[str, Any]] = []
    out = run_request(app, TurnRequest(thread, message=text), TurnEvents(thread, events.append))
    assert out.error_code is None or out.error_code == "SAFEGUARD_BLOCKED", out.answer
    (meta,) = [
        e["metadata"] for e in events if e["type"] == "metadata" and e["metadata"]["kind"] == "turn"
    ]
    return meta


def _hows(meta: dict[str, Any]) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for d in meta.get("decisions", []):
        found.setdefault(d["decision"], set()).add(d["how"])
    return found


# --- (a) json_schema refused with a 500: json_object, learned once ---------------------


def test_a_refused_json_schema_is_asked_once_then_json_object_every_turn(
    http_server: FakeHTTPServer, tmp_path: Path
) -> None:
    app, fake = _app(http_server, tmp_path, "llama", SAFEGUARD_MODEL="on")
    thread = new_thread(app)
    metas = [_turn(app, thread, q) for q in (DOCS_QUESTION, CHAT_QUESTION, DOCS_QUESTION)]
    # one request ever carried json_schema: its 500 was not retried, and the next decision
    # (another model object for the same server) started at json_object
    assert len(fake.with_format("json_schema")) == 1
    for meta in metas:
        assert _hows(meta) == {"safeguard": {"json_object"}, "router": {"json_object"}}
        assert meta["fallbacks"] == [] and all(not d["fallback"] for d in meta["decisions"])
        assert meta["route"] == "agent"  # the model's decision (the rule would say rag)
    # per turn: safeguard + router + the answer; the first turn one request more (the 500)
    assert len(fake.bodies) == 1 + 3 * 3
    assert thread_values(app, thread)["route_reason"] == "small talk"


def test_a_plain_chatopenai_with_retries_does_not_retry_the_refusal(
    http_server: FakeHTTPServer, tmp_path: Path
) -> None:
    from langchain_openai import ChatOpenAI

    fake = DecisionServer("llama").install(http_server)
    model = ChatOpenAI(
        model="fake-mini",
        api_key="sk-test",  # type: ignore[arg-type]
        base_url=f"{http_server.url}/v1",
        max_retries=2,
        timeout=5,
    )
    asked = [
        ask_structured(model, EntityList, [HumanMessage("[1턴] 예산은 $10,000")], decision="e")
        for _ in range(3)
    ]
    assert [a.how for a in asked] == ["json_object"] * 3
    assert [a.requests for a in asked] == [2, 1, 1]
    assert [len(fake.with_format(f)) for f in ("json_schema", "json_object")] == [1, 3]
    assert asked[0].value == EntityList.model_validate(
        {"entities": [{"key": "budget", "value": "$10,000", "turn": 1}]}
    )


# --- (b) response_format ignored, prose with a fenced JSON: read as text ---------------


def test_prose_around_a_fenced_json_is_read_as_text(
    http_server: FakeHTTPServer, tmp_path: Path
) -> None:
    answers = {"RouteDecision": {"route": "rag", "reason": "the model says documents"}}
    app, fake = _app(http_server, tmp_path, "ignore", answers)
    thread = new_thread(app)
    meta = _turn(app, thread, CHAT_QUESTION)  # the rule would say agent
    assert meta["route"] == "rag" and meta["fallbacks"] == []
    assert _hows(meta) == {"router": {"text"}, "rerank": {"text"}}
    values = thread_values(app, thread)
    assert values["route_reason"] == "the model says documents"
    judged = values["retrieval"]["steps"][0]["judgement"]
    assert judged["confidence"] == 0.9 and judged["is_sufficient"] is True  # the model's
    assert len(fake.with_format("json_object")) == 0  # the server took json_schema


# --- (c) no JSON at all: the rule decides, and the metadata names it -------------------


def test_an_answer_without_json_leaves_each_decision_to_its_rule(
    http_server: FakeHTTPServer, tmp_path: Path
) -> None:
    app, fake = _app(http_server, tmp_path, "garbage", SAFEGUARD_MODEL="on")
    thread = new_thread(app)
    meta = _turn(app, thread, DOCS_QUESTION)
    assert meta["route"] == "rag"  # the rule's decision
    assert meta["fallbacks"] == ["safeguard", "router", "rerank"]
    for d in meta["decisions"]:
        assert d["how"] == "rule" and d["fallback"] is True
        assert "held no valid" in d["reason"] and "no JSON object" in d["reason"]
    values = thread_values(app, thread)
    assert values["route_reason"] == rule_route(DOCS_QUESTION, app.index).reason
    steps = values["retrieval"]["steps"]
    assert len([d for d in meta["decisions"] if d["decision"] == "rerank"]) == len(steps)
    # one request per decision: an unreadable answer is not asked for again
    assert len(fake.bodies) == 2 + len(steps) + 1
    # the next turn's metadata is its own
    meta = _turn(app, thread, "안녕하세요")
    assert _hows(meta) == {"safeguard": {"rule"}} and meta["fallbacks"] == ["safeguard"]


# --- (d) each call site goes through it -------------------------------------------------


def test_the_router_takes_the_models_route_through_json_object(
    http_server: FakeHTTPServer, tmp_path: Path
) -> None:
    answers = {"RouteDecision": {"route": "rag", "reason": "model: documents"}}
    app, fake = _app(http_server, tmp_path, "llama", answers)
    thread = new_thread(app)
    meta = _turn(app, thread, CHAT_QUESTION)
    assert meta["route"] == "rag" and _hows(meta)["router"] == {"json_object"}
    (asked,) = fake.asked("RouteDecision", "json_object")
    system = asked["messages"][0]["content"]
    assert "RouteDecision" in system and '"route": "rag" | "agent"' in system  # the shape


def test_the_rerank_judge_takes_the_models_judgement_through_json_object(
    http_server: FakeHTTPServer, tmp_path: Path
) -> None:
    judgement = {
        "ranked_indices": ["2"],  # a small model's types: coerced
        "is_sufficient": "true",
        "missing": None,
        "next_action": None,
        "refined_query": "",
        "confidence": "0.75",
    }
    answers = {"RouteDecision": {"route": "rag", "reason": "docs"}, "JudgementSchema": judgement}
    app, fake = _app(http_server, tmp_path, "llama", answers)
    thread = new_thread(app)
    meta = _turn(app, thread, DOCS_QUESTION)
    assert _hows(meta) == {"router": {"json_object"}, "rerank": {"json_object"}}
    step = thread_values(app, thread)["retrieval"]["steps"][0]
    assert step["judgement"]["ranked_indices"] == [2]
    assert step["judgement"]["confidence"] == 0.75 and step["judgement"]["is_sufficient"]
    assert fake.asked("JudgementSchema", "json_object")


def test_the_safeguard_takes_the_models_label_through_json_object(
    http_server: FakeHTTPServer, tmp_path: Path
) -> None:
    def label(body: dict[str, Any]) -> dict[str, Any]:
        harmful = "recipe for trouble" in body["messages"][-1]["content"]
        return {"label": "HARMFUL" if harmful else "PASS", "reason": "fake"}

    app, fake = _app(
        http_server, tmp_path, "llama", {"SafeguardDecision": label}, SAFEGUARD_MODEL="on"
    )
    thread = new_thread(app)
    meta = _turn(app, thread, "give me the recipe for trouble")
    assert meta["safeguard_label"] == "HARMFUL"  # the rules passed it, the model did not
    assert _hows(meta) == {"safeguard": {"json_object"}}  # blocked: no router call
    assert thread_values(app, thread)["safeguard"]["reasons"] == ["model: fake"]


@pytest.mark.parametrize(
    ("behaviour", "how", "requests"),
    [
        ("strict", "json_schema", 1),
        ("llama", "json_object", 2),
        ("ignore", "text", 1),
        ("garbage", "rule", 1),
    ],
)
def test_the_memory_update_goes_through_it_and_the_rules_write_it_when_nothing_is_read(
    http_server: FakeHTTPServer, tmp_path: Path, behaviour: Behaviour, how: str, requests: int
) -> None:
    """Seed 003's update is one structured decision: memory and entities in one object,
    down the ladder json_schema -> json_object -> JSON in text -> the offline rule."""
    fake = DecisionServer(behaviour).install(http_server)
    settings = _settings(http_server, tmp_path)
    summarizer = LLMSummarizer(get_summarizer_model(settings), name="fake-mini")
    turns = [[HumanMessage("제 이름은 철수예요. 예산은 $10,000이에요."), AIMessage("알겠습니다.")]]
    with collect_decisions() as made:
        result = summarizer.update_memory("", turns, 1, 400, rate=0.3)
    assert result.how == how and result.requests == requests
    assert [(d.decision, d.how) for d in made] == [("memory", how)]
    offline = ExtractiveSummarizer().update_memory("", turns, 1, 400, rate=0.3)
    if how == "rule":  # nothing could be read: the offline update, memory and entities
        assert result.memory == offline.memory and result.entities == rule_entities(turns, 1)
        assert result.fallback  # and it says why
    else:
        assert result.memory == ANSWERS["MemoryUpdate"]["memory"] and not result.fallback
        assert result.entities == [{"key": "budget", "value": "$10,000", "turn": 1}]
    assert len(fake.asked("MemoryUpdate")) == requests  # the refused json_schema counts
    assert not fake.asked("EntityList")  # no second call for the entities


def test_a_memory_that_says_the_prompt_back_is_replaced_and_the_entities_kept(
    http_server: FakeHTTPServer, tmp_path: Path
) -> None:
    echo = {
        "memory": get_prompt(
            "summary.memory_update",
            turn_label="1-1턴",
            target_chars=400,
            memory="",
            conversation="",
        ),
        "entities": [{"key": "이름", "value": "철수", "turn": 7}],
    }
    DecisionServer("strict", {"MemoryUpdate": echo}).install(http_server)
    summarizer = LLMSummarizer(get_summarizer_model(_settings(http_server, tmp_path)), "m")
    turns = [[HumanMessage("제 이름은 철수예요. 예산은 $10,000이에요."), AIMessage("알겠습니다.")]]
    result = summarizer.update_memory("", turns, 1, 400, rate=0.3)
    assert result.fallback == "repeats the instructions" and result.how == "json_schema"
    assert result.memory == ExtractiveSummarizer().update_memory("", turns, 1, 400, rate=0.3).memory
    assert result.entities == [{"key": "이름", "value": "철수", "turn": 1}]  # turn held to 1..1
