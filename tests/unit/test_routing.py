"""Router and rag node with the offline engine: routes, cited sources, honest 'not found'."""

from __future__ import annotations

from pathlib import Path

import pytest

from graph.retrieval import DocumentIndex, HashingEmbeddings
from graph.session import load_thread, new_thread, open_app, run_turn
from graph.settings import load_settings
from tests.fakes.chat import ScriptedModel, tool_call
from tests.unit.helpers import make_graph, send

POLICY = """# 재택근무 규정
## 신청 방법
재택근무는 주 2일까지 가능합니다. 전주 금요일까지 포털에 신청합니다.
## 지원금
재택근무를 월 4일 이상 하면 월 3만원을 지원합니다.
## 연락
재택근무 날에는 오전 10시부터 오후 4시까지 메신저에 바로 답합니다.
"""


@pytest.fixture
def app(tmp_path: Path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "remote.md").write_text(POLICY, "utf-8")
    settings = load_settings(
        {
            "CHAT_DB_PATH": str(tmp_path / "c.sqlite"),
            "DOCS_DIR": str(docs),
            "CHAT_PROVIDER": "offline",
        }
    )
    chat = open_app(settings)
    chat.docs = docs  # type: ignore[attr-defined]
    yield chat
    chat.persistence.close()


def _turn(app, thread: str, turn: int, text: str):
    out = run_turn(app, thread, text, turn_count=turn, compression_rate=0.3)
    return out, load_thread(app, thread)


@pytest.mark.parametrize(
    ("text", "about_what_was_said"),
    [
        ("내 이름이 뭐였지?", True),
        ("그때 뭐라고 했어", True),
        ("출장 가서 뭐 했었죠?", True),
        ("경비가 무슨 항목이었는지 언제까지 입력해야 돼?", False),  # a clause, not the question
        ("어디서 샀는지 영수증에 적어야 해?", False),
    ],
)
def test_a_past_tense_asks_about_the_conversation_only_at_the_end(
    text: str, about_what_was_said: bool
) -> None:
    from graph.routing import _RECALL

    assert bool(_RECALL.search(text)) is about_what_was_said


@pytest.mark.parametrize(
    ("text", "route"),
    [
        ("재택근무는 일주일에 며칠까지 돼?", "rag"),
        ("Is there an allowance for working from home?", "rag"),
        ("안녕하세요, 반가워요", "agent"),
        ("오늘 점심 뭐 먹지?", "agent"),
        ("123 * 456 계산해줘", "agent"),
        ("지금 몇 시야?", "agent"),
        ("What time is it in London?", "agent"),
        # when something happens is in the documents, not on the clock
        ("재택근무 날에는 몇 시부터 몇 시까지 메신저에 답해야 해?", "rag"),
        ("회사 주차 규정 알려줘", "rag"),
        ("재택근무 얘기 아까 내가 뭐라고 했지?", "agent"),
        # statements share words with the documents but ask nothing
        ("재택근무는 다음 주 화요일에 하기로 했어요.", "agent"),
        ("첫 번째 메시지입니다", "agent"),
    ],
)
def test_routes(app, text: str, route: str) -> None:
    thread = new_thread(app)
    _, view = _turn(app, thread, 1, text)
    assert view.route == route, view.state.get("route_reason")


def test_a_question_about_hours_is_answered_from_the_documents_not_the_clock(app) -> None:
    thread = new_thread(app)
    out, view = _turn(app, thread, 1, "재택근무 날에는 몇 시부터 몇 시까지 메신저에 답해야 해?")
    assert view.route == "rag" and "오전 10시부터 오후 4시까지" in out.answer


def test_document_answer_quotes_and_names_its_source(app) -> None:
    thread = new_thread(app)
    out, view = _turn(app, thread, 1, "재택근무는 일주일에 며칠까지 돼?")
    assert "주 2일까지" in out.answer
    assert "출처: remote.md > 재택근무 규정 > 신청 방법" in out.answer
    assert view.retrieved[0]["source"] == "remote.md" and view.retrieved[0]["confidence"] >= 0.5


def test_nothing_found_gets_the_honest_answer(app) -> None:
    thread = new_thread(app)
    out, view = _turn(app, thread, 1, "회사 주차 규정 알려줘")
    assert view.route == "rag" and view.retrieved == []
    assert out.answer.startswith("관련 문서를 찾지 못했습니다.")


def test_a_document_added_is_found_on_the_next_turn(app) -> None:
    thread = new_thread(app)
    out, _ = _turn(app, thread, 1, "방문객 주차는 몇 시간 무료야?")
    assert "찾지 못했습니다" in out.answer or "출처" not in out.answer
    (app.docs / "parking.md").write_text(
        "# 주차 안내\n## 방문객\n방문객 주차는 2시간 무료입니다.\n", "utf-8"
    )
    out, view = _turn(app, thread, 2, "방문객 주차는 몇 시간 무료야?")
    assert "2시간 무료" in out.answer and "출처: parking.md" in out.answer


def test_retrieved_passages_are_not_summarized_as_user_text(app) -> None:
    thread = new_thread(app)
    for turn, text in enumerate(
        ["재택근무 신청은 언제까지 해?", "좋아요", "고마워요", "다음 질문"], 1
    ):
        _turn(app, thread, turn, text)
    summary = load_thread(app, thread).summary_history[0]["summary"]
    assert "사용자: 재택근무 신청은 언제까지 해?" in summary or "재택근무 신청" in summary
    assert "사용자: 재택근무는 주 2일까지" not in summary


def test_the_three_retrieval_tools_share_three_calls_per_turn(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "remote.md").write_text(POLICY, "utf-8")
    index = DocumentIndex(docs, tmp_path / "idx", HashingEmbeddings())
    calls = [
        ("search_all", {"query": "재택 횟수"}),
        ("search_by_metadata", {"query": "재택 신청", "doc_type": "guide"}),
        ("get_section", {"source": "remote.md", "heading": "재택근무 규정"}),
        ("search_all", {"query": "재택 한 번 더"}),
    ]
    script = [tool_call(name, args, f"s{i}") for i, (name, args) in enumerate(calls)] + [
        "끝",
        tool_call("search_all", {"query": "재택 지원금"}, "s9"),
        "끝2",
    ]
    graph = make_graph(ScriptedModel(script), index=index)
    state = send(graph, "t", 1, "재택 자료를 정리해 둘게요.")  # a statement: no rag loop
    assert not state.get("retrieval")
    results = [m.content for m in state["messages"] if m.type == "tool"]
    assert len(results) == 4
    assert results[0].startswith("[1] remote.md") and "judgement: {" in results[0]
    assert results[1].startswith("[1] remote.md")
    assert "주 2일" in results[2]
    assert results[3].startswith(
        "Error: get_section, search_all, search_by_metadata may be called 3 times per turn"
    )
    assert state["messages"][-1].content == "끝"
    # the next turn has its own three, of which the rag node's loop spends some first
    state = send(graph, "t", 2, "재택근무 지원금 규정은 어떻게 돼?")
    spent = len(state["retrieval"]["steps"])
    assert 1 <= spent <= 3
    last_human = max(i for i, m in enumerate(state["messages"]) if m.type == "human")
    (again,) = [m.content for m in state["messages"][last_human:] if m.type == "tool"]
    assert ("월 3만원" in again) == (spent < 3) and again.startswith("Error") == (spent == 3)
    assert state["messages"][-1].content == "끝2"


def test_a_question_the_rerank_finds_a_sure_passage_for_goes_to_retrieval(
    app, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The top search hit is not sure enough, but the loop's rerank of more passages is."""
    from graph import routing
    from graph.retrieval import Hit
    from graph.retrieval.loop import ANSWERED, NOT_FOUND, LoopResult

    index = DocumentIndex(app.docs, tmp_path / "index", HashingEmbeddings())
    question = "오늘 점심 뭐 먹지?"
    assert index.search(question, k=1)[0].confidence < 0.5
    sure = Hit("c", "remote.md", "재택근무 규정 > 지원금", "…", 0.1, 0.62)
    seen: list[str] = []

    def loop(index: DocumentIndex, asked: str) -> LoopResult:
        seen.append(asked)
        return LoopResult(outcome, [sure] if outcome == ANSWERED else [], [])

    monkeypatch.setattr(routing, "run_loop", loop)
    outcome = ANSWERED
    rule = routing.rule_route(question, index)
    assert (rule.route, seen) == ("rag", [question]) and "rerank, confidence 0.62" in rule.reason
    assert routing.rule_route(question, index, rerank=False).route == "agent"  # loop off
    outcome = NOT_FOUND
    assert routing.rule_route(question, index).route == "agent"
    # through the graph: the router's loop result is kept, the rag node does not run it again
    outcome, seen[:] = ANSWERED, []
    thread = new_thread(app)
    _, view = _turn(app, thread, 1, question)
    assert view.route == "rag" and seen == [question]
    assert [h["heading"] for h in view.state["retrieved"]] == [sure.heading]


def test_a_model_router_decides_without_running_the_rule(
    app, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from langchain_core.messages import HumanMessage

    from graph import routing

    class Router:
        def with_structured_output(self, schema: object) -> Router:
            return self

        def invoke(self, messages: object) -> routing.RouteDecision:
            return routing.RouteDecision(route="agent", reason="the model says so")

    def no_rule(*args: object, **kwargs: object) -> routing.RuleRoute:
        raise AssertionError("the rule ran although the model decided")

    monkeypatch.setattr(routing, "rule_route", no_rule)
    index = DocumentIndex(app.docs, tmp_path / "index", HashingEmbeddings())
    node = routing.make_router_node(index, Router())  # type: ignore[arg-type]
    out = node({"messages": [HumanMessage("재택근무는 일주일에 며칠까지 돼?")]})  # type: ignore[arg-type]
    assert (out["route"], out["route_reason"], out["retrieval"]) == (
        "agent",
        "the model says so",
        {},
    )
