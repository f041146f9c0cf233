"""What a message or a call's arguments ask to do, read offline by the kind of wording.

Seed 004's acts are found by the *shape* of their wording, not by fixed sentences; the
words each shape is made of are data (`data/lexicon/approval.tsv`):

| act | English | Korean |
|---|---|---|
| payment | a request headed by a paying verb (`pay`, `buy`, `refund`, `top up`); or by a verb that moves money (`send`, `transfer`, `charge`) with money or an amount after it; or by any verb but a reading one with a bill, an invoice, the rent, a fee after it | an act noun (`결제`, `송금`, `이체`) with a request ending after it (`해 줘`, `부탁`, `진행`, `하자`); an amount with a verb that sends it (`30만 원 보내 줘`); a fee with `내 줘`; `사 줘`; `갚아` |
| contract | a request headed by a signing or agreeing verb (`sign`, `countersign`, `agree to`); or by a verb like `accept`, `renew`, `terminate` with a contract, terms or an offer after it; or by any verb but a reading one with a contract, a lease, an NDA or a signature after it | an act noun (`서명`, `체결`, `해지`, `동의`, `계약`) with a request ending after it |
| sensitive data (arguments only) | the safeguard's PII (`graph.safeguard.find_pii`); an account, IBAN or US social security number; an e-mail address spelled out (`name at mail dot com`); an international phone number; a key or token; a labelled secret or record followed by its value (`pw: ...`, `OTP code 4829`, `비번 ...`); a health condition with a person (`김 씨 우울증`, `he has diabetes`) | |

**A request** is a clause whose first word, after the words leading into a request
(`please`, `can you`, `I need you to`, `go ahead and`), is a verb: a clause opening with a
question word or a subject (`how do I pay`, `my payment went through`) asks for nothing,
and neither does a reading verb (`summarize the lease`). A Korean request is told by its
ending; a question about an act (`송금 수수료는?`, `해지하는 방법`) has none. A clause
that opens with a word the lists do not know is taken for a verb: when unsure, ask.

Before it is read, a text is normalized: NFKC (full-width letters and `＠`), lower case,
letters written apart joined (`s i g n`, `p-a-y`), runs of spaces made one; the Korean
rules also read it with the spaces between Hangul letters dropped (`결 제 해 줘`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from graph.lexicon import read_table
from graph.safeguard import find_pii

LEXICON_FILE = "approval.tsv"
"""`data/lexicon/approval.tsv`: category, kind, phrases (see its first line)."""

KINDS = {
    "verb",
    "verb_object",
    "object",
    "object_weak",
    "noun_ko",
    "verb_ko",
    "fee_ko",
    "read",
    "lead",
    "label",
    "data",
    "condition",
    "person",
}
CATEGORIES = {"payment", "contract", "sensitive", "any"}


@cache
def words(category: str, kind: str) -> tuple[str, ...]:
    """The phrases of one category and kind, longest first (so `check out` beats `check`)."""
    table: dict[tuple[str, str], list[str]] = {}
    for cat, knd, phrases in read_table(LEXICON_FILE, 3):
        if cat not in CATEGORIES or knd not in KINDS:
            raise ValueError(f"{LEXICON_FILE}: unknown category or kind {cat!r} {knd!r}")
        table.setdefault((cat, knd), []).extend(
            p.strip().lower() for p in phrases.split("|") if p.strip()
        )
    return tuple(sorted(set(table.get((category, kind), [])), key=len, reverse=True))


def _alternatives(phrases: Iterable[str]) -> str:
    return "|".join(re.escape(p).replace(r"\ ", r"\s+") for p in phrases)


@cache
def _english(category: str, kind: str) -> re.Pattern[str]:
    """A kind's phrases as whole English words."""
    return re.compile(rf"(?<![\w'-])(?:{_alternatives(words(category, kind))})(?![\w'-])")


@cache
def _korean(category: str, kind: str) -> str:
    return "|".join(re.escape(p.replace(" ", "")) for p in words(category, kind))


# ---- normalizing


def normalize(text: str) -> str:
    """NFKC, lower case, letters written apart joined, runs of spaces made one."""
    text = unicodedata.normalize("NFKC", text).lower()
    text = re.sub(
        r"(?<![\w])[a-z](?:[ .\-][a-z](?![\w])){2,}",
        lambda m: re.sub(r"[ .\-]", "", m.group(0)),
        text,
    )
    return re.sub(r"\s+", " ", text).strip()


def compact(text: str) -> str:
    """A normalized text without the spaces between Hangul letters (`결 제 해` -> `결제해`)."""
    return re.sub(r"(?<=[가-힣])\s+(?=[가-힣])", "", text)


# ---- amounts

_NUMBER_WORD = (
    r"(?:a|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|"
    r"twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million)"
)
_CURRENCY = r"(?:dollars?|bucks|usd|krw|won|euros?|eur|yen|jpy|pounds?|gbp|cents?)"
AMOUNT = re.compile(
    r"[$₩€£¥]\s?\d"
    rf"|\d[\d,]*(?:\.\d+)?\s?(?:k|m|million|thousand|grand|hundred)?\s?{_CURRENCY}(?![a-z])"
    r"|(?<![a-z])(?:usd|krw|eur|gbp|jpy)\s?\d"
    rf"|(?<![a-z]){_NUMBER_WORD}(?:[\s-]+(?:{_NUMBER_WORD}|and))*\s+{_CURRENCY}(?![a-z])"
    r"|(?:\d[\d,.]*\s?(?:억|만|천|백)?\s?)+(?:원|달러|불|엔|유로|위안|파운드)"
    r"|[일이삼사오육칠팔구]*[십백천만억][일이삼사오육칠팔구십백천만억\s]*원"
)
"""An amount of money: `$25`, `1,500 euros`, `fifty bucks`, `KRW 99,000`, `30만 원`, `만 오천 원`."""


def has_amount(text: str) -> bool:
    """Whether a normalized text names an amount of money."""
    return AMOUNT.search(text) is not None


# ---- English requests

_CLAUSES = re.compile(r"[.!?;\n]+|,\s+|\s+(?:and|then|&)\s+|\s+-\s+")
_STOP = re.compile(
    r"(?:the|a|an|this|that|these|those|my|your|our|their|his|her|its|i|you|we|they|he|"
    r"she|it|is|are|was|were|be|been|do|does|did|have|has|had|can|could|should|would|"
    r"will|may|might|must|shall|in|on|at|for|with|about|of|to|from|by|if|whether|not|"
    r"no|yes|there|here|any|some|all|every|each|one|as|but|or|than|because|since|"
    r"while|after|before|until|unless|although|though)(?![\w'-])"
)
"""Words that cannot head a request: a clause opening with one is a statement or a question."""
_PAY_IDIOM = re.compile(
    r"^pay (?:close |more |no )?(?:attention|respects?|tribute|heed|a visit|a compliment|homage)"
)
_SORTING = re.compile(
    r"\b(?:by|alphabetically|chronologically|numerically|ascending|descending|"
    r"from (?:smallest|largest|oldest|newest|lowest|highest|a to z))\b"
    r"|\bin (?:alphabetical|ascending|descending|reverse|chronological|numerical) order\b"
)
_SIGN_NOT = re.compile(r"^sign (?:up|in|out|into|language)\b|^agree with\b")


def requests(text: str) -> list[tuple[str, str]]:
    """(verb, rest) of each clause of a normalized text that reads as a request.

    The verb is a known one (any kind of the lexicon, longest first) or, when the clause
    opens with a word no list knows, that word: when unsure, it may be an act.
    """
    found = []
    leads = re.compile(rf"^(?:{_alternatives(words('any', 'lead'))})(?![\w'-])[\s,]*")
    verbs = [
        p
        for category in ("payment", "contract")
        for kind in ("verb", "verb_object")
        for p in words(category, kind)
    ]
    known = re.compile(
        rf"^(?:{_alternatives(sorted({*verbs, *words('any', 'read')}, key=len, reverse=True))})"
        r"(?![\w'-])"
    )
    for clause in _CLAUSES.split(text):
        clause = clause.strip(" \"'“”‘’()[]*:-")
        while (lead := leads.match(clause)) and lead.end():
            clause = clause[lead.end() :]
        if not clause or not re.match(r"[a-z]", clause) or _STOP.match(clause):
            continue
        verb = known.match(clause)
        head = verb.group(0) if verb else clause.split(" ", 1)[0]
        found.append((re.sub(r"\s+", " ", head), clause[len(head) :].strip()))
    return found


def _is(category: str, kind: str, phrase: str) -> bool:
    return phrase in words(category, kind)


def _mentions(category: str, kinds: tuple[str, ...], text: str) -> str | None:
    for kind in kinds:
        hit = _english(category, kind).search(text)
        if hit:
            return hit.group(0)
    return None


def english_act(category: str, text: str) -> str | None:
    """Why a normalized text's English asks for a `category` act (payment, contract)."""
    for verb, rest in requests(text):
        if _is("any", "read", verb):
            continue
        whole = f"{verb} {rest}"
        if _is(category, "verb", verb):
            if category == "payment" and (
                _PAY_IDIOM.match(whole) or (verb == "order" and _SORTING.search(rest))
            ):
                continue
            if category == "contract" and _SIGN_NOT.match(whole):
                continue
            return f"asks to {verb!r}"
        if _is(category, "verb_object", verb):
            thing = _mentions(category, ("object", "object_weak"), rest)
            if thing:
                return f"asks to {verb!r} {thing!r}"
            if category == "payment" and has_amount(rest):
                return f"asks to {verb!r} an amount"
        thing = _mentions(category, ("object",), rest)
        if thing:  # any verb but a reading one, on a bill or a contract: unsure, so ask
            return f"asks to {verb!r} {thing!r}"
    return None


# ---- Korean requests

_PARTICLE = r"(?:을|를|도|은|는|만|까지|부터|좀|으로|로|에)?"
_BETWEEN = (
    r"(?:승인|요청|신청|진행|처리|확정|체크|완료|연장|갱신|해지|체결|서명|바로|좀|까지|"
    r"받게|받도록|되게|하게|까지)*"
)
DO_KO = (
    r"(?:해(?:줘|주|줄|드|봐|라|요|놔|둬|버|서|놓|다오)|해(?![가-힣])"
    r"|하(?:고|자|세요|십시오|시죠|겠|려고|기로|시오|셔|라)|할(?:게|래|께|까)"
    r"|합(?:시다|니다)|진행|처리|부탁|요청|신청|넣어|넣고|맺어|맺고|맺자|한다고)"
)
"""A Korean request ending after an act noun: `해 줘`, `하자`, `할게`, `부탁`, `진행`, ...;
not `하는` (`송금하는 방법`), `하면`, `하기`, `했어`, `해도`, `해야` (questions about it)."""


@cache
def _korean_act(category: str) -> re.Pattern[str]:
    return re.compile(rf"(?:{_korean(category, 'noun_ko')}){_PARTICLE}{_BETWEEN}{DO_KO}")


def korean_act(category: str, text: str) -> str | None:
    """Why a normalized text's Korean asks for a `category` act (payment, contract)."""
    joined = compact(text)
    hit = _korean_act(category).search(joined)
    if hit:
        return f"asks to {re.sub(r'[^가-힣]', '', hit.group(0))!r}"
    if category != "payment":
        return None
    if has_amount(text) and re.search(rf"(?:{_korean('payment', 'verb_ko')})", joined):
        return "asks to send an amount"
    if re.search(r"갚(?:아|어|자|을)", joined):
        return "asks to repay"
    if re.search(r"(?:^|\s)사\s?(?:줘|주세요|주실|줄래|다\s?줘|다\s?주|와|드려|드릴)", text):
        return "asks to buy"
    fee = _korean("payment", "fee_ko")
    if re.search(
        rf"(?:{fee})(?:을|를|도|좀)?\s?(?:오늘|지금|바로|좀|이번\s?달)?\s?"
        r"내(?:\s?줘|\s?주|\s?줄|자|고|\s?드려)",
        text,
    ):
        return "asks to pay a fee"
    return None


def act(category: str, text: str) -> str | None:
    """Why `text` (a message or an argument) asks for a payment or a contract, or None."""
    plain = normalize(text)
    return english_act(category, plain) or korean_act(category, plain)


# ---- sensitive data in arguments

_SENSITIVE_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("IBAN", re.compile(r"(?<![a-z0-9])[a-z]{2}\d{2}[a-z0-9]{11,30}(?![a-z0-9])")),
    ("SSN", re.compile(r"(?<![\d-])\d{3}-\d{2}-\d{4}(?![\d-])")),
    (
        "KEY",
        re.compile(
            r"(?<![a-z0-9])(?:[sprk]k[-_](?:live|test)[-_]?[a-z0-9]{12,}|ghp_[a-z0-9]{20,}"
            r"|akia[0-9a-z]{16}|xox[abp]-[a-z0-9-]{10,}|eyj[\w-]{10,}\.[\w-]{10,})"
        ),
    ),
    (
        "EMAIL",
        re.compile(
            r"[\w.+-]+(?:\s+dot\s+[\w+-]+)*\s*(?:\(at\)|\[at\]|\sat\s|골뱅이)\s*[\w-]+"
            r"(?:\s*(?:\(dot\)|\[dot\]|\sdot\s|\s점\s)\s*[\w-]+)*"
            r"\s*(?:\(dot\)|\[dot\]|\sdot\s|\s점\s)\s*[a-z]{2,6}(?![\w])"
        ),
    ),
    ("PHONE", re.compile(r"\+\d{1,3}[\s.-]?\(?\d{1,4}\)?(?:[\s.-]?\d{2,4}){2,3}(?!\d)")),
    (
        "ACCOUNT",
        re.compile(r"(?:account|acct|routing|계좌|통장)\D{0,15}\d[\d\s-]{6,}\d"),
    ),
)
_GROUPED = re.compile(r"(?<![\d.-])\d{2,6}(?:-\d{2,6}){2,3}(?![\d.-])")
"""Digits in dashed groups (`110-432-998877`): an account or licence number when 10-14."""

_VALUE = (
    r"\s*(?:[:=]\s*[^\s,;]|(?:(?:is|was|code|number|no\.?|num|#)\s*[:=]?\s*"
    r"|은\s*|는\s*|이\s*|가\s*|번호\s*)?[^\s,;]*\d)"
)
"""What must follow a label for it to name a value: ':' or '=' and anything, or a token
with a digit, maybe after `is`, `code`, `number` or a particle (`password: x`, `OTP code
4829`, `계좌번호 110-123`, `my pin is 0420`; not `password reset`)."""


@cache
def _label(category: str) -> re.Pattern[str] | None:
    """A `category` label (the name alone, group `name`) followed by its value."""
    phrases = words(category, "label")
    if not phrases:
        return None
    english = [p for p in phrases if p.isascii()]
    korean = [p for p in phrases if not p.isascii()]
    parts = []
    if english:
        parts.append(rf"(?<![\w'-])(?:{_alternatives(english)})(?![\w'-])")
    if korean:
        parts.append(_alternatives(korean))
    return re.compile(f"(?P<name>{'|'.join(parts)}){_VALUE}")


def labelled(category: str, text: str) -> str | None:
    """The label of a `category` value in a normalized text (`password: ...`), or None."""
    pattern = _label(category)
    hit = pattern.search(text) if pattern else None
    return re.sub(r"\s+", " ", hit.group("name")) if hit else None


@dataclass(frozen=True)
class Found:
    """What decided a category: its kind (`act`, a PII kind, `label`, `data`) and a word."""

    kind: str
    why: str


def sensitive(text: str) -> Found | None:
    """Personal data or a secret in a call's arguments (normalized inside), or None.

    The safeguard's PII first (a card number is a payment: it is left to the caller),
    then the kinds of the module's table.
    """
    plain = normalize(text)
    for kind, _ in find_pii(plain):
        if kind != "CARD":
            return Found(kind, kind)
    for kind, pattern in _SENSITIVE_PATTERNS:
        if pattern.search(plain):
            return Found(kind, kind)
    for match in _GROUPED.finditer(plain):
        if 10 <= sum(c.isdigit() for c in match.group(0)) <= 14:
            return Found("ACCOUNT", "ACCOUNT")
    name = labelled("sensitive", plain)
    if name:
        return Found("label", f"labelled {name!r}")
    for phrase in words("sensitive", "data"):
        if compact(phrase) in compact(plain):
            return Found("data", f"states {phrase!r}")
    condition = _mentions("sensitive", ("condition",), plain) or next(
        (c for c in words("sensitive", "condition") if not c.isascii() and c in plain), None
    )
    if condition:
        person = _mentions("sensitive", ("person",), plain) or next(
            (p for p in words("sensitive", "person") if not p.isascii() and p in plain), None
        )
        if person:
            return Found("data", f"states {condition!r} of a person")
    return None
