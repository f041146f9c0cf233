"""Prompt text only: module constants with named placeholders, filled by `get_prompt`."""

from __future__ import annotations

import string
from typing import Any

from prompt import rerank, router, safeguard, structured, summary, supervisor, system

TEMPLATES: dict[str, str] = {
    "system.base": system.SYSTEM_BASE,
    "system.summaries_header": system.SUMMARIES_HEADER,
    "system.summary_line": system.SUMMARY_LINE,
    "system.documents_header": system.DOCUMENTS_HEADER,
    "system.document_part": system.DOCUMENT_PART,
    "system.documents_absent": system.DOCUMENTS_ABSENT,
    "system.no_documents": system.NO_DOCUMENTS,
    "system.not_found_menus": system.NOT_FOUND_MENUS,
    "system.in_preparation": system.IN_PREPARATION,
    "system.fallback_rule": system.FALLBACK_RULE,
    "rerank.system": rerank.RERANK_SYSTEM,
    "rerank.user": rerank.RERANK_USER,
    "system.window": system.WINDOW_HEADER,
    "system.memory": system.MEMORY_HEADER,
    "system.entities": system.ENTITIES_HEADER,
    "system.recalled": system.RECALLED_HEADER,
    "system.pinned": system.PINNED_HEADER,
    "system.continue": system.CONTINUE,
    "system.in_words": system.IN_WORDS,
    "system.tool_result": system.TOOL_RESULT,
    "summary.generate": summary.SUMMARY_GENERATOR,
    "summary.retry": summary.SUMMARY_RETRY,
    "summary.digest": summary.DIGEST_GENERATOR,
    "summary.memory_update": summary.MEMORY_UPDATE,
    "router.system": router.ROUTER_SYSTEM,
    "supervisor.plan": supervisor.SUPERVISOR_PLAN,
    "safeguard.classify": safeguard.SAFEGUARD_CLASSIFIER,
    "structured.answer": structured.STRUCTURED_ANSWER,
}


def placeholders(template: str) -> set[str]:
    """Names of the `{placeholders}` in a template."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def get_prompt(name: str, **values: Any) -> str:
    """Fill template `name` with `values`; every placeholder must be given, and no extra."""
    template = TEMPLATES[name]
    expected = placeholders(template)
    given = set(values)
    if expected != given:
        raise KeyError(f"prompt {name!r} takes {sorted(expected)}, got {sorted(given)}")
    return template.format(**values)
