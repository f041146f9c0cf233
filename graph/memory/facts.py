"""The lost-facts check: which facts of a summary's source turns the summary dropped.

A fact is a short, checkable piece of text a summary should not lose: a date, a time, an
amount, a number with its unit, an identifier or code, a phone number, an e-mail address,
a resident registration or card number (found as the safeguard finds them), a URL, a
person's name, and the values seed 003's entity rules catch (`이름은 X`,
`provider는 aws`, `budget $10,000`). It counts as kept when its normalized text (Unicode
NFKC, case-folded, without spaces and thousands separators) occurs in the summary. The
check never makes a summary longer: it reports, it does not repair; the user can pin what
matters (see `graph.memory.pins`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import BaseMessage

from graph.memory.entities import extract_entities
from graph.safeguard import find_pii
from graph.turns import turn_document

_MONTHS = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("url", re.compile(r"https?://[^\s)>\]]+")),
    (
        "date",
        re.compile(
            r"(?:\d{4}년\s*)?\d{1,2}월\s*\d{1,2}일|\d{4}-\d{1,2}-\d{1,2}|\d{4}년\s*\d{1,2}월"
            rf"|(?i:\b{_MONTHS}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?\b)"
            rf"|(?i:\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTHS}\b(?:,?\s+\d{{4}})?)"
        ),
    ),
    (
        "time",
        re.compile(
            r"(?:오전|오후|새벽|저녁|밤)\s*\d{1,2}시(?:\s*\d{1,2}분|\s*반)?|\d{1,2}시\s*\d{1,2}분"
            r"|(?i:\b\d{1,2}(?::\d{2})?\s?[ap]\.?m\.?)|\b\d{1,2}:\d{2}\b"
        ),
    ),
    (
        "amount",
        re.compile(
            r"(?:\d[\d,.]*\s*(?:억|천만|백만|만|천)\s*)+(?:\d[\d,.]*\s*)?(?:원|달러|유로|엔)?"
            r"|\d[\d,.]*\s*(?:원|달러|유로|엔|dollars?|euros?|won|usd|eur|krw)\b"
            r"|[$€£₩]\s?\d[\d,.]*(?:\s?(?:k|m|million|billion|thousand))?"
        ),
    ),
    (
        "code",
        re.compile(
            r"(?<![A-Za-z0-9-])(?=[A-Z0-9-]*\d)(?=[A-Z0-9-]*[A-Z])"
            r"(?:[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+|[A-Z0-9]{5,})(?![A-Za-z0-9-])"
        ),
    ),
    (
        "number",
        re.compile(
            r"\d[\d,.]*\s*(?:%|퍼센트|명|개|대|층|호실?|번(?!째)|km|kg|cm|mm|m²|평|박|일간|시간|분간|개월|주년|살|세)"
            r"|(?i:\b\d[\d,.]*\s?(?:percent|people|persons|guests|rooms?|floors?|nights?|hours?|days?|weeks?|months?|years?|km|kg|miles?)\b)"
        ),
    ),
    (
        "name",
        re.compile(
            r"[가-힣]{2,4}(?=\s?(?:님|씨|과장|부장|차장|대리|팀장|실장|사원|선임|책임|수석|원장|교수|선생|변호사|대표|이사|매니저))"
            r"|\b[A-Z][a-z]+(?:\s[A-Z][a-z]+)+\b"
        ),
    ),
)
_TITLES = "과장 부장 차장 대리 팀장 실장 사원 선임 책임 수석 원장 교수 선생 변호사 대표 이사 매니저"
_NAME_STOP = frozenset(
    (
        "이번 다음 지난 우리 저희 모든 각각 해당 담당 새로 고객 회사 팀원 직원 상대 " + _TITLES
    ).split()
)


@dataclass(frozen=True)
class Fact:
    """One checkable fact of a turn."""

    text: str
    """As it was written."""
    kind: str
    """date, time, amount, number, code, phone, email, url, name, or an entity key."""
    turn: int
    """The turn it was said in."""


def normalize(text: str) -> str:
    """How facts are compared: NFKC, case-folded, no spaces or thousands separators."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return re.sub(r"[\s,]", "", folded)


def extract_facts(text: str, turn: int) -> list[Fact]:
    """The facts in `text`, first occurrence of each normalized value, in order."""
    found: list[tuple[int, Fact]] = []
    taken: list[tuple[int, int]] = []
    for kind, value in find_pii(text):  # phone, e-mail, ID and card numbers: the safeguard's
        start = text.find(value)
        taken.append((start, start + len(value)))
        found.append((start, Fact(value, kind.lower(), turn)))
    for kind, pattern in _PATTERNS:
        for match in pattern.finditer(text):
            value = match.group(0).strip(" .,")
            start, end = match.span()
            if not re.search(r"\w", value) or any(a <= start and end <= b for a, b in taken):
                continue  # inside a fact already found (the 14 of "3월 14일")
            if kind == "name":
                words = value.split()
                while words and words[0] in _ENGLISH_OPENERS:
                    words.pop(0)
                if value in _NAME_STOP or (len(value.split()) > 1 and len(words) < 2):
                    continue
                value = " ".join(words) if len(value.split()) > 1 else value
            taken.append((start, end))
            found.append((start, Fact(value, kind, turn)))
    for entity in extract_entities(text, turn):
        value = str(entity["value"]).strip(" .,;")
        if value:
            found.append((text.find(value), Fact(value, str(entity["key"]), turn)))
    out: list[Fact] = []
    seen: set[str] = set()
    for _, fact in sorted(found, key=lambda pair: pair[0]):
        key = normalize(fact.text)
        if key and not any(key in s or s in key for s in seen):
            seen.add(key)
            out.append(fact)
    return out


_ENGLISH_OPENERS = frozenset(
    "The This That These Those What When Where Which Who How Why Can Could Would Should Will "
    "Please Thanks Thank Hello Hi Hey Yes No And But So If Also Then Sure Okay Let I My We Our "
    "You Your It Its Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()
)


def turn_facts(first: int, turns: Sequence[Sequence[BaseMessage]]) -> list[Fact]:
    """The facts of turns `first, first + 1, ...`: of the user's messages and the answers."""
    facts: list[Fact] = []
    seen: set[str] = set()
    for offset, turn in enumerate(turns):
        for fact in extract_facts(turn_document(turn), first + offset):
            key = normalize(fact.text)
            if key not in seen:
                seen.add(key)
                facts.append(fact)
    return facts


def check_facts(facts: Iterable[Fact], summary: str) -> dict[str, Any]:
    """The lost-facts record of a summary: every fact and the ones it dropped.

    `{"facts": [[text, turn, kind], ...], "dropped": [index, ...], "kept": n, "total": n}`.
    """
    listed = list(facts)
    text = normalize(summary)
    dropped = [i for i, fact in enumerate(listed) if normalize(fact.text) not in text]
    return {
        "facts": [[f.text, f.turn, f.kind] for f in listed],
        "dropped": dropped,
        "kept": len(listed) - len(dropped),
        "total": len(listed),
    }


def record_facts_of(record: dict[str, Any]) -> list[Fact]:
    """The facts of a stored record, for checking a digest over several summaries."""
    return [Fact(str(text), str(kind), int(turn)) for text, turn, kind in record.get("facts", [])]
