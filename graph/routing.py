"""router_node and rag_node (seed 000): document questions get passages in the system prompt.

The router asks the LLM for a structured `RouteDecision` when one is configured; the offline
engine uses a transparent rule instead: a plain tool request, a question about the
conversation or a plain statement goes to the agent; a question with a confident document
hit (or one that names company rules, or one the retrieval loop's rerank finds a sure
passage for) goes to retrieval.
"""

from __future__ import annotations

import logging
import re
from dataclasses import asdict
from typing import Any, Literal, NamedTuple

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import BaseModel, Field

from graph.nodes import Node
from graph.requests import code_in, request_kind, wants_code
from graph.retrieval import MIN_CONFIDENCE, DocumentIndex, relevant
from graph.retrieval.loop import (
    ANSWERED,
    BEST_EFFORT,
    NOT_FOUND,
    LoopResult,
    model_judge,
    run_loop,
)
from graph.retrieval.parts import COMPOUND, union_confidence
from graph.safeguard import mask
from graph.state import ChatState
from graph.structured import ask_structured, collect_decisions, decision_records
from graph.text import asks_the_clock, is_greeting, is_statement
from graph.turns import content_text, extract_current_turn
from graph.untrusted import passage_records
from prompt import get_prompt

log = logging.getLogger(__name__)

Route = Literal["rag", "agent"]
"""The router's two ways; a plain greeting takes a third, `GREETING`, without asking."""
GREETING = "greeting"
GREETING_REASON = "plain greeting: answered directly, no router call and no tools"
_TOOLISH = re.compile(r"\d\s*[-+*/×÷^%]\s*\d|날씨|weather|```|위키|wikipedia|웹\s?검색")
_RECALL = re.compile(
    r"(라고|다고|했|였|었)\S*\s*(지|죠|나요|어|니)(?=\s*[?？.!~]|\s*$)"
    r"|아까|방금|내가 말한|did i|i said|i told|earlier"
    r"|기억\s*(?:나|하니|하나|하세요|하시나요|해\s*[?？]|하고\s*있)"
)
"""A question about what was said ("내 이름이 뭐였지?", "뭐라고 했어?", "기억나요?"): the past
tense ends the sentence. Inside one it is a clause of another question ("무슨 용도였는지 언제까지
입력해?")."""
_ASKS = re.compile(
    r"[?？]|(까|나요|가요|죠|지|니|냐|래|돼|되나|될까|나|어때)\s*[.!~]*\s*$|어떻게|어떡|알려|뭐|무엇|언제|"
    r"얼마|며칠|몇|어디|누구|무슨|어느|왜|방법|가능|궁금|해야|하나요|되나요|찾아|설명|"
    r"\b(what|how|when|where|who|which|why|can|could|is there|are there|do|does|should|may)\b",
    re.IGNORECASE,
)
"""A question or a request; a plain statement ("회의는 3시에 있어요.") has nothing to look up."""
_DOCUMENTISH = re.compile(
    r"회사|사내|정책|규정|규칙|지침|매뉴얼|가이드|신청\s?방법|절차|company|policy|policies|handbook|rule"
)


class RouteDecision(BaseModel):
    """The router's answer."""

    route: Route = Field(description="rag: needs the company documents; agent: anything else")
    reason: str = Field(description="one short sentence")


class RuleRoute(NamedTuple):
    """The offline rule's decision."""

    route: Route
    reason: str
    ranked: LoopResult | None = None
    """The retrieval loop's result when the rule ran it (the rag node then reuses it)."""


def rule_route(question: str, index: DocumentIndex, rerank: bool = True) -> RuleRoute:
    """The offline rule: tool requests -> agent; confident document hit or rules talk -> rag.

    With `rerank` (the retrieval loop is on), a question whose top search hit is not
    confident enough is reranked as the loop does it (more passages, ranked by how much of
    the question each covers): when that finds a passage sure enough, it goes to retrieval.
    """
    if (
        _TOOLISH.search(question.lower())
        or asks_the_clock(question)
        or code_in(question) is not None
        or wants_code(question)
    ):
        return RuleRoute("agent", "plain tool request (arithmetic, time, weather, code, web)")
    if _RECALL.search(question.lower()):
        return RuleRoute("agent", "asks about this conversation, not the documents")
    asks = _ASKS.search(question) or request_kind(question) == "info"  # "Tell me about ..."
    if is_statement(question) or (not asks and not _DOCUMENTISH.search(question.lower())):
        return RuleRoute("agent", "a statement, not a question: nothing to look up")
    hits = index.search(question, k=3)
    if relevant(hits[:1]):
        best = hits[0]
        return RuleRoute("rag", f"document match: {best.source} (confidence {best.confidence:.2f})")
    if (
        COMPOUND.search(question)
        and len({h.source for h in hits}) > 1
        and union_confidence(index, question, hits) >= MIN_CONFIDENCE
    ):
        # a question in two parts, each answered by another document
        sources = ", ".join(dict.fromkeys(h.source for h in hits))
        return RuleRoute("rag", f"document match: {sources} (together)")
    if _DOCUMENTISH.search(question.lower()):
        return RuleRoute("rag", "asks about company rules, but no document matched")
    if rerank:
        ranked = run_loop(index, question)
        if ranked.outcome == ANSWERED:  # the rerank of more passages found one sure enough
            best = ranked.passages[0]
            reason = f"document match: {best.source} (rerank, confidence {best.confidence:.2f})"
            return RuleRoute("rag", reason, ranked)
    return RuleRoute("agent", "small talk or general question; no document matched")


def _question(state: ChatState) -> str:
    for msg in reversed(extract_current_turn(state["messages"])):
        if isinstance(msg, HumanMessage):
            return content_text(msg)
    return ""


def _nothing_retrieved() -> dict[str, Any]:
    """A turn's retrieval before the rag node (or without one); new lists each time."""
    return {"retrieved": [], "retrieval": {}}


def _retrieved(result: LoopResult) -> dict[str, Any]:
    """The state update of a finished retrieval loop: usable passages and what it did."""
    usable = result.outcome in (ANSWERED, BEST_EFFORT)
    return {
        "retrieved": [asdict(h) for h in result.passages] if usable else [],
        "retrieval": result.as_dict(),
    }


def tainted(update: dict[str, Any], turn: int) -> dict[str, Any]:
    """`update` with a record of each document its passages come from (`graph.untrusted`).

    What a document says is data, in this turn and in any summary of it.
    """
    records = passage_records(turn, update.get("retrieved") or [])
    return {**update, "untrusted": records} if records else update


def make_router_node(
    index: DocumentIndex,
    model: BaseChatModel | None = None,
    loop: bool = True,
    both: bool = False,
) -> Node:
    """router_node: decide rag vs agent for this turn (a plain greeting: neither, no call).

    With a model, one structured decision (`graph.structured.ask_structured`); when no
    JSON can be had from it, the offline rule decides and `decisions` names the fallback.

    When the offline rule ran the retrieval loop to decide, and no model judges in the rag
    node either, the loop's result goes into the state at once and the rag node keeps it.

    With `both` the rule decides too, and wins where the two disagree (ROUTER_DECISION=both);
    the decision's record says whether they `agreed`.
    """

    def router_node(state: ChatState) -> dict[str, Any]:
        question = _question(state)
        if is_greeting(question):  # seed 002's fast path: no router call, no tools
            return {"route": GREETING, "route_reason": GREETING_REASON, **_nothing_retrieved()}
        decisions: dict[str, Any] = {}
        if model is not None:
            answer = ask_structured(
                model,
                RouteDecision,
                [SystemMessage(get_prompt("router.system")), HumanMessage(mask(question, {}))],
                decision="router",
            )
            record = answer.record(int(state.get("turn_count", 0)))
            decisions["decisions"] = [record]
            if answer.value is not None and both:
                rule = rule_route(question, index, rerank=loop)
                record["agreed"] = rule.route == answer.value.route
                if not record["agreed"]:
                    found = _retrieved(rule.ranked) if rule.ranked is not None else {}
                    return {
                        "route": rule.route,
                        "route_reason": f"{rule.reason} (the model said {answer.value.route})",
                        **_nothing_retrieved(),
                        **found,
                        **decisions,
                    }
            if answer.value is not None:
                decided = answer.value
                return {
                    "route": decided.route,
                    "route_reason": decided.reason,
                    **_nothing_retrieved(),
                    **decisions,
                }
        rule = rule_route(question, index, rerank=loop)
        found = _nothing_retrieved()
        if rule.ranked is not None and model is None:
            found = _retrieved(rule.ranked)  # found already: the rag node keeps it
        update = {"route": rule.route, "route_reason": rule.reason, **found, **decisions}
        return tainted(update, int(state.get("turn_count", 0)))

    return router_node


def make_rag_node(
    index: DocumentIndex,
    model: BaseChatModel | None = None,
    loop: bool = True,
    both: bool = False,
) -> Node:
    """rag_node: seed 003's retrieval loop; its ranked passages go into the state.

    With a model, each step's rerank and sufficiency judgement is one structured call
    (`graph.structured`; how each was made goes into `decisions`); without, or when no
    JSON can be had from the model, the rule gives the same JSON. A fallback (nothing relevant, nothing ranked)
    leaves no passages and says which in `retrieval`. With `loop` off (RETRIEVAL_LOOP),
    one search of three passages, as before the loop.
    """
    judge = model_judge(model, index, both=both) if model is not None else None

    def rag_node(state: ChatState) -> dict[str, Any]:
        if state.get("retrieval"):  # the router's rule already ran the loop for this turn
            return {}
        question = _question(state)
        if not loop:
            # one search, its passages surest first (as the loop's rerank would put them)
            found = relevant(index.search(question, k=3))
            hits = sorted(found, key=lambda h: (-h.confidence, -h.score))
            single = {
                "retrieved": [asdict(h) for h in hits],
                "retrieval": {
                    "outcome": ANSWERED if hits else NOT_FOUND,
                    "calls": 1,
                    "steps": [],
                    "absent": index.unknown_words(question),
                },
            }
            return tainted(single, int(state.get("turn_count", 0)))
        with collect_decisions() as made:  # the judge's calls, one a step
            result = run_loop(index, question, judge)
        update = _retrieved(result)
        if made:
            update["decisions"] = decision_records(made, int(state.get("turn_count", 0)))
        return tainted(update, int(state.get("turn_count", 0)))

    return rag_node


def route_after_router(state: ChatState) -> Literal["rag_node", "summary_node"]:
    """After the router: retrieve first for document questions."""
    return "rag_node" if state.get("route") == "rag" else "summary_node"
