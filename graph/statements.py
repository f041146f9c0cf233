"""What the user said, read back out of a context: the offline engine's answer to "what's my ...?".

A question about the user ("제 사번이 뭐였죠?", "When is our trip now?") is answered from
the user's own statements in the context the model receives: the user's side of the
summaries (`사용자: ...`), of the recalled turns, the pinned facts, the entities, and the
raw turns. Answers, quotes and earlier questions are not statements: the engine never
answers from its own earlier "not found" or from a question the user asked.

A statement is matched by the words (Hangul syllable pairs) it shares with the question,
each weighted by how rare it is among the statements, plus a bonus when it holds the kind
of fact the question asks for (a date for "when", an amount for "how much"). Among
statements that match about as well, the newest wins: a fact said again later is the
current one. A question in two parts ("사번이랑 생일") gets a statement for each part.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from graph.summarizer import sentences
from graph.text import is_greeting, tells_nothing

_ROLE = re.compile(r"(?:^|\s)(사용자|User|AI|Assistant|도구\([^)]*\)|Tool\([^)]*\)):\s", re.M)
_USER_ROLES = ("사용자", "User")


@dataclass(frozen=True)
class Statement:
    """One thing the user said, as the context holds it."""

    text: str
    """The user's words: a whole message of a raw or recalled turn, else a sentence."""
    turn: float
    """When it was said, for newest-wins: the turn, or a summary's last turn; 0 if unknown."""
    label: str
    """How an answer names where it comes from ("1턴", "1-3턴 요약", "고정된 사실, 5턴")."""


def user_segments(text: str) -> list[str]:
    """The user's parts of a transcript-like text (`사용자: ... AI: ...`).

    Text with no speaker labels (a model's summary, a pinned fact) is all one part.
    """
    marks = list(_ROLE.finditer(text))
    if not marks:
        return [text.strip()] if text.strip() else []
    parts = []
    for i, mark in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        if mark.group(1) in _USER_ROLES:
            parts.append(text[mark.end() : end].strip())
    return [p for p in parts if p]


def said(text: str, turn: float, label: str, whole: bool) -> list[Statement]:
    """The statements of one user part: the whole message, or each sentence, minus questions."""
    if whole:
        kept = [s for s in sentences(text) if not tells_nothing(s) and not is_greeting(s)]
        return [Statement(" ".join(kept), turn, label)] if kept else []
    return [
        Statement(s, turn + i / 1000, label)
        for i, s in enumerate(sentences(text))
        if not tells_nothing(s) and not is_greeting(s)
    ]


Grams = Callable[[str], frozenset[str]]
"""How text is cut into comparable pieces (the offline engine's words and syllable pairs)."""


def best_statements(
    question: str,
    statements: Sequence[Statement],
    grams: Grams,
    kinds: Sequence[re.Pattern[str]] = (),
    facts: Sequence[re.Pattern[str]] = (),
    *,
    bonus: float = 0.3,
    margin: float = 0.1,
    floor: float = 0.2,
    most: int = 3,
) -> list[tuple[Statement, float]]:
    """The statements answering `question`, best first; empty when none shares enough.

    `kinds` are patterns of the kind of fact the question asks for (each found in a
    statement adds `bonus`), `facts` those of every kind of fact there is. A statement must share `floor` of the question's weighted
    words (with the bonus) to count. Of the statements within `margin` of the best that
    hold at least half as many of its words as the most any does, the newest is taken, and an older one too when it holds another kind of fact ("남편 생일"
    and "남편은 병원에서 일해요" both match "남편 직업"; "마감은 12월 20일" is replaced
    by "마감이 12월 27일로"). A newer statement on the same matched words with the same
    kind of fact is the update of a chosen one and comes with it. Then, while the
    question asks for a kind of fact no chosen statement holds, the one holding it said
    nearest to a chosen one is added, and while the question has words no chosen
    statement holds, the statement holding most of them (at least `floor / 2`) is added
    (up to `most`).
    """
    wanted = grams(question)
    statements = _distinct(statements)
    if not wanted or not statements:
        return []
    pieces = [grams(s.text) for s in statements]
    weight = _rarity(wanted, pieces)
    total = sum(weight.values())

    def share(have: frozenset[str], among: Iterable[str]) -> float:
        return sum(weight[g] for g in among if g in have) / total

    def held(statement: Statement, patterns: Sequence[re.Pattern[str]]) -> frozenset[int]:
        return frozenset(i for i, k in enumerate(patterns) if k.search(statement.text.lower()))

    scored = [
        _Scored(
            s,
            have,
            share(have, wanted) + bonus * len(held(s, kinds)),
            held(s, kinds),
            held(s, facts),
            share(have, wanted),
        )
        for s, have in zip(statements, pieces, strict=True)
    ]
    sharing = [item for item in scored if item.words > 0]  # a word in common, at least
    if not sharing:
        return []
    top = max(item.score for item in sharing)
    if top < floor:
        return []
    said = max(item.words for item in sharing)
    close = [i for i in sharing if i.score >= top - margin and i.words >= said / 2]
    chosen: list[_Scored] = []
    for item in sorted(
        close or [max(sharing, key=lambda i: i.score)], key=lambda i: -i.statement.turn
    ):
        if len(chosen) < most and not any(_replaces(c, item) for c in chosen):
            chosen.append(item)
    for item in list(chosen):
        newer = [
            other
            for other in scored
            if other.statement.turn > item.statement.turn
            and item.kinds & other.kinds
            and _same_topic(item, other, wanted, weight)
        ]
        if newer and len(chosen) < most:
            update = max(newer, key=lambda o: o.statement.turn)
            if all(update is not c for c in chosen):
                chosen.append(update)
    for kind in range(len(kinds)):
        holding = [o for o in scored if kind in o.kinds]
        if holding and len(chosen) < most and not any(kind in c.kinds for c in chosen):
            # a kind of fact asked for that no chosen statement holds ("사번이랑 생일"):
            # the statement with it said nearest to a chosen one, likely the same message
            near = min(
                holding,
                key=lambda o: (
                    min(abs(o.statement.turn - c.statement.turn) for c in chosen),
                    -o.score,
                ),
            )
            chosen.append(near)
    missing = {g for g in wanted if weight[g] > 0 and not any(g in c.have for c in chosen)}
    while missing and len(chosen) < most:
        extra = [
            (other, share(other.have, missing))
            for other in scored
            if all(other is not c for c in chosen)
        ]
        extra = [pair for pair in extra if pair[1] >= floor / 2]
        if not extra:
            break
        best = max(gain for _, gain in extra)
        pick = max(
            (o for o, gain in extra if gain >= best - margin / 2), key=lambda o: o.statement.turn
        )
        chosen.append(pick)
        missing -= pick.have
    return [(c.statement, c.score) for c in chosen]


@dataclass(frozen=True)
class _Scored:
    statement: Statement
    have: frozenset[str]
    score: float
    kinds: frozenset[int]
    """The kinds of fact asked for that it holds."""
    facts: frozenset[int]
    """The kinds of fact it holds."""
    words: float
    """The share of the question's words it holds (the score without the bonus)."""


def _replaces(newer: _Scored, older: _Scored) -> bool:
    """Whether `newer` says anew what `older` said.

    It does when both hold a kind of fact the question asks for, the same one; when
    neither does, when they hold a kind of fact in common, or none at all.
    """
    if newer.kinds or older.kinds:
        return bool(newer.kinds & older.kinds)
    return bool(newer.facts & older.facts) or not (newer.facts or older.facts)


def _same_topic(
    item: _Scored, other: _Scored, wanted: frozenset[str], weight: dict[str, float]
) -> bool:
    """Whether `other` holds at least half (by weight) of the question words `item` holds."""
    mine = [g for g in wanted if g in item.have]
    need = sum(weight[g] for g in mine)
    return need > 0 and sum(weight[g] for g in mine if g in other.have) >= need / 2


def _distinct(statements: Sequence[Statement]) -> list[Statement]:
    """Statements minus repeats.

    A summary's sentence that a whole recalled or raw turn holds goes (the turn names
    where it was said), and so does a sentence a summary cut short ("이름은…").
    """
    out = []
    for statement in statements:
        core = statement.text.rstrip("….").strip()
        if not core:
            continue
        if any(
            other is not statement
            and core in other.text
            and (len(other.text) > len(statement.text) or other.turn < statement.turn)
            for other in statements
        ):
            continue
        out.append(statement)
    return out


def _rarity(wanted: frozenset[str], pieces: Sequence[frozenset[str]]) -> dict[str, float]:
    """Each question word's weight: rarer among the statements weighs more; unseen ones 1."""
    count = len(pieces)
    weight = {}
    for gram in wanted:
        holding = sum(gram in have for have in pieces)
        weight[gram] = math.log(1 + count / holding) if holding else 1.0
    return weight
