"""The offline chat says what its context holds (issue 35, items 1-3): questions about the
user are answered from their own statements, statements and greetings are routed as what
they are, seed 000's examples go where the seed says, and summaries keep the user's facts."""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from graph.session import new_thread, open_app, run_turn
from graph.settings import load_settings
from graph.summarizer import ExtractiveSummarizer

FILLER_KO = [
    "요즘 팀을 옮겨서 정신이 없네요.",
    "점심은 보통 회사 근처 국수집에서 먹어요.",
    "오늘은 좀 피곤하네요.",
    "커피는 하루에 두 잔 정도 마셔요.",
    "주말에는 한강에서 자전거를 타요.",
    "회의가 너무 많아서 집중이 잘 안 돼요.",
    "저녁엔 보통 운동을 해요.",
    "이번 달은 유난히 길게 느껴지네요.",
    "사무실 프린터가 또 고장났어요.",
    "내일은 비가 온대요.",
]


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("answers")
    settings = load_settings(
        {
            "CHAT_DB_PATH": str(tmp / "a.sqlite"),
            "CHAT_PROVIDER": "offline",
            "INDEX_DIR": str(tmp / "index"),
        }
    )
    app = open_app(settings)
    yield app
    app.persistence.close()


def _talk(app, *messages: str) -> tuple[str, list]:
    """Send the messages to a new thread: the thread and each turn's (answer, route)."""
    thread = new_thread(app)
    said = []
    for turn, text in enumerate(messages, start=1):
        out = run_turn(app, thread, text, turn_count=turn, compression_rate=0.3)
        route = app.graph.get_state({"configurable": {"thread_id": thread}}).values.get("route")
        said.append((out.answer, route))
    return thread, said


def test_a_fact_the_context_holds_is_answered_with_its_turn(app) -> None:
    # the walk: turn 1 introduces, ten turns later both facts are asked back
    _, said = _talk(
        app,
        "안녕하세요, 저는 김민준이고 1988년 7월 23일생이에요. 회사 사번은 HR-20417입니다.",
        *FILLER_KO,
        "처음에 말한 제 사번이랑 생일이 뭐였죠?",
        "제 사번이 뭐였죠?",
    )
    both, again = said[-2][0], said[-1][0]
    assert "HR-20417" in both and "7월 23일" in both and ("1턴" in both or "1-3턴" in both), both
    # the second asking quotes the statement, not the question asked before it
    assert "HR-20417" in again and "뭐였죠" not in again, again


def test_the_newest_statement_wins(app) -> None:
    _, said = _talk(
        app,
        "Our Jeju trip is on May 3.",
        "I booked a rental car for it.",
        "Actually, the Jeju trip moved to May 10.",
        "The weather has been rainy all week here.",
        "I keep forgetting to pack sunscreen.",
        "When is our Jeju trip now?",
    )
    answer = said[-1][0]
    assert "May 10" in answer and "turn 3" in answer, answer
    assert "workation" not in answer.lower(), answer


def test_the_engine_never_answers_from_its_own_not_found(app) -> None:
    _, said = _talk(
        app,
        "What did I say my first teacher was called?",
        "Work was quiet last night.",
        "What did I say my first teacher was called?",
    )
    assert "I am the offline engine" in said[0][0]
    assert "conversation or its summaries matches" in said[-1][0]
    assert "closest thing" not in said[-1][0], said[-1][0]


def test_statements_stay_with_the_agent_even_with_company_words(app) -> None:
    _, said = _talk(
        app,
        "안녕하세요, 저는 김민준이고 1988년 7월 23일생이에요. 회사 사번은 HR-20417입니다.",
        "회사 프로젝트 마감은 12월 20일이고, 예산은 3,200만 원으로 잡혀 있어요.",
    )
    for answer, route in said:
        assert route == "agent", (route, answer)
        assert "문서에서 찾은" not in answer, answer


@pytest.mark.parametrize(
    "message",
    [
        "Hello! Second thread here. My dog's name is Bori and she was born on 2021-05-05.",
        "안녕하세요! 제 이름은 이서연이고 4월 9일에 오사카 출장이 있어요.",
    ],
)
def test_a_greeting_with_content_is_not_the_canned_greeting(app, message: str) -> None:
    _, said = _talk(app, message)
    answer, route = said[0]
    assert route != "greeting", route
    assert "offline engine" not in answer and "오프라인 엔진" not in answer, answer
    assert message in answer  # it is acknowledged as said


def test_seed_000_scenarios_route_as_the_seed_says(app) -> None:
    """Seed 000's five scenarios, with its own example messages."""
    # 1: a plain greeting takes the fast path
    _, said = _talk(app, "안녕하세요")
    assert said[0][1] == "greeting"
    # 2: a calculation goes to the agent and its calculator
    _, said = _talk(app, "123 * 456 계산해줘")
    assert said[0][1] == "agent" and "56088" in said[0][0]
    # 3: a company-policy question goes to retrieval and is answered from leave_policy.md
    for question in ("회사 휴가 정책이 뭐야?", "휴가 정책 알려줘"):
        _, said = _talk(app, question)
        assert said[0][1] == "rag", (question, said[0])
        assert "leave_policy.md" in said[0][0], (question, said[0][0])
    # 4: after ten turns, a deadline said earlier is answered from the summary
    _, said = _talk(
        app,
        "제 이름은 철수고, 프로젝트 마감은 3월 15일, 예산은 1억원이에요.",
        *FILLER_KO[:9],
        "아까 말한 프로젝트 마감일이 언제라고 했지?",
    )
    assert said[-1][1] == "agent" and "3월 15일" in said[-1][0], said[-1]
    # 5: a name is remembered across turns
    _, said = _talk(app, "내 이름은 철수야", "내 이름이 뭐라고 했지?")
    assert "철수" in said[-1][0] and said[-1][1] == "agent", said[-1]


def test_a_document_question_after_small_talk_gets_the_document(app) -> None:
    _, said = _talk(
        app,
        "I live in a small flat in Leeds with my cat, Miso.",
        "I work night shifts as a nurse.",
        "My neighbour, Tom, walks my dog.",
        "The weather has been rainy all week here.",
        "I might buy a new camera.",
        "I had a long meeting today.",
        "Can I work remotely from overseas?",
    )
    answer, route = said[-1]
    assert route == "rag" and "remote_work.md" in answer, said[-1]
    assert "You said" not in answer and "closest thing" not in answer, answer


def test_the_summary_keeps_the_users_facts_not_the_engines_echo() -> None:
    # a block whose answers say the user's words back: the echo used to take the budget
    block = [
        HumanMessage("제 생일은 1990년 4월 12일이에요."),
        AIMessage("알겠습니다. 기억해 두겠습니다: “제 생일은 1990년 4월 12일이에요.”"),
        HumanMessage("이번 달 적금은 45만 원 넣었어요. 담당자는 한지우 대리예요."),
        AIMessage(
            "알겠습니다. 기억해 두겠습니다: “이번 달 적금은 45만 원 넣었어요. 담당자는 한지우 대리예요.”"
        ),
        HumanMessage("제 생일이 언제였죠?"),
        AIMessage("1턴에 말씀하신 내용입니다:\n\n> 사용자: 제 생일은 1990년 4월 12일이에요."),
    ]
    source = sum(len(str(m.content)) for m in block)
    summary = ExtractiveSummarizer().summarize(block, int(source * 0.3), turn_label="1-3").text
    assert "기억해 두겠습니다" not in summary, summary
    assert "말씀하신 내용입니다" not in summary, summary
    for fact in ("4월 12일", "45만 원", "한지우"):
        assert fact in summary, (fact, summary)


@pytest.mark.parametrize(
    "request_text",
    ["연차 신청 방법을 알고 싶습니다.", "Explain the leave policy.", "휴가 정책이 궁금해요."],
)
def test_a_polite_request_is_no_statement(app, request_text: str) -> None:
    _, said = _talk(app, request_text)
    answer, route = said[0]
    assert route == "rag" and "leave_policy.md" in answer, (route, answer)


@pytest.mark.parametrize(
    ("told", "asked", "fact"),
    [
        (
            "Please remember that my employee number is 12345.",
            "What is my employee number?",
            "12345",
        ),
        ("Will is my brother.", "Who is my brother?", "Will"),
        ("My flight leaves at 9", "When does my flight leave?", "leaves at 9"),
    ],
)
def test_what_the_user_said_is_found_however_it_begins(
    app, told: str, asked: str, fact: str
) -> None:
    _, said = _talk(app, told, asked)
    assert fact in said[-1][0] and "You said" in said[-1][0], said[-1]


def test_a_statement_sharing_no_word_with_the_question_is_not_its_answer(app) -> None:
    _, said = _talk(app, "My birthday is March 3.", "When does the cafeteria open?")
    assert "March 3" not in said[-1][0], said[-1][0]
    _, said = _talk(app, "제 강아지 이름은 초코예요.", "강아지 사료 추천해줘.")
    assert "초코" not in said[-1][0], said[-1][0]


def test_the_summary_keeps_an_answer_that_repeats_the_question() -> None:
    block = [
        HumanMessage("What is the leave policy for new employees?"),
        AIMessage("The leave policy for new employees is 11 days in the first year."),
        HumanMessage("OK."),
        AIMessage("Anything else?"),
    ]
    # room for everything: only a sentence dropped as an echo can be missing
    source = sum(len(str(m.content)) for m in block)
    summary = ExtractiveSummarizer().summarize(block, source + 40, turn_label="1-2").text
    assert "11 days" in summary, summary
