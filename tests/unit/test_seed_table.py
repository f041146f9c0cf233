"""Seed 002's table under default settings: at turn 50, 16 summaries + 2 raw turns.

"Ordinary conversation" here is the seed's own figure: turns of about 300 characters
(user + assistant) at the default rate 0.3, so each summary is about 270 characters and
16 of them fit the default summary budget; digests start only past it, and after that the
context stays flat.
"""

from __future__ import annotations

import re
import statistics

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from graph.context import context_chars
from graph.settings import load_settings
from tests.fakes.chat import ScriptedModel
from tests.unit.helpers import make_graph

SUMMARY_BUDGET = 8000
"""CONTEXT_BUDGET_CHARS' default: 16 summaries of 500-character turns at rate 0.3."""
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


MORE = (
    " 발표 자료는 표지, 안건 요약, 예산표, 일정표 순서로 정리하고 마지막 장에 질의응답 시간을 "
    "넣어 주세요. 회의 전날 오후에 리허설을 한 번 하면 진행이 매끄럽습니다. 간식은 참석자 수에 "
    "맞춰 넉넉히 준비하고, 남은 예산은 다음 회의로 넘기지 말고 정산해 주세요. 회의실 예약은 "
    "사내 포털에서 하고, 화상 회의 링크도 함께 만들어 두면 원격 참석자가 헤매지 않습니다."
)
"""Added to each answer for the seed's own example size: 1,500 characters per three turns."""


def turn_text(turn: int, size: int) -> tuple[str, str]:
    """The user's message and the answer of `turn`, about `size` characters together."""
    reply = answer(turn)
    if size >= 500:
        reply += MORE
    return user(turn), reply


def _talk(
    graph, model: ScriptedModel, turns: int, size: int = 300, budget: int = SUMMARY_BUDGET
) -> list[int]:
    sizes = []
    for turn in range(1, turns + 1):
        said, reply = turn_text(turn, size)
        model.script.append(reply)
        graph.invoke(
            {
                "messages": [HumanMessage(content=said)],
                "session_id": "seed",
                "turn_count": turn,
                "compression_rate": 0.3,
                # as the session's run_turn sends it: the thread's summary budget
                "context_budget": budget,
            },
            {"configurable": {"thread_id": "seed"}},
        )
        sizes.append(context_chars(model.calls[-1]))
    return sizes


@pytest.mark.parametrize("size", [300, 500])
def test_turns_average_the_sizes_asked(size: int) -> None:
    lengths = [sum(map(len, turn_text(t, size))) for t in range(1, 51)]
    assert 0.93 * size <= statistics.mean(lengths) <= 1.07 * size


@pytest.mark.parametrize("size", [300, 500])
def test_turn_50_holds_16_summaries_and_2_raw_turns_under_default_settings(size: int) -> None:
    assert load_settings({}).summary_budget == SUMMARY_BUDGET and load_settings({}).recall_enabled
    model = ScriptedModel()
    graph = make_graph(model)
    _talk(graph, model, 50, size)
    context = model.calls[-1]
    lines = str(context[0].content).splitlines()
    spans = [m.group(1) for line in lines if (m := re.match(r"\[(\d+-\d+)턴", line))]
    assert spans == [f"{s}-{s + 2}" for s in range(1, 47, 3)]  # 16 summaries, 1-3 .. 46-48
    raw = context[1:]
    assert [type(m) for m in raw] == [HumanMessage, AIMessage, HumanMessage]
    assert raw[0].content == user(49) and raw[-1].content == user(50)
    summaries = sum(len(line) for line in lines if re.match(r"\[\d+-\d+턴", line))
    recalled = str(context[0].content).partition("[관련 이전 대화]")[2]
    # the recalled turns' section is the rest of the memory: bounded by RECALL_BUDGET_CHARS
    assert len(recalled) <= load_settings({}).recall_budget + 200, len(recalled)
    print(f"turn 50 at {size} chars/turn: summaries {summaries} chars, recall {len(recalled)}")
    state = graph.get_state({"configurable": {"thread_id": "seed"}}).values
    assert state.get("summary_digests", []) == []  # no merging before the budget


def test_after_the_budget_the_context_stays_flat() -> None:
    model = ScriptedModel()
    graph = make_graph(model, CONTEXT_BUDGET_CHARS="1500")
    sizes = _talk(graph, model, 100, budget=1500)
    state = graph.get_state({"configurable": {"thread_id": "seed"}}).values
    assert state["summary_digests"], "the summaries passed 1,500 characters but none merged"
    middle = statistics.median(sizes[44:55])
    end = statistics.median(sizes[89:100])
    assert end <= 1.25 * middle, (middle, end)
