"""Answer types: what kind of value a question asks for, and whether a turn states one.

A question about something said long ago often shares few words with the turn that said
it ("When is my consular appointment?" / "the visa interview is now May 6"), but it
names the kind of its answer: "when" wants a date, "how much" an amount, "who" a name,
"where" a place. Recall treats that kind as one more thing the question asks for: a turn
whose user message states a value of that kind holds it (see `graph.memory.recall`).

The kinds are those of the lost-facts check (`graph.memory.facts`) plus places, which
that check does not list: an English capitalized name after in/at/to/from, or a Korean
word ending in a place suffix (동, 도, 시, 구, 역, 섬, ...) before a particle of place.
"""

from __future__ import annotations

import re

from graph.memory.facts import extract_facts

_QUESTION_KINDS: tuple[tuple[frozenset[str], re.Pattern[str]], ...] = (
    (
        frozenset({"date"}),
        re.compile(
            r"(?i:\bwhen\b|\bwhat\s+(?:date|day)\b|\bwhich\s+(?:date|day)\b|\bby\s+when\b)"
            r"|언제|며칠|날짜|몇\s*월|무슨\s*요일|무슨\s*날"
        ),
    ),
    (frozenset({"time"}), re.compile(r"(?i:\bwhat\s+time\b|\bat\s+what\s+hour\b)|몇\s*시")),
    (
        frozenset({"amount"}),
        re.compile(
            r"(?i:\bhow\s+much\b|\bcost(?:s|ing)?\b|\bprice\b|\bspend\b|\bpaid\b|\bpay\b)"
            r"|얼마|비용|금액|가격|값이|돈"
        ),
    ),
    (
        frozenset({"number", "code", "phone"}),
        re.compile(
            r"(?i:\bwhat(?:'s|\s+is|\s+was)?\s+(?:the\s+|my\s+|our\s+)?(?:\w+\s+)?(?:number|code|id)\b"
            r"|\bwhich\s+(?:number|room|gate|seat|floor)\b|\bhow\s+many\b)"
            r"|몇\s*(?:번|호|층|개|명|대|살)|번호|코드"
        ),
    ),
    (
        frozenset({"name", "이름"}),
        re.compile(
            r"(?i:\bwho(?:m|se)?\b|\bwhat(?:'s|\s+is|\s+was)\s+(?:the\s+)?name\b)|누구|이름|성함"
        ),
    ),
    (
        frozenset({"place", "name"}),
        re.compile(
            r"(?i:\bwhere\b|\bwhich\s+(?:city|country|town|place|restaurant|hotel|venue)\b)"
            r"|어디|어느\s*(?:동네|도시|나라|곳|지역|식당|호텔)"
        ),
    ),
)

_PLACE = re.compile(
    r"\b(?:in|at|to|from|near)\s+(?:the\s+)?[A-Z][a-z]+(?:\s[A-Z][a-z]+)*"
    r"|[가-힣]{1,6}(?:동|도|시|군|구|역|섬|읍|면)(?=에서|으로|에|로|은|는|이|가|까지|\s|$)"
)


def answer_kinds(question: str) -> frozenset[str]:
    """The kinds of value the question asks for (empty when it names none)."""
    kinds: set[str] = set()
    for wanted, pattern in _QUESTION_KINDS:
        if pattern.search(question):
            kinds |= wanted
    return frozenset(kinds)


def stated_kinds(text: str) -> frozenset[str]:
    """The kinds of value a message states: fact kinds, and `place` for places."""
    kinds = {fact.kind for fact in extract_facts(text, 0)}
    if _PLACE.search(text):
        kinds.add("place")
    return frozenset(kinds)
