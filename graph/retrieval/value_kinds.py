"""Answer types for document questions: the kind of value asked for, and passages that state one.

A question about the handbook often shares its topic words with several sections, but it
names the kind of its answer: "when" and "언제" want a date or a deadline, "how much" and
"얼마" an amount, "what time" a clock time, "what number do I call" a phone number, "몇 장"
a count. Of two passages on the topic, the one that states a value of that kind is more
likely to answer (the classic answer-type check of question answering). The loop's rerank
uses it (`graph.retrieval.loop.rank_by_coverage`); the search does not.

The patterns are general: the ways Korean and English write dates, durations, amounts,
times, phone numbers, floors and counts, and the question words that ask for each.
"""

from __future__ import annotations

import re
from functools import lru_cache

_N = r"\d[\d,.]*"

VALUES: dict[str, re.Pattern[str]] = {
    "date": re.compile(
        rf"{_N}\s*월\s*{_N}\s*일|매(?:월|주|년)\s*{_N}\s*일|{_N}\s*일(?:에|자|부터)"
        r"|[월화수목금토일]요일|전날|다음\s*날|당일|익월|다음\s*달"
        r"|(?i:\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b)"
    ),
    "duration": re.compile(
        rf"{_N}\s*(?:영업일|일|주|주일|개월|달|년|시간|분)\s*(?:안에|이내|전|후|뒤|동안|까지|간|이상|이하|마다)"
        rf"|{_N}\s*(?:영업일|개월|주일|년|시간)"
        r"|(?i:\b\d+\s*(?:business\s+)?(?:days?|weeks?|months?|years?|hours?|minutes?)\b)"
    ),
    "amount": re.compile(
        rf"{_N}\s*(?:[만천백억]\s*)?(?:원|달러|포인트|%|퍼센트)|(?i:\$\s*{_N}|{_N}\s*(?:won|usd|dollars?)\b)"
    ),
    "time": re.compile(
        r"(?:오전|오후|밤|새벽|저녁|아침)\s*\d{1,2}\s*시|\d{1,2}\s*시\s*\d{1,2}\s*분|(?<!\d)\d{1,2}:\d{2}(?!\d)"
        r"|(?i:\b\d{1,2}\s*(?:am|pm)\b)"
    ),
    "phone": re.compile(r"(?<!\d)(?:\d{2,4}-)?\d{3,4}-\d{4}(?!\d)|내선\s*\d+"),
    "floor": re.compile(rf"{_N}\s*층|(?i:\b\d+(?:st|nd|rd|th)\s+floor\b)"),
    "count": re.compile(rf"{_N}\s*(?:개(?!월)|장|명|번|회|자|대|권|건|부(?!터)|곳)"),
    "menu": re.compile(r"\[[^\]\n]{2,40}>[^\]\n]{2,40}\]"),
}
"""Value kind -> how a passage states one."""

_TIME_AFTER = (
    r"\s+(?:(?:paid|unpaid|annual|sick|parental)\s+)?"
    r"(?:time|leave|vacation|holidays?|notice|rest|days?\s+off)\b"
    r"(?!\s+(?:pay|allowance|money|bonus|cost|fee|budget)\b)"
)
"""What makes "how much" ask for time: "how much (paid) time off", "how much notice" (not
"how much holiday pay", "how much does sick leave pay")."""
_HOW_MUCH_TIME = rf"\bhow\s+much{_TIME_AFTER}"

ASKS: tuple[tuple[frozenset[str], re.Pattern[str]], ...] = (
    (
        frozenset({"date", "duration"}),
        re.compile(
            r"언제|며칠\s*(?:에|날)|날짜|몇\s*월|무슨\s*요일|마감|기한|까지\s*(?:해야|내야|신청|제출|올려)"
            r"|(?i:\bwhen\b|\bby\s+when\b|\bwhat\s+(?:date|day)\b|\bdeadline\b|\bhow\s+(?:long|soon|far\s+in\s+advance)\b)"
        ),
    ),
    (
        frozenset({"duration"}),
        re.compile(
            r"얼마\s*(?:나|동안|만에)|며칠|몇\s*(?:일|주|달|개월|년|시간|분)|기간"
            r"|(?i:\bhow\s+many\s+(?:days?|weeks?|months?|years?|hours?|minutes?)\b|\bhow\s+long\b"
            rf"|{_HOW_MUCH_TIME})"
        ),
    ),
    (
        frozenset({"amount"}),
        re.compile(
            r"얼마(?!\s*(?:나|동안|만에))|금액|비용|몇\s*(?:프로|퍼센트|%)"
            rf"|(?i:\bhow\s+much\b(?!{_TIME_AFTER})|\bwhat\s+percent|\bcost\b|\bprice\b)"
        ),
    ),
    (  # a cap of money, time or things
        frozenset({"amount", "duration", "count"}),
        re.compile(r"한도|최대|최소|상한|(?i:\bcap\b|\blimit\b|\bmaximum\b|\bminimum\b)"),
    ),
    (
        frozenset({"time"}),
        re.compile(r"몇\s*시|(?i:\bwhat\s+time\b|\bwhat\s+hour\b)"),
    ),
    (
        frozenset({"phone"}),
        re.compile(
            r"번호|연락처|(?:어디|누구|어느\s*곳)(?:로|에|에게|한테)?\s*(?:전화|연락)"
            r"|(?i:\bcall\b|\bphone\b|\bnumber\s+(?:do|should|can)\b|\bcontact\b)"
        ),
    ),
    (
        frozenset({"floor"}),
        re.compile(r"몇\s*층|어느\s*층|(?i:\bwhich\s+floor\b|\bwhat\s+floor\b)"),
    ),
    (
        frozenset({"count"}),
        re.compile(
            r"몇\s*(?:개|장|명|번|회|자|대|권|건|곳)|(?i:\bhow\s+many\b|\bminimum\s+length\b)"
        ),
    ),
    (
        frozenset({"menu"}),
        re.compile(r"어디서|어디에서|어느\s*메뉴|(?i:\bwhere\s+(?:on|in|do|can)\b)"),
    ),
)
"""Question pattern -> the value kinds it asks for."""


def asked_kinds(question: str) -> frozenset[str]:
    """The kinds of value a document question asks for (empty when it names none)."""
    kinds: set[str] = set()
    for wanted, pattern in ASKS:
        if pattern.search(question):
            kinds |= wanted
    return frozenset(kinds)


@lru_cache(maxsize=4096)
def stated_kinds(text: str) -> frozenset[str]:
    """The kinds of value a passage states."""
    return frozenset(kind for kind, pattern in VALUES.items() if pattern.search(text))
