"""Questions in two parts: where to split one, and which passage answers each part.

"재택근무 지원금은 얼마고 급여는 매달 며칠에 들어와?" asks two things that two sections
answer. The retrieval loop (`graph.retrieval.loop`) searches each part too, gives each part
the passage that holds it best, and the offline engine then quotes one passage per part. A
passage's share of a question (`union_confidence`) is the index's confidence measure over a
set of passages.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from graph.retrieval.confidence import MIN_CONFIDENCE
from graph.retrieval.index import DocumentIndex, Hit, held_share
from graph.retrieval.tokenize import KO_GENRE_WORDS
from graph.retrieval.value_kinds import asked_kinds, stated_kinds

COVERED = 0.75
"""Share of the question the top passages must hold together to be sufficient."""

COMPOUND = re.compile(r"(랑|이랑|하고|과|와|고)\s|,|그리고|각각|\band\b|\bboth\b", re.I)
"""A question in two parts ("A랑 B는?", "A, and B?")."""

CONJOINS = re.compile(
    r"(?<=[가-힣0-9A-Za-z])(이랑|랑|와|과|하고)\s|(?<=[A-Za-z])\s+and\s+(?=(?:the\s+|my\s+|our\s+)?[A-Za-z])",
    re.I,
)
"""Particles that join two nouns ("A랑 B는 얼마야?", "the A and the B"): two topics, or one.
"이랑" joins after a final consonant ("경조금이랑"), "랑" after a vowel ("아이랑": the
noun is "아이"): `joins` tells them apart."""

ASKS_TWICE = re.compile(
    r"(얼마|며칠|몇|언제|어디|뭐|무엇|누구|누가)[^\s,.?!]*(\s+[^\s,.?!]+?){0,6}?고\s*,?\s"
    r"(?!(싶|있|계|나서|말))|"
    r"\band\s+(?:(?:on|in|at|for|to|by)\s+)?(?=(how|what|when|where|which|who|whom)\b)|"
    r",\s*and\s+(?=(?:[^\s?]+\s+){0,12}?(how|what|when|where|which|who|whom)\b)",
    re.I,
)
"""Where a question asks a second thing outright, if the rest has a question word of its
own (`QUESTION_WORD`): a question word, then within its clause (up to six more words, no
comma) a word ending in -고 ("A는 얼마고 B는?", "A는 며칠까지 월급 나오고, B는
언제까지야?", "몇 시간 안에 알려야 하고, ..."); "and" right before a question word ("A,
and how much is B?"); or ", and" with one later in the clause ("A, and if I lock it, how
long ...?"). "몇 번이고 나눠 써도 돼?" asks one thing, and so does "-고 싶다 / 있다 / 나서"
("며칠 쓰고 싶은지 언제 말해?")."""

QUESTION_WORD = re.compile(
    r"얼마|며칠|몇|언제|어디|뭐|무엇|무슨|누구|누가|어느|어떻게|왜|\b(how|what|when|where|which|who|whom|why)\b",
    re.I,
)

REFERS_BACK = re.compile(
    r"\b(its|them|their|those)\b(?!\s+own\b)|그거|그것|그건|그걸|그게|거기|그\s?사람|그분",
    re.I,
)
"""A pronoun that points back at the question's first part ("..., and who picks them?"):
a part with one is about the first part's topic, not one of its own. ("it", "they", "that"
and "this" are left out: "how long does it take?", "when do they pay?", "the form that I
sign", "this year"; and so is "its own" / "their own", which points at the subject of its
own clause: "how long until it unlocks on its own?")"""

SPLITS = re.compile(r"(랑|하고|과|와|고)\s|,|그리고|\band\b", re.I)
"""Connectors a two-part question is split at ("각각", "both" only say that it has two)."""


def has_batchim(syllable: str) -> bool:
    """Whether a Hangul syllable ends in a consonant ("금" does, "아" does not)."""
    return "가" <= syllable <= "힣" and (ord(syllable) - 0xAC00) % 28 != 0


def joins(question: str) -> list[tuple[int, int]]:
    """The spans of the particles that join two nouns in `question` (`CONJOINS`).

    "이랑" after a final consonant is one particle ("경조금이랑": "경조금" + "이랑"); after
    a vowel its "이" belongs to the noun ("아이랑": "아이" + "랑"). An English "and" joins
    two topics only under an ask that governs both ("Tell me about A and B", `_LEAD`);
    elsewhere it joins the words of one ("lose access to email and the messenger").
    """
    spans = []
    for match in CONJOINS.finditer(question):
        if match.group(1) is None and not _LEAD.match(question):
            continue  # "and" joins two topics where one ask governs both ("Tell me about")
        start = match.start()
        if match.group(1) == "이랑" and not has_batchim(question[start - 1]):
            start += 1
        spans.append((start, match.end()))
    return spans


def _terms_held(index: DocumentIndex, question: str, passages: Sequence[Hit]) -> frozenset[str]:
    """The terms the passages hold together, with the question's synonyms of them."""
    held: set[str] = set()
    for p in passages:
        held |= index.passage_terms(p)
    return index.credited(question, held)


def held_together(index: DocumentIndex, question: str, chosen: Sequence[Hit]) -> float:
    """The share of the question's known words (by weight) the chosen passages hold together.

    Words no document has are left out: the confidence already counts them against.
    """
    weights, _ = index.weighted_terms(question)
    return held_share(weights, 0.0, _terms_held(index, question, chosen))


def union_confidence(index: DocumentIndex, question: str, hits: Sequence[Hit]) -> float:
    """The confidence of passages together: the share of the question one of them holds.

    Words no document has count against it, as in `Hit.confidence`.
    """
    weights, unknown_mass = index.weighted_terms(question)
    return held_share(weights, unknown_mass, _terms_held(index, question, hits))


def typed_shares(
    index: DocumentIndex, question: str, shares: Sequence[float], texts: Sequence[str]
) -> list[float]:
    """Passages' shares of `question` with the question's answer type counted as one word.

    When the question asks for a kind of value ("언제", "how much", "몇 장": `value_kinds`),
    that kind weighs like an average of its words, and a passage whose text states such a
    value holds it. A question that names no kind keeps the `shares`.
    """
    kinds = asked_kinds(question)
    weights, unknown_mass = index.weighted_terms(question)
    if not kinds or not sum(weights.values()):  # no words, or only small numbers
        return list(shares)
    unit = sum(weights.values()) / len(weights)
    total = sum(weights.values()) + unknown_mass
    return [
        (share * total + unit * (share > 0 and bool(stated_kinds(text) & kinds))) / (total + unit)
        for share, text in zip(shares, texts, strict=True)
    ]


def _second_asks(question: str) -> list[tuple[int, int]]:
    """The spans where a question starts asking a second thing outright (`ASKS_TWICE`)."""
    return [
        match.span()
        for match in ASKS_TWICE.finditer(question)
        if QUESTION_WORD.search(question[match.end() :])
    ]


def asks_twice(question: str) -> bool:
    """Whether the question asks two things outright, each part with its own question word."""
    return bool(_second_asks(question))


def split_question(index: DocumentIndex, question: str) -> list[str]:
    """The two parts a question may be in, or [question] when it cannot be split.

    A question that asks two things outright ("A는 얼마고 B는 며칠이야?", "A, and how much is
    B?") is split at its connectors; one that only joins two words ("A랑 B는 각각 얼마야?")
    at its joining particles, when each side has at least two words the documents use (a
    joined word of one topic, "신입이랑 선배가", is no part). An outright question is split
    only where its second ask starts (the connector of the `ASKS_TWICE` match). The split is
    at the connector that leaves the search terms most evenly on both sides; a side with no
    word the documents use is no part, nor one that points back at the first ("..., and who
    picks them?", `REFERS_BACK`). Whether a joined question really has two parts is for
    `question_parts` to decide, by the passages found.
    """
    asks = _second_asks(question)
    outright = bool(asks)
    if not (outright or joins(question)):
        return [question]
    best: tuple[float, list[str]] = (0.0, [question])
    spans = [m.span() for m in SPLITS.finditer(question)] if outright else joins(question)
    for cut, end in spans:
        if outright and not any(start <= cut < stop for start, stop in asks):
            continue  # a comma inside one of the asks ("A, and if I lock it, how long ...")
        left, right = question[:cut].strip(), question[end:].strip(" ,")
        if REFERS_BACK.search(right):
            continue  # "who picks them?" asks more of the first part's topic
        if not outright and not all(_a_topic(index, side) for side in (left, right)):
            continue
        weights = [sum(index.weighted_terms(side)[0].values()) for side in (left, right)]
        if min(weights) <= 0:
            continue
        balance = min(weights) / max(weights)
        if balance > best[0]:
            best = (balance, [left, right])
    if len(best[1]) < 2:
        return best[1]
    left, right = best[1]
    if outright:
        return [whole_question(left, question), right]
    return shared_ask(left, right)


_LEAD = re.compile(
    r"^\W*((?:please\s+)?(?:tell|show|give)\s+me\s+(?:about\s+)?|what\s+(?:is|are)\s+|explain\s+)",
    re.I,
)
_ASKING = re.compile(
    r"(?:^|\s)((?:좀\s+)?(?:알려|설명해|정리해|보여|찾아)\s*(?:줘|줘요|주세요|줄래\??|주실래요\??)"
    r"|(?:뭐|무엇|어떻게\s*돼|어때)\S*\s*[?？]?|궁금해요|궁금합니다)\s*[.!?？]*$"
)


def shared_ask(left: str, right: str) -> list[str]:
    """Two joined topics as two whole asks: the ask one side makes is the other's too.

    "경조금이랑 휴양소 이용 기준 알려줘" asks "경조금 알려줘" and "휴양소 이용 기준 알려줘";
    "Tell me about the sick leave rules and the parking lottery" asks about both.
    """
    ending = _ASKING.search(right)
    if ending and not _ASKING.search(left):
        left = f"{left} {ending.group(1).strip()}"
    lead = _LEAD.match(left)
    if lead and not _LEAD.match(right):
        right = f"{lead.group(1)}{right}"
    return [left, right]


def _a_topic(index: DocumentIndex, side: str) -> bool:
    """Whether one side of a joining particle names a topic of its own.

    Two or more terms the documents use ("법인카드 사용 한도"), or one that names a section
    ("급여일", "경조금"); a word for the kind of text asked for counts too ("휴가 정책":
    the leave document, whatever it calls itself). A lone word no heading names ("신입이랑
    선배가 ...") is one of a question's own words, not a topic.
    """
    named = len(index.known_words(side)) + sum(w in side for w in KO_GENRE_WORDS)
    return named >= 2 or (named == 1 and index.names_a_section(side))


_POLITE = re.compile(r"(요|니까|세요|습니까)\s*[?？.!]*\s*$")


def whole_question(part: str, question: str) -> str:
    """The first part of a question that asks twice, as a whole question of its own.

    Cut at its "-고" ("일비는 얼마고 ..."), it ends in a question word, a noun, the
    copula's stem or a verb's ("얼마", "몇 시간이", "바꾸"): it gets the ending the whole
    question speaks in ("일비는 얼마야?", "반반차는 몇 시간이에요?", "노트북은 몇 년마다
    바꾸나요?"). A part that ends as a question already is kept.
    """
    if not re.search(r"[가-힣]$", part.rstrip(" ,")) or _QUESTION_END.search(part):
        return part  # an English part ("How much is X,") reads as it is
    part = part.rstrip(" ,")
    polite = bool(_POLITE.search(question))
    last = part.split()[-1]
    if last.endswith("고") and len(last) > 1:  # cut at a comma after its "-고"
        before = last[:-1]
        if QUESTION_WORD.search(before) or before.endswith("이") or _is_verb_stem(before):
            part, last = part[:-1], before
    stem = part[:-1] if last.endswith("이") and len(last) > 1 else part
    if QUESTION_WORD.search(last) or stem != part or not _is_verb_stem(last):
        noun = stem
        if polite:
            return noun + ("이에요?" if has_batchim(noun[-1]) else "예요?")
        return noun + ("이야?" if has_batchim(noun[-1]) else "야?")
    return part + ("나요?" if polite else "지?")


_QUESTION_END = re.compile(r"[?？]\s*$")


def _is_verb_stem(word: str) -> bool:
    """Whether a word cut before "-고" is a verb's stem ("바꾸", "들어오"), not a noun."""
    from graph.retrieval.tokenize import is_predicate

    return is_predicate(word + "다")


def question_parts(
    index: DocumentIndex, question: str, passages: Sequence[Hit]
) -> tuple[list[str], list[tuple[float, int | None]]]:
    """The parts of a two-part question and each part's passage (`assign_parts`).

    A question that asks two things outright is in the parts `split_question` finds. One
    that only joins two words is in two parts only when two passages answer it that no one
    passage does, each its own part well (a conjunction also joins the words of one topic:
    "신입이랑 선배가 같이 먹으면"). When each of the two passages is about its part (its
    heading names the part's words), a passage that holds both parts' words stands in for
    them only if its heading names both: "해외 컨퍼런스 지원" mentions "출장 일비" in
    passing. ([question], []) when it is one question.
    """
    whole: tuple[list[str], list[tuple[float, int | None]]] = ([question], [])
    parts = split_question(index, question) if passages else [question]
    if len(parts) < 2:
        return whole
    covered = assign_parts(index, parts, passages)
    if asks_twice(question):
        return parts, covered
    two = len({i for _, i in covered}) == 2 and all(c >= MIN_CONFIDENCE for c, _ in covered)
    if not two:
        return whole
    words = [set(index.weighted_terms(part)[0]) for part in parts]
    # a word a heading holds as the part writes it ("급여일") names the part there, and
    # only there: "급여 안내 > 연말정산" names "급여" but is not about "급여일"
    written = [
        [w for w in written_words(part) if any(w in p.heading for p in passages)] for part in parts
    ]

    def names(hit: Hit, part: int) -> bool:
        if written[part]:
            return any(w in hit.heading for w in written[part])
        return bool(words[part] & index.heading_terms(hit))

    # each part's passage is about it (its heading names the part): then a passage that
    # holds both only stands in for them if it is about both, not naming one in passing
    about = all(i is not None and names(passages[i], k) for k, (_, i) in enumerate(covered))
    one = any(
        p.confidence >= MIN_CONFIDENCE
        and held_together(index, question, [p]) >= COVERED
        and (not about or all(names(p, k) for k in range(len(parts))))
        for p in passages
    )
    return whole if one else (parts, covered)


_PARTICLES = re.compile(r"(이랑|랑|하고|이나|에서|으로|로|은|는|이|가|을|를|에|의|도|와|과)$")


def written_words(part: str) -> list[str]:
    """A part's Korean words as written, without a particle ("급여일이" -> "급여일").

    A heading that holds one as it is names it, however the tokenizer cut the word.
    """
    words = (_PARTICLES.sub("", w) for w in re.findall(r"[가-힣]+", part))
    return [w for w in words if len(w) >= 2]


def assign_parts(
    index: DocumentIndex, parts: Sequence[str], passages: Sequence[Hit]
) -> list[tuple[float, int | None]]:
    """For each part of a two-part question: (confidence, 0-based passage) of its passage.

    A part's confidence in a passage is the index's measure for the part as a question of
    its own (`union_confidence`), with the part's answer type as one of its words
    (`typed_shares`: a part asking "how much" is answered by a passage with an amount).
    A pair of two sections of one document, each named by its part
    (`DocumentIndex.names_section`), comes first: the document is the question's topic,
    which a part may leave to the other ("법인카드 사용 한도랑 분실했을 때 절차"). Then the
    pair of passages that answers the two parts best together; of equally good pairs, one
    with a passage for each part (a passage that only mentions the other part's topic in
    passing does not stand in for the passage about it), then the pair whose headings name
    more of its parts' words (as terms, and as the part writes them: "급여일" is the
    heading "급여일", not "급여 안내"), then the pair each part's
    words are more about (`keyword_scores`: BM25), then the higher-ranked.
    """
    terms = [index.passage_terms(p) for p in passages]
    headings = [index.heading_terms(p) for p in passages]
    scores: list[list[float]] = []
    named: list[list[int]] = []
    graded: list[list[float]] = []
    about: list[list[bool]] = []
    for part in parts:
        weights, unknown_mass = index.weighted_terms(part)
        shares = [held_share(weights, unknown_mass, index.credited(part, held)) for held in terms]
        scores.append(typed_shares(index, part, shares, [p.text for p in passages]))
        written = written_words(part)
        named.append(
            [
                len(set(weights) & heading) + sum(w in p.heading for w in written)
                for p, heading in zip(passages, headings, strict=True)
            ]
        )
        graded.append(index.keyword_scores(part, passages))
        about.append([index.names_section(p, part) for p in passages])
    best: tuple[tuple[bool, float, bool, int, float, int], list[tuple[float, int | None]]] | None
    best = None
    choices = range(-1, len(passages))  # -1: no passage for that part
    for i in choices:
        for j in choices:
            a = scores[0][i] if i >= 0 else 0.0
            b = scores[1][j] if j >= 0 else 0.0
            if (i >= 0 and a <= 0) or (j >= 0 and b <= 0):
                continue
            in_heading = (named[0][i] if i >= 0 else 0) + (named[1][j] if j >= 0 else 0)
            bm25 = (graded[0][i] if i >= 0 else 0.0) + (graded[1][j] if j >= 0 else 0.0)
            # two sections of one document, each named by its part ("법인카드 사용 한도랑
            # 분실했을 때 절차": the card's limit and loss): that document is the topic
            one_topic = (
                i >= 0
                and j >= 0
                and i != j
                and about[0][i]
                and about[1][j]
                and passages[i].source == passages[j].source
            )
            key = (one_topic, round(a + b, 3), i != j, in_heading, round(bm25, 3), -(i + j))
            if best is None or key > best[0]:
                best = (key, [(a, i if i >= 0 else None), (b, j if j >= 0 else None)])
    assert best is not None  # (-1, -1) always qualifies
    return best[1]
