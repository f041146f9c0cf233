"""Reading the user's statements back (graph.statements) and telling questions from statements."""

from __future__ import annotations

import pytest

from graph.offline import _CONCEPTS, _words
from graph.statements import Statement, best_statements, said, user_segments
from graph.text import is_question, is_request, is_statement, opens_with_greeting


def test_only_the_users_parts_of_a_transcript_are_statements() -> None:
    text = (
        "사용자: 제 차는 회색 아반떼예요. AI: 기억해 두겠습니다. "
        "도구(get_current_datetime): 2026-11-28 04:39 KST. 사용자: 주말엔 집에 있어요."
    )
    assert user_segments(text) == ["제 차는 회색 아반떼예요.", "주말엔 집에 있어요."]
    assert user_segments("요약만 있는 줄") == ["요약만 있는 줄"]


def test_questions_and_greetings_are_not_statements() -> None:
    found = said("안녕하세요! 제 번호는 42번이에요. 제 번호가 뭐였죠?", 3, "3턴", whole=False)
    assert [s.text for s in found] == ["제 번호는 42번이에요."]


def _ask(question: str, statements: list[Statement]) -> list[str]:
    kinds = [answer for ask, answer in _CONCEPTS if ask.search(question.lower())]
    every = [answer for _, answer in _CONCEPTS]
    return [s.text for s, _ in best_statements(question, statements, _words, kinds, every)]


def test_the_newest_of_the_same_kind_of_fact_wins_and_another_kind_stays() -> None:
    statements = [
        Statement("프로젝트 마감은 12월 20일이에요.", 5, "5턴"),
        Statement("남편은 정우진이고 병원에서 일해요.", 6, "6턴"),
        Statement("아, 프로젝트 마감이 12월 27일로 밀렸어요.", 13, "13턴"),
        Statement("남편 생일은 11월 5일이에요.", 20, "20턴"),
    ]
    assert _ask("프로젝트 마감이 언제라고 했죠?", statements) == [
        "아, 프로젝트 마감이 12월 27일로 밀렸어요."
    ]
    # "남편" matches two statements holding different kinds of fact: both are quoted
    answer = _ask("제 남편 직업이 뭐라고 했죠?", statements)
    assert "남편은 정우진이고 병원에서 일해요." in answer and len(answer) == 2


def test_a_question_in_two_parts_gets_a_statement_for_each() -> None:
    statements = [
        Statement("안녕하세요, 저는 김민준이고 1988년 7월 23일생이에요.", 3.0, "1-3턴 요약"),
        Statement("회사 사번은 HR-20417입니다.", 3.001, "1-3턴 요약"),
        Statement(
            "회사 프로젝트 마감은 12월 20일이고, 예산은 3,200만 원이에요.", 6.0, "4-6턴 요약"
        ),
    ]
    answer = " ".join(_ask("처음에 말한 제 사번이랑 생일이 뭐였죠?", statements))
    assert "HR-20417" in answer and "7월 23일" in answer and "12월 20일" not in answer


def test_nothing_shared_is_no_answer() -> None:
    statements = [Statement("제 차는 회색 아반떼예요.", 1, "1턴")]
    assert _ask("제 혈액형이 뭐였죠?", statements) == []


@pytest.mark.parametrize(
    ("text", "question", "statement"),
    [
        ("회사 휴가 정책이 뭐야?", True, False),
        ("휴가 정책 알려줘", True, False),
        ("휴가 정책", False, False),
        ("회사 사번은 HR-20417입니다.", False, True),
        ("필라테스는 화요일 저녁 7시에 가요.", False, True),
        ("Can I bring my dog to the office?", True, False),
        ("I live in a small flat in Leeds.", False, True),
        ("연차는 며칠까지 쓸 수 있어?", True, False),
    ],
)
def test_questions_and_statements_by_their_grammar(
    text: str, question: bool, statement: bool
) -> None:
    assert (is_question(text) or is_request(text)) is question
    assert is_statement(text) is statement


def test_a_greeting_opening_a_message() -> None:
    assert opens_with_greeting("Hello! My dog's name is Bori.")
    assert opens_with_greeting("안녕하세요, 저는 김민준이에요.")
    assert not opens_with_greeting("My dog says hello.")


def test_sentences_end_after_short_words_but_not_after_a_title() -> None:
    from graph.summarizer import sentences

    assert sentences("Hi. What is my name?") == ["Hi.", "What is my name?"]
    assert sentences("My manager is Jo. Can you remember that?") == [
        "My manager is Jo.",
        "Can you remember that?",
    ]
    assert sentences("My vet is Dr. Amara Okafor.") == ["My vet is Dr. Amara Okafor."]
