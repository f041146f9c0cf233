"""Document index: chunking, keyword/FAISS/hybrid search, auto-refresh, bad files, tools."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graph.retrieval import DocumentIndex, HashingEmbeddings, build_document_tools, format_hits
from graph.retrieval.chunking import split_document
from graph.retrieval.loop import NOT_FOUND, run_loop
from graph.retrieval.tokenize import noun_phrases
from tests.unit.helpers import doc_index

ROOT = Path(__file__).resolve().parents[2]

LEAVE = """# 휴가 규정
## 연차 신청
연차는 한빛포털에서 사용일 3영업일 전까지 신청합니다.
## 병가
병가는 연간 10일까지 유급입니다.
"""
EXPENSE = "# 경비 정산\n## 기한\n경비는 사용한 달의 다음 달 5일까지 정산합니다.\n"


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    (folder / "hr").mkdir(parents=True)
    (folder / "hr" / "leave.md").write_text(LEAVE, "utf-8")
    (folder / "expense.md").write_text(EXPENSE, "utf-8")
    return folder


def _index(docs: Path, tmp_path: Path, embeddings: bool = True) -> DocumentIndex:
    return DocumentIndex(docs, tmp_path / "index", HashingEmbeddings() if embeddings else None)


def test_chunks_keep_source_and_heading_path() -> None:
    chunks = split_document("hr/leave.md", LEAVE)
    assert [(c.source, c.heading) for c in chunks] == [
        ("hr/leave.md", "휴가 규정 > 연차 신청"),
        ("hr/leave.md", "휴가 규정 > 병가"),
    ]
    assert chunks[1].text == "병가는 연간 10일까지 유급입니다."


def test_section_keywords_are_searched_but_never_shown(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    text = (
        "# 급여 안내\n## 지급일\n<!-- keywords: 월급날, payday, salary -->\n"
        "급여는 매월 25일에 지급합니다.\n## 명세서\n명세서는 포털에서 봅니다.\n"
    )
    (folder / "pay.md").write_text(text, "utf-8")
    chunks = split_document("pay.md", text)
    assert [(c.heading, c.keywords) for c in chunks] == [
        ("급여 안내 > 지급일", "월급날, payday, salary"),
        ("급여 안내 > 명세서", ""),
    ]
    assert "keywords" not in chunks[0].text and "월급날" not in chunks[0].text
    index = _index(folder, tmp_path, embeddings=False)
    # words only the keywords hold find the section, and count toward its confidence
    for question in ("월급날이 언제야?", "When is payday?"):
        hit = index.search(question, k=1)[0]
        assert hit.heading == "급여 안내 > 지급일" and hit.confidence >= 0.5
        assert index.confidence_of(question, hit) == hit.confidence
    assert index.get_section("pay.md", "급여 안내 > 지급일") == "급여는 매월 25일에 지급합니다."
    # two sections of one path keep their own keywords; " > " in a heading is no parent;
    # in a code block nothing is a heading or a keywords line; an empty line adds nothing
    text = (
        "# A\n## FAQ\n<!-- keywords: one -->\nx\n## FAQ\ny\n```\n# not a heading\n"
        "<!-- keywords: code -->\n```\n<!-- keywords: -->\n# B > C\n## D\nd\n"
    )
    chunks = split_document("x.md", text)
    assert [(c.heading, c.keywords) for c in chunks] == [
        ("A > FAQ", "one"),
        ("A > FAQ", ""),
        ("B > C > D", ""),
    ]
    assert "# not a heading" in chunks[1].text and "keywords: code" in chunks[1].text
    # a section's keywords hold for its subsections; a keywords line alone is no section
    text = "# 제목\n<!-- keywords: 하나 -->\n## 본문\n<!-- keywords: 둘 -->\n내용\n## 끝\n끝\n"
    assert [(c.heading, c.keywords) for c in split_document("x.md", text)] == [
        ("제목 > 본문", "하나, 둘"),
        ("제목 > 끝", "하나"),
    ]


def test_an_english_topic_no_document_has_counts_against_but_phrasing_does_not(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "conduct.md").write_text(
        "# 징계\n## 소명\n<!-- keywords: explain myself, hearing -->\n"
        "징계 대상자는 위원회에 나와 소명할 수 있습니다.\n",
        "utf-8",
    )
    index = _index(folder, tmp_path, embeddings=False)
    # "quantum" and "entanglement" are topics no document has: not a match
    assert index.search("Explain quantum entanglement", k=1)[0].confidence < 0.5
    # a question in the documents' words stays a match
    assert index.search("Can I explain myself at the hearing?", k=1)[0].confidence >= 0.5
    weights, unknown_mass = index.weighted_terms("Can I quickly explain myself at the hearing?")
    assert unknown_mass == 0  # "quickly" is phrasing, not a missing topic


def test_numbers_alone_are_no_document_match(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "ga.md").write_text("# 총무 안내\n담당: 총무팀 (내선 2400)\n", "utf-8")
    index = _index(folder, tmp_path, embeddings=False)
    assert index.search("What is 15% of 2400?", k=1)[0].confidence < 0.5
    assert index.search("총무팀 내선 2400", k=1)[0].confidence >= 0.5


def test_long_sections_are_split() -> None:
    text = "# 긴 문서\n" + "\n\n".join(f"문단 {i}: " + "내용 " * 80 for i in range(10))
    chunks = split_document("long.md", text)
    assert len(chunks) > 3 and all(len(c.text) <= 900 for c in chunks)


@pytest.mark.parametrize("mode", ["keyword", "faiss", "hybrid"])
def test_each_mode_finds_the_right_section(docs: Path, tmp_path: Path, mode: str) -> None:
    hits = _index(docs, tmp_path).search("병가는 며칠까지 유급이야?", k=2, mode=mode)
    assert (hits[0].source, hits[0].heading) == ("hr/leave.md", "휴가 규정 > 병가")
    assert hits[0].confidence >= 0.5


def test_english_question_finds_korean_document(docs: Path, tmp_path: Path) -> None:
    hits = _index(docs, tmp_path).search("What is the deadline for expense reimbursement?", k=1)
    assert hits[0].source == "expense.md" and hits[0].confidence >= 0.5


def test_nonsense_has_low_confidence(docs: Path, tmp_path: Path) -> None:
    hits = _index(docs, tmp_path).search("양자역학의 불확정성 원리", k=3)
    assert all(h.confidence < 0.5 for h in hits)


def test_a_verb_no_document_uses_is_phrasing_but_a_noun_is_a_topic(
    docs: Path, tmp_path: Path
) -> None:
    index = _index(docs, tmp_path)
    plain = index.search("병가는 며칠까지 유급이야?", k=1)[0]
    # the same question in everyday verbs the documents never use keeps its match
    chatty = index.search("아파서 뻗으면 병가는 며칠까지 유급이야?", k=1)[0]
    assert chatty.heading.endswith("병가") and chatty.confidence == plain.confidence >= 0.5
    # a topic the documents never mention (a noun) still counts against it
    other = index.search("반려동물 병가는 며칠까지 유급이야?", k=1)[0]
    assert other.confidence < plain.confidence
    # a noun that ends in 다 is a noun ("캐나다"), not a verb
    abroad = index.search("캐나다 병가는 며칠까지 유급이야?", k=1)[0]
    assert abroad.confidence < plain.confidence


def test_new_changed_and_deleted_files_are_noticed_without_a_rebuild_call(
    docs: Path, tmp_path: Path
) -> None:
    index = _index(docs, tmp_path)
    assert index.doc_count == 2
    (docs / "parking.md").write_text(
        "# 주차\n## 방문객\n방문객 주차는 2시간 무료입니다.\n", "utf-8"
    )
    assert index.search("방문객 주차 무료 시간", k=1)[0].source == "parking.md"
    (docs / "parking.md").write_text(
        "# 주차\n## 방문객\n방문객 주차는 3시간 무료로 바뀌었습니다.\n", "utf-8"
    )
    assert "3시간" in index.search("방문객 주차 무료 시간", k=1)[0].text
    (docs / "parking.md").unlink()
    assert all(h.source != "parking.md" for h in index.search("방문객 주차", k=3))


def test_binary_and_undecodable_files_are_skipped_with_a_warning(
    docs: Path, tmp_path: Path
) -> None:
    (docs / "image.md").write_bytes(b"\x89PNG\x00\x00\x01binary")
    (docs / "legacy.txt").write_bytes("휴가 규정".encode("euc-kr"))
    (docs / "empty.md").write_text("   \n", "utf-8")
    index = _index(docs, tmp_path)
    assert index.doc_count == 2
    assert sorted(index.warnings) == [
        "skipped empty.md: empty file",
        "skipped image.md: binary file",
        "skipped legacy.txt: not UTF-8 text",
    ]
    assert index.search("연차 신청", k=1)[0].source == "hr/leave.md"


def test_index_is_persisted_and_reloaded(docs: Path, tmp_path: Path) -> None:
    _index(docs, tmp_path).search("연차", k=1)
    assert (tmp_path / "index" / "index.json").exists()
    again = _index(docs, tmp_path)
    assert again.refresh() is False  # loaded from disk, not rebuilt
    assert again.search("연차 신청", k=1)[0].source == "hr/leave.md"


def test_tools_show_source_heading_score_and_say_when_nothing_is_found(
    docs: Path, tmp_path: Path
) -> None:
    search, by_metadata, section = build_document_tools(_index(docs, tmp_path))
    out = search.invoke({"query": "연차 신청 기한"})
    assert out.startswith("[1] hr/leave.md > 휴가 규정 > 연차 신청 (score ")
    assert "3영업일" in out
    judgement = json.loads(out.rsplit("judgement: ", 1)[1])
    assert set(judgement) == {
        "ranked_indices",
        "is_sufficient",
        "missing",
        "next_action",
        "refined_query",
        "confidence",
    }
    nothing = search.invoke({"query": "우주 정거장 도킹 절차"})
    assert nothing.startswith("No relevant document found for: 우주 정거장 도킹 절차")
    assert by_metadata.invoke({"query": "연차 신청", "doc_type": "faq"}).startswith("No relevant")
    assert section.invoke({"source": "hr/leave.md", "heading": "휴가 규정"}).count("\n\n") == 1
    assert "No section" in section.invoke({"source": "hr/leave.md", "heading": "없음"})


def test_format_hits_for_the_system_prompt(docs: Path, tmp_path: Path) -> None:
    hits = _index(docs, tmp_path).search("병가", k=1)
    assert (
        format_hits(hits)
        == "[1] 병가는 연간 10일까지 유급입니다. (출처: hr/leave.md > 휴가 규정 > 병가)"
    )


def test_shipped_documents_answer_a_leave_question(tmp_path: Path) -> None:
    index = DocumentIndex(ROOT / "data/docs", tmp_path / "index", HashingEmbeddings())
    assert index.doc_count >= 15
    assert index.search("연차 이월은 몇 일까지 돼?", k=1)[0].source == "leave_policy.md"


def test_english_words_before_a_period_stay_whole() -> None:
    from graph.retrieval.tokenize import tokens

    # Kiwi cuts some of them ("detail." -> "det" + "ail."); the tokenizer joins them back
    assert tokens("Some detail. Tell me about apples.") == ["detail", "appl"]
    assert tokens("재택근무는 주 2일이고 details are in the portal.")[-2:] == ["detail", "portal"]


def test_english_stemming_is_safe_across_threads() -> None:
    """Worker threads stem at once (the service runs turns in parallel)."""
    from concurrent.futures import ThreadPoolExecutor

    from graph.retrieval.tokenize import stem_english

    words = ["relationships", "organizational", "hopefully", "generalization", "conditional"]
    expected = [stem_english(w) for w in words]
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda _: [stem_english(w) for w in words * 200], range(16)))
    assert all(r == expected * 200 for r in results)


@pytest.mark.parametrize("mode", ["keyword", "faiss", "hybrid"])
def test_offline_every_retrieval_mode_is_keyword_search_with_no_vectors(
    docs: Path, tmp_path: Path, mode: str
) -> None:
    """RETRIEVAL_MODE (seed 000's init_vector_store) needs an embeddings server for faiss and
    hybrid (tests/integration/test_embeddings_server.py); offline no vectors are built, BM25
    answers, and the sidebar's status says keyword without calling it degraded (issue 37:
    the hashing vectors the offline index once built did not beat BM25)."""
    from graph.retrieval import open_index
    from graph.settings import load_settings

    settings = load_settings(
        {
            "CHAT_DB_PATH": str(tmp_path / "chat.sqlite"),
            "CHAT_PROVIDER": "offline",
            "DOCS_DIR": str(docs),
            "RETRIEVAL_MODE": f" {mode.upper()} ",
        }
    )
    index = open_index(settings)
    hits = index.search("병가는 연간 며칠까지 유급이야?", k=1)
    assert hits and hits[0].heading == "휴가 규정 > 병가"
    status = index.status()
    assert status["mode"] == "keyword" and status["embeddings"] is None
    assert not status["degraded"] and status["problems"] == []
    assert not (settings.index_path / "vectors.npy").exists()


def test_a_wrong_retrieval_mode_is_refused_when_the_app_opens(tmp_path: Path) -> None:
    from graph.session import open_app
    from graph.settings import load_settings

    settings = load_settings(
        {"CHAT_DB_PATH": str(tmp_path / "chat.sqlite"), "RETRIEVAL_MODE": "vectors"}
    )
    with pytest.raises(ValueError, match="RETRIEVAL_MODE must be keyword, faiss or hybrid"):
        open_app(settings)


def test_a_compound_written_whole_in_one_place_and_apart_in_the_other_matches(
    tmp_path: Path,
) -> None:
    index = doc_index(
        tmp_path,
        {
            "travel.md": (
                "# 출장\n## 여행사\n회사 지정 여행사는 하늘빛여행사이고 예약 창구는 02-1234-5678입니다.\n"
                "## 숙박\n출장 숙박은 대표 전화로 예약하고 예약 번호를 받습니다. 요청이 반려되면 다시 "
                "신청합니다.\n"
            ),
        },
    )
    # the document keeps "하늘빛여행사" whole; the question writes "하늘빛" alone
    hit = index.search("하늘빛 예약 창구 번호 알려줘", k=1)[0]
    assert hit.heading.endswith("여행사") and hit.confidence >= 0.5
    # a compound the documents only use in parts ("전화번호": "전화") is not a missing word
    weights, unknown_mass = index.weighted_terms("출장 숙박 전화번호")
    assert "전화" in weights and unknown_mass == 0
    # but not when only one half is a word the documents use ("반려" of "반려동물")
    weights, unknown_mass = index.weighted_terms("출장 갈 때 반려동물 데려와도 돼?")
    assert "반려" not in weights and unknown_mass > 0
    # nor the end of a word after a one-syllable head: "카드론" is no "드론"
    (tmp_path / "docs" / "card.md").write_text(
        "# 카드\n## 대출\n카드론은 쓰지 않습니다.\n", "utf-8"
    )
    weights, unknown_mass = index.weighted_terms("출장 숙박에 드론 가져가도 돼?")
    assert "카드론" not in weights and unknown_mass > 0


def test_a_word_no_document_has_weighs_as_much_as_an_average_topical_word(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    rules = "".join(f"## 규정 {i}\n회사 규정 {i}번: 내용 {i}.\n" for i in range(24))
    (folder / "rules.md").write_text(
        f"# 회사 규정\n{rules}## 주차\n회사 주차 요금은 무료.\n", "utf-8"
    )
    index = DocumentIndex(folder, tmp_path / "index", HashingEmbeddings())
    weights, unknown_mass = index.weighted_terms("회사 주차 요금 맛집")
    # "회사" is in most sections: the unknown "맛집" weighs as much as the mean of
    # "주차" and "요금", not of all three
    topical = [weights[t] for t in ("주차", "요금")]
    assert weights["회사"] < min(topical)
    assert unknown_mass == pytest.approx(sum(topical) / 2)


def test_a_passage_about_the_questions_noun_beats_one_sharing_only_its_verb(
    tmp_path: Path,
) -> None:
    index = doc_index(
        tmp_path,
        {
            "pay.md": (
                "# 돈 안내\n## 지급일\n급여는 매월 25일에 지급합니다.\n"
                "## 경비\n경비 정산금은 다음 달 15일에 계좌로 들어옵니다.\n"
            ),
        },
    )
    hits = {h.heading: h.confidence for h in index.search("급여는 매달 며칠에 들어와?", k=2)}
    assert hits["돈 안내 > 지급일"] > hits["돈 안내 > 경비"]


def test_a_small_number_is_a_quantity_and_weighs_nothing(tmp_path: Path) -> None:
    index = doc_index(
        tmp_path,
        {
            "leave.md": (
                "# 휴가\n## 병가\n병가는 연간 10일까지 유급입니다.\n"
                "## 경조사\n본인 결혼은 5일, 자녀 결혼은 1일입니다. 병가와 따로 씁니다.\n"
                "## 문의\n휴가 문의는 내선 2305로 합니다.\n"
            ),
        },
    )
    weights, _ = index.weighted_terms("유급 병가는 1년에 며칠이야?")
    assert weights["1"] == 0 and weights["병가"] > 0
    # "1" of "1년" matched "1일" of another section: it does not make that one surer
    hits = index.search("유급 병가는 1년에 며칠이야?", k=3)
    sick = next(h for h in hits if h.heading.endswith("병가"))
    family = next(h for h in hits if h.heading.endswith("경조사"))
    assert hits[0] == sick and family.confidence < sick.confidence
    weights, _ = index.weighted_terms("내선 2305는 누구야?")
    assert weights["2305"] > 0  # a longer number names something


def test_an_english_word_and_its_one_korean_term_are_one_idea(tmp_path: Path) -> None:
    index = doc_index(
        tmp_path,
        {
            "pay.md": (
                "# 안내\n## 지급일\n<!-- keywords: salary date -->\n매월 25일에 들어옵니다.\n"
                "## 명세서\n급여 명세서는 포털에서 봅니다.\n"
                "## 휴가\n연차는 포털에서 신청합니다. 휴가 중에는 메일을 보지 않습니다.\n"
                "## 권한\n시스템 권한 부여는 팀장이 합니다.\n"
            ),
        },
    )
    hits = {h.heading: h for h in index.search("salary", k=4)}
    # "salary" is "급여": the section with only the English keyword and the one with only
    # the Korean word each hold the whole idea
    assert index.credited("salary", {"salari"}) >= {"salari", "급여"}
    assert hits["안내 > 지급일"].confidence == hits["안내 > 명세서"].confidence == 1.0
    # a word the glossary gives several terms for is no pair: "vacation" is "연차 휴가",
    # and a passage with "연차" alone does not hold "휴가"
    assert "휴가" not in index.credited("vacation", {"연차"})
    assert "car" not in index.credited("Can I drive my own car?", {"본인"})


def test_a_word_whose_first_syllable_the_analyzer_reads_as_a_bound_noun_is_kept(
    tmp_path: Path,
) -> None:
    from graph.retrieval.tokenize import tokens

    # Kiwi cuts "일비" into a bound noun "일" (dropped) and "비" in this sentence
    assert "일비" not in tokens("해외 출장 일비를 알려줘")
    assert "일비" in tokens("해외 출장 일비를 알려줘", joined=True)
    index = doc_index(
        tmp_path,
        {
            "travel.md": (
                "# 출장\n## 일비\n해외 출장 일비는 하루 60달러입니다.\n"
                "## 항공\n해외 출장 항공권은 이코노미석으로 삽니다. 비행 시간이 길면 좌석 등급을 올립니다.\n"
            ),
        },
    )
    weights, _ = index.weighted_terms("해외 출장 일비를 알려줘")
    assert "일비" in weights
    assert index.search("해외 출장 일비를 알려줘", k=1)[0].heading == "출장 > 일비"


def test_every_month_in_a_document_names_the_month_a_question_asks_with(
    tmp_path: Path,
) -> None:
    from graph.retrieval.tokenize import tokens

    # "매월" is an adverb and no search token; the documents' reader gets its unit
    assert "월" not in tokens("급여는 매월 25일에 지급합니다")
    assert "월" in tokens("급여는 매월 25일에 지급합니다", joined=True)
    assert "주" in tokens("매주 금요일에 모입니다", joined=True)
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "pay.md").write_text("# 급여\n## 지급\n급여는 매월 25일에 지급합니다.\n", "utf-8")
    index = DocumentIndex(folder, tmp_path / "index", HashingEmbeddings())
    # the glossary gives "month" as "월", which the section now holds
    question = "Which day of the month is salary paid?"
    hit = index.search(question, k=1)[0]
    weights, _ = index.weighted_terms(question)
    assert "월" in weights and "월" in index.passage_terms(hit)


def test_a_related_word_the_glossary_adds_for_a_korean_word_weighs_half(
    tmp_path: Path,
) -> None:
    from graph.retrieval.index import HINT_WEIGHT

    index = doc_index(
        tmp_path,
        {
            "family.md": (
                "# 가족\n## 자녀 돌봄\n초등학교 자녀가 있는 직원은 출근을 늦출 수 있습니다.\n"
                "## 어린이집\n어린이집 등원 시간에는 유연 근무를 씁니다.\n"
                "## 법인카드\n골프장에서는 법인카드를 쓸 수 없습니다.\n"
            ),
        },
    )
    # "어린이집" is written; the glossary adds "자녀" for it, which the user did not say
    weights, _ = index.weighted_terms("어린이집 등원 시간")
    idf = index._idf
    assert weights["어린이집"] == idf["어린이집"]
    assert weights["자녀"] == pytest.approx(HINT_WEIGHT * idf["자녀"])
    # an English word's Korean terms are its translation and keep their weight, and so
    # are a Korean word's that the documents do not use ("라운딩" stands for "골프장")
    weights, _ = index.weighted_terms("children")
    assert weights["자녀"] == idf["자녀"]
    weights, _ = index.weighted_terms("라운딩 가도 돼?")
    assert weights["골프장"] == idf["골프장"]


def test_an_everyday_english_verb_a_passage_lacks_does_not_count_against_it(
    tmp_path: Path,
) -> None:
    index = doc_index(
        tmp_path,
        {
            "office.md": (
                "# Office\n## Floors\nThe security team sits on the ninth floor.\n"
                "## Visitors\nGo to the lobby desk and talk to the guard before you go up.\n"
            ),
        },
    )
    plain = index.search("Which floor is the security team on?", k=1)[0]
    put = index.search("Which floor do I go to if I want to talk to the security team?", k=1)[0]
    # "go" and "talk" are words the documents use, but how the question is put
    assert plain.heading == put.heading == "Office > Floors"
    assert put.confidence == plain.confidence == 1.0
    # one the passage holds still counts for it
    weights, _ = index.weighted_terms("talk to the guard")
    assert weights["talk"] > 0


def test_noun_phrases_are_nouns_written_side_by_side() -> None:
    assert noun_phrases("회사 주식 배당금은 언제 나와?") == [("회사", "주식", "배당금")]
    assert noun_phrases("Does the company offer pet insurance?") == [("pet", "insur")]
    # a noun suffix belongs to its noun; a particle, a verb or punctuation ends a run
    assert noun_phrases("거래처 사장님이랑 라운딩 가는데") == [("거래처", "사장")]
    assert noun_phrases("회사가 쇼핑몰에서 주는 돈") == []
    assert noun_phrases("pet, insurance") == []
    assert noun_phrases("the minimum length for a login passphrase") == [
        ("minimum", "length"),
        ("login", "passphras"),
    ]


def test_a_question_whose_topic_is_a_kind_no_document_names_is_no_match(
    tmp_path: Path,
) -> None:
    index = doc_index(
        tmp_path,
        {
            "benefits.md": "# 복리후생\n## 단체 보험\n<!-- keywords: group insurance -->\n"
            "전 직원은 단체 보험에 가입됩니다.\n",
            "ethics.md": "# 윤리\n## 내부자 거래\n미공개 정보로 주식을 거래하지 않습니다.\n",
            "security.md": "# 정보보안\n## 비밀번호\n<!-- keywords: password, login, minimum length -->\n"
            "비밀번호는 최소 12자입니다.\n",
        },
    )
    # "pet" and "배당금" are in no document: the question asks about a kind of insurance
    # (of stock income) they do not name, and their insurance (stock) passage is not it
    for question in ("Is there pet insurance?", "주식 배당금은 언제 나와?"):
        assert index.search(question, k=1)[0].confidence < 0.5, question
        assert run_loop(index, question).outcome == NOT_FOUND, question
    assert index.search("Is there group insurance?", k=1)[0].confidence >= 0.5
    # an unknown word beside a known one, in a question with a topic of its own besides
    question = "What is the minimum length of a login passphrase?"
    assert index.weighted_terms(question)[1] > 0  # "passphrase" is in no document
    hit = index.search(question, k=1)[0]
    assert hit.heading == "정보보안 > 비밀번호" and hit.confidence >= 0.5


def test_a_korean_time_word_is_no_topic_the_documents_miss(tmp_path: Path) -> None:
    index = doc_index(
        tmp_path, {"devices.md": "# 기기\n## 노트북 지급\n입사하면 노트북을 지급합니다.\n"}
    )
    # like the English time words: when the question is asked, not what it is about
    for question in ("오늘 노트북 지급돼?", "그날 노트북 지급돼?"):
        assert index.unknown_words(question) == [], question
        assert index.search(question, k=1)[0].confidence == 1.0, question
    assert index.unknown_words("태블릿 지급돼?") == ["태블릿"]


def test_a_passage_sharing_only_how_a_question_is_put_is_no_match(tmp_path: Path) -> None:
    index = DocumentIndex(ROOT / "data/docs", tmp_path / "index", HashingEmbeddings())
    # "bring" is phrasing and "office" is in most passages: nothing says which is about dogs
    for question in ("Can I bring my dog to the office?", "Can I bring my dog on Fridays?"):
        assert run_loop(index, question).outcome == NOT_FOUND, question
    assert run_loop(index, "Can I bring my laptop home?").outcome != NOT_FOUND


def test_a_second_index_on_the_same_documents_analyzes_no_section_again(
    docs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each app a process opens (a worker's, a test's) installs the index anew; the sections'
    search tokens are remembered, so only a changed section is analyzed again."""
    import graph.retrieval.index as index_module

    bodies = ("신청합니다", "유급입니다", "정산합니다")  # the three sections' sentences
    analyzed: list[str] = []
    real = index_module.tokens

    def counting(text: str, joined: bool = False) -> list[str]:
        analyzed.extend(b for b in bodies if b in text)
        return real(text, joined)

    monkeypatch.setattr(index_module, "tokens", counting)
    index_module.section_tokens.cache_clear()
    DocumentIndex(docs, tmp_path / "one", None).refresh()
    assert sorted(analyzed) == sorted(bodies)
    analyzed.clear()
    second = DocumentIndex(docs, tmp_path / "two", None)
    second.refresh()
    assert analyzed == []  # all three remembered
    assert [h.source for h in second.search("병가 며칠", k=1)] == ["hr/leave.md"]
    (docs / "expense.md").write_text(EXPENSE.replace("5일", "10일"), "utf-8")
    DocumentIndex(docs, tmp_path / "three", None).refresh()
    assert analyzed == ["정산합니다"]  # only the changed section
