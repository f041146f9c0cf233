"""The Streamlit app through `streamlit.testing.v1.AppTest` (offline engine)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from graph.settings import load_settings
from graph.storage.persistence import open_persistence

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 60


def _app() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    at.run()
    assert not at.exception, at.exception
    # every element on a fresh page is one we meant to draw (Streamlit's "magic" prints
    # any bare string or expression in app.py)
    assert [m.value for m in at.main.markdown if m.value.startswith("Turns drawn")] == []
    return at


def _say(at: AppTest, text: str) -> None:
    at.chat_input[0].set_value(text).run()
    assert not at.exception, at.exception


def _texts(at: AppTest) -> list[str]:
    return [m.value for m in at.markdown] + [c.value for c in at.caption]


def _state(db: Path | str, thread: str) -> dict:
    from graph.graph import build_graph

    persistence = open_persistence(db)
    try:
        graph = build_graph(
            persistence.saver, settings=load_settings({}), tools=[], approval_required=frozenset()
        )
        return dict(graph.get_state({"configurable": {"thread_id": thread}}).values)
    finally:
        persistence.close()


def _export(db: Path, thread: str) -> dict:
    from graph.session import export_thread, open_app

    app = open_app(load_settings({"CHAT_DB_PATH": str(db)}), tools=[], index=None)
    try:
        return export_thread(app, thread)
    finally:
        app.persistence.close()


FOUR_TURNS = [
    "안녕하세요. 저는 김하늘입니다.",
    "다음 주 월요일 오후 3시에 회의가 있어요.",
    "예산은 1,200만원으로 정했습니다.",
    "회의가 언제라고 했죠?",
]
"""Turn 4 summarizes turns 1-3."""


def test_four_turns_make_one_card_with_the_right_numbers(db: Path) -> None:
    at = _app()
    for text in FOUR_TURNS:
        _say(at, text)
    thread = (
        at.query_params["thread"][0]
        if isinstance(at.query_params["thread"], list)
        else at.query_params["thread"]
    )
    entry = _state(db, thread)["summary_history"][0]
    texts = _texts(at)
    assert "**[1-3턴 요약] 압축률 0.3**" in texts
    assert f"{entry['original_chars']}자 → {entry['summary_chars']}자" in texts
    target = int(entry["original_chars"] * 0.3)
    assert any(
        t.startswith(f"목표 {target}자 (원본 × 압축률) · 실제 {entry['summary_chars']}자")
        for t in texts
    )
    assert entry["summary"] in texts
    assert sum(1 for t in texts if re.match(r"\*\*\[\d+-\d+턴 요약\]", t)) == 1
    # seed 002's statistics block, line by line
    saved = round(100 * (1 - entry["summary_chars"] / entry["original_chars"]))
    block = "\n".join(t.value for t in at.text)
    assert "총 요약: 1개 (3턴 압축)" in block
    assert f"원본: {entry['original_chars']:,}자 → 요약: {entry['summary_chars']:,}자" in block
    assert f"전체 압축률: {saved}% 절감" in block


def test_with_database_url_the_app_keeps_its_conversations_in_postgresql(
    db: Path, pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DATABASE_URL", pg_url)
    at = _app()
    for text in FOUR_TURNS:
        _say(at, text)
    thread = at.query_params["thread"]
    thread = thread[0] if isinstance(thread, list) else thread
    entry = _state(pg_url, thread)["summary_history"][0]
    assert entry["turns"] == [1, 2, 3]
    assert f"{entry['original_chars']}자 → {entry['summary_chars']}자" in _texts(at)
    assert not db.exists()  # nothing went to the SQLite file


def test_slider_before_turn_7_applies_to_the_second_summary_only(db: Path) -> None:
    at = _app()
    for i in range(1, 7):
        _say(at, f"메모 {i}: 회의실 {i}0{i}호에서 오후 {i}시에 만납니다.")
    next(s for s in at.slider if s.key.startswith("rate_")).set_value(0.5).run()
    _say(at, "메모 7")
    texts = _texts(at)
    assert "**[1-3턴 요약] 압축률 0.3**" in texts
    assert "**[4-6턴 요약] 압축률 0.5**" in texts


def test_switching_threads_shows_the_other_threads_summaries(db: Path) -> None:
    at = _app()
    for i in range(1, 5):
        _say(at, f"첫 대화 {i}번째 메시지입니다.")
    first = at.query_params["thread"]
    at.button(key="new_thread").click().run()
    assert at.query_params["thread"] != first
    _say(at, "두 번째 대화")
    assert not any("턴 요약]" in t for t in _texts(at))
    first_id = first[0] if isinstance(first, list) else first
    at.button(key=f"open_{first_id}").click().run()
    assert "**[1-3턴 요약] 압축률 0.3**" in _texts(at)


def test_empty_message_is_ignored_with_a_hint(db: Path) -> None:
    at = _app()
    _say(at, "   ")
    assert any("빈 메시지" in w.value for w in at.warning)
    assert [m.name for m in at.chat_message] == ["assistant"]  # only the welcome


def test_a_welcome_example_is_sent_when_clicked(db: Path) -> None:
    at = _app()
    example = at.button(key="example_2")
    assert example.label == "2400의 15%는 얼마야?"
    example.click().run()
    assert not at.exception, at.exception
    assert "계산 결과는 360입니다." in _texts(at)
    assert not [b for b in at.button if b.key.startswith("example_")]  # the welcome is gone


def test_export_holds_exactly_the_checkpointed_summary_history(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import streamlit.testing.v1.app_test as app_test_module
    from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage

    storages: list[MemoryMediaFileStorage] = []

    class Recording(MemoryMediaFileStorage):
        def __init__(self, endpoint: str) -> None:
            super().__init__(endpoint)
            storages.append(self)

    monkeypatch.setattr(app_test_module, "MemoryMediaFileStorage", Recording)
    at = _app()
    for i in range(1, 8):
        _say(at, f"{i}번 메모: 담당자 이서연, 마감 {i}월 {i + 10}일, 예산 {i * 150}만원.")
    thread = at.query_params["thread"]
    thread = thread[0] if isinstance(thread, list) else thread
    url = at.download_button[0].proto.url
    exported = json.loads(storages[-1].get_file(url.rsplit("/", 1)[1]).content)
    checkpointed = _state(db, thread)["summary_history"]
    assert len(checkpointed) == 2
    assert exported["summary_history"] == checkpointed  # all of them are in the working set
    assert [e["turns"] for e in exported["summary_history"]] == [[1, 2, 3], [4, 5, 6]]
    assert [t["turn"] for t in exported["turns"]] == list(range(1, 8))


CODE = "이 코드 실행해줘\n```python\nprint(6 * 7)\n```"


def _thread(at: AppTest) -> str:
    value = at.query_params["thread"]
    return value[0] if isinstance(value, list) else value


def test_approval_flow_approve_runs_and_shows_output(db: Path) -> None:
    at = _app()
    _say(at, CODE)
    assert any("승인이 필요합니다" in w.value for w in at.warning)
    assert [c.value for c in at.code][-1] == "print(6 * 7)"
    at.button(key="approve").click().run()
    assert not at.exception
    assert not any("승인이 필요합니다" in w.value for w in at.warning)
    assert any("[ok]\n42" in t.value for t in at.text)


def test_approval_flow_reject_does_not_run(db: Path) -> None:
    at = _app()
    _say(at, CODE)
    assert any("코드 실행 (code)" in c.value for c in at.caption)  # the request's category
    at.button(key="reject").click().run()
    texts = [t.value for t in at.text]
    assert any("rejected" in t for t in texts)
    assert not any("42" in t for t in texts)
    # the task ended (APPROVAL_REJECTED): no approval left, no retry, the next message works;
    # the user's own decision is said as a note, not as an error (issue 44)
    shown = _texts(at) + [w.value for w in at.warning]
    assert any("거절하셔서" in t for t in shown) and not at.error
    assert not any("승인이 필요합니다" in w.value for w in at.warning)
    assert not [b for b in at.button if b.key and "retry" in b.key]
    _say(at, "고마워요")
    assert not at.exception and not any("승인" in w.value for w in at.warning)


def test_approval_flow_answer_instead_of_running(db: Path) -> None:
    at = _app()
    _say(at, CODE)
    at.text_input(key=next(k.key for k in at.text_input if k.key.startswith("respond_"))).input(
        "실행하지 말고 42라고만 해 줘"
    ).run()
    at.button(key="respond").click().run()
    assert not at.exception
    assert any("대신 주신 답: 실행하지 말고 42라고만 해 줘" in t for t in _texts(at))
    assert not any("[ok]" in t.value for t in at.text)  # the code never ran


def test_reload_while_paused_still_shows_the_approval(db: Path) -> None:
    at = _app()
    _say(at, CODE)
    thread = _thread(at)
    st.cache_resource.clear()  # as if the server restarted
    again = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    again.query_params["thread"] = thread
    again.run()
    assert any("승인이 필요합니다" in w.value for w in again.warning)
    again.button(key="approve").click().run()
    assert any("[ok]\n42" in t.value for t in again.text)


def test_strategy_is_chosen_per_thread_and_the_panel_shows_what_it_keeps(db: Path) -> None:
    at = _app()
    picker = at.sidebar.selectbox[0]
    assert picker.label == "기억 방식" and picker.value == "three_turn"
    picker.set_value("recursive").run()
    assert not at.exception, at.exception
    assert (
        "기억 밖의 턴이 5개를 넘으면 가장 오래된 5턴이 기억에 합쳐집니다 (6턴 답변 뒤에 1-5턴). "
        "최근 5턴은 늘 원문 그대로 보입니다." in _texts(at)
    )
    _say(at, "제 이름은 김하늘이고, 예산은 1200만원이에요.")
    for turn in range(2, 6):
        _say(at, f"{turn}번째 이야기: 안건 {turn}번을 검토했습니다.")
    # the next-context view says the update comes after the next answer, not before it
    assert any(
        i.value.startswith("다음 답변이 끝난 뒤 1-5턴이 장기 기억에 합쳐집니다") for i in at.info
    )
    for turn in range(6, 12):
        _say(at, f"{turn}번째 이야기: 안건 {turn}번을 검토했습니다.")
    thread = _thread(at)
    state = _state(db, thread)
    assert state["strategy"] == "recursive"
    # after turns 6 and 11: turns 1-5, then 6-10 (seed 003: more than 5 waiting)
    assert [e["turns"] for e in state["summary_history"]] == [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]]
    assert state["memory"] in _texts(at)
    assert at.table, "no entity table"
    table = at.table[0].value
    assert {"항목", "값", "턴"} <= set(table.columns)
    rows = {(r["항목"], r["값"]) for r in table.to_dict("records")}
    assert ("이름", "김하늘") in rows and ("예산", "1200만원") in rows
    assert (
        "바꾼 방식은 다음 턴부터 적용됩니다. 이미 만든 요약은 남고, 새 방식이 그 요약에서 시작합니다."
        in _texts(at)
    )

    # another thread keeps its own strategy (the default) and shows summary cards
    at.sidebar.button(key="new_thread").click().run()
    assert at.sidebar.selectbox[0].value == "three_turn"
    for turn in range(1, 5):
        _say(at, f"질문 {turn}: 회의실 {turn}호 예약")
    assert "**[1-3턴 요약] 압축률 0.3**" in _texts(at)
    assert _state(db, _thread(at)).get("strategy") == "three_turn"
    assert _state(db, thread)["strategy"] == "recursive"


def test_sliding_window_panel_lists_the_window(db: Path) -> None:
    at = _app()
    at.sidebar.selectbox[0].set_value("sliding_window").run()
    for turn in range(1, 8):
        _say(at, f"{turn}번째 메시지: 프로젝트 코드 P-{turn}00 진행 상황을 공유합니다.")
    state = _state(db, _thread(at))
    assert state["window_summary"]
    texts = _texts(at)
    assert any(re.fullmatch(r"\[대화 기록 1\] · \d+자", t) for t in texts)
    assert state["window_summary"].split("\n---SUMMARY_BREAK---\n")[0] in texts


def test_digest_hierarchy_is_shown_when_summaries_pass_the_budget(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CONTEXT_BUDGET_CHARS", "150")
    at = _app()
    for turn in range(1, 11):
        _say(at, f"{turn}번째: {turn}층 회의실은 정원 {turn + 4}명이고 예약은 {turn}시입니다.")
    state = _state(db, _thread(at))
    digests = state["summary_digests"]
    assert digests, "the summaries passed 150 chars but nothing was merged"
    first, last = digests[0]["turns"]
    texts = _texts(at)
    assert f"**[{first}-{last}턴 다이제스트 · 단계 1]**" in texts
    assert any("대체한 항목: 1-3, 4-6" in t for t in texts)
    widest = max((d for d in digests if d["turns"][0] == 1), key=lambda d: d["turns"][1])
    assert f"↳ 컨텍스트에서는 1-{widest['turns'][1]}턴 다이제스트로 대체됨" in texts
    # every original summary still has its card
    assert "**[1-3턴 요약] 압축률 0.3**" in texts and "**[7-9턴 요약] 압축률 0.3**" in texts


def test_comparison_replays_the_thread_under_every_strategy(db: Path) -> None:
    at = _app()
    # an empty conversation has nothing to compare: no button, a note instead
    assert not [b for b in at.button if b.key == "compare_run"]
    assert any("아직 턴이 없어" in c.value for c in at.caption)
    for turn in range(1, 13):
        _say(at, f"{turn}번째 메시지: 프로젝트 코드 P-{turn}00 진행 상황을 공유합니다.")
    at.button(key="compare_run").click().run()
    assert not at.exception, at.exception
    captions = [c.value for c in at.caption]
    line = next(c for c in captions if "슬라이딩 윈도우" in c and "재귀 요약" in c)
    sizes = dict(part.rsplit(": ", 1) for part in line.split(" · "))
    assert len(sizes) == 3
    # each figure with its unit (issue 44), the last turn's
    assert line.startswith("12턴의 컨텍스트") and all(v.endswith("자") for v in sizes.values())
    assert all(int(v.removesuffix("자").replace(",", "")) > 0 for v in sizes.values())
    # the comparison ran in its own databases: this thread is untouched
    state = _state(db, _thread(at))
    assert state["turn_count"] == 12 and state.get("strategy") == "three_turn"
    # and it is kept with the thread: a reload still shows it
    again = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    again.query_params["thread"] = _thread(at)
    again.run()
    assert line in [c.value for c in again.caption]


def test_the_chart_compares_the_context_with_the_whole_transcript(db: Path) -> None:
    at = _app()
    for turn in range(1, 8):
        _say(at, f"{turn}번째 메모: 회의실 {turn}0{turn}호에서 오후 {turn}시에 만나요.")
    log = _export(db, _thread(at))["context_log"][-1]
    line = next(c.value for c in at.caption if str(c.value).startswith("7턴: 컨텍스트"))
    saving = 1 - log["context_chars"] / log["full_chars"]
    assert f"{log['context_chars']:,}자" in line and f"{log['full_chars']:,}자" in line
    assert f"절감 {saving:.0%}" in line
    spec = json.loads(at.get("vega_lite_chart")[-1].proto.spec)
    x = spec["encoding"]["x"]
    assert x["title"] == "턴" and x["axis"]["format"] == "d"
    assert spec["encoding"]["y"]["title"] == "글자 수 (자)"
    assert spec["encoding"]["color"]["legend"]["orient"] == "bottom"


def test_recall_pins_and_lost_facts_in_the_panel(db: Path) -> None:
    at = _app()
    at.sidebar.slider[0].set_value(0.1).run()  # a hard compression drops facts
    _say(
        at,
        "제 차는 흰색 아반떼예요. 주차 자리는 지하 2층 B-14예요. 출입증 번호는 NB-7731이에요. "
        "내선 번호는 4417번이고 입사일은 2021년 3월 2일입니다.",
    )
    for turn in range(2, 8):
        _say(at, f"{turn}번째 안건: 분기 보고서 표지 색과 글꼴을 정하는 중이에요.")
    thread = _thread(at)
    texts = _texts(at)
    # the card of turns 1-3 says which facts it kept and which it dropped
    kept = next(t for t in texts if re.match(r"사실 \d+/\d+개 유지", t))
    record = {tuple(r["turns"]): r for r in _export(db, thread)["lost_facts"]}[(1, 3)]
    assert kept.startswith(f"사실 {record['kept']}/{record['total']}개 유지")
    dropped = [record["facts"][i][0] for i in record["dropped"]]
    # the card shows when its turns were sent (the app records the time of each message)
    assert any(re.fullmatch(r"🕒 \d{4}-\d\d-\d\d \(.\) \d\d:\d\d.*", t) for t in texts)
    dropped_turn = record["facts"][record["dropped"][0]][1] if dropped else 0
    assert dropped, "the extractive summary kept every fact; the test needs one it dropped"
    # pin the first dropped fact: it is listed and goes into the next context
    at.button(key="pin_1_3_0").click().run()
    assert not at.exception, at.exception
    assert f"**{dropped[0]}** · {dropped_turn}턴" in _texts(at)
    # a question recalls turn 1; the panel shows what was recalled and why
    _say(at, "제 차 주차 자리가 어디였죠?")
    state = _state(db, thread)
    assert [r["turn"] for r in state["recalled"]] == [1]
    texts = _texts(at)
    line = next(t for t in texts if t.startswith("**1턴 · 관련도"))
    assert f"관련도 {state['recalled'][0]['score']:.2f}" in line and "주차" in line
    assert state["pinned"][0]["fact"] == dropped[0]
    # the next-context view recalls for a probe question and always holds the pin
    at.text_input(key=f"probe_{thread}").set_value("출입증 번호가 뭐였죠?").run()
    shown = "\n".join(t.value for t in at.text)
    assert "[관련 이전 대화]" in shown and "NB-7731" in shown
    assert "[고정된 사실]" in shown and dropped[0] in shown
    # unpin
    at.button(key="unpin_0").click().run()
    assert not at.exception, at.exception
    assert _export(db, thread)["pinned"] == []


def test_an_unanswered_turn_offers_a_retry_that_answers_it_in_place(
    db: Path, http_server, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.fakes import openai_server as oai

    oai.install(http_server, [oai.status(500), oai.text("회의는 3시입니다.")])
    for key, value in {
        "CHAT_PROVIDER": "openai",
        "OPENAI_API_KEY": "sk-test",
        "OPENAI_BASE_URL": f"{http_server.url}/v1",
        "LLM_MAX_RETRIES": "0",
        "LLM_TIMEOUT_S": "5",
    }.items():
        monkeypatch.setenv(key, value)
    at = _app()
    _say(at, "회의는 몇 시야?")
    retry = [b for b in at.button if b.key == "retry_1"]
    assert retry and any("LLM_SERVER_ERROR" in e.value for e in at.error)
    retry[0].click().run()
    assert not at.exception, at.exception
    assert "회의는 3시입니다." in _texts(at)
    assert not [b for b in at.button if b.key.startswith("retry_")]
    assert not any("LLM_SERVER_ERROR" in e.value for e in at.error)
    messages = _state(db, _thread(at))["messages"]
    assert [m.content for m in messages] == ["회의는 몇 시야?", "회의는 3시입니다."]


def test_the_timeline_lists_checkpoints_and_forks_a_thread_at_another_rate(db: Path) -> None:
    at = _app()
    for text in FOUR_TURNS:
        _say(at, text)
    original = at.query_params["thread"]
    original = original[0] if isinstance(original, list) else original
    pick = next(s for s in at.selectbox if s.key == f"timeline_{original}_pick")
    labels = list(pick.options)  # newest first
    # the message of turn 4 was saved before any node ran; fork there at rate 0.5
    start_of_4 = next(
        i for i, label in enumerate(labels) if label.startswith("4턴 · 메시지 저장됨")
    )
    assert any("4턴 · 요약 단계 후 · 📝 3턴까지 요약됨" in label for label in labels)
    assert labels[0].startswith("4턴 · 모델 답변 후")
    pick.select_index(start_of_4)
    next(s for s in at.slider if s.key == f"timeline_{original}_rate").set_value(0.5)
    next(b for b in at.button if b.key == f"timeline_{original}_fork").click().run()
    assert not at.exception, at.exception
    fork = at.query_params["thread"]
    fork = fork[0] if isinstance(fork, list) else fork
    assert fork != original
    assert any("4턴에서 갈라낸 대화" in c.value for c in at.caption)
    # the fork waits at turn 4 with the message saved; going on answers it at rate 0.5
    next(b for b in at.button if b.key == "retry_4").click().run()
    assert not at.exception, at.exception
    forked, kept = _state(db, fork), _state(db, original)
    assert [e["compression_rate"] for e in forked["summary_history"]] == [0.5]
    assert [e["compression_rate"] for e in kept["summary_history"]] == [0.3]
    assert forked["turn_count"] == kept["turn_count"] == 4
    assert "**[1-3턴 요약] 압축률 0.5**" in _texts(at)


def test_a_document_question_shows_each_retrieval_step_and_its_judgement(db: Path) -> None:
    at = _app()
    _say(at, "법인카드 월 한도는 얼마야?")
    (steps,) = [e for e in at.expander if e.label.startswith("🔎 문서 검색 단계")]
    assert steps.label.endswith("· 충분")
    judgements = [j.value for j in steps.json]
    assert judgements and {"ranked_indices", "is_sufficient", "next_action"} <= set(
        json.loads(judgements[0])
    )
    assert any(c.value.startswith("1. search_all ") for c in steps.caption)
    assert any("월 300만원" in m.value for m in at.chat_message[-1].markdown)
    assert not any(c.value.startswith("어떤 문서에도 없는 질문의 말") for c in at.caption)
    _say(at, "헌혈하고 오는 날은 연차 안 쓰고 공가로 처리해 주나요?")
    assert "어떤 문서에도 없는 질문의 말: 헌혈 (찾은 문서는 다른 말로 찾은 것)" in [
        c.value for c in at.caption
    ]
    assert any("‘헌혈’은(는) 어떤 문서에도" in m.value for m in at.chat_message[-1].markdown)


def test_the_next_context_view_shows_each_section_against_its_budget(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CONTEXT_TOKEN_BUDGETS", "recent=60")
    at = _app()
    _say(at, "회의는 금요일 오후 3시에 판교 연구소 3층에서 열려요. 참석자는 다섯 명입니다.")
    _say(at, "자료는 목요일까지 공유 폴더에 올려 주세요. 발표는 김민수님이 맡습니다.")
    (view,) = [e for e in at.expander if e.label.startswith("🔎 다음 턴에 모델이 보는 내용")]
    table = next(m.value for m in view.markdown if m.value.startswith("| 구역 |"))
    rows = {r.split("|")[1].strip(): r for r in table.splitlines()[2:]}
    assert list(rows) == [
        "시스템 프롬프트",
        "장기 기억 (요약·회상)",
        "주요 정보",
        "참고 문서",
        "최근 대화 (원문)",
        "현재 질문",
    ]
    recent = [c.strip() for c in rows["최근 대화 (원문)"].split("|")[2:5]]
    assert recent[1] == "60" and recent[2] == "1"  # the older raw turn left out for it
    assert any("토큰은 토크나이저 없이 추정합니다" in c.value for c in view.caption)


def _use_model_server(monkeypatch: pytest.MonkeyPatch, http_server) -> None:
    """The app answers with the fake OpenAI-compatible server (documents: keywords only)."""
    for name, value in {
        "CHAT_PROVIDER": "auto",
        "OPENAI_BASE_URL": f"{http_server.url}/v1",
        "CHAT_MODEL": "fake-model",
        "LLM_MAX_RETRIES": "0",
        "RETRIEVAL_MODE": "keyword",
    }.items():
        monkeypatch.setenv(name, value)


def test_a_cut_off_answer_is_shown_with_continue_which_appends_to_it(
    db: Path, http_server, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.fakes import openai_server as oai

    oai.install(http_server, [oai.broken("length"), oai.text("렸지만, 이어서 끝까지 씁니다.")])
    _use_model_server(monkeypatch, http_server)
    at = _app()
    _say(at, "긴 답을 해 줘")
    assert "이 답은 중간에서 잘" in _texts(at)
    assert any("LLM_TRUNCATED" in c for c in _texts(at))  # marked cut off, not an apology
    assert not [e for e in at.error if "오류 코드" in e.value]
    buttons = [b for b in at.button if (b.key or "").startswith("continue_")]
    assert len(buttons) == 1
    buttons[0].click().run()
    assert not at.exception, at.exception
    assert "이 답은 중간에서 잘렸지만, 이어서 끝까지 씁니다." in _texts(at)
    assert not [b for b in at.button if (b.key or "").startswith("continue_")]


def test_a_summary_that_echoes_the_prompt_is_shown_as_replaced_on_its_card(
    db: Path, http_server, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.fakes import openai_server as oai

    def echo(body) -> str:  # a base model says its prompt back
        return str(body["messages"][-1]["content"]).split("대화:")[0]

    oai.install(http_server, [], summary=echo, default=oai.text("네, 기억해 둘게요."))
    _use_model_server(monkeypatch, http_server)
    at = _app()
    for text in FOUR_TURNS:
        _say(at, text)
    captions = [c.value for c in at.caption]
    assert any(c.startswith("↩️") and "repeats the instructions" in c for c in captions)
    # the card shows the extractive summary of the turns, never the prompt's words
    assert not [x for x in _texts(at) if "넘기지 마세요" in x]
    assert any("김하늘" in x for x in _texts(at))
