"""The offline engine calls tools only when plainly asked, and otherwise quotes its context."""

from __future__ import annotations

import re

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

from graph.offline import OfflineChatModel

TOOLS = ["calculator", "get_current_datetime", "read_file", "python_repl", "search_wikipedia"]


def _reply(text: str, *context) -> AIMessage:
    return OfflineChatModel(tool_names=TOOLS).invoke([*context, HumanMessage(text)])


@pytest.mark.parametrize(
    ("text", "tool", "args"),
    [
        ("123 * 456 계산해줘", "calculator", {"expression": "123 * 456"}),
        ("what is 2+2?", "calculator", {"expression": "2+2"}),
        ("sqrt(16)+1 은?", "calculator", {"expression": "sqrt(16)+1"}),
        ("지금 몇 시야?", "get_current_datetime", {}),
        ("뉴욕은 지금 몇 시야?", "get_current_datetime", {"timezone": "America/New_York"}),
        ("what time is it", "get_current_datetime", {}),
        ("policy.md 파일 읽어줘", "read_file", {"path": "policy.md"}),
        ("실행해줘\n```python\nprint(1)\n```", "python_repl", {"code": "print(1)"}),
        ("위키백과에서 세종대왕 찾아줘", "search_wikipedia", {"query": "세종대왕", "lang": "ko"}),
    ],
)
def test_plain_requests_call_tools(text, tool, args) -> None:
    reply = _reply(text)
    assert reply.tool_calls[0]["name"] == tool
    assert reply.tool_calls[0]["args"] == args


@pytest.mark.parametrize(
    "text",
    [
        "다음 주 월요일 오후 3시에 회의가 있어요.",
        "회의 시간이 언제라고 했죠?",
        "마감은 2024-03-15까지야",
        "안녕하세요",
    ],
)
def test_statements_and_recall_questions_do_not_call_tools(text) -> None:
    assert not _reply(text).tool_calls


def test_unbound_tools_are_never_called() -> None:
    assert not OfflineChatModel().invoke([HumanMessage("1+1")]).tool_calls


def test_recall_quotes_the_matching_summary() -> None:
    system = SystemMessage(
        "역할\n[이전 대화 요약]\n[1-3턴] 사용자: 내 이름은 철수야. 프로젝트 마감은 3월 15일.\n[4-6턴] 사용자: 점심은 김밥."
    )
    reply = _reply("프로젝트 마감이 언제라고 했지?", system)
    assert "(1-3턴 요약)" in reply.content and "3월 15일" in reply.content


def test_recall_quotes_an_earlier_raw_turn() -> None:
    reply = _reply("내 이름이 뭐라고 했지?", HumanMessage("내 이름은 김하늘이야"), AIMessage("네"))
    assert "김하늘" in reply.content


def test_says_plainly_when_nothing_matches() -> None:
    assert "지어내지 않습니다" in _reply("양자역학이 뭐야?").content


def test_tool_results_become_a_sentence_and_errors_are_reported() -> None:
    call = AIMessage(
        "", tool_calls=[{"name": "calculator", "args": {"expression": "1/0"}, "id": "c"}]
    )
    ok = _reply("1+1", AIMessage("", tool_calls=[{"name": "calculator", "args": {}, "id": "a"}]))
    assert ok.tool_calls  # the question alone asks for the tool
    model = OfflineChatModel(tool_names=TOOLS)
    answer = model.invoke(
        [HumanMessage("2+3 계산"), call, ToolMessage("5", tool_call_id="c", name="calculator")]
    )
    assert answer.content == "계산 결과는 5입니다."
    failed = model.invoke(
        [
            HumanMessage("1/0 계산"),
            call,
            ToolMessage("Error: division by zero", tool_call_id="c", name="calculator"),
        ]
    )
    assert "실패" in failed.content and "division by zero" in failed.content


def test_streams_token_by_token() -> None:
    chunks = list(OfflineChatModel().stream([HumanMessage("안녕하세요")]))
    assert len(chunks) > 5
    assert "".join(c.content for c in chunks).startswith("안녕하세요! 저는")


def test_a_long_passage_is_quoted_by_its_matching_lines_all_inside_the_quote() -> None:
    from langchain_core.messages import SystemMessage

    rows = "\n".join(f"| 항목 {i} | 설명 {i} | {i}일 |" for i in range(1, 30))
    table = (
        "| 구분 | 예시 | 목표 |\n|------|------|------|\n"
        + rows
        + "\n| 긴급 | 노트북 고장 | 1시간 안에 대응 |"
    )
    system = f"당신은 도우미입니다.\n[참고 문서]\n[1] {table} (출처: it.md > 처리 목표 시간)"
    reply = OfflineChatModel().respond(
        [SystemMessage(system), HumanMessage("노트북 고장나면 몇 시간 안에 와?")]
    )
    body = reply.content.split("\n\n")[1]
    lines = body.splitlines()
    assert all(line.startswith(">") for line in lines)  # nothing breaks out of the quote
    assert (
        "> | 구분 | 예시 | 목표 |" in lines
        and "> | 긴급 | 노트북 고장 | 1시간 안에 대응 |" in lines
    )
    assert len(body) < 700


def test_a_passage_whose_heading_holds_parentheses_is_quoted_first() -> None:
    from langchain_core.messages import SystemMessage

    system = (
        "당신은 도우미입니다.\n[참고 문서]\n"
        "[1] 사내 서가의 책은 2주 동안 빌릴 수 있습니다. "
        "(출처: faq.md > 자주 묻는 질문 (FAQ) > 사내 서가의 책은 빌릴 수 있나요?)\n"
        "[2] 모니터 1대를 빌릴 수 있습니다 (출처: 자산 대장). "
        "(출처: remote_work.md > 재택근무 규정 > 장비)"
    )
    reply = OfflineChatModel().respond(
        [SystemMessage(system), HumanMessage("라운지 책 얼마나 갖고 있을 수 있어?")]
    )
    assert "> 사내 서가의 책은 2주 동안 빌릴 수 있습니다." in reply.content
    assert "faq.md > 자주 묻는 질문 (FAQ) > 사내 서가의 책은 빌릴 수 있나요?" in reply.content
    assert "모니터" not in reply.content.split("함께 찾은 문서")[0]
    # a passage that quotes a source of its own keeps it; its own is the last
    assert reply.content.endswith("함께 찾은 문서: remote_work.md > 재택근무 규정 > 장비")


def test_an_english_answer_names_a_recalled_turn_and_its_weekday_in_english() -> None:
    """Issue 35: the context labels times in Korean ("(월)"); an English answer said
    "turn 5, 2026-03-02 (월) 09:14"."""
    system = SystemMessage(
        "role\n[관련 이전 대화]\n[5턴, 2026-03-02 (월) 09:14]\n"
        "사용자: My dentist appointment is on Thursday at 4 pm.\n\n"
        "[1-3턴, 2026-03-01 (일) 10:00–10:30] 사용자: the budget is $300."
    )
    reply = _reply("When is my dentist appointment?", system)
    assert "Thursday at 4 pm" in reply.content
    assert "turn 5, 2026-03-02 (Mon) 09:14" in reply.content
    assert not re.search(r"[가-힣]", reply.content.split(">", 1)[0]), reply.content
    summary = _reply("What is the budget?", system)
    assert "$300" in summary.content
    assert "turns 1-3, 2026-03-01 (Sun) 10:00–10:30" in summary.content, summary.content
