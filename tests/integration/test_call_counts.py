"""Seed 000's model-call table, counted at the HTTP layer of a fake OpenAI server.

| scenario            | router | memory | agent | total |
| chat                | 1      | 0      | 1     | 2     |
| tool (calculator)   | 1      | 0      | 2     | 3     |
| RAG                 | 1      | 0      | 1     | 2     |
| long chat (summary) | 1      | 1      | 1     | 3     |
| RAG + tool          | 1      | 0      | 2     | 3     |

plus, where documents are searched, one rerank-and-judge call per step of seed 003's loop
(the loop reports its steps). Seed 002's fast path: a plain greeting skips the router and
the tools, one call. With the default settings: the safeguard's model check
(SAFEGUARD_MODEL=on) would add one call a turn, and is off by default.

Seed 004's supervisor (AGENT_MODE=supervisor) against the single agent, per scenario
(`CALLS_BY_MODE`, the table in docs/architecture.md): the plan takes the router's call,
each step's agent answers its step (a calculator step in two calls), each documents step
runs its own loop, and the aggregator makes none:

| scenario            | single agent                 | supervisor                                |
| plain question      | router, agent (2)            | plan, agent (2)                           |
| two-part question   | router, rerank, agent (3)    | plan, rerank, agent, rerank, agent (5)    |
| document question   | router, rerank, agent (3)    | plan, rerank, agent (3)                   |
| calculator request  | router, agent, agent (3)     | plan, agent, agent (3)                    |
| contract question   | router, rerank, agent (3)    | plan / approval / rerank, agent (3)       |
| plain greeting      | agent (1)                    | agent (1)                                 |
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from graph.session import load_thread, new_thread, open_app, resume_turn, run_turn
from graph.session.app import thread_values
from graph.settings import load_settings
from tests.fakes import openai_server as oai
from tests.fakes.http_server import FakeHTTPServer, Reply, Request

ROOT = Path(__file__).resolve().parents[2]


class CountingModel:
    """The fake server's answers for one scenario, and every call it was asked."""

    def __init__(
        self,
        route: str,
        tool: tuple[str, dict[str, Any]] | None = None,
        plan: dict[str, Any] | None = None,
    ) -> None:
        self.route = route
        self.tool = tool
        self.plan = plan
        self.calls: list[str] = []

    def handle(self, req: Request) -> Reply:
        body = req.json()
        schema = ((body.get("response_format") or {}).get("json_schema") or {}).get("name", "")
        if schema == "PlanDecision" and self.plan is not None:
            self.calls.append("plan")
            return Reply(chunks=oai.stream_text(json.dumps(self.plan, ensure_ascii=False)))
        if schema == "RouteDecision":
            self.calls.append("router")
            decision = {"route": self.route, "reason": "fake"}
            return Reply(chunks=oai.stream_text(json.dumps(decision)))
        if schema == "JudgementSchema":
            self.calls.append("rerank")
            judgement = {
                "ranked_indices": [1, 2],
                "is_sufficient": True,
                "missing": [],
                "next_action": None,
                "refined_query": "",
                "confidence": 0.9,
            }
            return Reply(chunks=oai.stream_text(json.dumps(judgement)))
        if schema:
            self.calls.append(schema)
            return Reply(chunks=oai.stream_text("{}"))
        said = " ".join(str(m.get("content") or "") for m in body["messages"])
        if "요약하세요" in said or "다시 쓰세요" in said:
            self.calls.append("memory")
            return Reply(chunks=oai.stream_text("요약: 사용자는 프로젝트 마감을 말했다."))
        self.calls.append("agent")
        tool_done = any(m["role"] == "tool" for m in body["messages"][-3:])
        if self.tool is not None and not tool_done and body.get("tools"):
            return Reply(chunks=oai.stream_tool_call(*self.tool))
        return Reply(chunks=oai.stream_text("네, 알겠습니다."))


@pytest.fixture
def chat(tmp_path: Path, http_server: FakeHTTPServer):
    def make(model: CountingModel, agent_mode: str = "single"):
        http_server.route("POST", "/v1/chat/completions", model.handle)
        settings = load_settings(
            {
                "CHAT_DB_PATH": str(tmp_path / f"calls-{agent_mode}.sqlite"),
                "INDEX_DIR": str(tmp_path / "index"),
                "DOCS_DIR": str(ROOT / "data" / "docs"),
                "CHAT_PROVIDER": "openai",
                "OPENAI_API_KEY": "sk-test",
                "OPENAI_BASE_URL": f"{http_server.url}/v1",
                # the model decides (the seed's path); auto is the rule for a local server
                "ROUTER_DECISION": "model",
                "RERANK_DECISION": "model",
                "TOOL_DECISION": "model",
                "RETRIEVAL_MODE": "keyword",
                "AGENT_MODE": agent_mode,
            }
        )
        return open_app(settings, approval_required=frozenset())

    return make


def _turn(app: Any, thread: str, text: str, model: CountingModel) -> list[str]:
    model.calls.clear()
    out = run_turn(app, thread, text, turn_count=None, compression_rate=0.3)
    assert out.error_code is None, out.answer
    return list(model.calls)


def _steps(app: Any, thread: str) -> int:
    """How many steps the retrieval loop took this turn (one rerank call each)."""
    return len(thread_values(app, thread).get("retrieval", {}).get("steps", []))


@pytest.mark.parametrize(
    ("scenario", "route", "tool", "message", "expected"),
    [
        ("chat", "agent", None, "오늘 점심 메뉴 추천 좀 해줄래?", ["router", "agent"]),
        (
            "tool",
            "agent",
            ("calculator", {"expression": "123 * 456"}),
            "123 * 456 계산해줘",
            ["router", "agent", "agent"],
        ),
        ("rag", "rag", None, "회사 휴가 정책이 뭐야?", ["router", "agent"]),
        (
            "rag + tool",
            "rag",
            ("calculator", {"expression": "15 / 2"}),
            "연차 휴가 일수의 절반은 며칠인지 계산해줘",
            ["router", "agent", "agent"],
        ),
    ],
)
def test_each_scenario_costs_seed_000s_calls(
    chat: Any,
    scenario: str,
    route: str,
    tool: tuple[str, dict[str, Any]] | None,
    message: str,
    expected: list[str],
) -> None:
    model = CountingModel(route, tool)
    app = chat(model)
    thread = new_thread(app)
    calls = _turn(app, thread, message, model)
    reranks = _steps(app, thread) if route == "rag" else 0
    assert route != "rag" or reranks >= 1, "the documents were not searched"
    assert sorted(calls) == sorted(expected + ["rerank"] * reranks), (scenario, calls)
    assert calls[0] == "router"


def test_a_long_chat_costs_one_memory_call_at_its_summary_turn(chat: Any) -> None:
    model = CountingModel("agent")
    app = chat(model)
    thread = new_thread(app)
    said = [
        "제 이름은 철수예요. 반갑습니다, 잘 부탁해요.",
        "프로젝트 마감은 3월 15일이에요.",
        "예산은 1억원으로 잡혀 있어요.",
        "아까 말한 프로젝트 마감일이 언제라고 했지?",
    ]
    counts = [_turn(app, thread, text, model) for text in said]
    assert counts[:3] == [["router", "agent"]] * 3
    assert sorted(counts[3]) == ["agent", "memory", "router"]  # turn 4 summarizes 1-3
    assert len(load_thread(app, thread).summary_history) == 1


@pytest.mark.parametrize("greeting", ["안녕하세요", "Hello!", "고마워요~", "good morning"])
def test_a_plain_greeting_is_one_call_and_skips_the_router_and_tools(
    chat: Any, greeting: str
) -> None:
    model = CountingModel("agent", ("calculator", {"expression": "1+1"}))
    app = chat(model)
    thread = new_thread(app)
    assert _turn(app, thread, greeting, model) == ["agent"]
    values = thread_values(app, thread)
    assert values["route"] == "greeting"
    assert not any(getattr(m, "tool_calls", None) for m in values["messages"])


def test_a_greeting_at_a_summary_turn_still_summarizes(chat: Any) -> None:
    model = CountingModel("agent")
    app = chat(model)
    thread = new_thread(app)
    for text in ["프로젝트 마감은 3월 15일이에요.", "예산은 1억원이에요.", "담당자는 영희예요."]:
        _turn(app, thread, text, model)
    assert sorted(_turn(app, thread, "안녕하세요", model)) == ["agent", "memory"]
    assert len(load_thread(app, thread).summary_history) == 1


def test_the_safeguard_model_check_is_one_call_more_when_turned_on(
    tmp_path: Path, http_server: FakeHTTPServer
) -> None:
    model = CountingModel("agent")
    http_server.route("POST", "/v1/chat/completions", model.handle)
    settings = load_settings(
        {
            "CHAT_DB_PATH": str(tmp_path / "calls.sqlite"),
            "CHAT_PROVIDER": "openai",
            "OPENAI_API_KEY": "sk-test",
            "OPENAI_BASE_URL": f"{http_server.url}/v1",
            # the model decides (the seed's path); auto is the rule for a local server
            "ROUTER_DECISION": "model",
            "RERANK_DECISION": "model",
            "TOOL_DECISION": "model",
            "SAFEGUARD_MODEL": "on",
        }
    )
    app = open_app(settings, tools=[], index=None)
    thread = new_thread(app)
    assert _turn(app, thread, "오늘 점심 메뉴 추천 좀 해줄래?", model) == [
        "SafeguardDecision",
        "agent",
    ]


# --- seed 004's supervisor (AGENT_MODE=supervisor) against the single agent -------------

TWO_PARTS = "재택근무 지원금은 얼마고 급여는 매달 며칠에 들어와?"
CONTRACT = "연봉 계약서의 재계약 조항 알려줘"
CALLS_BY_MODE: dict[str, tuple[str, Any, list[tuple[str, str, str]], list[str], list[str]]] = {
    # scenario: message, tool the model calls, the plan's steps, single agent, supervisor
    "plain question": (
        "오늘 점심 메뉴 추천 좀 해줄래?",
        None,
        [("general", "오늘 점심 메뉴 추천 좀 해줄래?", "general")],
        ["router", "agent"],
        ["plan", "agent"],
    ),
    "two-part question": (
        TWO_PARTS,
        None,
        [
            ("documents", "재택근무 지원금은 얼마야?", "general"),
            ("documents", "급여는 매달 며칠에 들어와?", "general"),
        ],
        ["router", "rerank", "agent"],
        ["plan", "rerank", "agent", "rerank", "agent"],
    ),
    "document question": (
        "회사 휴가 정책이 뭐야?",
        None,
        [("documents", "회사 휴가 정책이 뭐야?", "general")],
        ["router", "rerank", "agent"],
        ["plan", "rerank", "agent"],
    ),
    "calculator request": (
        "123 * 456 계산해줘",
        ("calculator", {"expression": "123 * 456"}),
        [("data", "123 * 456 계산해줘", "general")],
        ["router", "agent", "agent"],
        ["plan", "agent", "agent"],
    ),
    "contract question (approved)": (
        CONTRACT,
        None,
        [("contract", CONTRACT, "contract")],
        ["router", "rerank", "agent"],
        ["plan", "rerank", "agent"],
    ),
    "plain greeting": ("안녕하세요", None, [], ["agent"], ["agent"]),
}
"""The table "Supervisor mode" in docs/architecture.md: model calls per scenario, one
rerank-and-judge call per step of each retrieval loop (the fake judge finds the first search
sufficient)."""


@pytest.mark.parametrize("scenario", list(CALLS_BY_MODE))
@pytest.mark.parametrize("mode", ["single", "supervisor"])
def test_the_supervisors_calls_against_the_single_agents(
    chat: Any, scenario: str, mode: str
) -> None:
    message, tool, steps, single, supervised = CALLS_BY_MODE[scenario]
    plan = {
        "goal": message,
        "parts": [q for _, q, _ in steps],
        "category": next((c for *_, c in steps if c != "general"), "general"),
        "steps": [{"agent": a, "question": q, "category": c} for a, q, c in steps],
    }
    reads = any(agent in ("documents", "contract") for agent, _, _ in steps)
    model = CountingModel("rag" if reads else "agent", tool, plan)
    app = chat(model, mode)
    thread = new_thread(app)
    model.calls.clear()
    out = run_turn(app, thread, message, turn_count=None, compression_rate=0.3)
    if out.pending is not None:  # the contract step waits for its approval first
        assert mode == "supervisor" and out.pending["category"] == "contract"
        assert model.calls == ["plan"]
        out = resume_turn(app, thread, "approve")
    assert out.error_code is None, out.answer
    assert model.calls == (supervised if mode == "supervisor" else single), model.calls
    if mode == "supervisor":
        ran = thread_values(app, thread)["steps"]
        assert [s["agent"] for s in ran] == [a for a, _, _ in steps] or not steps
        judged = sum(len((s.get("retrieval") or {}).get("steps") or []) for s in ran)
        assert judged == model.calls.count("rerank")  # one rerank call per loop step
