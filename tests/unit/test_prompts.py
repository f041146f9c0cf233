"""Every prompt template has the placeholders its callers fill."""

from __future__ import annotations

import pytest

from prompt import TEMPLATES, get_prompt, placeholders

EXPECTED = {
    "system.base": set(),
    "system.summaries_header": set(),
    "system.summary_line": {"start", "end", "when", "summary"},
    "system.documents_header": {"documents"},
    "system.document_part": {"part"},
    "system.documents_absent": {"words"},
    "system.no_documents": set(),
    "system.not_found_menus": {"menus"},
    "system.in_preparation": set(),
    "system.fallback_rule": set(),
    "rerank.system": set(),
    "rerank.user": {"question", "passages"},
    "system.window": {"window"},
    "system.memory": {"memory"},
    "system.entities": {"entities"},
    "system.recalled": {"recalled"},
    "system.pinned": {"pinned"},
    "system.continue": set(),
    "system.in_words": set(),
    "system.tool_result": {"tool", "result"},
    "summary.generate": {"turn_label", "target_chars", "conversation"},
    "summary.retry": {"target_chars"},
    "summary.digest": {"turn_label", "target_chars", "summaries"},
    "summary.memory_update": {"turn_label", "target_chars", "memory", "conversation"},
    "router.system": set(),
    "supervisor.plan": {"limit"},
    "safeguard.classify": {"message"},
    "structured.answer": {"schema", "shape", "fields"},
}


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_placeholders(name: str) -> None:
    assert placeholders(TEMPLATES[name]) == EXPECTED[name]


def test_get_prompt_refuses_missing_or_extra_values() -> None:
    assert get_prompt("system.summary_line", start=1, end=3, when="", summary="s") == "[1-3턴] s"
    with pytest.raises(KeyError):
        get_prompt("system.summary_line", start=1, end=3)
    with pytest.raises(KeyError):
        get_prompt("system.base", extra=1)
