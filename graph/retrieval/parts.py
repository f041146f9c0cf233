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
from graph.retrieval.value_kinds import asked_kinds, stated_kinds

COVERED = 0.75
"""Share of the question the top passages must hold together to be sufficient."""

COMPOUND = re.compile(r"(랑|이랑|하고|과|와|고)\s|,|그리고|각각|\band\b|\bboth\b", re.I)
"""A question in two parts ("A랑 B는?", "A, and B?")."""

CONJOINS = re.compile(r"(?<=[가-힣0-9A-Za-z])(랑|와|과|하고)\s")
"""Korean particles that join two nouns ("A랑 B는 얼마야?"): two topics, or one."""

ASKS_TWICE = re.compile(
    r"(얼마|며칠|몇|언제|어디|뭐|무엇|누구)[^\s,.?!]*(\s+[^\s,.?!]+?){0,6}?고\s*,?\s"
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
    r"얼마|며칠|몇|언제|어디|뭐|무엇|무슨|누구|어느|어떻게|왜|\b(how|what|when|where|which|who|whom|why)\b",
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
    if not (outright or CONJOINS.search(question)):
        return [question]
    best: tuple[float, list[str]] = (0.0, [question])
    for match in (SPLITS if outright else CONJOINS).finditer(question):
        if outright and not any(start <= match.start() < end for start, end in asks):
            continue  # a comma inside one of the asks ("A, and if I lock it, how long ...")
        left, right = question[: match.start()].strip(), question[match.end() :].strip(" ,")
        if REFERS_BACK.search(right):
            continue  # "who picks them?" asks more of the first part's topic
        if not outright and min(len(index.known_words(side)) for side in (left, right)) < 2:
            continue
        weights = [sum(index.weighted_terms(side)[0].values()) for side in (left, right)]
        if min(weights) <= 0:
            continue
        balance = min(weights) / max(weights)
        if balance > best[0]:
            best = (balance, [left, right])
    return best[1]


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

    def names(hit: Hit, part: int) -> bool:
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


def assign_parts(
    index: DocumentIndex, parts: Sequence[str], passages: Sequence[Hit]
) -> list[tuple[float, int | None]]:
    """For each part of a two-part question: (confidence, 0-based passage) of its passage.

    A part's confidence in a passage is the index's measure for the part as a question of
    its own (`union_confidence`), with the part's answer type as one of its words
    (`typed_shares`: a part asking "how much" is answered by a passage with an amount).
    The pair of passages that answers the two parts best together; of equally good pairs, one with a passage for each part (a passage that only
    mentions the other part's topic in passing does not stand in for the passage about it),
    then the pair whose headings name more of its parts' words, then the pair each part's
    words are more about (`keyword_scores`: BM25), then the higher-ranked.
    """
    terms = [index.passage_terms(p) for p in passages]
    headings = [index.heading_terms(p) for p in passages]
    scores: list[list[float]] = []
    named: list[list[int]] = []
    graded: list[list[float]] = []
    for part in parts:
        weights, unknown_mass = index.weighted_terms(part)
        shares = [held_share(weights, unknown_mass, index.credited(part, held)) for held in terms]
        scores.append(typed_shares(index, part, shares, [p.text for p in passages]))
        named.append([len(set(weights) & heading) for heading in headings])
        graded.append(index.keyword_scores(part, passages))
    best: tuple[tuple[float, bool, int, float, int], list[tuple[float, int | None]]] | None = None
    choices = range(-1, len(passages))  # -1: no passage for that part
    for i in choices:
        for j in choices:
            a = scores[0][i] if i >= 0 else 0.0
            b = scores[1][j] if j >= 0 else 0.0
            if (i >= 0 and a <= 0) or (j >= 0 and b <= 0):
                continue
            in_heading = (named[0][i] if i >= 0 else 0) + (named[1][j] if j >= 0 else 0)
            bm25 = (graded[0][i] if i >= 0 else 0.0) + (graded[1][j] if j >= 0 else 0.0)
            key = (round(a + b, 3), i != j, in_heading, round(bm25, 3), -(i + j))
            if best is None or key > best[0]:
                best = (key, [(a, i if i >= 0 else None), (b, j if j >= 0 else None)])
    assert best is not None  # (-1, -1) always qualifies
    return best[1]
