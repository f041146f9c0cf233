"""Seed 002's context formula and seed 003's "no retrieval, the whole memory", exactly.

Recall is on by default, so at turn 4 the context is `[Summary(1-3)] + [recalled turn] +
Turn 4`, not seed 002's `[Summary(1-3), Turn4]`: on the recall bench (`bench/recall.py`,
320 turns, 40 questions) it keeps 92.5% of the answers in three_turn's context against
20.0% without it (85.0% against 0.0% for recursive). `RECALL=off` gives the seeds'
formulas as written; these tests run the real session on a SQLite file (archive and
recall index included) and read the messages the model receives.
"""

from __future__ import annotations

from pathlib import Path

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

from graph.session import new_thread, open_app, run_turn, set_thread_strategy
from graph.settings import load_settings
from tests.fakes.chat import ScriptedModel

TURNS = [
    "제 사번은 HS-20417이에요. 결재 올릴 때 써 주세요.",
    "오늘 회의는 오후 3시에 본관에서 해요.",
    "발표는 지수 님이 맡기로 했어요.",
    "제 사번이 뭐였죠?",
]
RECALLED = "[관련 이전 대화]"


def _contexts(tmp_path: Path, turns: list[str], strategy: str = "", **env: str) -> list[list]:
    settings = load_settings(
        {"CHAT_DB_PATH": str(tmp_path / "chat.sqlite"), "CHAT_PROVIDER": "offline", **env}
    )
    model = ScriptedModel(default="알겠습니다.")
    app = open_app(settings, model=model, tools=[], index=None)
    try:
        thread = new_thread(app)
        if strategy:
            set_thread_strategy(app, thread, strategy)
        for turn, text in enumerate(turns, 1):
            run_turn(app, thread, text, turn_count=turn, compression_rate=0.3)
        return [list(call) for call in model.calls]
    finally:
        app.persistence.close()


def test_by_default_turn_4_also_holds_the_recalled_turn(tmp_path: Path) -> None:
    at_4 = _contexts(tmp_path, TURNS)[3]
    system = at_4[0].content
    assert "[이전 대화 요약]" in system and system.count("턴] ") == 1
    assert RECALLED in system and "HS-20417" in system.split(RECALLED, 1)[1]
    assert [m.content for m in at_4[1:]] == [TURNS[3]]


def test_recall_off_gives_seed_002s_formula_summary_1_3_and_turn_4(tmp_path: Path) -> None:
    contexts = _contexts(tmp_path, TURNS, RECALL="off")
    at_4 = contexts[3]
    assert isinstance(at_4[0], SystemMessage) and len(at_4) == 2
    system = at_4[0].content
    assert RECALLED not in system
    # [Summary(1-3)]: one summary line, for turns 1-3; then Turn 4 alone
    assert "[이전 대화 요약]" in system and system.count("턴] ") == 1 and "[1-3턴]" in system
    assert isinstance(at_4[1], HumanMessage) and at_4[1].content == TURNS[3]
    # turns 1-3 were raw, with nothing recalled either
    assert [m.content for m in contexts[2] if isinstance(m, HumanMessage)] == TURNS[:3]
    assert all(RECALLED not in c[0].content for c in contexts)


def test_recall_off_gives_seed_003s_whole_memory_and_no_retrieval(tmp_path: Path) -> None:
    said = [f"{n}번째 메모: {n}월 예산은 {n}00만원이고 담당은 지수 님이에요." for n in range(1, 9)]
    contexts = _contexts(tmp_path, said, strategy="recursive", RECALL="off")
    at_8 = contexts[7]  # after turn 6's update the memory holds turns 1-5
    system = at_8[0].content
    assert "[장기 기억]" in system and RECALLED not in system
    memory = system.split("[장기 기억]", 1)[1]
    assert "1월" in memory or "100만원" in memory  # the memory's oldest turn, not retrieved
    users = [m.content for m in at_8 if isinstance(m, HumanMessage)]
    assert users == said[2:8]  # the last 5 turns raw (3-7), then turn 8
    assert all(isinstance(m, (HumanMessage, AIMessage)) for m in at_8[1:])
    assert all(RECALLED not in c[0].content for c in contexts)
