"""Seed 003's agentic retrieval: search, judge, search again or expand, fall back honestly.

Rerank and sufficiency are one judgement; at most three tool calls a turn.

    search_all (FAQ 3 + guide 7) -> judge -> sufficient: answer
                                          -> get_section (expand the best hit) -> judge ...
                                          -> search_again (refined query)      -> judge ...
    after MAX_CALLS: answer with what was found; confidence < 0.5: "관련 문서를 찾지
    못했습니다" + the portal menus the nearest documents name; nothing ranked at all:
    "해당 내용은 준비 중입니다".

The judgement is seed 003's JSON (`Judgement`). With a model it is one structured-output
call per step (`model_judge`); offline a transparent rule gives the same JSON
(`judge_rule`): the passages are ranked by how much of the question they cover (the
index's confidence), the question's content words no ranked passage holds are `missing`,
a question asking for steps is not answered by a piece of a longer section (expand it),
and a weak match is searched again without the words no document knows.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import BaseModel, Field

from graph.retrieval.confidence import MIN_CONFIDENCE
from graph.retrieval.index import SEARCH_MIX, DocumentIndex, Hit
from graph.retrieval.parts import (
    COVERED,
    held_together,
    question_parts,
    split_question,
    typed_shares,
    union_confidence,
    written_words,
)

log = logging.getLogger(__name__)

FAQ_K, GUIDE_K = SEARCH_MIX
"""FAQ and guide passages in a `search_all` result by default (seed 003); an index's own
`mix` (SEARCH_ALL_MIX) is what the tools use."""
MAX_CALLS = 3
"""Retrieval tool calls a turn may make (search_all, search_by_metadata, get_section)."""
CONTEXT_K = 3
"""Ranked passages that go into the model's context."""
PART_K = 2
"""Passages `search_all` adds for each part of a two-part query, searched on its own."""
Outcome = Literal["answered", "best_effort", "not_found", "in_preparation"]
ANSWERED: Outcome = "answered"
BEST_EFFORT: Outcome = "best_effort"
NOT_FOUND: Outcome = "not_found"
"""Nothing relevant enough (confidence < 0.5): say so and suggest portal menus."""
IN_PREPARATION: Outcome = "in_preparation"
"""No passage ranked at all: the documents do not cover this yet."""

MENU_MAP = Path(__file__).resolve().parents[2] / "data" / "menu_map.json"
"""Portal menus and the documents that name them (`data/menu_map.json`)."""

_STEPS = re.compile(r"방법|절차|순서|단계|어떻게|신청하|how (do|can|to)|steps?\b|procedure", re.I)


@dataclass
class Judgement:
    """Seed 003's rerank and sufficiency judgement of one step."""

    ranked_indices: list[int]
    """1-based numbers of the passages judged, best first; those of no use are left out."""
    is_sufficient: bool
    missing: list[str] = field(default_factory=list)
    next_action: Literal["get_section", "search_again"] | None = None
    refined_query: str = ""
    confidence: float = 0.0


class JudgementSchema(BaseModel):
    """The judgement as a model fills it in (structured output)."""

    ranked_indices: list[int] = Field(
        description="numbers of the useful passages, best first; leave out the useless ones"
    )
    is_sufficient: bool = Field(description="the ranked passages answer the question fully")
    missing: list[str] = Field(description="what the question needs that the passages lack")
    next_action: Literal["get_section", "search_again"] | None = Field(
        description="get_section: the best passage is part of a longer section; "
        "search_again: search with refined_query; null when sufficient"
    )
    refined_query: str = Field(description="a better search query, for search_again")
    confidence: float = Field(description="0-1: how surely the passages answer the question")


Judge = Callable[[str, Sequence[Hit]], Judgement]


@dataclass
class LoopResult:
    """What the loop found and how it decided."""

    outcome: Outcome
    passages: list[Hit]
    """The ranked passages for the context (at most CONTEXT_K)."""
    steps: list[dict[str, Any]]
    """Each call: tool, arguments, what it found, the judgement after it."""
    menus: list[str] = field(default_factory=list)
    """Portal menus to suggest when nothing relevant was found."""
    judge_calls: int = 0
    absent: list[str] = field(default_factory=list)
    """The question's topic words no document uses (`DocumentIndex.unknown_words`): what the
    passages, found by its other words, cannot be about."""

    @property
    def calls(self) -> int:
        """Retrieval tool calls made."""
        return len(self.steps)

    def as_dict(self) -> dict[str, Any]:
        """For the state and the panel (passages by their labels)."""
        return {
            "outcome": self.outcome,
            "steps": self.steps,
            "menus": self.menus,
            "calls": self.calls,
            "judge_calls": self.judge_calls,
            "absent": self.absent,
        }


# --- the three tools -------------------------------------------------------------------


def search_all(
    index: DocumentIndex, query: str, faq_k: int | None = None, guide_k: int | None = None
) -> list[Hit]:
    """FAQ and guide passages for `query`: the best `faq_k` of the FAQs, `guide_k` of the rest.

    Unset, the two counts are the index's `mix` (SEARCH_ALL_MIX, seed 003's 3 + 7).

    A query in two parts (`split_question`) also gets the best PART_K passages of each part
    searched on its own, and those of the sections its words name as written (`"급여일"`:
    `DocumentIndex.sections_named`), after the others: the passage about one part often shares too few
    words with the whole question to be among its best ("재택근무 지원금은 얼마고 급여는
    매달 며칠에 들어와?" finds the salary's make-up, which names both, before payday). Every
    passage's confidence is for the whole query.
    """
    faq_k = index.mix[0] if faq_k is None else faq_k
    guide_k = index.mix[1] if guide_k is None else guide_k
    meta = index.documents()
    hits = index.search(query, k=4 * (faq_k + guide_k))
    faq = [h for h in hits if meta.get(h.source, {}).get("doc_type") == "faq"][:faq_k]
    guide = [h for h in hits if meta.get(h.source, {}).get("doc_type") != "faq"][:guide_k]
    chosen = {h.chunk_id for h in faq + guide}
    found = [h for h in hits if h.chunk_id in chosen]  # in the search's order
    parts = split_question(index, query)
    for part in parts if len(parts) > 1 else []:
        for h in [*index.search(part, k=PART_K), *named_sections(index, part, query)]:
            if h.chunk_id not in chosen:
                chosen.add(h.chunk_id)
                found.append(replace(h, confidence=index.confidence_of(query, h)))
    return found


NAMED_AT_MOST = 3
"""A word names a section when at most this many sections' own headings hold it as
written: "급여일" names one, "신청" (신청 절차, 출장 신청, ...) names none in particular."""


def named_sections(index: DocumentIndex, text: str, query: str) -> list[Hit]:
    """The sections `text`'s words name as written (`DocumentIndex.sections_named`).

    Only words the tokenizer cuts ("급여일": "급여" + "일"), whose terms alone do not say
    which section they name; a whole term ("해외") is matched as a term.
    """
    found: list[Hit] = []
    for word in written_words(text):
        if index.known_words(word) == [word]:
            continue  # a whole term is matched as one; a word the tokenizer cut is not
        sections = index.sections_named(word, query)
        if len({(h.source, h.heading) for h in sections}) <= NAMED_AT_MOST:
            found.extend(sections[:PART_K])
    return found


def search_by_metadata(
    index: DocumentIndex,
    query: str,
    doc_type: str | None = None,
    has_steps: bool | None = None,
    k: int = 5,
) -> list[Hit]:
    """Passages for `query` from the documents of a kind (`faq` | `guide`) or with steps."""
    meta = index.documents()

    def fits(source: str) -> bool:
        info = meta.get(source, {})
        return (doc_type is None or info.get("doc_type") == doc_type) and (
            has_steps is None or bool(info.get("has_steps")) == has_steps
        )

    return [h for h in index.search(query, k=6 * k) if fits(h.source)][:k]


def get_section(index: DocumentIndex, hit: Hit, question: str = "") -> Hit:
    """The whole section a passage is part of, as one passage (scored again for `question`)."""
    text = index.get_section(hit.source, hit.heading)
    if not text or text == hit.text:
        return hit
    whole = replace(hit, text=text)
    score = index.confidence_of(question, whole) if question else 0.0
    return replace(whole, confidence=max(hit.confidence, score))


# --- judging ---------------------------------------------------------------------------


def typed_confidences(index: DocumentIndex, question: str, passages: Sequence[Hit]) -> list[float]:
    """Each passage's confidence with the question's answer type counted as one of its words.

    When the question asks for a kind of value ("언제", "how much", "몇 장": `value_kinds`),
    a passage stating such a value holds it (`typed_shares`). A question that names no kind
    keeps the passages' confidences.
    """
    return typed_shares(
        index, question, [p.confidence for p in passages], [p.text for p in passages]
    )


def rank_by_coverage(index: DocumentIndex, question: str, passages: Sequence[Hit]) -> list[int]:
    """0-based passage numbers, best first; passages sharing nothing are left out.

    The most confident first (`typed_confidences`: of two passages on the topic, the one
    with the date, amount or number asked for; of equally confident ones, the section the
    question names as written, `named_sections`), then each time the one that adds the most
    of the question not yet covered (a two-part question gets a passage for each part),
    then the rest by confidence.
    """
    weights, _ = index.weighted_terms(question)
    terms = [index.credited(question, index.passage_terms(p)) & set(weights) for p in passages]
    confidence = typed_confidences(index, question, passages)
    left = [i for i, p in enumerate(passages) if p.confidence > 0]
    named = {h.chunk_id for h in named_sections(index, question, question)}
    # of equally confident passages, the section the question names as written first
    left.sort(key=lambda i: (-confidence[i], passages[i].chunk_id not in named, -passages[i].score))
    order: list[int] = []
    covered: set[str] = set()
    while left:
        gains = [(sum(weights[t] for t in terms[i] - covered), i) for i in left]
        best_gain = max(g for g, _ in gains)
        if best_gain <= 0:
            break
        chosen = next(i for g, i in gains if g == best_gain) if order else left[0]
        order.append(chosen)
        covered |= terms[chosen]
        left.remove(chosen)
    return order + left


def judge_rule(index: DocumentIndex, question: str, passages: Sequence[Hit]) -> Judgement:
    """The offline judgement: the same JSON a model gives, by a rule anyone can follow.

    Rank by coverage (`rank_by_coverage`); the confidence is the best passage's, lowered
    when the question asks for a kind of value it does not state (`typed_confidences`:
    "언제" of a passage with no date). Sufficient
    when that reaches MIN_CONFIDENCE, the top passages together hold most of the question
    (a word they all lack is `missing`), and a question asking for steps does not rest on a
    piece of a longer section. A question in two parts (`question_parts`) puts each part's
    passage first and is sufficient only when both parts are answered; the confidence is
    raised to what the two passages answer together. Otherwise search again for the part
    no passage answers, expand the best passage's section when it is a piece, or search
    again for what is missing (or without the words no document knows).
    """
    order = rank_by_coverage(index, question, passages)
    parts, covered = question_parts(index, question, passages)
    # each part's best passage leads, so the answer can quote one for each
    leaders = list(dict.fromkeys(i for _, i in covered if i is not None))
    order = leaders + [i for i in order if i not in leaders]
    ranked = [i + 1 for i in order]
    refined = index.refine(question)
    if not ranked:
        again = refined and refined != question
        return Judgement(
            [],
            False,
            ["any passage sharing a word with the question"],
            "search_again" if again else None,
            refined if again else "",
            0.0,
        )
    top = passages[order[0]]
    chosen = [passages[i] for i in order[:CONTEXT_K]]
    missing = index.uncovered(question, chosen)
    partial = index.section_parts(top.source, top.heading) > 1 and not index.is_section(top)
    steps_cut = bool(_STEPS.search(question)) and partial
    if steps_cut:
        missing.append("steps (the best passage is part of a longer section)")
    confidence = min(top.confidence, typed_confidences(index, question, [top])[0])
    weak: list[str] = []
    if covered:
        weak = [part for part, (c, _) in zip(parts, covered, strict=True) if c < MIN_CONFIDENCE]
        missing.extend(f"part: {part}" for part in weak)
        # two passages that answer a part each answer it as surely as the worse-answered
        # part, and as their words cover the whole question (a part that leaves its
        # subject out, "운영은 언제까지야?", is covered by any passage on opening hours)
        both = union_confidence(index, question, [passages[i] for i in leaders])
        confidence = max(confidence, min(both, *(c for c, _ in covered)))
    together = held_together(index, question, chosen)
    sufficient = confidence >= MIN_CONFIDENCE and together >= COVERED and not steps_cut and not weak
    action: Literal["get_section", "search_again"] | None = None
    query = ""
    if not sufficient:
        lacking = [w for w in missing if " " not in w]
        if weak:  # search for the part no passage answers, in its own words
            action, query = "search_again", index.refine(weak[0])
        elif partial and (steps_cut or confidence >= MIN_CONFIDENCE / 2):
            action = "get_section"
        elif lacking and confidence >= MIN_CONFIDENCE / 2:
            action, query = "search_again", " ".join(lacking)
        elif refined and refined != question:
            action, query = "search_again", refined
        elif partial:
            action = "get_section"
    return Judgement(ranked, sufficient, missing, action, query, round(confidence, 3))


def model_judge(model: BaseChatModel, index: DocumentIndex, both: bool = False) -> Judge:
    """One structured decision per step (`graph.structured`); the rule answers without one.

    The rule judges when the model fails or no `JudgementSchema` can be read from its
    answer; the decision is recorded for the turn's `decisions` either way. With `both`
    (RERANK_DECISION=both) the rule judges too, and its judgement stands where the two put
    another passage first.
    """
    from graph.structured import ask_structured
    from prompt import get_prompt

    def judge(question: str, passages: Sequence[Hit]) -> Judgement:
        listing = "\n\n".join(
            f"[{i}] {p.source} > {p.heading}\n{p.text}" for i, p in enumerate(passages, 1)
        )
        asked = ask_structured(
            model,
            JudgementSchema,
            [
                SystemMessage(get_prompt("rerank.system")),
                HumanMessage(get_prompt("rerank.user", question=question, passages=listing)),
            ],
            decision="rerank",
        )
        answer = asked.value
        if answer is None:
            return judge_rule(index, question, passages)
        valid = [i for i in answer.ranked_indices if 1 <= i <= len(passages)]
        if both:
            rule = judge_rule(index, question, passages)
            if rule.ranked_indices[:1] != valid[:1]:
                log.info(
                    "rerank: the model put [%s] first, the rule [%s]; the rule decides",
                    valid[:1],
                    rule.ranked_indices[:1],
                )
                return rule
        return Judgement(
            list(dict.fromkeys(valid)),
            answer.is_sufficient,
            list(answer.missing),
            answer.next_action,
            answer.refined_query,
            min(1.0, max(0.0, float(answer.confidence))),
        )

    return judge


# --- the loop --------------------------------------------------------------------------


def _label(hit: Hit) -> str:
    return f"{hit.source} > {hit.heading}"


def _step(
    tool: str, args: dict[str, Any], found: Sequence[Hit], judged: Judgement
) -> dict[str, Any]:
    return {
        "tool": tool,
        "args": args,
        "found": [f"{_label(h)} ({h.confidence:.2f})" for h in found],
        "judgement": asdict(judged),
    }


def run_loop(
    index: DocumentIndex,
    question: str,
    judge: Judge | None = None,
    max_calls: int = MAX_CALLS,
) -> LoopResult:
    """Search, judge, and search again or expand until sufficient or `max_calls` are spent."""
    judge = judge or (lambda q, ps: judge_rule(index, q, ps))
    hits = search_all(index, question)
    passages = list(hits)
    judged = judge(question, passages)
    judge_calls = 1
    steps = [_step("search_all", {"query": question}, hits, judged)]
    searched = {question}
    while not judged.is_sufficient and judged.next_action and len(steps) < max_calls:
        ranked = [passages[i - 1] for i in judged.ranked_indices]
        if judged.next_action == "search_again" and (judged.refined_query or question) in searched:
            break  # the same search again would find the same
        if judged.next_action == "get_section":
            if not ranked:
                break
            best = ranked[0]
            whole = get_section(index, best, question)
            if whole is best:
                break  # already whole: expanding again would find the same
            passages = [whole, *(p for p in ranked[1:] if p.chunk_id != best.chunk_id)]
            args: dict[str, Any] = {"source": best.source, "heading": best.heading}
            found = [whole]
            tool = "get_section"
        else:
            query = judged.refined_query or question
            searched.add(query)
            # judged against the question asked, not the narrower query that found them
            found = [
                replace(h, confidence=index.confidence_of(question, h))
                for h in search_all(index, query)
            ]
            seen = {p.chunk_id for p in ranked}
            passages = [*ranked, *(h for h in found if h.chunk_id not in seen)]
            args = {"query": query}
            tool = "search_again"
        judged = judge(question, passages)
        judge_calls += 1
        steps.append(_step(tool, args, found, judged))
    ranked = _label_parts(index, question, [passages[i - 1] for i in judged.ranked_indices])
    ranked = ranked[:CONTEXT_K]
    if not ranked:
        outcome: Outcome = IN_PREPARATION
    elif judged.confidence < MIN_CONFIDENCE:
        outcome = NOT_FOUND
    else:
        outcome = ANSWERED if judged.is_sufficient else BEST_EFFORT
    menus = suggest_menus(question, [*ranked, *passages]) if outcome == NOT_FOUND else []
    return LoopResult(outcome, ranked, steps, menus, judge_calls, index.unknown_words(question))


def _label_parts(index: DocumentIndex, question: str, ranked: list[Hit]) -> list[Hit]:
    """Label each part's passage of a two-part question with its part (`Hit.answers`).

    Among the first CONTEXT_K, so an answer can quote one passage for each part.
    """
    parts, picks = question_parts(index, question, ranked[:CONTEXT_K])
    chosen = {i for c, i in picks if i is not None and c >= MIN_CONFIDENCE}
    if len(parts) < 2 or len(chosen) < 2:
        return ranked  # one question, one passage for both, or a part left unanswered
    labelled = list(ranked)
    for part, (_, i) in zip(parts, picks, strict=True):
        assert i is not None
        labelled[i] = replace(labelled[i], answers=part)
    return labelled


@lru_cache(maxsize=1)
def _menu_map() -> tuple[str, tuple[tuple[str, tuple[str, ...]], ...]]:
    try:
        data = json.loads(MENU_MAP.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        log.warning("no menu map (%s): fallbacks suggest no menus", exc)
        return "", ()
    return str(data.get("portal", "")), tuple(
        (str(m["menu"]), tuple(str(d) for d in m.get("documents", []))) for m in data["menus"]
    )


def suggest_menus(question: str, near: Sequence[Hit], limit: int = 3) -> list[str]:
    """Portal menus for a question no document answered.

    Those whose words the question uses, then those the nearest documents name (a document
    sharing at least a quarter of the question's weight).
    """
    portal, menus = _menu_map()
    chosen: list[str] = []
    words = set(re.findall(r"\w+", question))
    shared = [(len(words & set(re.findall(r"\w+", menu))), menu) for menu, _ in menus]
    chosen.extend(menu for n, menu in sorted(shared, key=lambda x: -x[0]) if n)
    for hit in near:  # documents close to the question (not close enough to answer it)
        if hit.confidence < MIN_CONFIDENCE / 2:
            continue
        for menu, documents in menus:
            if hit.source in documents and menu not in chosen:
                chosen.append(menu)
    prefix = f"{portal} " if portal else ""
    return [f"{prefix}[{menu}]" for menu in chosen[:limit]]
