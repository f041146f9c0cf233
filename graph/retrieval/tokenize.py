"""Korean-aware tokens for keyword search: content morphemes from Kiwi, English words."""

from __future__ import annotations

import re
import threading
from functools import lru_cache
from typing import Any

_KEEP = ("NNG", "NNP", "NNB", "NR", "VV", "VA", "XR", "SL", "SN", "SH", "MAG")
_EN_STOP = {
    "the",
    "a",
    "an",
    "is",
    "are",
    "was",
    "were",
    "be",
    "do",
    "does",
    "did",
    "i",
    "you",
    "we",
    "my",
    "our",
    "your",
    "to",
    "of",
    "in",
    "on",
    "for",
    "and",
    "or",
    "what",
    "how",
    "when",
    "where",
    "who",
    "which",
    "can",
    "should",
    "it",
    "this",
    "that",
    "with",
    "at",
    "by",
    "if",
    "much",
    "many",
    "there",
    "any",
    "get",
    "from",
    "as",
    "me",
    "have",
    "has",
}
_KO_STOP = {
    "하다",
    "되다",
    "있다",
    "없다",
    "어떻다",
    "이다",
    "않다",
    "주다",
    "알다",
    "싶다",
    "보다",
    "같다",
    "받다",
    "돼다",
    "수",
    "것",
    "등",
    "때",
    "좀",
    "더",
    "뭐",
    "어디",
    "언제",
    "얼마",
}
_lock = threading.Lock()
_HANGUL_WORD = re.compile(r"[가-힣]+")


@lru_cache(maxsize=1)
def _kiwi() -> Any:
    from kiwipiepy import Kiwi

    return Kiwi()


def _stem(word: str) -> str:
    for suffix in ("ing", "ies", "es", "ed", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return word


def tokens(text: str) -> list[str]:
    """Search tokens of `text`: nouns, verb/adjective stems, numbers, English words."""
    with _lock:  # Kiwi instances are not documented as thread-safe
        morphs = _kiwi().tokenize(text)
    out: list[str] = []
    for m in morphs:
        if not m.tag.startswith(_KEEP):
            continue
        form = m.form.lower()
        if m.tag == "SL":
            for word in re.findall(r"[a-z]+", form):
                if word not in _EN_STOP and len(word) > 1:
                    out.append(_stem(word))
        elif m.tag in ("VV", "VA"):
            if form + "다" not in _KO_STOP:
                out.append(form + "다")
        elif form not in _KO_STOP:
            out.append(form)
            if m.tag.startswith("NN") and len(form) >= 3 and _HANGUL_WORD.fullmatch(form):
                # Kiwi keeps "재택근무" whole in one sentence and splits it in another; the
                # parts make both spellings meet.
                out.append(form[:2])
                if len(form) >= 4:
                    out.append(form[-2:])
    return out
