"""Summary length rules: extractive within +-10%, LLM asked again past 25%, then trimmed."""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.messages.tool import tool_call

from graph.summarizer import (
    CALL_MARK,
    ExtractiveSummarizer,
    LLMSummarizer,
    format_conversation,
    trim_at_sentence,
)
from graph.turns import original_chars
from graph.untrusted import mark_looked_up, untrusted_message
from prompt import get_prompt
from tests.fakes.chat import ScriptedModel

KO = [
    HumanMessage(
        "안녕하세요. 저는 김하늘이고 마케팅팀에서 일합니다. 다음 달 제주 워크숍을 준비하고 있어요."
    ),
    AIMessage("반갑습니다, 김하늘 님. 제주 워크숍 준비를 도와드릴게요. 날짜와 인원이 정해졌나요?"),
    HumanMessage("2025년 5월 14일부터 16일까지, 인원은 23명이고 예산은 1,200만원입니다."),
    AIMessage(
        "", tool_calls=[{"name": "calculator", "args": {"expression": "12000000/23"}, "id": "c1"}]
    ),
    ToolMessage("521739.13", tool_call_id="c1", name="calculator"),
    AIMessage(
        "1인당 약 52만 1739원입니다. 항공권은 인당 15만원 정도로 잡으면 숙박과 식비에 37만원 정도가 남습니다. 숙소는 서귀포 쪽이 조용하고 회의실이 있는 곳이 많습니다."
    ),
    HumanMessage("좋아요. 숙소는 서귀포로 하고, 첫날 저녁은 흑돼지 식당으로 예약해 주세요."),
    AIMessage(
        "알겠습니다. 서귀포 숙소 후보 세 곳과 흑돼지 식당 두 곳을 정리해 드리겠습니다. 예약은 5월 1일 전에 확정하는 것이 좋습니다."
    ),
]
EN = [
    HumanMessage(
        "My name is Dana Park and I manage the Berlin office. We move to a new floor on March 3."
    ),
    AIMessage(
        "Thanks, Dana. For the March 3 move, do you need a checklist for IT equipment and desks?"
    ),
    HumanMessage("Yes, we have 41 desks and 12 printers. The budget is 8,500 euros."),
    AIMessage(
        "Here is a plan: label the 41 desks by team, book movers for March 2, and ask IT to move the 12 printers last. 8,500 euros covers movers and two days of overtime."
    ),
]


@pytest.mark.parametrize("messages", [KO, EN], ids=["ko", "en"])
@pytest.mark.parametrize("rate", [0.1, 0.15, 0.2, 0.3, 0.4, 0.5])
def test_extractive_lands_within_ten_percent(messages, rate) -> None:
    target = int(original_chars(messages) * rate)
    text = ExtractiveSummarizer().summarize(messages, target, turn_label="1-3턴").text
    assert target * 0.9 <= len(text) <= target * 1.1, (len(text), target, text)


def test_extractive_keeps_numbers_names_and_dates() -> None:
    target = int(original_chars(KO) * 0.3)
    text = ExtractiveSummarizer().summarize(KO, target, turn_label="1-3턴").text
    kept = [fact for fact in ("김하늘", "5월 14일", "23명", "1,200만원") if fact in text]
    assert len(kept) >= 3, text
    assert text.startswith("사용자:")


def test_extractive_handles_empty_and_tiny_input() -> None:
    assert ExtractiveSummarizer().summarize([], 10, turn_label="").text == ""
    text = (
        ExtractiveSummarizer()
        .summarize([HumanMessage("안녕"), AIMessage("네")], 1, turn_label="")
        .text
    )
    assert len(text) <= 1


def _varied(chars: int, start: int = 1) -> str:
    """A summary-like text of exactly `chars` characters that never says one thing twice,
    and keeps a fact the user stated in KO (a summary that keeps none is refused)."""
    text = "김하늘 님, 23명. " + " ".join(
        f"{n}일에 {n * 13}만원을 {n % 7 + 2}명이 썼다." for n in range(start, start + 80)
    )
    return text[:chars].strip()


def test_llm_summary_within_tolerance_is_kept_as_is() -> None:
    model = ScriptedModel([_varied(95)])
    result = LLMSummarizer(model).summarize(KO, 100, turn_label="1-3턴")
    assert result.text == _varied(95) and result.attempts == 1
    prompt = model.calls[0][0].content
    assert "100자" in prompt and "김하늘" in prompt and "calculator" in prompt


def test_llm_summary_far_off_is_asked_again_with_the_summary_as_the_text() -> None:
    model = ScriptedModel([_varied(300), _varied(105, 50)])
    result = LLMSummarizer(model).summarize(KO, 100, turn_label="1-3턴")
    assert result.attempts == 2 and result.text == _varied(105, 50) and not result.fallback
    instruction, text = model.calls[1]
    # the length is an instruction; the user's message is the summary to rewrite, so a
    # model that copies its input copies the summary, never a prompt
    assert isinstance(instruction, SystemMessage) and "100자" in instruction.content
    assert text.content == _varied(300)


def test_llm_summary_still_too_long_is_trimmed_at_a_sentence() -> None:
    long = "김하늘 님은 23명과 갑니다. " + " ".join(
        f"{n}번째 문장은 {n * 7}원까지입니다." for n in range(1, 21)
    )
    model = ScriptedModel([long, long])
    result = LLMSummarizer(model).summarize(KO, 60, turn_label="1-3턴")
    assert len(result.text) <= 75
    assert result.text.endswith("입니다.")


def test_trim_at_sentence_cuts_words_only_when_one_sentence_is_too_long() -> None:
    assert trim_at_sentence("Short one. Another one here.", 12) == "Short one."
    cut = trim_at_sentence("averyveryverylongsentence without any stop at all", 20)
    assert len(cut) <= 20 and cut.endswith("…")


def test_offline_memory_rewrite_keeps_recent_sentences_first() -> None:
    from graph.summarizer import ExtractiveSummarizer

    old = " ".join(f"예전 안건 {n}번은 {n}층 회의실에서 {n}시에 논의했다." for n in range(1, 9))
    new = "새 안건은 7월 3일 판교에서 예산 500만원으로 진행한다. 담당은 이서연 선임이다."
    result = ExtractiveSummarizer().rewrite_memory(old, new, 120, turn_label="11-15턴")
    assert len(result.text) <= 132
    assert "7월 3일" in result.text and "500만원" in result.text
    assert result.attempts == 0


def test_a_summary_that_repeats_the_prompt_is_replaced_by_the_extractive_one() -> None:
    # what a base model gives back: the prompt's own rules, at about the right length
    target = int(original_chars(KO) * 0.3)
    rules = get_prompt("summary.generate", turn_label="1-3턴", target_chars=target, conversation="")
    echo = rules.split("규칙:")[1].strip()[:target]
    model = ScriptedModel([echo])
    result = LLMSummarizer(model).summarize(KO, target, turn_label="1-3턴")
    assert result.fallback == "repeats the instructions"
    assert result.text == ExtractiveSummarizer().summarize(KO, target, turn_label="").text
    assert "규칙" not in result.text and "넘기지 마세요" not in result.text
    assert result.attempts == 1  # the model call it spent is still counted


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        ("", "empty"),
        ("The user asked for a calculation and got the result of the calculator.", "language"),
        (
            "다시 쓴 글만 출력하세요. 이름, 숫자, 날짜, 금액은 그대로 두고 다시 쓰세요.",
            "instructions",
        ),
    ],
)
def test_an_empty_foreign_or_echoing_summary_falls_back(reply: str, reason: str) -> None:
    target = int(original_chars(KO) * 0.3)
    result = LLMSummarizer(ScriptedModel([reply, reply])).summarize(KO, target, turn_label="1-3턴")
    assert reason in result.fallback
    assert result.text and result.text != reply


def test_a_good_summary_is_kept_and_its_tokens_estimated_without_usage() -> None:
    target = int(original_chars(KO) * 0.3)
    good = _varied(target)
    result = LLMSummarizer(ScriptedModel([good])).summarize(KO, target, turn_label="1-3턴")
    assert result.text == good.strip() and not result.fallback
    # the scripted model reports no usage: the counts are estimated from the text
    assert result.tokens_estimated and result.input_tokens and result.output_tokens


def test_a_summary_in_the_conversations_language_for_english() -> None:
    english = [
        HumanMessage("My employee ID is HR-20417 and my birthday is 1988-07-23."),
        AIMessage("Noted."),
    ]
    target = int(original_chars(english) * 0.5)
    korean = "사용자의 사번은 HR-20417이고 생일은 1988-07-23이다."
    result = LLMSummarizer(ScriptedModel([korean, korean])).summarize(
        english, target, turn_label="1턴"
    )
    assert result.fallback == "not in the conversation's language"


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        ("<<SYS>> [INST] <<SYS>> [INST] " * 8, "repeats the instructions"),
        ("<|im_start|>assistant 요약입니다 " * 6, "repeats the instructions"),
        ("김하늘 예산 " * 40, "repeats itself"),
    ],
)
def test_a_summary_of_template_markup_or_one_phrase_over_and_over_falls_back(
    reply: str, reason: str
) -> None:
    target = len(reply.strip())  # the right length: only what it says is wrong
    result = LLMSummarizer(ScriptedModel([reply])).summarize(KO, target, turn_label="1-3턴")
    assert result.fallback == reason


def test_a_summary_that_says_the_transcripts_tool_call_line_back_falls_back() -> None:
    # what Qwen2.5-Coder-0.5B stored as a tool-request thread's turns 4-6 (issue 42): the
    # prompt's own notation for a call, not what the user asked or learned
    turns = [
        HumanMessage("2 곱하기 10은?"),
        AIMessage(
            "", tool_calls=[tool_call(name="calculator", args={"expression": "2 * 10"}, id="c1")]
        ),
        ToolMessage("20", tool_call_id="c1", name="calculator"),
        AIMessage("20입니다."),
    ]
    said = format_conversation(turns).splitlines()[1]
    assert said.startswith("AI: ")
    reply = said.removeprefix("AI: ")
    result = LLMSummarizer(ScriptedModel([reply, reply])).summarize(
        turns, len(reply), turn_label="4-6턴"
    )
    assert result.fallback == "holds a tool call written as text"
    assert CALL_MARK not in result.text and "20" in result.text


def test_the_prompt_given_back_with_the_conversation_falls_back() -> None:
    # what Gemma 270M stored as turns 7-9's summary: its whole prompt, conversation and all
    target = int(original_chars(KO) * 0.3)
    prompt = get_prompt(
        "summary.generate",
        turn_label="1-3턴",
        target_chars=target,
        conversation=format_conversation(KO),
    )
    result = LLMSummarizer(ScriptedModel([prompt[: int(target * 1.1)], prompt])).summarize(
        KO, target, turn_label="1-3턴"
    )
    assert result.fallback == "repeats the instructions"


def test_the_extractive_summary_leaves_out_a_model_saying_its_prompt_back() -> None:
    echo = AIMessage(f"{get_prompt('system.base')} 안녕하세요! 제 이름은 윤서연이에요.")
    turns = [HumanMessage("안녕하세요! 제 이름은 윤서연이에요. 사번은 HR-20417입니다."), echo]
    text = ExtractiveSummarizer().summarize(turns, 200, turn_label="1턴").text
    assert "HR-20417" in text and get_prompt("system.base") not in text


def test_an_answer_passing_on_a_document_gives_way_to_the_users_own_words() -> None:
    """A document's text can be looked up again; what the user said about themselves cannot."""
    turns = [
        [HumanMessage("제 차 번호는 38가 1942예요."), AIMessage("네, 38가 1942로 기억해 둘게요.")],
        [
            HumanMessage("출장 숙박비 기준이 어떻게 돼?"),
            AIMessage(
                "숙박비 기준은 다음과 같습니다.\n- 서울: 1박 12만 원까지\n- 광역시: 1박 10만 원까지"
                "\n- 그 밖의 지역: 1박 8만 원까지\n- 해외: 1박 200달러까지 (2인 1실 권장)"
                "\n(출처: business_travel.md > 숙박비)"
            ),
        ],
        [HumanMessage("제 직속 상사는 문태오 매니저님이에요."), AIMessage("알겠습니다.")],
    ]
    records = [{"turn": 6, "source": "document business_travel.md"}]
    marked = [m for t in mark_looked_up(turns, 5, records) for m in t]
    assert [untrusted_message(m) for m in marked] == [False, False, False, True, False, False]
    target = int(original_chars(marked) * 0.3)
    text = ExtractiveSummarizer().summarize(marked, target, turn_label="5-7턴").text
    assert "38가 1942" in text and "문태오" in text, text
    assert abs(len(text) - target) <= target * 0.1  # the length rule is the same


def test_a_summary_that_keeps_none_of_the_users_facts_is_replaced() -> None:
    """Qwen 0.5B "summarized" turns by saying an earlier summary or a document passage back:
    of the turns it stood for, it kept nothing the user had told."""
    block = [
        [
            HumanMessage("제 직속 상사는 문태오 매니저님이에요."),
            AIMessage("사번은 EMP-55821이에요. 제 생일은 3월 14일이에요."),
        ],
        [
            HumanMessage("경비 정산 기한이 언제까지야?"),
            AIMessage("3월에 쓴 경비는 4월 5일까지 올립니다."),
        ],
        [
            HumanMessage("제 노트북은 MacBook Pro 14인치로 받았어요."),
            AIMessage("사번은 EMP-55821이에요. 제 생일은 3월 14일이에요."),
        ],
    ]
    records = [{"turn": 8, "source": "document expense_reimbursement.md"}]
    turns = [m for turn in mark_looked_up(block, 7, records) for m in turn]
    target = int(original_chars(turns) * 0.5)
    said_back = (
        "사번은 EMP-55821이에요. 제 생일은 3월 14일이에요. 3월에 쓴 경비는 4월 5일까지 "
        "올립니다. 영수증을 함께 올립니다."
    )
    assert abs(len(said_back) - target) <= target * 0.25
    result = LLMSummarizer(ScriptedModel([said_back])).summarize(turns, target, turn_label="7-9턴")
    assert result.fallback == "keeps none of the 1 facts the user stated", result.fallback
    assert "문태오" in result.text, result.text
    # a summary that keeps one in its own words is the model's to write
    own = (
        "사용자의 직속 상사는 문태오 매니저이고, 받은 노트북은 맥북 프로 14인치다. "
        "경비 정산 기한을 물어 4월 5일까지라는 답을 들었다."
    )
    kept = LLMSummarizer(ScriptedModel([own])).summarize(turns, target, turn_label="7-9턴")
    assert kept.text == own and not kept.fallback
    # a block of questions states nothing: there is nothing to keep
    asked = [HumanMessage("경비 정산 기한이 언제까지야?"), AIMessage("4월 5일까지입니다.")]
    reply = "정산 기한을 물었다."
    result = LLMSummarizer(ScriptedModel([reply])).summarize(asked, 10, turn_label="1턴")
    assert result.text == reply and not result.fallback
