"""Search tokens: Korean content morphemes from Kiwi, lowercased English words, numbers.

Particles, endings and copulas are dropped, so "연차는", "연차를" and "연차가" all become
"연차"; verb and adjective stems get "다" back ("잃어버렸어요" -> "잃어버리다"). Kiwi loads its
model (about a second) on first use, once per process.
"""

from __future__ import annotations

import functools
import re
import threading
from typing import Any

_KEEP_TAGS = frozenset({"NNG", "NNP", "NR", "SN", "SH", "SL", "XR", "VV", "VA"})
_PREDICATE_TAGS = frozenset({"VV", "VA"})
_NOUN_SUFFIXES = frozenset("비금료일증권서실자표액율률제팀")
"""One-syllable noun suffixes ("숙박비", "지원금", "응시료", "급여일"): a noun ending in one
also yields its stem, so "숙박" in a question meets "숙박비" in a document. Kiwi splits
productive compounds itself; lexicalized ones like these it keeps whole."""

EN_STOPWORDS = frozenset(
    """a about after again all also am an and any are as at be been before being but by can
    could did do does doing done for from get gets getting got had has have having he her here
    him his how i if in into is it its just me more most much my no not of off on once only or
    other our out own same she should so some such than that the their them then there these
    they this those through to too under until up us very was we were what when where which
    while who whom why will with would you your yours yourself let lets ok okay please tell
    know want need like still ever anything something thing things way really""".split()
)
"""Function words and question words with no topic of their own."""

EN_PHRASING = frozenset(
    """able accept add allow ask back bad be become begin big bring buy call change check
    claim come complete continue cover decide different do done early easy else enough
    even every exact exactly explain fast feel fill find fine finish first follow full give
    go good great happen happens help hold keep kind last late later leave less let long
    look lose make many mean meant move must new next normal offer okay old open own part
    pay possible provide put quick quickly right run say see seem send set show small
    soon start stay stop sure take talk tell think try turn typical usual usually use
    wait walk whole work worth write wrong
    actual actually already always anyone anybody anyway around away beyond bunch case
    each either everyone everybody everything far few got gotten instead least lot lots
    may maybe might never often once one ones regular regularly said sent someone
    sometimes somebody took taken two three whose wanted wants went yet
    today tomorrow yesterday tonight morning afternoon evening night week weeks month
    months year years day days hour hours minute minutes
    monday tuesday wednesday thursday friday saturday sunday january february march
    april june july august september october november december""".split()
)
"""Everyday English verbs, adjectives, adverbs and time words: how a question is put, not
what it is about. Like a Korean verb, one weighs half a noun when documents use it, and
nothing when they do not; any other English word that no document, keyword or glossary
line has is a topic they do not cover ("pet", "quantum")."""
KO_STOPWORDS = frozenset(
    """하다 되다 있다 없다 이다 아니다 않다 주다 받다 알다 싶다 보다 같다 어떻다 그렇다 이렇다
    돼다 가다 오다 쓰다 해주다 알려주다 궁금하다 수 것 거 등 때 좀 더 뭐 무엇 어디 언제 얼마
    누구 어떻게 왜 몇 며칠 알리다 나오다 제 저 나 내 우리 그 이 요 네""".split()
)
"""Light verbs and question words that every question has and no answer needs."""
KO_TIME_WORDS = frozenset(
    """오늘 내일 모레 어제 그제 그저께 지금 요즘 요새 방금 아까 이따 나중 당장 이번 지난 다음
    그날 그때 이달 이번달 다음달 지난달 올해 작년 내년 금년 재작년 이번주 다음주 지난주""".split()
)
"""Korean words for when a question is asked, not what it is about: like the English time
words of `EN_PHRASING`, one no document uses is no topic the documents miss ("오늘 건물에
어떻게 들어가요?")."""

KO_FRAME_WORDS = frozenset("방법 법 사람 이유 차이 뜻 의미 종류 요령 비결 팁 추천".split())
"""Korean nouns that frame what is asked about a topic (a way, a person, a reason, the
kinds, a tip), not the topic itself: "김치찌개 끓이는 방법" is about 김치찌개. A question whose
only words a document uses are such nouns (and verbs) names no topic of the documents."""
KO_GENRE_WORDS = frozenset("정책 규정 규칙 지침 방침 매뉴얼 가이드 안내 제도 내규".split())
"""Korean words for the kind of text asked for, not what it is about: "휴가 정책" asks for
the document on leave whatever it calls itself ("휴가 규정"), so one no document uses is no
topic the documents miss (seed 000's own example)."""

_lock = threading.Lock()
_kiwi: Any = None
_WORD = re.compile(r"[a-z][a-z0-9]*|[0-9]+")
_HANGUL = re.compile(r"^[가-힣]+$")


_local = threading.local()


def _stemmer() -> Any:
    """This thread's English stemmer.

    A Snowball stemmer keeps the word it works on in the object, so two threads sharing
    one corrupt each other's words (IndexError in a turn).
    """
    stemmer = getattr(_local, "stemmer", None)
    if stemmer is None:
        import snowballstemmer

        stemmer = _local.stemmer = snowballstemmer.stemmer("english")
    return stemmer


def _analyzer() -> Any:
    """The process-wide Kiwi instance, built on first use (caller holds `_lock`)."""
    global _kiwi
    if _kiwi is None:
        from kiwipiepy import Kiwi

        _kiwi = Kiwi()
    return _kiwi


@functools.lru_cache(maxsize=65_536)
def stem_english(word: str) -> str:
    """Snowball's English stemmer: "hoping" and "hope" both become "hope".

    Applied to documents, conversation turns and queries alike, so it only has to be
    consistent, not a dictionary form. Words repeat, and the stemmer is pure Python:
    remembered (a few MB at most), it is half of a recall's time less.
    """
    return str(_stemmer().stemWord(word))


def english_words(text: str) -> list[str]:
    """Lowercased English words of `text`, stop words removed, not stemmed."""
    return [w for w in _WORD.findall(text.lower()) if w not in EN_STOPWORDS and len(w) > 1]


class _Latin:
    """A run of Latin-script text as one morpheme (see `_join_latin`)."""

    tag = "SL"

    def __init__(self, form: str, start: int) -> None:
        self.form = form
        self.start = start
        self.len = len(form)


def _join_latin(morphs: list[Any]) -> list[Any]:
    """Kiwi's morphemes with adjacent Latin pieces joined back into their word.

    Kiwi cuts some English words before a period into pieces ("detail." -> "det" +
    "ail."; "apples." -> "app" + "les."), which no query word would ever meet.
    """
    out: list[Any] = []
    for morph in morphs:
        last = out[-1] if out else None
        if (
            morph.tag == "SL"
            and last is not None
            and last.tag == "SL"
            and last.start + last.len == morph.start
        ):
            out[-1] = _Latin(last.form + morph.form, last.start)
        else:
            out.append(morph)
    return out


def tokens(text: str, joined: bool = False) -> list[str]:
    """Search tokens of `text`, in order, with repeats.

    Args:
        text: Korean, English or mixed text.
        joined: Also the word a bound noun and the noun written right after it make:
            Kiwi reads the first syllable of some compounds as a bound noun in some
            sentences ("해외 출장 일비를" -> "일"/NNB + "비") and not in others ("일비"
            alone stays whole); a bound noun is dropped, so the word would be lost.
            And the unit of time an adverb of "every" names ("매월" -> "월", `EVERY`).

    Returns:
        Nouns, verb/adjective stems (as dictionary forms, "쓰다"), roots, numbers and
        stemmed lowercase English words; particles, endings and stop words dropped.
    """
    if not text.strip():
        return []
    with _lock:  # Kiwi is not documented as thread-safe; analysis is fast.
        morphs = _analyzer().tokenize(text)
    out: list[str] = []
    morphs = _join_latin(morphs)
    for i, morph in enumerate(morphs):
        tag = morph.tag.split("-")[0]  # "VV-R" / "VA-I": regular or irregular stems
        if joined and i and _compound(morphs[i - 1], morph):
            out.append(morphs[i - 1].form + morph.form)
        if joined and tag == "MAG" and morph.form in EVERY:
            out.append(EVERY[morph.form])
        if tag not in _KEEP_TAGS:
            continue
        form = morph.form.lower()
        if tag == "SL":
            out.extend(stem_english(w) for w in english_words(form))
        elif tag in _PREDICATE_TAGS:
            lemma = form + "다"
            if lemma not in KO_STOPWORDS:
                out.append(lemma)
        elif form not in KO_STOPWORDS:
            out.append(form)
            if (
                len(form) >= 3
                and form[-1] in _NOUN_SUFFIXES
                and tag in ("NNG", "NNP")
                and _HANGUL.match(form)
            ):
                out.append(form[:-1])
    return out


EVERY = {"매월": "월", "매달": "월", "매주": "주", "매년": "년"}
"""Adverbs of "every" a unit of time ("매월 25일"), and the unit they name: a question asks
with the noun ("월급일", "monthly" -> "월"), and the adverb itself is no search token.
("매일" is left out: its "일" would meet "일", work.)"""


def _compound(first: Any, second: Any) -> bool:
    """Whether two morphemes are a bound noun and a noun written together as one word."""
    return (
        first.tag.split("-")[0] == "NNB"
        and second.tag.split("-")[0] in ("NNG", "NNP")
        and first.start + first.len == second.start
        and bool(_HANGUL.match(first.form + second.form))
    )


@functools.lru_cache(maxsize=65_536)
def is_predicate(term: str) -> bool:
    """Whether a Korean search token is a verb or adjective ("쓰다"), not a noun ("캐나다").

    `tokens` writes verb and adjective stems with "다"; Kiwi tells them from nouns that end
    in 다 by analyzing the token again (remembered: a term's part of speech does not change).
    """
    if len(term) < 2 or not term.endswith("다") or not _HANGUL.match(term):
        return False
    with _lock:
        morphs = _analyzer().tokenize(term)
    return (
        bool(morphs)
        and morphs[0].tag.split("-")[0] in _PREDICATE_TAGS
        and (morphs[0].form == term[:-1])
    )


def compound_parts(term: str) -> list[str]:
    """Two-syllable pieces of a Korean noun of three or more syllables.

    Korean writes compounds as one word or two ("집주인", "집 주인"; "결혼기념일" asked as
    "기념일"), and Kiwi keeps lexicalized compounds whole. Overlapping syllable bigrams are
    the classic remedy of Korean retrieval: the pieces of both spellings meet.
    """
    if len(term) < 3 or not _HANGUL.match(term) or term.endswith("다"):
        return []
    return [term[i : i + 2] for i in range(len(term) - 1)]


_PHRASE_NOUNS = frozenset({"NNG", "NNP", "SL"})


def noun_phrases(text: str) -> list[tuple[str, ...]]:
    """The runs of two or more nouns written side by side in `text`, as search tokens.

    "회사 주식 배당금은" -> ("회사", "주식", "배당금"); "pet insurance" -> ("pet", "insur").
    Nouns are side by side when only spaces part them; a particle, a verb, punctuation, or
    an English function or everyday word ("offer", `EN_PHRASING`) ends a run. A noun
    suffix ("사장님") belongs to its noun.
    """
    if not text.strip():
        return []
    with _lock:
        morphs = _join_latin(_analyzer().tokenize(text))
    runs: list[tuple[str, ...]] = []
    run: list[str] = []
    end = -1
    for morph in morphs:
        tag = morph.tag.split("-")[0]
        joined = end >= 0 and not text[end : morph.start].strip()
        if tag == "XSN" and joined:
            end = morph.start + morph.len
            continue
        word = _phrase_noun(morph.form, tag)
        if word is None or not joined:
            if len(run) >= 2:
                runs.append(tuple(run))
            run = []
        if word is None:
            end = -1
            continue
        run.append(word)
        end = morph.start + morph.len
    if len(run) >= 2:
        runs.append(tuple(run))
    return runs


def _phrase_noun(form: str, tag: str) -> str | None:
    """The search token of a noun that can be part of a noun phrase, else None."""
    if tag not in _PHRASE_NOUNS:
        return None
    if tag != "SL":
        return None if form in KO_STOPWORDS else form
    words = english_words(form)
    if len(words) != 1 or not words[0].isalpha() or words[0] in EN_PHRASING:
        return None
    return stem_english(words[0])


def recall_tokens(text: str) -> list[str]:
    """Search tokens for conversation recall: `tokens` plus the pieces of Korean compounds."""
    out = []
    for term in tokens(text):
        out.append(term)
        out.extend(compound_parts(term))
    return out
