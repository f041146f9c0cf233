"""Text that can be stored and sent: no lone surrogates, no control characters.

A lone surrogate (half of a UTF-16 pair, e.g. from a broken paste or a crafted request)
cannot be encoded as UTF-8: SQLite, JSON and every model API reject it, so it is refused
up front with a clear message instead of failing deep in a write.
"""

from __future__ import annotations

import re

from graph.errors import InputError

_HANGUL = re.compile(r"[가-힣]")
_BAD = re.compile(r"[\ud800-\udfff]|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
THREAD_ID = re.compile(r"[A-Za-z0-9_.:-]{1,100}")
"""What a thread id may look like (the app makes `session_<hex>`; the API may name its own)."""


def check_text(text: str, what: str = "The message") -> str:
    """Return `text` if it can be stored and sent; InputError naming the first bad character."""
    match = _BAD.search(text)
    if match is None:
        return text
    char = match.group(0)
    kind = (
        "an unpaired surrogate (half of a broken character)"
        if "\ud800" <= char <= "\udfff"
        else "a control character"
    )
    raise InputError(
        f"{what} contains {kind} U+{ord(char):04X} at position {match.start() + 1}; "
        "remove it and try again."
    )


def check_thread_id(thread_id: object) -> str:
    """Return a well-formed thread id; InputError for anything else."""
    if not isinstance(thread_id, str) or not THREAD_ID.fullmatch(thread_id):
        shown = repr(thread_id)[:60].encode("utf-8", "backslashreplace").decode()
        raise InputError(
            f"Invalid thread id {shown}: use 1-100 letters, digits, '_', '-', '.' or ':'."
        )
    return thread_id


def is_korean(text: str) -> bool:
    """True when the text contains Hangul (answers and apologies follow the user's language)."""
    return bool(_HANGUL.search(text))


_CODE = re.compile(r"```.*?(?:```|$)|`[^`\n]*`", re.S)


def speaks_korean(text: str) -> bool:
    """Whether to answer a message in Korean: it has Hangul, or no words outside its code.

    A message of code alone ("```print(1)```", "`2+2`") says nothing of the user's
    language: the app's own, Korean, answers it; English words outside code answer in
    English.
    """
    if is_korean(text):
        return True
    return not re.search(r"[A-Za-z]{2,}", _CODE.sub("", text))


_GREETING = re.compile(
    r"(안녕(하세요|하십니까|히\s?계세요|히\s?가세요)?|반가워요?|반갑습니다|좋은\s?(아침|하루)(이에요|입니다)?"
    r"|고마워요?|감사합니다|감사해요|수고하세요|잘\s?자요?|hi|hello|hey|good\s(morning|afternoon|evening)"
    r"|thanks?(\syou)?|thank\syou|bye|good\s?bye|see\syou)"
    r"(\s?(there|all|everyone|so\smuch|again))?[\s!.~^?ㅎㅋ:)]*",
    re.IGNORECASE,
)


def is_greeting(text: str) -> bool:
    """A plain greeting, thanks or goodbye and nothing else.

    Seed 002's fast path: no router, no tools, one model call. "안녕하세요, 연차 며칠이야?"
    is a question, not a greeting.
    """
    return bool(_GREETING.fullmatch(text.strip()))


_QUESTION_END = re.compile(r"[?？][\s)\"'”’]*$|(까|나요|죠|니|냐|래|어때)\s*[.!~]*$")
_QUESTION_START = re.compile(
    r"^\W*(what|when|where|who|whom|whose|which|why|how|can|could|would|do|does|did|"
    r"is|are|was|were|should|shall)\b",
    re.IGNORECASE,
)
_REQUEST_END = re.compile(
    r"(줘|줘요|주세요|줄래|할래|주십시오|주시겠어요|바랍니다|부탁드립니다|부탁해요|부탁해|"
    r"싶습니다|싶어요|싶어|궁금해요|궁금합니다|궁금해|좀)\s*[.!~]*$"
)
_REQUEST_START = re.compile(
    r"^\W*(please|tell me|show me|explain|summari[sz]e|describe|list|give me|find|"
    r"i want to know|i'd like to know|i would like to know|i wonder)\b",
    re.IGNORECASE,
)
_SAYING_END = re.compile(r"(다|요|네|음|함|임|[a-zA-Z0-9)%]\.|[!.])\s*[.!~^ㅎㅋ)]*$")
_SUBJECT_START = re.compile(r"^\W*(i|i'm|i've|my|we|we're|our|he|she|it|they|their)\b", re.I)
"""An English sentence beginning with its subject: a statement even without a period."""


def is_question(sentence: str) -> bool:
    """A question by its grammar.

    A question mark, a Korean asking ending ("...뭐였죠"), or an English question's first
    word.
    """
    text = sentence.strip()
    return bool(_QUESTION_END.search(text) or _QUESTION_START.search(text))


def is_request(sentence: str) -> bool:
    """A request by its grammar.

    A Korean requesting ending ("...알려줘", "...궁금해요", "...부탁드립니다") or an English
    request's first words ("Please", "Explain").
    """
    text = sentence.strip()
    return bool(_REQUEST_END.search(text) or _REQUEST_START.search(text))


def tells_nothing(sentence: str) -> bool:
    """A question, or a request with nothing of the user's in it.

    Such a sentence is not something the user said about themselves; "Please remember
    that my number is 42." does tell something.
    """
    text = sentence.strip()
    return is_question(text) or (is_request(text) and not text.lower().startswith("please"))


def is_statement(text: str) -> bool:
    """A message that only tells something.

    No sentence asks or requests, and it ends as a declarative sentence does ("...이에요.",
    "...입니다", "I live in Leeds.", "I joined last week"). A bare phrase ("휴가 정책") is
    neither: it is looked up.
    """
    parts = [p for p in re.split(r"(?<=[.!?？。])\s+|\n+", text.strip()) if p.strip()]
    if not parts or any(is_question(p) or is_request(p) for p in parts):
        return False
    last = parts[-1].strip()
    return bool(_SAYING_END.search(last) or _SUBJECT_START.search(last))


def opens_with_greeting(text: str) -> bool:
    """Whether a message begins with a greeting ("Hello! My dog is ...")."""
    first = re.split(r"(?<=[!.,~])\s+", text.strip(), maxsplit=1)[0]
    return is_greeting(first.rstrip(","))


CLOCK_ZONES = {
    "뉴욕": "America/New_York",
    "new york": "America/New_York",
    "런던": "Europe/London",
    "london": "Europe/London",
    "도쿄": "Asia/Tokyo",
    "tokyo": "Asia/Tokyo",
    "파리": "Europe/Paris",
    "paris": "Europe/Paris",
    "utc": "UTC",
    "서울": "Asia/Seoul",
    "seoul": "Asia/Seoul",
}
"""Places the clock tool knows by name, with their time zones."""
_PLACES = "|".join(re.escape(place) for place in CLOCK_ZONES)
_HOUR = r"몇\s?시(?!간|부터|까지|에\s|에서)"
"""'몇 시' asking the hour now, not '몇 시간' (how long) or '몇 시부터/까지/에 출근' (when)."""
_CLOCK = re.compile(
    rf"(지금|현재)\s*({_HOUR}|시간(?!\s?외)|시각|날짜(?!\s?기준)|요일)|(지금|현재)\s*\S+\s*{_HOUR}"
    r"|(오늘|내일|어제)\S*\s*(몇\s?월\s*)?(며칠|날짜|무슨\s?요일|요일)"
    rf"|^\s*({_HOUR}|며칠|무슨\s?요일)\S*\s*[?？.!~]*\s*$"
    rf"|({_PLACES})\S*\s*(\S+\s*)?{_HOUR}|\btime (is it )?in ({_PLACES})"
    r"|\bwhat time (is it|it is)|\bwhat'?s the time\b|\btime is it\b|\bcurrent (time|date)\b"
    r"|\bwhat day (is it|is today|it is)|\bday of the week\b|\btoday'?s date\b"
    r"|\bwhat(?: i|')s the date\b(?!\s+of)|\bwhat date is it\b",
    re.IGNORECASE,
)


def asks_the_clock(text: str) -> bool:
    """A question about the time or date now ("지금 몇 시야?", "what day is it?").

    A question about when something happens ("몇 시부터 몇 시까지 답해야 돼?", "What time
    should I show up on my first day?") asks the documents or the conversation instead,
    and so does "what date (day) is it?" right after a question about a thing: "it" is
    that thing ("Do we get the company's birthday off? What date is it?"). ("What time is
    it?" always asks the clock.)
    """
    found = _CLOCK.search(text)
    if found is None:
        return False
    refers_back = (
        re.search(r"\b(date|day) is it\b", found.group(0), re.I)
        and any(mark in text[: found.start()] for mark in "?？")
        and not text[found.end() :].strip(" ?!.")  # not "... is it today?"
    )
    return not refers_back
