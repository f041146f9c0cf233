"""Seed 002's table under default settings: at turn 50, 16 summaries + 2 raw turns.

"Ordinary conversation" here is the seed's own figure: turns of about 300 characters
(user + assistant) at the default rate 0.3, so each summary is about 270 characters and
16 of them fit the default summary budget; digests start only past it, and after that the
context stays flat.
"""

from __future__ import annotations

import re
import statistics

from langchain_core.messages import AIMessage, HumanMessage

from graph.context import context_chars
from graph.settings import load_settings
from tests.fakes.chat import ScriptedModel
from tests.unit.helpers import make_graph

PLACES = ["판교 연구소", "부산 지사", "제주 연수원", "대전 센터", "서울 본사"]
PEOPLE = ["김민수", "이서연", "박지훈", "최유진", "정하늘"]


def user(turn: int) -> str:
    place, person = PLACES[turn % 5], PEOPLE[turn % 5]
    return (
        f"{turn}번째 안건입니다. {person}님이 {place}에서 {turn % 12 + 1}월 {turn % 27 + 1}일에 "
        f"회의를 열자고 하셨어요. 참석자는 {turn % 9 + 3}명이고 예산은 {turn * 7 + 100}만원입니다. "
        "장소 예약과 자료 준비는 누가 맡으면 좋을까요?"
    )


def answer(turn: int) -> str:
    return (
        f"{PLACES[turn % 5]} 회의실은 {turn % 9 + 3}명이 쓰기에 충분합니다. 예산 {turn * 7 + 100}만원 "
        "안에서 다과와 장비 대여를 함께 처리할 수 있습니다. 안건 자료는 회의 하루 전까지 공유해 "
        "주시고, 외부 참석자가 있다면 출입 등록을 미리 해 두세요. 회의록 담당자도 정해 두면 "
        "좋습니다. 주차가 필요한 분은 총무팀에 차량 번호를 알려 주시면 됩니다. 끝나면 결과를 공유 "
        "폴더에 올려 주세요."
    )


def _talk(graph, model: ScriptedModel, turns: int) -> list[int]:
    sizes = []
    for turn in range(1, turns + 1):
        model.script.append(answer(turn))
        graph.invoke(
            {
                "messages": [HumanMessage(content=user(turn))],
                "session_id": "seed",
                "turn_count": turn,
                "compression_rate": 0.3,
            },
            {"configurable": {"thread_id": "seed"}},
        )
        sizes.append(context_chars(model.calls[-1]))
    return sizes


def test_turns_average_the_seeds_300_characters() -> None:
    lengths = [len(user(t)) + len(answer(t)) for t in range(1, 51)]
    assert 280 <= statistics.mean(lengths) <= 320


def test_turn_50_holds_16_summaries_and_2_raw_turns_under_default_settings() -> None:
    assert load_settings({}).summary_budget == 5000 and load_settings({}).recall_enabled
    model = ScriptedModel()
    graph = make_graph(model)
    _talk(graph, model, 50)
    context = model.calls[-1]
    lines = str(context[0].content).splitlines()
    spans = [m.group(1) for line in lines if (m := re.match(r"\[(\d+-\d+)턴", line))]
    assert spans == [f"{s}-{s + 2}" for s in range(1, 47, 3)]  # 16 summaries, 1-3 .. 46-48
    raw = context[1:]
    assert [type(m) for m in raw] == [HumanMessage, AIMessage, HumanMessage]
    assert raw[0].content == user(49) and raw[-1].content == user(50)
    state = graph.get_state({"configurable": {"thread_id": "seed"}}).values
    assert state.get("summary_digests", []) == []  # no merging before the budget


def test_after_the_budget_the_context_stays_flat() -> None:
    model = ScriptedModel()
    graph = make_graph(model, CONTEXT_BUDGET_CHARS="1500")
    sizes = _talk(graph, model, 100)
    state = graph.get_state({"configurable": {"thread_id": "seed"}}).values
    assert state["summary_digests"], "the summaries passed 1,500 characters but none merged"
    middle = statistics.median(sizes[44:55])
    end = statistics.median(sizes[89:100])
    assert end <= 1.25 * middle, (middle, end)
