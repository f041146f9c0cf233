"""Seed 004's supervisor (AGENT_MODE=supervisor) walked offline: intent and plan, a step per
part, the router's approval of a contract step, the step limit, the memory before it, and
the single agent's graph left as it was when AGENT_MODE is unset."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage

from graph.graph import build_graph
from graph.session import (
    TurnEvents,
    TurnRequest,
    load_thread,
    new_thread,
    open_app,
    pending_approval,
    resume_turn,
    run_request,
    run_turn,
)
from graph.session.app import thread_values
from graph.settings import load_settings
from graph.supervisor import MAX_STEPS
from graph.tools import tool_availability
from tests.fakes.chat import ScriptedModel

ROOT = Path(__file__).resolve().parents[2]
TWO_PARTS = "재택근무 지원금은 얼마고 급여는 매달 며칠에 들어와?"
CONTRACT = "연봉 계약서의 재계약 조항 알려줘"


def _settings(tmp_path: Path, **env: str):
    return load_settings(
        {
            "CHAT_DB_PATH": str(tmp_path / "s.sqlite"),
            "CHAT_PROVIDER": "offline",
            "INDEX_DIR": str(tmp_path / "index"),
            "DOCS_DIR": str(ROOT / "data" / "docs"),
            "RETRIEVAL_MODE": "keyword",
            **env,
        }
    )


@pytest.fixture
def app(tmp_path: Path):
    chat = open_app(_settings(tmp_path, AGENT_MODE="supervisor"))
    yield chat
    chat.persistence.close()


def _run(app: Any, thread: str, text: str) -> tuple[list[dict[str, Any]], Any]:
    events: list[dict[str, Any]] = []
    out = run_request(app, TurnRequest(thread, message=text), TurnEvents("t", events.append))
    return events, out


def _meta(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [
        e["metadata"] for e in events if e["type"] == "metadata" and e["metadata"]["kind"] == kind
    ]


def test_a_two_part_question_is_two_steps_and_one_answer_with_each_steps_sources(app) -> None:
    thread = new_thread(app)
    events, out = _run(app, thread, TWO_PARTS)
    [plan] = _meta(events, "plan")
    assert [s["agent"] for s in plan["steps"]] == ["documents", "documents"]
    assert plan["how"] == "rule" and len(plan["parts"]) == 2
    finished = [s for s in _meta(events, "step") if s["status"] == "done"]
    assert [s["n"] for s in finished] == [1, 2]
    assert any("remote_work.md" in src for src in finished[0]["sources"])
    assert any("payroll.md > 급여 안내 > 급여일" == src for src in finished[1]["sources"])
    # one answer: both parts under their questions, each with its sources
    answer = out.answer
    assert answer.index("**1. ") < answer.index("remote_work.md") < answer.index("**2. ")
    assert answer.index("**2. ") < answer.index("payroll.md > 급여 안내 > 급여일")
    assert "월 3만원" in answer and "25일" in answer
    tokens = "".join(e["content"] for e in events if e["type"] == "token")
    assert tokens == answer and {e["node"] for e in events if e["type"] == "token"} == {
        "aggregate_node"
    }
    turn = load_thread(app, thread).turns[-1][1]
    assert [m.type for m in turn] == ["human", "ai"]  # the steps' answers are not the turn's
    values = thread_values(app, thread)
    assert values["route"] == "supervisor" and len(values["steps"]) == 2
    assert {p["source"] for p in values["retrieved"]} >= {"remote_work.md", "payroll.md"}


def test_a_contract_question_waits_for_approval_with_its_category(app) -> None:
    thread = new_thread(app)
    events, out = _run(app, thread, CONTRACT)
    assert out.pending == {
        "kind": "approval",
        "category": "contract",
        "tool": "contract_agent",
        "args": {"question": CONTRACT},
        "tool_call_id": "step_1_1",
        "reason": "contract_question",  # it asks about a contract; it acts on none
    }
    [request] = _meta(events, "approval_request")
    assert request["category"] == "contract"
    assert [e["type"] for e in events][-1] == "metadata"  # no done: the job goes on later
    assert pending_approval(app, thread)["category"] == "contract"
    assert thread_values(app, thread).get("steps") == []  # nothing ran before the approval


def test_approve_gives_the_clause_level_answer(app) -> None:
    thread = new_thread(app)
    run_turn(app, thread, CONTRACT, turn_count=None, compression_rate=0.3)
    out = resume_turn(app, thread, "approve")
    assert out.pending is None and out.error_code is None
    assert "조항별 근거:" in out.answer
    assert "«기본급: 연봉 계약서의 연봉을 12로 나눈 금액" in out.answer
    assert "(payroll.md > 급여 안내 > 급여 구성)" in out.answer
    [step] = thread_values(app, thread)["steps"]
    assert step["approval"] == "approve" and step["status"] == "done"


def test_reject_ends_the_task_as_approval_rejected_and_the_next_message_works(app) -> None:
    thread = new_thread(app)
    run_turn(app, thread, CONTRACT, turn_count=None, compression_rate=0.3)
    out = resume_turn(app, thread, "reject")
    assert out.error_code == "APPROVAL_REJECTED" and out.pending is None
    assert "조항별 근거" not in out.answer and "payroll.md" not in out.answer
    [step] = thread_values(app, thread)["steps"]
    assert step["status"] == "rejected" and "passages" not in step
    assert pending_approval(app, thread) is None
    nxt = run_turn(app, thread, "123 * 456 계산해줘", turn_count=None, compression_rate=0.3)
    assert "56088" in nxt.answer and nxt.error_code is None
    first = load_thread(app, thread).turns[0][1]
    assert first[0].content == CONTRACT and first[-1].content == out.answer


def test_a_free_text_response_stands_for_the_step_which_does_not_run(app) -> None:
    thread = new_thread(app)
    run_turn(app, thread, CONTRACT, turn_count=None, compression_rate=0.3)
    out = resume_turn(app, thread, "respond", response="아니요, 하지 마세요")
    [step] = thread_values(app, thread)["steps"]
    assert step["approval"] == "respond" and step["status"] == "done"
    assert step["answer"] == "아니요, 하지 마세요" and "passages" not in step
    assert out.error_code is None and out.answer == "아니요, 하지 마세요"
    assert "조항별 근거" not in out.answer and "payroll.md" not in out.answer


def _one_step_plan(question: str) -> _TextPlanner:
    step = {"agent": "general", "question": question, "category": "general"}
    plan = {"goal": question, "parts": [question], "category": "general", "steps": [step]}
    return _TextPlanner([AIMessage(content=json.dumps(plan, ensure_ascii=False))])


def test_a_models_step_gets_the_personal_data_it_saw_masked_and_asks_for_it(
    tmp_path: Path,
) -> None:
    from graph.safeguard import mask

    message = "제 번호 010-1234-5678 로 이 기록 문자로 보내줘"
    hidden: dict[str, str] = {}
    mask(message, hidden)
    [token] = hidden  # the placeholder the planner saw for the phone number
    planner = _one_step_plan(f"{token} 번호로 기록 보내기")
    app = open_app(_settings(tmp_path, AGENT_MODE="supervisor"), router_model=planner)
    thread = new_thread(app)
    events, out = _run(app, thread, message)
    [plan] = _meta(events, "plan")
    assert plan["steps"][0]["question"] == "010-1234-5678 번호로 기록 보내기"
    assert out.pending is not None and out.pending["category"] == "sensitive"
    app.persistence.close()


def test_a_models_step_worded_without_the_act_still_asks_by_the_message(
    tmp_path: Path,
) -> None:
    planner = _one_step_plan("인터넷 서비스 처리")
    app = open_app(_settings(tmp_path, AGENT_MODE="supervisor"), router_model=planner)
    thread = new_thread(app)
    events, out = _run(app, thread, "인터넷 서비스 계약 해지해 줘")
    assert out.pending is not None and out.pending["category"] == "contract"
    app.persistence.close()


def test_a_payment_step_waits_with_its_category(app) -> None:
    thread = new_thread(app)
    out = run_turn(
        app, thread, "회식비 30만원 법인카드로 결제해줘", turn_count=None, compression_rate=0.3
    )
    assert out.pending is not None and out.pending["category"] == "payment"
    assert thread_values(app, thread).get("steps") == []


@pytest.mark.parametrize(
    "message",
    ["pay John 50 dollars", "송금 부탁드립니다", "transfer 500000 won to Kim"],
)
def test_a_paraphrased_payment_step_waits_too(app, message: str) -> None:
    """Issue 43: paraphrased payment steps ran unasked in supervisor mode (3/3)."""
    thread = new_thread(app)
    out = run_turn(app, thread, message, turn_count=None, compression_rate=0.3)
    assert out.pending is not None and out.pending["category"] == "payment", out.answer
    assert thread_values(app, thread).get("steps") == []  # nothing ran before the answer


def test_edit_runs_the_step_with_the_edited_question(app) -> None:
    thread = new_thread(app)
    run_turn(app, thread, CONTRACT, turn_count=None, compression_rate=0.3)
    out = resume_turn(
        app, thread, "edit", {"question": "급여는 매달 며칠에 들어와? 계약서 기준으로"}
    )
    [step] = thread_values(app, thread)["steps"]
    assert step["question"].startswith("급여는 매달 며칠") and step["approval"] == "edit"
    assert "payroll.md > 급여 안내 > 급여일" in out.answer


def test_a_calculator_request_is_a_data_step(app) -> None:
    thread = new_thread(app)
    events, out = _run(app, thread, "123 * 456 계산해줘")
    [plan] = _meta(events, "plan")
    assert [s["agent"] for s in plan["steps"]] == ["data"]
    assert "56088" in out.answer and "calculator" in out.answer
    turn = load_thread(app, thread).turns[-1][1]
    assert [m.type for m in turn] == ["human", "ai", "tool", "ai"]  # the step's tool call stays


@pytest.mark.skipif(
    tool_availability(load_settings({}))["python_repl"] is not None, reason="no sandbox"
)
def test_a_code_step_asks_the_tool_approval_as_the_single_agent_does(app) -> None:
    thread = new_thread(app)
    out = run_turn(
        app,
        thread,
        "이 코드 실행해줘\n```python\nprint(6 * 7)\n```",
        turn_count=None,
        compression_rate=0.3,
    )
    assert out.pending is not None and out.pending["tool"] == "python_repl"
    assert thread_values(app, thread)["steps"][0]["agent"] == "code"
    assert "42" in resume_turn(app, thread, "approve").answer


def test_the_memory_nodes_run_first(app) -> None:
    thread = new_thread(app)
    said = ["제 이름은 민지예요.", "프로젝트 마감은 3월 15일이에요.", "예산은 1억원이에요."]
    for text in said:
        run_turn(app, thread, text, turn_count=None, compression_rate=0.3)
    events, out = _run(app, thread, "제 이름이 뭐였죠?")
    assert "민지" in out.answer
    nodes = [m["node"] for m in _meta(events, "node_start")]
    assert nodes.index("summary_node") < nodes.index("recall_node") < nodes.index("plan_node")
    assert len(_meta(events, "summary")) == 1  # turn 4 summarizes turns 1-3, as before


class _TextPlanner(ScriptedModel):
    """A planner read as text (no structured output of its own)."""

    def with_structured_output(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError


def test_the_plan_is_cut_at_the_step_limit(tmp_path: Path) -> None:
    steps = [{"agent": "general", "question": f"질문 {i}", "category": "general"} for i in range(5)]
    plan = {"goal": "다섯 가지", "parts": [s["question"] for s in steps], "category": "general"}
    planner = _TextPlanner([AIMessage(content=json.dumps({**plan, "steps": steps}))])
    app = open_app(_settings(tmp_path, AGENT_MODE="supervisor"), router_model=planner)
    thread = new_thread(app)
    events, out = _run(app, thread, "다섯 가지를 물어볼게요?")
    [plan_event] = _meta(events, "plan")
    assert plan_event["how"] == "text" and plan_event["left_out"] == 5 - MAX_STEPS
    assert len(plan_event["steps"]) == MAX_STEPS
    done = [s for s in _meta(events, "step") if s["status"] != "running"]
    assert [s["n"] for s in done] == list(range(1, MAX_STEPS + 1))
    assert f"**{MAX_STEPS}. 질문 {MAX_STEPS - 1}**" in out.answer
    assert f"나머지 {5 - MAX_STEPS}개 부분은 단계 한도({MAX_STEPS})" in out.answer
    app.persistence.close()


SINGLE_NODES = {
    "__start__",
    "safeguard_node",
    "router_node",
    "rag_node",
    "summary_node",
    "recall_node",
    "llm_node",
    "tool_node",
    "memory_node",
    "fallback_node",
    "__end__",
}
SINGLE_EDGES = {
    ("__start__", "safeguard_node"),
    ("safeguard_node", "router_node"),
    ("safeguard_node", "fallback_node"),  # a blocked message: its apology (seed 001)
    ("router_node", "rag_node"),
    ("router_node", "summary_node"),
    ("rag_node", "summary_node"),
    ("summary_node", "recall_node"),
    ("recall_node", "llm_node"),
    ("llm_node", "tool_node"),
    ("llm_node", "__end__"),
    ("tool_node", "llm_node"),
    ("tool_node", "__end__"),
    ("llm_node", "memory_node"),  # a recursive thread's memory, after the answer
    ("memory_node", "__end__"),
    ("llm_node", "fallback_node"),  # a failed answer: the coded apology (seed 001)
    ("fallback_node", "__end__"),
}


def _shape(graph: Any) -> tuple[set[str], set[tuple[str, str]]]:
    drawn = graph.get_graph()
    return set(drawn.nodes), {(e.source, e.target) for e in drawn.edges}


def test_agent_mode_unset_keeps_the_single_agents_graph(tmp_path: Path) -> None:
    app = open_app(_settings(tmp_path))
    assert app.settings.supervised is False
    assert _shape(app.graph) == (SINGLE_NODES, SINGLE_EDGES)
    thread = new_thread(app)
    events, out = _run(app, thread, "123 * 456 계산해줘")
    assert "56088" in out.answer and not _meta(events, "plan") and not _meta(events, "step")
    assert {e["node"] for e in events if e["type"] == "token"} == {"llm_node"}
    assert "steps" not in thread_values(app, thread)
    app.persistence.close()


def test_the_supervisors_graph(tmp_path: Path) -> None:
    from langgraph.checkpoint.memory import InMemorySaver

    graph = build_graph(InMemorySaver(), settings=_settings(tmp_path, AGENT_MODE="supervisor"))
    nodes, edges = _shape(graph)
    assert nodes == {
        "__start__", "safeguard_node", "summary_node", "recall_node", "plan_node",
        "step_node", "llm_node", "tool_node", "aggregate_node", "memory_node",
        "fallback_node", "__end__",
    }  # fmt: skip
    assert ("safeguard_node", "fallback_node") in edges and ("fallback_node", "__end__") in edges
    assert ("recall_node", "plan_node") in edges and ("step_node", "step_node") in edges
    assert ("llm_node", "step_node") in edges and ("aggregate_node", "__end__") in edges
    assert ("aggregate_node", "memory_node") in edges and ("memory_node", "__end__") in edges
    # a rejected approval ends the task where it was asked
    assert ("step_node", "__end__") in edges and ("tool_node", "__end__") in edges
    with pytest.raises(ValueError, match="AGENT_MODE"):
        open_app(_settings(tmp_path, AGENT_MODE="swarm"))


def test_the_panel_shows_the_plan_and_each_step(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from streamlit.testing.v1 import AppTest

    monkeypatch.setenv("AGENT_MODE", "supervisor")
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    at.chat_input[0].set_value(TWO_PARTS).run()
    assert not at.exception, at.exception
    (plan,) = [e for e in at.expander if e.label.startswith("🧭 수퍼바이저의 계획")]
    assert plan.label == "🧭 수퍼바이저의 계획: 2단계 (rule)"
    lines = [m.value for m in plan.markdown]
    assert lines == [
        "1. **documents** · done — 재택근무 지원금은 얼마야?",
        "2. **documents** · done — 급여는 매달 며칠에 들어와?",
    ]
    assert any("payroll.md > 급여 안내 > 급여일" in c.value for c in plan.caption)
    assert "경로: supervisor — plan (rule): documents, documents" in [c.value for c in at.caption]
    at.chat_input[0].set_value(CONTRACT).run()
    assert any("승인" in w.value for w in at.warning)
    at.button(key="approve").click().run()
    assert not at.exception, at.exception
    assert any("조항별 근거:" in m.value for m in at.chat_message[-1].markdown)
    (plan,) = [e for e in at.expander if e.label.startswith("🧭 수퍼바이저의 계획")]
    assert [m.value for m in plan.markdown] == [f"1. **contract** · done — {CONTRACT}"]


def test_a_recursive_threads_memory_is_updated_after_the_aggregated_answer(app) -> None:
    from graph.session import set_thread_strategy

    thread = new_thread(app)
    set_thread_strategy(app, thread, "recursive")
    for n in range(1, 7):
        events, out = _run(app, thread, f"제 {n}번째 메모는 색깔 코드 C{n}0{n} 입니다.")
        assert out.error_code is None
    meta = [e["metadata"] for e in events if e["type"] == "metadata"]
    started = [m["node"] for m in meta if m["kind"] == "node_start"]
    assert "aggregate_node" in started and "memory_node" in started
    assert started.index("memory_node") > started.index("aggregate_node")
    values = thread_values(app, thread)
    assert "C101" in values["memory"]  # turns 1-5 folded in after turn 6's answer
