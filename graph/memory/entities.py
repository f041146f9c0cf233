"""Entities (seed 003): {key, value, turn}; an updated key moves to the end; at most 25."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

MAX_ENTITIES = 25

Entity = dict[str, Any]

_RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "이름",
        re.compile(
            r"(?:제|내|저의|나의)?\s*이름은\s*([가-힣A-Za-z]{2,10}?)(?:이고|이며|입니다|이야|야|예요|이에요|라고|[,.\s]|$)"
        ),
    ),
    ("이름", re.compile(r"저는\s*([가-힣]{2,4}?)(?:입니다|이에요|예요|이고|이며)")),
    ("name", re.compile(r"[Mm]y name is ([A-Z][a-z]+(?: [A-Z][a-z]+)?)")),
    ("이메일", re.compile(r"([\w.+-]+@[\w-]+\.[\w.]+)")),
    ("전화", re.compile(r"(0\d{1,2}-\d{3,4}-\d{4})")),
)
_KEYED_VALUE = re.compile(
    r"([가-힣A-Za-z]{2,8})(?:은|는|이|가|:)\s*"
    r"((?:\d{4}년\s*)?\d{1,2}월\s*\d{1,2}일|\d{4}-\d{2}-\d{2}|[\d,.]+\s*(?:억|만|천)?\s*(?:원|달러|유로|명|개|일|시간|%|퍼센트|km|kg))"
)
_KEYED_WORD = re.compile(
    r"(?<![A-Za-z])([a-z][a-z_]{1,20})\s*(?:은|는|이|가|:|=)\s*([A-Za-z0-9$€₩£][\w$€₩£.,-]*?)(?=[\s,.;)]|이고|이며|입니다|예요|이에요|$)"
)
"""Seed 003's own examples: "provider는 aws", "region: ap-northeast-2"."""
_KEYED_AMOUNT = re.compile(
    r"\b(budget|price|cost|limit|target|salary|rent|fee|deposit|spend|total)s?\s*(?:is|was|of|:|=)?\s*"
    r"([$€£₩]\s?\d[\d,.]*(?:\s?[kKmM]\b)?|\d[\d,.]*\s?(?:dollars|euros|won|usd|eur|krw)\b)",
    re.IGNORECASE,
)
"""Seed 003's "budget $10,000" and the like."""
_STOP_KEYS = {"그것", "이것", "저것", "오늘", "내일", "어제", "우리", "제가", "내가"}


def extract_entities(text: str, turn: int) -> list[Entity]:
    """Names, contacts, and 'X는 <number/date/amount>' facts found in `text`, rule-based."""
    found: list[Entity] = []
    for key, pattern in _RULES:
        for match in pattern.finditer(text):
            found.append({"key": key, "value": match.group(1).strip(), "turn": turn})
    for pattern in (_KEYED_VALUE, _KEYED_WORD, _KEYED_AMOUNT):
        for match in pattern.finditer(text):
            key, value = match.group(1), " ".join(match.group(2).split()).rstrip(",.")
            if key not in _STOP_KEYS and value:
                found.append(
                    {"key": key.lower() if key.isascii() else key, "value": value, "turn": turn}
                )
    return found


def update_entities(entities: Sequence[Entity], new: Sequence[Entity]) -> list[Entity]:
    """Seed 003's update rule for the entity list.

    A new key is pushed at the end; a known key is removed and pushed at the end;
    past MAX_ENTITIES the oldest are shifted off the front.
    """
    out = [dict(e) for e in entities]
    for entity in new:
        out = [e for e in out if e["key"] != entity["key"]]
        out.append(dict(entity))
    return out[-MAX_ENTITIES:]


def format_entities(entities: Sequence[Entity]) -> str:
    """One line per entity for the system prompt."""
    return "\n".join(f"- {e['key']}: {e['value']} ({e['turn']}턴)" for e in entities)
