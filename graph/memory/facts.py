"""The lost-facts check: which facts of a summary's source turns the summary dropped.

A fact is a short, checkable piece of text a summary should not lose: a date, a time, an
amount, a number with its unit, an identifier or code, a car's number, a phone number, an
e-mail address, a resident registration or card number (found as the safeguard finds
them), a URL, a person's name, a place the user lives or works at, and the values seed
003's entity rules catch (`이름은 X`,
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
_REGIONS = (
    "서울|부산|대구|인천|광주|대전|울산|세종|경기|강원|충청북|충청남|충북|충남|전라북|전라남|"
    "전북|전남|경상북|경상남|경북|경남|제주"
)
"""Korea's top-level regions: an address starts with one."""
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
    ("plate", re.compile(r"(?<!\d)\d{2,3}[가-힣]\s?\d{4}(?!\d)")),
    (
        "place",
        re.compile(
            rf"(?:{_REGIONS})(?:특별시|광역시|특별자치시|특별자치도|도|시)?"
            r"(?:\s+[가-힣]{1,6}(?:시|군|구|동|읍|면|리|로|길))+"
            r"|[가-힣]{1,6}(?:시|군|구|동|읍|면|리|역)(?=\s*(?:에|에서)\s*"
            r"(?:살|사는|산다|삽니다|거주|있는|있어|일해|일하|근무|다녀|출근|지내))"
        ),
    ),
)
"""The kinds of fact, each a pattern. A place is an address that starts with a region
("경기도 성남시 분당구 정자동", "대전 유성구") or a place where the user lives or works
("정자동에 살아요"); a plate is a car's number ("34나 5678")."""
_ENGLISH_PLACE = re.compile(
    r"\b(?:live|lives|living|lived|based|moved|work|works|working|stay|staying|from)\s+"
    r"(?:in|to|near|at)\s+((?:[A-Z][a-z]+)(?:\s[A-Z][a-z]+)?)"
)
"""Where an English speaker says they live or work ("I live in Suwon")."""
_NOT_A_NAME = re.compile(
    r"(?:까지|부터|하면|으면|려면|하고|에서|에게|한테|으로|이나|지만|니까|거나|는데|도록|하여|해서|하며)$"
)
"""A word ending as a Korean phrase ends ("전까지", "필요하면"): before a title it is no
name ("30일 전까지 팀장에게")."""
_QUOTED_LINE = re.compile(r"^\s*(?:>|출처:|Source:|함께 찾은 문서|Also found|참고:|Note:)")
"""An answer's lines that quote or cite a document: its words are the document's, not
the conversation's facts."""
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
                if _NOT_A_NAME.search(value):
                    continue
                value = " ".join(words) if len(value.split()) > 1 else value
            taken.append((start, end))
            found.append((start, Fact(value, kind, turn)))
    for match in _ENGLISH_PLACE.finditer(text):
        value = match.group(1)
        start = match.start(1)
        if not any(a <= start < b for a, b in taken):
            taken.append((start, match.end(1)))
            found.append((start, Fact(value, "place", turn)))
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


def own_words(turn: Sequence[BaseMessage]) -> str:
    """A turn's own words: the user's message and the answer, less what the answer quotes.

    A passage the answer quotes from a document, with its source lines, is the
    document's: its dates and names are no facts of the conversation.
    """
    lines = turn_document(turn).splitlines()
    return "\n".join(line for line in lines if not _QUOTED_LINE.match(line))


def turn_facts(first: int, turns: Sequence[Sequence[BaseMessage]]) -> list[Fact]:
    """The facts of turns `first, first + 1, ...`: of the user's messages and the answers.

    Not of a document passage an answer quotes (`own_words`).
    """
    facts: list[Fact] = []
    seen: set[str] = set()
    for offset, turn in enumerate(turns):
        for fact in extract_facts(own_words(turn), first + offset):
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
