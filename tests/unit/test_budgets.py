"""Seed 003 §5's per-section token budgets: the estimate, the setting, and the trimming of
each section's lowest-ranked items, reported for the next-context view."""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from graph.budgets import DEFAULT_BUDGETS, Budgets, estimate_tokens
from graph.context import Extras, system_prompt
from graph.memory import state_extras, strategy_context
from graph.memory.entities import format_entities
from graph.nodes.llm import _documents
from graph.settings import load_settings
from prompt import get_prompt


def test_tokens_are_estimated_by_the_documented_rule() -> None:
    assert estimate_tokens("") == 0
    assert estimate_tokens("abcd") == 1
    assert estimate_tokens("abcde") == 2  # ceil(5 / 4)
    assert estimate_tokens("연차휴가") == 4  # one per Hangul syllable
    assert estimate_tokens("연차 15일") == 3 + 1  # 연, 차, 일 + ceil(len(" 15") / 4)


def test_the_setting_names_sections_and_keeps_the_rest_at_their_defaults() -> None:
    budgets = load_settings({"CONTEXT_TOKEN_BUDGETS": "documents=300, recent=0"}).token_budgets
    assert budgets.budget("documents") == 300
    assert budgets.budget("recent") == 0  # no limit
    assert budgets.budget("memory") == DEFAULT_BUDGETS["memory"]
    assert load_settings({}).token_budgets.limits == DEFAULT_BUDGETS
    with pytest.raises(ValueError, match="unknown section 'history'"):
        Budgets.parse("history=10")
    with pytest.raises(ValueError, match="whole number"):
        Budgets.parse("documents=lots")
    with pytest.raises(ValueError, match="whole number"):
        Budgets.parse("recent=-5")  # not quietly "no limit"
    with pytest.raises(ValueError, match="SAFEGUARD_MODEL must be on or off"):
        _ = load_settings({"SAFEGUARD_MODEL": "enabled"}).safeguard_asks_model


def _passage(i: int, size: int) -> dict[str, str]:
    return {"text": f"passage {i} " + "가" * size, "source": f"doc{i}.md", "heading": "h"}


def test_documents_over_budget_lose_the_lowest_ranked_passages() -> None:
    state = {"retrieved": [_passage(i, 200) for i in range(1, 6)], "route": "rag"}
    text, dropped = _documents(state, Budgets.parse("documents=500"))  # type: ignore[arg-type]
    assert dropped == 3
    assert "passage 1 " in text and "passage 2 " in text and "passage 3 " not in text
    assert estimate_tokens(get_prompt("system.documents_header", documents=text)) <= 500
    # the best passage stays even when it alone is over the budget
    text, dropped = _documents(state, Budgets.parse("documents=10"))  # type: ignore[arg-type]
    assert dropped == 4 and "passage 1 " in text
    assert _documents(state, None)[1] == 0  # type: ignore[arg-type]


def _summaries(n: int) -> list[dict[str, object]]:
    return [
        {"turns": [3 * i + 1, 3 * i + 2, 3 * i + 3], "summary": f"요약 {i}: " + "나" * 100}
        for i in range(n)
    ]


def test_memory_over_budget_loses_the_oldest_summary_lines_and_reports_it() -> None:
    budgets = Budgets.parse("memory=350")
    msg = system_prompt(_summaries(5), Extras(budgets=budgets))
    text = str(msg.content)
    assert "요약 4:" in text and "요약 2:" in text and "요약 1:" not in text
    memory = msg.response_metadata["sections"]["memory"]
    assert memory["budget"] == 350 and memory["dropped"] == 2
    assert memory["tokens"] <= 350
    # without budgets nothing is left out: seed 002's prompt, every line
    assert "요약 0:" in str(system_prompt(_summaries(5)).content)


def test_memory_never_drops_what_the_threads_own_summary_budget_keeps() -> None:
    """A thread whose summary budget (CONTEXT_BUDGET_CHARS, per thread) is above the memory
    budget: its summaries, which the digests already bound, all stay."""
    state = {**_state(0, 0, "다음은?"), "summary_history": _summaries(30), "turn_count": 91}
    state["context_budget"] = 20_000
    budgets = Budgets.parse("memory=500")
    context = strategy_context(state, state_extras(state, budgets=budgets))
    assert "요약 0:" in str(context[0].content)
    memory = context[0].response_metadata["sections"]["memory"]
    assert memory["dropped"] == 0 and memory["budget"] >= 20_000
    state["context_budget"] = 300  # a small thread budget: the section's own budget holds
    context = strategy_context(state, state_extras(state, budgets=budgets))
    assert context[0].response_metadata["sections"]["memory"]["dropped"] > 0


def test_entities_over_budget_keep_the_newest() -> None:
    entities = [{"key": f"key{i}", "value": "다" * 30, "turn": i} for i in range(1, 11)]
    msg = system_prompt(
        [], Extras(budgets=Budgets.parse("entities=100")), entities=format_entities(entities)
    )
    text = str(msg.content)
    assert "key10" in text and "key1:" not in text
    assert msg.response_metadata["sections"]["entities"]["dropped"] > 0


def _state(turns: int, size: int, question: str) -> dict[str, object]:
    messages: list[object] = []
    for n in range(1, turns + 1):
        messages += [HumanMessage(f"질문 {n} " + "라" * size), AIMessage(f"답 {n} " + "마" * size)]
    messages.append(HumanMessage(question))
    return {
        "messages": messages,
        "turn_count": turns + 1,
        "summary_history": [],
        "strategy": "three_turn",
    }


def test_by_default_recent_turns_are_never_cut() -> None:
    """Seed 002 (binding): every raw turn no summary covers is in the context, however long."""
    state = _state(2, 3000, "그래서?")
    context = strategy_context(state, state_extras(state, budgets=Budgets()))
    assert len(context) == 1 + 4 + 1
    assert context[0].response_metadata["sections"]["recent"]["budget"] == 0


def test_recent_turns_over_budget_lose_the_oldest_but_never_the_question() -> None:
    question = "그래서 결론이 뭐야? " + "바" * 400  # over the question's budget: measured, kept
    state = _state(2, 500, question)
    budgets = Budgets.parse("recent=1100")
    context = strategy_context(state, state_extras(state, budgets=budgets))
    said = [str(m.content)[:4] for m in context[1:]]
    assert said == ["질문 2", "답 2 ", question[:4]]
    sections = context[0].response_metadata["sections"]
    assert sections["recent"]["dropped"] == 1 and sections["recent"]["tokens"] <= 1100
    assert sections["question"]["tokens"] > sections["question"]["budget"] == 100
    # the default budget keeps seed 002's two raw turns of ordinary size
    ordinary = _state(2, 120, "다음은?")
    full = strategy_context(ordinary, state_extras(ordinary, budgets=Budgets()))
    assert len(full) == 1 + 4 + 1
    assert full[0].response_metadata["sections"]["recent"]["dropped"] == 0


def test_every_section_is_reported_for_the_next_context_view() -> None:
    state = _state(1, 10, "안녕?")
    context = strategy_context(state, state_extras(state, budgets=Budgets()))
    sections = context[0].response_metadata["sections"]
    assert list(sections) == ["system", "memory", "entities", "documents", "recent", "question"]
    assert all(s["budget"] == DEFAULT_BUDGETS[name] for name, s in sections.items())
    assert sections["system"]["tokens"] == estimate_tokens(
        str(system_prompt([]).content)
    )  # the role text alone, nothing else in this context
