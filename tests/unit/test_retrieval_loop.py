"""Seed 003's retrieval loop: the judgement JSON, FAQ 3 + guide 7, expanding a section,
searching again, at most three calls, and the fallbacks with their menus."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, replace
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

from graph.nodes.llm import _documents, fallback_text
from graph.offline import OfflineChatModel, _fallback
from graph.retrieval import DocumentIndex, HashingEmbeddings
from graph.retrieval.index import Hit
from graph.retrieval.loop import (
    ANSWERED,
    BEST_EFFORT,
    IN_PREPARATION,
    MAX_CALLS,
    NOT_FOUND,
    Judgement,
    judge_rule,
    model_judge,
    run_loop,
    search_all,
    search_by_metadata,
)
from graph.retrieval.parts import asks_twice, assign_parts, question_parts, split_question
from graph.routing import _retrieved
from graph.turns import content_text
from prompt import get_prompt
from tests.unit.helpers import doc_index

DOCS = Path(__file__).resolve().parents[2] / "data" / "docs"
KEYS = {"ranked_indices", "is_sufficient", "missing", "next_action", "refined_query", "confidence"}


@pytest.fixture(scope="module")
def shipped(tmp_path_factory: pytest.TempPathFactory) -> DocumentIndex:
    return DocumentIndex(DOCS, tmp_path_factory.mktemp("idx"), HashingEmbeddings())


def test_a_sufficient_search_answers_with_seed_003s_json(shipped: DocumentIndex) -> None:
    result = run_loop(shipped, "재택근무는 일주일에 며칠까지 할 수 있어?")
    assert result.outcome == ANSWERED and result.calls == 1
    (step,) = result.steps
    assert step["tool"] == "search_all" and set(step["judgement"]) == KEYS
    judged = step["judgement"]
    assert judged["is_sufficient"] and judged["next_action"] is None
    assert all(1 <= i <= len(step["found"]) for i in judged["ranked_indices"])
    assert 0.5 <= judged["confidence"] <= 1
    assert 1 <= len(result.passages) <= 3
    assert any("주 2일" in p.text for p in result.passages)


def test_search_all_takes_at_most_three_faqs_and_seven_guides(shipped: DocumentIndex) -> None:
    meta = shipped.documents()
    assert meta["faq.md"]["doc_type"] == "faq" and meta["leave_policy.md"]["doc_type"] == "guide"
    hits = search_all(shipped, "연차 휴가 신청")
    kinds = [meta[h.source]["doc_type"] for h in hits]
    assert kinds.count("faq") <= 3 and kinds.count("guide") <= 7 and len(hits) > 3


def test_the_search_all_mix_is_a_setting_and_a_bad_one_is_named(tmp_path: Path) -> None:
    from graph.retrieval import open_index
    from graph.settings import load_settings

    env = {"DOCS_DIR": str(DOCS), "INDEX_DIR": str(tmp_path), "RETRIEVAL_MODE": "keyword"}
    index = open_index(load_settings({**env, "SEARCH_ALL_MIX": "1, 2"}))
    meta = index.documents()
    kinds = [meta[h.source]["doc_type"] for h in search_all(index, "재직증명서 발급")]
    assert kinds.count("faq") == 1 and kinds.count("guide") == 2, kinds
    assert open_index(load_settings(env)).mix == (3, 7)  # seed 003's mix by default
    for bad in ("3", "a,b", "0,0", "3,70"):
        with pytest.raises(ValueError, match="SEARCH_ALL_MIX"):
            open_index(load_settings({**env, "SEARCH_ALL_MIX": bad}))


def test_search_by_metadata_keeps_the_documents_of_a_kind_or_with_steps(tmp_path: Path) -> None:
    index = doc_index(
        tmp_path,
        {
            "faq.md": "# 자주 묻는 질문\n## 노트북\n노트북 교체는 헬프데스크에 문의합니다.\n",
            "laptop.md": "# 노트북 교체\n## 절차\n1. 노트북 교체 신청서를 냅니다.\n2. 헬프데스크가 노트북을 줍니다.\n",
            "notes.md": "# 노트북 규정\n## 교체 주기\n노트북 교체 주기는 4년입니다.\n",
        },
    )
    sources = lambda hits: {h.source for h in hits}  # noqa: E731
    assert sources(search_by_metadata(index, "노트북 교체")) == {"faq.md", "laptop.md", "notes.md"}
    assert sources(search_by_metadata(index, "노트북 교체", doc_type="faq")) == {"faq.md"}
    assert sources(search_by_metadata(index, "노트북 교체", has_steps=True)) == {"laptop.md"}
    assert sources(search_by_metadata(index, "노트북 교체", doc_type="guide", has_steps=False)) == {
        "notes.md"
    }


def test_front_matter_sets_the_kind_and_stays_out_of_the_passages(tmp_path: Path) -> None:
    index = doc_index(
        tmp_path,
        {
            "printing.md": (
                "---\ndoc_type: faq\nhas_steps: true\ntitle: 프린터 FAQ\n---\n# 프린터\n컬러 인쇄는 팀장 승인 후 가능합니다.\n"
            ),
        },
    )
    info = index.documents()["printing.md"]
    assert (info["doc_type"], info["has_steps"], info["title"]) == ("faq", True, "프린터 FAQ")
    assert all("doc_type" not in h.text for h in index.search("컬러 인쇄", k=3))


def test_a_steps_question_on_a_piece_of_a_long_section_expands_it(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    steps = "\n\n".join(
        f"{n}. {n}단계: 장비 반납 신청서의 {n}번째 항목을 채우고 담당자 확인을 받습니다. " * 4
        for n in range(1, 9)
    )
    (docs / "return.md").write_text(f"# 장비 반납\n## 반납 절차\n{steps}\n", "utf-8")
    index = DocumentIndex(docs, tmp_path / "idx", HashingEmbeddings())
    assert index.section_parts("return.md", "장비 반납 > 반납 절차") > 1
    result = run_loop(index, "장비 반납 절차는 어떻게 돼?")
    assert [s["tool"] for s in result.steps][:2] == ["search_all", "get_section"]
    assert result.steps[0]["judgement"]["next_action"] == "get_section"
    assert "steps" in " ".join(result.steps[0]["judgement"]["missing"])
    assert "8단계" in result.passages[0].text and "1단계" in result.passages[0].text
    assert result.outcome == ANSWERED


def test_a_weak_match_is_searched_again_and_the_loop_stops_at_three(shipped: DocumentIndex) -> None:
    result = run_loop(shipped, "회사 근처 맛집 추천해줘")
    assert result.outcome == NOT_FOUND
    assert 2 <= result.calls <= MAX_CALLS
    assert result.steps[1]["tool"] == "search_again"
    assert result.steps[0]["judgement"]["refined_query"] not in ("", "회사 근처 맛집 추천해줘")


def test_still_insufficient_after_three_calls_answers_with_the_best_found(
    shipped: DocumentIndex,
) -> None:
    """Seed 003: after the third call the best passages found so far are answered from."""
    queries = iter(["법인카드 사용 한도", "법인카드 결제 한도", "카드 한도 규정"])

    def never_sure(question: str, passages: Sequence[Hit]) -> Judgement:
        ranked = list(range(1, min(3, len(passages)) + 1))
        return Judgement(ranked, False, ["한도 금액"], "search_again", next(queries, ""), 0.7)

    result = run_loop(shipped, "법인카드 한도", judge=never_sure)
    assert result.calls == MAX_CALLS and len(result.steps) == MAX_CALLS
    assert [s["tool"] for s in result.steps] == ["search_all", "search_again", "search_again"]
    assert result.outcome == BEST_EFFORT and result.passages
    retrieved = _retrieved(result)
    assert retrieved["retrieved"] and retrieved["retrieval"]["outcome"] == BEST_EFFORT


def test_nothing_ranked_is_in_preparation_and_says_so(shipped: DocumentIndex) -> None:
    result = run_loop(shipped, "김치찌개 레시피 알려줘")
    assert result.outcome == IN_PREPARATION and result.passages == []
    text = fallback_text(result.as_dict())
    assert text == "해당 내용은 준비 중입니다."
    assert _fallback(text, korean=True).startswith("해당 내용은 준비 중입니다")
    assert "being prepared" in _fallback(text, korean=False)


def test_not_found_names_the_menus_the_question_points_to(shipped: DocumentIndex) -> None:
    result = run_loop(shipped, "회의실 예약할 때 드론 촬영 허가도 같이 받아?")
    assert result.outcome == NOT_FOUND
    assert result.menus[0] == "한빛포털 [시설 > 회의실 예약]" and len(result.menus) <= 3
    assert "한빛포털 [시설 > 회의실 예약]" in fallback_text(result.as_dict())
    retrieval = {**result.as_dict(), "menus": ["한빛포털 [근태 > 출퇴근 기록]"]}
    text = fallback_text(retrieval)
    assert text.startswith("관련 문서를 찾지 못했습니다. 다음 메뉴에서 확인해 보세요:")
    assert "한빛포털 [근태 > 출퇴근 기록]" in _fallback(text, korean=True)
    english = _fallback(text, korean=False)
    assert english.startswith("I found no relevant document") and "[근태 > 출퇴근 기록]" in english
    from graph.retrieval.loop import suggest_menus

    assert "한빛포털 [근태 > 휴가 신청]" in suggest_menus("휴가 신청 메뉴가 어디야?", [])


def test_a_failing_rerank_model_leaves_the_rule_to_judge(shipped: DocumentIndex) -> None:
    class Broken:
        def with_structured_output(self, schema: object) -> Broken:
            return self

        def invoke(self, messages: object) -> AIMessage:
            raise RuntimeError("model down")

    judge = model_judge(Broken(), shipped)  # type: ignore[arg-type]
    hits = search_all(shipped, "법인카드 한도")
    assert asdict(judge("법인카드 한도", hits)) == asdict(
        judge_rule(shipped, "법인카드 한도", hits)
    )


def test_a_models_judgement_is_kept_within_the_passages(shipped: DocumentIndex) -> None:
    from graph.retrieval.loop import JudgementSchema

    class Judging:
        def with_structured_output(self, schema: object) -> Judging:
            return self

        def invoke(self, messages: object) -> JudgementSchema:
            return JudgementSchema(
                ranked_indices=[2, 99, 2, 1],
                is_sufficient=True,
                missing=[],
                next_action=None,
                refined_query="",
                confidence=1.7,
            )

    hits = search_all(shipped, "법인카드 한도")
    judged = model_judge(Judging(), shipped)("법인카드 한도", hits)  # type: ignore[arg-type]
    assert judged == Judgement([2, 1], True, [], None, "", 1.0)


@pytest.fixture()
def two_topics(tmp_path: Path) -> DocumentIndex:
    return doc_index(
        tmp_path,
        {
            "parking.md": "# 주차 안내\n\n## 방문객 주차\n\n방문객 차량의 주차 요금은 시간당 3천원입니다. "
            "로비 안내데스크에서 주차권을 받습니다.\n\n## 직원 주차\n\n직원 정기 주차는 추첨으로 "
            "배정합니다.\n",
            "cafeteria.md": "# 구내식당 안내\n\n## 식권\n\n구내식당 식권은 한 장에 5천원이고 지하 1층 "
            "무인 판매기에서 삽니다.\n\n## 운영 시간\n\n점심은 11시 30분부터 1시 30분까지 엽니다.\n",
        },
    )


def _answer(index: DocumentIndex, question: str) -> str:
    result = run_loop(index, question)
    documents, _ = _documents({"route": "rag", "retrieved": [asdict(h) for h in result.passages]})
    system = SystemMessage(get_prompt("system.documents_header", documents=documents))
    return content_text(OfflineChatModel().respond([system, HumanMessage(question)]))


def test_a_two_part_question_gets_a_passage_for_each_part(two_topics: DocumentIndex) -> None:
    question = "방문객 주차 요금은 얼마고 구내식당 식권은 얼마야?"
    result = run_loop(two_topics, question)
    assert result.outcome == ANSWERED
    by_part = {h.answers: h.source for h in result.passages if h.answers}
    assert by_part == {
        "방문객 주차 요금은 얼마야?": "parking.md",  # a whole question (issue 44)
        "구내식당 식권은 얼마야?": "cafeteria.md",
    }
    answer = _answer(two_topics, question)
    assert "시간당 3천원" in answer and "한 장에 5천원" in answer
    assert "출처: parking.md > 주차 안내 > 방문객 주차" in answer
    assert "출처: cafeteria.md > 구내식당 안내 > 식권" in answer


def test_a_part_no_passage_answers_is_searched_for_in_its_own_words(
    two_topics: DocumentIndex,
) -> None:
    question = "방문객 주차 요금은 얼마고 구내식당 식권은 얼마야?"
    found = [
        replace(h, confidence=two_topics.confidence_of(question, h))
        for h in search_all(two_topics, "방문객 주차 요금")[:1]
    ]
    judged = judge_rule(two_topics, question, found)
    assert not judged.is_sufficient and judged.next_action == "search_again"
    assert "식권" in judged.refined_query and "주차" not in judged.refined_query
    assert any(m.startswith("part: 구내식당") for m in judged.missing)


def test_words_joined_within_one_topic_are_one_question(two_topics: DocumentIndex) -> None:
    # "A랑 B가" here joins two people of one question, not two questions
    question = "신입이랑 선배가 같이 구내식당 가면 식권 얼마야?"
    assert question_parts(two_topics, question, search_all(two_topics, question))[0] == [question]
    answer = _answer(two_topics, question)
    assert answer.count("출처:") == 1 and "한 장에 5천원" in answer


@pytest.mark.parametrize(
    "question",
    [
        "Is there a rule for both?",  # "both" names no part
        # parts the documents lack ("code" and "gym" are keywords of sections now)
        "What is the yacht rule, and how much is the zebra?",
        "드레스 코드는 뭐고 요트는 얼마야?",
        "각각 얼마야?",
        "연차는 몇 번이고 나눠 쓸 수 있어?",  # "몇 번이고": one question
        "경비는 언제고 신청할 수 있어?",  # "언제고" (any time): one question
        "휴가는 며칠 쓰고 싶은지 언제 말해?",  # "-고 싶다": one question
    ],
)
def test_questions_that_are_one_question_or_nothing_the_documents_know_are_not_split(
    shipped: DocumentIndex, question: str
) -> None:
    result = run_loop(shipped, question)  # no part, and no ZeroDivisionError
    assert not any(h.answers for h in result.passages)


def test_a_two_part_question_is_no_surer_than_its_passages_answer_all_of_it(
    two_topics: DocumentIndex,
) -> None:
    # each part finds a passage ("식당은 언제 열어?" leaves its subject out and any passage
    # on opening hours answers it), but no document has "세차": not found, not raised
    result = run_loop(two_topics, "주차장 세차 서비스는 얼마고 식당은 언제 열어?")
    assert result.outcome == NOT_FOUND
    assert all(s["judgement"]["confidence"] < 0.5 for s in result.steps)
    answered = run_loop(two_topics, "방문객 주차 요금은 얼마고 구내식당 점심은 언제 열어?")
    assert answered.outcome == ANSWERED
    assert {h.heading for h in answered.passages if h.answers} == {
        "주차 안내 > 방문객 주차",
        "구내식당 안내 > 운영 시간",
    }


@pytest.fixture()
def payroll(tmp_path: Path) -> DocumentIndex:
    return doc_index(
        tmp_path,
        {
            "payroll.md": "# 급여 안내\n\n## 급여 구성\n\n급여는 기본급과 식대로 이루어집니다. "
            "재택근무 지원금도 급여와 함께 들어옵니다.\n\n## 급여일\n\n급여는 매월 25일에 "
            "들어옵니다. 급여일이 주말이면 급여를 하루 앞당겨 줍니다.\n",
            "remote.md": "# 재택근무\n\n## 장비와 지원금\n\n재택근무 지원금은 월 3만원입니다.\n\n"
            "## 신청\n\n재택근무는 전날까지 신청합니다.\n",
        },
    )


def test_each_part_of_a_two_part_question_is_searched_too(payroll: DocumentIndex) -> None:
    question = "재택근무 지원금은 얼마고 급여는 매달 며칠에 들어와?"
    # the whole question's best two: the sections that name both parts' words
    whole = payroll.search(question, k=2)
    assert "급여 안내 > 급여일" not in [h.heading for h in whole]
    found = search_all(payroll, question, faq_k=0, guide_k=2)
    assert split_question(payroll, question) == [
        "재택근무 지원금은 얼마야?",
        "급여는 매달 며칠에 들어와?",
    ]
    headings = [h.heading for h in found]
    assert "급여 안내 > 급여일" in headings and headings[: len(whole)] == [h.heading for h in whole]
    for hit in found:  # every passage is judged against the whole question
        assert hit.confidence == payroll.confidence_of(question, hit)
    # one question is searched once, as it was
    assert search_all(payroll, "급여일", faq_k=0, guide_k=2) == payroll.search("급여일", k=8)[:2]


def test_of_two_passages_holding_all_of_a_part_the_one_about_it_answers_it(
    payroll: DocumentIndex,
) -> None:
    hits = payroll.search("급여", k=8)
    make_up = next(h for h in hits if h.heading.endswith("급여 구성"))
    payday = next(h for h in hits if h.heading.endswith("급여일"))
    parts = ["재택근무 지원금은 얼마", "급여는 언제 들어와?"]
    scores = payroll.keyword_scores(parts[1], [make_up, payday])
    assert scores[1] > scores[0] > 0
    remote = payroll.search("재택근무 지원금", k=1)[0]
    # both hold every word of the second part; the make-up is ranked first, yet payday,
    # whose words are more about it, answers it
    picks = assign_parts(payroll, parts, [remote, make_up, payday])
    assert [i for _, i in picks] == [0, 2]


@pytest.mark.parametrize(
    "question",
    [
        "방문객 주차 요금은 얼마 내고, 구내식당 점심은 언제 열어?",
        "방문객 주차 요금은 얼마고 점심은 언제 열어?",
    ],
)
def test_a_question_word_then_a_verb_and_go_asks_twice(
    two_topics: DocumentIndex, question: str
) -> None:
    left, right = split_question(two_topics, question)
    assert left.startswith("방문객 주차") and "점심" in right


@pytest.mark.parametrize(
    ("question", "first"),
    [
        # the question word's own clause runs on for several words before its -고
        (
            "방문객 주차 요금은 시간마다 얼마씩 따로 내야 하고, 구내식당 점심은 언제 열어?",
            "방문객 주차 요금은 시간마다 얼마씩 따로 내야 하지?",
        ),
        (
            "방문객 주차 요금은 얼마짜리로 받고 구내식당 점심은 언제 열어?",
            "방문객 주차 요금은 얼마짜리로 받지?",
        ),
        # ", and" with the second question word later in its clause; the comma inside
        # the second ask is no place to split
        (
            "How much is visitor parking, and if I eat at the cafeteria, when does lunch open?",
            "How much is visitor parking",
        ),
    ],
)
def test_a_second_ask_is_found_past_the_words_of_its_clause_and_split_where_it_starts(
    tmp_path: Path, question: str, first: str
) -> None:
    index = doc_index(
        tmp_path,
        {
            "parking.md": "# 주차 안내\n\n## 방문객 주차\n\n방문객 차량의 주차 요금은 시간당 3천원입니다. "
            "Visitor parking costs 3,000 won an hour.\n",
            "cafeteria.md": "# 구내식당 안내\n\n## 운영 시간\n\n구내식당 점심은 11시 30분부터 엽니다. "
            "Lunch at the cafeteria opens at 11:30.\n",
        },
    )
    assert asks_twice(question)
    left, right = split_question(index, question)
    assert left.rstrip(", ") == first
    assert "점심" in right or "lunch" in right


@pytest.mark.parametrize(
    "question",
    [
        "몇 번이고 나눠 써도 돼?",
        "며칠 쓰고 싶은지 언제 말해?",
        "휴가 며칠 쉬고 나서 언제 복귀해?",
        "언제 신청하고 승인받으면 돼?",
        "What is the parking limit, and can I carry it over?",
    ],
)
def test_one_ask_with_a_go_or_an_and_in_it_is_not_two(question: str) -> None:
    assert not asks_twice(question)


def test_a_part_asking_for_an_amount_takes_the_passage_that_states_one(tmp_path: Path) -> None:
    index = doc_index(
        tmp_path,
        {
            "card.md": "# 카드\n\n## 법인카드 사용\n\n팀 법인카드는 팀 회식과 출장에 씁니다. "
            "법인카드를 개인 용도로 쓰지 않습니다.\n\n## 한도\n\n팀 법인카드로 월 300만원을 "
            "넘게 쓰려면 재무팀 승인을 받습니다.\n",
            "payroll.md": "# 급여\n\n## 직책 수당\n\n팀장 직책 수당은 월 30만원입니다.\n",
        },
    )
    parts = ["팀장 직책 수당은 얼마", "팀 법인카드는 얼마까지 써?"]
    hits = index.search("팀 법인카드 쓰다", k=8)
    use = next(h for h in hits if h.heading.endswith("법인카드 사용"))
    cap = next(h for h in hits if h.heading.endswith("한도"))
    pay = index.search("직책 수당", k=1)[0]
    # both sections hold every word of the second part, and the first is about the card
    # by its heading; but the part asks "얼마", and only the second states an amount
    picks = assign_parts(index, parts, [pay, use, cap])
    assert [i for _, i in picks] == [0, 2]


@pytest.mark.parametrize(
    "question",
    [
        "방문객 주차 요금은 얼마고 그건 로비 어디서 받아?",
        "방문객 주차 요금은 얼마고 거기 로비 어디야?",
    ],
)
def test_a_part_that_points_back_at_the_first_is_no_part_of_its_own(
    two_topics: DocumentIndex, question: str
) -> None:
    assert split_question(two_topics, question) == [question]


def test_a_passage_naming_the_other_part_in_passing_does_not_stand_in_for_both(
    tmp_path: Path,
) -> None:
    index = doc_index(
        tmp_path,
        {
            "travel.md": (
                "# 출장 규정\n\n## 일비\n\n국내 출장 일비는 하루 3만원입니다.\n\n"
                "## 숙박비\n\n서울 숙박비는 1박 15만원까지입니다.\n"
            ),
            "training.md": (
                "# 교육비 지원\n\n## 컨퍼런스 참가\n\n해외 컨퍼런스는 1회 300만원까지 지원합니다. "
                "출장 규정의 숙박비 한도와 일비가 함께 적용됩니다.\n\n"
                "## 도서 구입\n\n도서는 월 5만원까지 삽니다.\n"
            ),
        },
    )
    question = "국내 출장 일비와 해외 컨퍼런스 지원 한도는?"
    # the conference section holds every word of both parts, but names the per diem in
    # passing: each part gets the section about it
    result = run_loop(index, question)
    by_part = {h.answers: h.heading for h in result.passages if h.answers}
    assert by_part == {
        "국내 출장 일비": "출장 규정 > 일비",
        "해외 컨퍼런스 지원 한도는?": "교육비 지원 > 컨퍼런스 참가",
    }
    answer = _answer(index, question)
    assert "하루 3만원" in answer and "1회 300만원" in answer


def test_a_passage_without_the_kind_of_value_asked_for_answers_less_surely(
    two_topics: DocumentIndex,
) -> None:
    # the parking section states an amount, not a date
    for question, lowered in (
        ("방문객 주차 요금은 얼마야?", False),
        ("방문객 주차 요금은 언제 바뀌어?", True),
    ):
        hits = search_all(two_topics, question)
        judged = judge_rule(two_topics, question, hits)
        top = hits[judged.ranked_indices[0] - 1]
        assert top.heading == "주차 안내 > 방문객 주차"
        assert (judged.confidence < top.confidence) is lowered
        assert judged.confidence <= top.confidence  # never raised


def test_an_english_part_that_points_back_is_no_part_but_a_dummy_it_is(tmp_path: Path) -> None:
    index = doc_index(
        tmp_path,
        {
            "office.md": (
                "# Office\n## Visitor parking\nVisitor parking costs 3,000 won per hour. The lobby "
                "desk stamps parking tickets.\n## Meal tickets\nA meal ticket costs 5,000 won at the "
                "cafeteria kiosk.\n"
            ),
        },
    )
    back = "How much is visitor parking per hour, and where does the lobby desk stamp them?"
    assert split_question(index, back) == [back]
    dummy = "How much is visitor parking per hour, and how long does it take to get a meal ticket?"
    assert len(split_question(index, dummy)) == 2
    # "its own" points at the subject of its own clause, not back at the first part
    own = "How much is visitor parking per hour, and how long until a meal ticket runs out on its own?"
    assert len(split_question(index, own)) == 2


@pytest.mark.parametrize(
    ("question", "kinds"),
    [
        ("경비는 언제까지 올려야 돼?", {"date", "duration"}),
        ("How long do I have to file my trip costs?", {"date", "duration"}),
        ("교육비는 1년에 얼마까지 나와?", {"amount"}),
        ("How much paid time off do I get as the dad?", {"duration"}),  # time, not money
        ("How much notice do I have to give?", {"duration"}),
        ("How much do I get back for the mileage?", {"amount"}),
        ("How much holiday pay do I get?", {"amount"}),
        ("How much does sick leave pay?", {"amount"}),
        ("What time should I show up on my first day?", {"time"}),
        ("카드 잃어버리면 어디로 전화해?", {"phone"}),
        ("Which floor is the security team on?", {"floor"}),
        ("명함은 한 번에 몇 장 나와?", {"count"}),
        ("Where on the portal do I print that?", {"menu"}),
        ("기자가 전화해서 회사 얘기 물어보면 어떻게 해?", set()),  # a call, not a number asked
        ("Can I paste source code into a chatbot?", set()),
    ],
)
def test_the_kind_of_value_a_document_question_asks_for(question: str, kinds: set[str]) -> None:
    from graph.retrieval.value_kinds import asked_kinds

    assert asked_kinds(question) == kinds


def test_the_kinds_of_value_a_passage_states() -> None:
    from graph.retrieval.value_kinds import stated_kinds

    assert stated_kinds("승인된 경비는 매월 15일에 급여 계좌로 들어옵니다.") == {"date"}
    assert "duration" in stated_kinds("돌아온 뒤 10일 안에 정산합니다.")
    assert "amount" in stated_kinds("1인당 120만 포인트가 지급됩니다.")
    assert "time" in stated_kinds("첫날은 오전 9시 30분까지 옵니다.")
    assert "phone" in stated_kinds("분실하면 1588-3300으로 전화합니다.")
    assert "floor" in stated_kinds("보안팀은 9층에 있습니다.")
    assert "count" in stated_kinds("명함은 한 번에 100장씩 나옵니다.")
    assert "menu" in stated_kinds("포털 [인사 > 증명서 발급]에서 받습니다.")
    assert stated_kinds("정산할 수 없는 비용은 아래와 같습니다.") == frozenset()


def test_of_two_passages_on_the_topic_the_one_with_the_value_asked_for_ranks_first(
    tmp_path: Path,
) -> None:
    from graph.retrieval.loop import rank_by_coverage

    index = doc_index(
        tmp_path,
        {
            "expenses.md": (
                "# 경비 정산\n\n## 승인\n\n경비 정산은 팀장 승인 후 재무팀이 검토합니다. 반려되면 고쳐서 "
                "다시 올립니다.\n\n## 지급\n\n승인된 경비 정산 금액은 매월 15일에 급여 계좌로 "
                "들어옵니다.\n"
            ),
        },
    )
    hits = search_all(index, "경비 정산 승인")
    assert {h.heading.split(" > ")[-1] for h in hits} == {"승인", "지급"}
    question = "경비 정산 승인 나면 언제 받아?"
    first = hits[rank_by_coverage(index, question, hits)[0]]
    assert first.heading.endswith("지급")
    # without an answer type the passage sharing more of the question's words leads
    plain = hits[rank_by_coverage(index, "경비 정산 승인은 누가 검토해?", hits)[0]]
    assert plain.heading.endswith("승인")


def test_words_no_document_uses_are_named_as_written_and_phrasing_is_not(
    shipped: DocumentIndex,
) -> None:
    assert shipped.unknown_words("헌혈하고 오는 날은 연차 안 쓰고 공가로 처리해 주나요?") == [
        "헌혈"
    ]
    # "bring" and "Fridays" are how it is asked (or a word the documents use); "dog" is
    # the topic, shown as written, not as its stem
    assert shipped.unknown_words("Can I bring my dog to the office on Fridays?") == ["dog"]
    assert shipped.unknown_words("Will the company pay for my headphones?") == ["headphones"]
    assert shipped.unknown_words("재택근무는 일주일에 며칠까지 가능해?") == []


def test_a_passage_found_by_the_other_words_says_the_topic_is_in_no_document(
    shipped: DocumentIndex,
) -> None:
    question = "Can I bring my dog to the office on Fridays?"
    result = run_loop(shipped, question)
    assert result.as_dict()["absent"] == ["dog"]
    state = {"route": "rag", "retrieved": [asdict(h) for h in result.passages]}
    documents, _ = _documents({**state, "retrieval": result.as_dict()})
    # the note comes first, so that a reader of the passages still takes each to its source
    assert documents.startswith(get_prompt("system.documents_absent", words="dog"))
    system = SystemMessage(get_prompt("system.documents_header", documents=documents))
    answer = content_text(OfflineChatModel().respond([system, HumanMessage(question)]))
    assert answer.startswith("From the documents:") and "Source: " in answer
    assert answer.endswith(
        'Note: no document mentions "dog"; the passage above was found by the '
        "question's other words and may not answer it."
    )
    question = "헌혈하고 오는 날은 연차 안 쓰고 공가로 처리해 주나요?"
    result = run_loop(shipped, question)
    documents, _ = _documents(
        {
            "route": "rag",
            "retrieved": [asdict(h) for h in result.passages],
            "retrieval": result.as_dict(),
        }
    )
    system = SystemMessage(get_prompt("system.documents_header", documents=documents))
    answer = content_text(OfflineChatModel().respond([system, HumanMessage(question)]))
    assert (
        "출처: leave_policy.md" in answer and "‘헌혈’은(는) 어떤 문서에도 나오지 않습니다" in answer
    )
    # a question in the documents' own words gets no such note
    assert "참고: " not in _answer(shipped, "재택근무는 일주일에 며칠까지 가능해?")
