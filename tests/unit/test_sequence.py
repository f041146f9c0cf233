"""Seed 002 sequence and context tests, run through the compiled graph."""

from __future__ import annotations

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

from tests.fakes.chat import ScriptedModel, tool_call
from tests.unit.helpers import make_graph, send


def _summary_updates(graph, thread: str, turn: int, text: str, rate: float = 0.3):
    """Run a turn and return summary_history before and after summary_node."""
    before = list(
        graph.get_state({"configurable": {"thread_id": thread}}).values.get("summary_history", [])
    )
    after = None
    for update in graph.stream(
        {
            "messages": [HumanMessage(text)],
            "session_id": thread,
            "turn_count": turn,
            "compression_rate": rate,
        },
        {"configurable": {"thread_id": thread}},
        stream_mode="updates",
    ):
        if "summary_node" in update:
            after = (update["summary_node"] or {}).get("summary_history", before)
    return before, after


def test_summary_history_grows_0_1_2_3_at_turns_4_7_10() -> None:
    graph = make_graph(ScriptedModel(default="답변입니다. 잘 알겠습니다."))
    sizes = {}
    for turn in range(1, 11):
        before, after = _summary_updates(
            graph, "t", turn, f"{turn}번째 질문입니다. 숫자 {turn * 111}."
        )
        sizes[turn] = (len(before), len(after))
    assert sizes[4] == (0, 1)
    assert sizes[7] == (1, 2)
    assert sizes[10] == (2, 3)
    for turn in (1, 2, 3, 5, 6, 8, 9):
        assert sizes[turn][0] == sizes[turn][1], turn
    history = graph.get_state({"configurable": {"thread_id": "t"}}).values["summary_history"]
    assert [e["turns"] for e in history] == [[1, 2, 3], [4, 5, 6], [7, 8, 9]]


def test_context_is_n_summaries_plus_current_turn_at_4_7_10() -> None:
    model = ScriptedModel(default="알겠습니다.")
    graph = make_graph(model)
    contexts = {}
    for turn in range(1, 11):
        send(graph, "t", turn, f"질문 {turn}")
        contexts[turn] = model.calls[-1]
    for turn, n in ((4, 1), (7, 2), (10, 3)):
        ctx = contexts[turn]
        system = ctx[0]
        assert isinstance(system, SystemMessage)
        assert system.content.count("턴] ") == n
        assert "[이전 대화 요약]" in system.content
        # exactly one raw turn: the current user message
        assert [type(m) for m in ctx[1:]] == [HumanMessage]
        assert ctx[1].content == f"질문 {turn}"
    # between triggers the raw turns accumulate: turn 6 = 1 summary + turns 4, 5 + current
    assert contexts[6][0].content.count("턴] ") == 1
    assert [m.content for m in contexts[6] if isinstance(m, HumanMessage)] == [
        "질문 4",
        "질문 5",
        "질문 6",
    ]
    assert [m.content for m in contexts[3] if isinstance(m, HumanMessage)] == [
        "질문 1",
        "질문 2",
        "질문 3",
    ]
    assert "[이전 대화 요약]" not in contexts[3][0].content


def test_entry_schema_and_target_length() -> None:
    graph = make_graph(
        ScriptedModel(
            default="네, 2024년 3월 15일까지 김민수 님이 처리합니다. 예산은 1,500만원입니다."
        )
    )
    for turn in range(1, 5):
        send(
            graph,
            "s1",
            turn,
            f"프로젝트 {turn}단계 일정과 예산을 정리해 주세요. 담당은 김민수입니다.",
            rate=0.3,
        )
    entry = graph.get_state({"configurable": {"thread_id": "s1"}}).values["summary_history"][0]
    assert set(entry) == {
        "thread_id",
        "turns",
        "turn_length",
        "original_chars",
        "summary_chars",
        "compression_rate",
        "summary",
    }
    assert entry["thread_id"] == "s1"
    assert entry["turns"] == [1, 2, 3] and entry["turn_length"] == 3
    assert entry["summary_chars"] == len(entry["summary"])
    target = int(entry["original_chars"] * 0.3)
    assert abs(entry["summary_chars"] - target) <= 0.1 * target
    assert entry["compression_rate"] == 0.3


def test_rate_change_applies_from_the_next_summary() -> None:
    graph = make_graph(ScriptedModel(default="알겠습니다. 기록했습니다."))
    for turn in range(1, 7):
        send(
            graph,
            "r",
            turn,
            f"메모 {turn}: 회의는 {turn}월 {turn}일 오후 {turn}시입니다.",
            rate=0.3,
        )
    send(graph, "r", 7, "메모 7", rate=0.5)
    history = graph.get_state({"configurable": {"thread_id": "r"}}).values["summary_history"]
    assert [e["compression_rate"] for e in history] == [0.3, 0.5]
    assert history[1]["summary_chars"] > int(history[1]["original_chars"] * 0.3 * 1.1)


def test_ten_turns_with_tool_calls() -> None:
    script = []
    for turn in range(1, 11):
        if turn in (2, 5, 9):
            script += [
                tool_call("calculator", {"expression": f"{turn}+{turn}"}, f"c{turn}"),
                lambda msgs: AIMessage(f"결과는 {msgs[-1].content}입니다."),
            ]
        else:
            script.append(f"{turn}번 답변")
    model = ScriptedModel(script)
    graph = make_graph(model)
    answers = [
        send(graph, "tools", t, f"{t}번째 질문")["messages"][-1].content for t in range(1, 11)
    ]
    assert answers[1] == "결과는 4입니다." and answers[8] == "결과는 18입니다."
    state = graph.get_state({"configurable": {"thread_id": "tools"}}).values
    assert len(state["summary_history"]) == 3
    # turn 2's tool call and result are part of turns 1-3 and were summarized with them
    first = state["summary_history"][0]
    assert first["original_chars"] == len(
        "1번째 질문1번 답변2번째 질문4결과는 4입니다.3번째 질문3번 답변"
    )
    # the working set holds only turn 10 now; the rest moved to the archive
    assert [m.content for m in state["messages"] if isinstance(m, HumanMessage)] == ["10번째 질문"]
    assert state["archived_turns"] == 9
    # turn 9: the model saw summaries 1-6 and raw turns 7, 8, then its own tool round
    ctx = model.calls[-1]
    assert isinstance(ctx[-1], HumanMessage) and ctx[-1].content == "10번째 질문"
    tool_ctx = [c for c in model.calls if isinstance(c[-1], ToolMessage)][-1]
    assert [m.content for m in tool_ctx if isinstance(m, HumanMessage)] == [
        "7번째 질문",
        "8번째 질문",
        "9번째 질문",
    ]
