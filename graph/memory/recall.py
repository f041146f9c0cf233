"""Recall: the archived turns most relevant to the current message, put back in the context.

Turns that left the context (summarized, windowed or folded into the memory) are not gone:
they are in the archive, indexed by their search terms (`graph.storage.recall_index`).
For each message the index is asked which archived turns share its terms; each candidate
gets a relevance score, and the relevant ones, best first, fill a bounded section of the
context (`[관련 이전 대화]`), each labelled with its turn number and time, oldest first.

Relevance is the share of the message's information that the turn contains: the
IDF-weighted share of the message's terms (each with its everyday synonyms, see
`graph.memory.thesaurus`) found in the turn, where IDF is computed within
the thread, terms the thread never used count as missing, and a turn that matches only
words most turns share counts half. Below `MIN_RELEVANCE` nothing is recalled, so a
message about something new adds nothing and the context stays exactly the strategy's
own. Among relevant turns, BM25 (binary term frequency, length-normalized) orders them,
and a later turn wins a tie, so an updated fact comes before the one it replaced.

A question that asks for a kind of value (when, how much, who, where, which number; see
`graph.memory.answer_types`) counts that kind as one more of its terms, held by the turns
whose user message states such a value: the turn that gave the date answers "when?".

A fact that changed later is often found by its first statement, whose words the question
echoes, while the change is worded otherwise ("the Italian place lost our booking, so we
go to ... instead"). So each of the best hits brings its **follow-up**: the later turn that
says something changed (`UPDATE_CUES`) and shares the most of the hit's words (two at
least). It is marked as following its hit.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from langchain_core.messages import BaseMessage

from graph.memory.answer_types import answer_kinds
from graph.memory.thesaurus import synonyms
from graph.storage import (
    KIND,
    Postings,
    doc_lengths,
    holds,
    read_postings,
    turns_with,
)
from graph.storage.archive import Archive, load_archived_turns
from graph.summarizer import cut_words, sentences
from graph.times import describe_time, turn_time
from graph.turns import final_answer, user_text
from graph.untrusted import untrusted_message
from prompt import get_prompt

MIN_RELEVANCE = 0.3
"""Share of the message's information a turn must contain to be recalled."""
GENERIC_SHARE = 0.25
"""A term in more than this share of the thread's turns is generic."""
UNKNOWN_WEIGHT = 1.0
"""A term the thread never used weighs like an average known term (it is missing)."""
ITEM_CHARS = 600
"""A recalled turn longer than this is cut to its sentences that match the message."""
CANDIDATES = 40
"""Turns ranked in full; the rest cannot be among the few that fit the budget."""
K1, B = 1.2, 0.75
"""BM25's usual constants."""
MIN_ITEM_CHARS = 60
"""Room below which the recall section takes no more turns (a label and a short line)."""
MISFITS = 4
"""Turns in a row that do not fit the room left after which no smaller one is looked for
(each is read and cut to an excerpt to know its size)."""
FOLLOWED_HITS = 2
"""The best hits whose later follow-up (an update of what they said) is looked for."""
UPDATE_CUES = frozenset(
    {
        # English stems (Snowball, as the index stores them)
        "updat", "chang", "instead", "postpon", "cancel", "replac", "reschedul", "switch",
        # Korean lemmas and nouns
        "바꾸다", "바뀌다", "변경", "대신", "옮기다", "취소", "연기", "미루다", "앞당기다",
        "수정",
    }
)  # fmt: skip
"""Words that say something changed: a later turn on the same subject that holds one of
them updates what an earlier turn said."""


@dataclass
class Recalled:
    """One archived turn put back into the context."""

    turn: int
    """Its turn number."""
    time: str
    """When it was sent (ISO 8601), or '' if unknown."""
    score: float
    """Relevance 0-1: the IDF-weighted share of the message's terms it contains (for a
    follow-up, its hit's)."""
    terms: list[str]
    """Why it was recalled: the message's terms it contains (for a follow-up, the words
    it shares with its hit)."""
    text: str
    """What the context shows of it: the user's message and the answer, cut if long."""
    data: bool = False
    """The turn holds untrusted text (a file, a document, the web, a history payload's
    answer; `graph.untrusted.untrusted_message`): its answer may carry that text."""
    follows: int = 0
    """For a follow-up: the recalled turn whose subject it takes up later (0: a hit)."""

    def as_dict(self) -> dict[str, object]:
        """Plain dict for the state (`asdict` without its deep copy: the fields are flat)."""
        return {**vars(self), "terms": list(self.terms)}


def query_terms(text: str) -> list[str]:
    """The distinct search terms of a message, in order."""
    return list(_distinct_terms(text))


@functools.lru_cache(maxsize=4096)
def _distinct_terms(text: str) -> tuple[str, ...]:
    """Remembered: a recalled turn's message is analyzed again each time it is followed up."""
    from graph.retrieval.tokenize import recall_tokens

    return tuple(dict.fromkeys(recall_tokens(text)))


@dataclass
class _Candidate:
    turn: int
    mass: float
    """IDF of the message's terms the turn holds."""
    norm: float
    """BM25's length normalization of the turn."""
    terms: list[str]
    generic: bool
    """It holds only words most turns share."""
    matched: list[str]
    """The message's terms it holds (a synonym counts as its term)."""


@dataclass
class _Scored:
    turn: int
    relevance: float
    rank: float
    terms: list[str]


@dataclass
class _Candidates:
    items: list[_Candidate]
    total: float
    """IDF of all the message's terms (unknown ones weighing like an average known one)."""
    unit: float
    """The IDF of an average known term: what the answer type weighs."""
    idf: dict[str, float]
    """The IDF of each of the message's terms the thread used."""


class _Index:
    """A thread's recall index as one recall reads it: each term's postings read once.

    First the message's terms, then those of the hits it follows up.
    """

    def __init__(self, archive: Archive, thread_id: str) -> None:
        self.archive, self.thread_id = archive, thread_id
        self.read: Postings | None = None

    def postings(self, terms: Sequence[str]) -> Postings:
        """The postings of `terms` (and of any read before)."""
        known = self.read
        missing = [t for t in terms if known is None or t not in known.counts]
        if missing:
            with self.archive.lock:
                found = read_postings(self.archive.conn, self.thread_id, missing)
            if known is None:
                self.read = known = found
            else:
                known.turns.update(found.turns)
                known.counts.update(found.counts)
        assert known is not None
        return known


@dataclass
class _Weights:
    """A message's terms as one thread's index sees them."""

    docs: int
    """Archived turns indexed in the thread."""
    holders: dict[str, dict[int, str]]
    """Term -> the turns holding its concept -> which of its words each holds."""
    df: dict[str, int]
    idf: dict[str, float]
    """The IDF of each term the thread used."""
    postings: Postings


def _weigh(terms: Sequence[str], index: _Index) -> _Weights | None:
    """The turns holding each of the terms' concepts, and their weights; None if none.

    Each query term is a concept: the term and its synonyms (`graph.memory.thesaurus`); a
    turn that holds any of them holds the concept.
    """
    concepts = {t: synonyms(t) for t in terms}
    members = sorted({m for group in concepts.values() for m in group})
    postings = index.postings(members)
    n = postings.docs
    if not n:
        return None
    holders: dict[str, dict[int, str]] = {}
    for term, group in concepts.items():
        found: dict[int, str] = {}
        # the term itself last, so that it names a turn holding it and a synonym
        for member in sorted(group, key=lambda m: (m == term, m)):
            found.update(dict.fromkeys(postings.turns.get(member, ()), member))
        holders[term] = found
    df = {  # exact for one term; for a group, its members' counts (capped at the thread)
        t: min(n, max(len(holders[t]), sum(postings.counts.get(m, 0) for m in concepts[t])))
        for t in terms
    }
    idf = {t: math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5)) for t in terms if df[t]}
    return _Weights(n, holders, df, idf, postings) if idf else None


def _candidates(terms: Sequence[str], index: _Index) -> _Candidates:
    """The archived turns that hold any of the message's terms, best `CANDIDATES` first."""
    weights = _weigh(terms, index)
    if weights is None:
        return _Candidates([], 0.0, 0.0, {})
    n, holders, df, idf, postings = (
        weights.docs,
        weights.holders,
        weights.df,
        weights.idf,
        weights.postings,
    )
    unknown = [t for t in terms if not df[t]]
    unit = sum(idf.values()) / len(idf)
    total = sum(idf.values()) + UNKNOWN_WEIGHT * unit * len(unknown)
    # each turn's mass, summed in the terms' order, at array speed (a long thread's
    # common terms hold hundreds of turns)
    last = max((max(found) for found in holders.values() if found), default=0)
    mass = np.zeros(last + 1)
    for term, weight in idf.items():
        mass[np.fromiter(holders[term], dtype=np.int64, count=len(holders[term]))] += weight
    held = np.flatnonzero(mass)
    # the heaviest first, the later of two equal ones
    coarse = [int(t) for t in held[np.lexsort((held, mass[held]))[::-1][:CANDIDATES]]]
    matched = {turn: [t for t in idf if turn in holders[t]] for turn in coarse}
    with index.archive.lock:
        lengths = doc_lengths(index.archive.conn, postings.key, coarse)
    items = [
        _Candidate(
            turn=turn,
            mass=float(mass[turn]),
            norm=1 - B + B * lengths.get(turn, postings.avg_length) / postings.avg_length,
            terms=[holders[t][turn] for t in matched[turn]],
            generic=n >= 20 and all(df[t] / n > GENERIC_SHARE for t in matched[turn]),
            matched=matched[turn],
        )
        for turn in coarse
    ]
    return _Candidates(items, total, unit, idf)


def _score(
    found: _Candidates, typed: Callable[[int], frozenset[str]] | None = None
) -> list[_Scored]:
    """Relevant candidates, best first.

    With `typed` (the message asks for a kind of value), the kind is one more term of the
    message, weighing like an average one, that a turn holds when `typed(turn)` names the
    kinds it states; it is listed among the turn's terms as `type:<kind>`.
    """
    extra = found.unit if typed is not None else 0.0
    scored = []
    for item in found.items:
        kinds = sorted(typed(item.turn)) if typed is not None else []
        mass = item.mass + (extra if kinds else 0.0)
        relevance = mass / (found.total + extra)
        if item.generic:
            relevance *= 0.5  # only words most turns share
        if relevance < MIN_RELEVANCE:
            continue
        rank = mass * (K1 + 1) / (1 + K1 * item.norm)
        why = [*item.terms, *(f"type:{kind}" for kind in kinds[:1])]
        scored.append(_Scored(item.turn, round(relevance, 3), rank, why))
    return sorted(scored, key=lambda s: (-s.rank, -s.turn))


def _follow_up(
    index: _Index, hit: int, said: str, changed: Callable[[], set[int]]
) -> tuple[int, list[str]]:
    """The turn after `hit` that updates what its user message `said`; (0, []) if none.

    Also the words they share. Among later turns that say something changed (`changed()`,
    those holding one of `UPDATE_CUES`) and share at least two of the message's words, the
    one sharing the most (IDF-weighted) wins, the later one on a tie.
    """
    terms = query_terms(said)
    cued = [turn for turn in changed() if turn > hit] if terms else []
    weights = _weigh(terms, index) if cued else None
    if weights is None:
        return 0, []
    best: tuple[float, int, list[str]] | None = None
    for turn in cued:
        shared = [t for t in weights.idf if turn in weights.holders[t]]
        if len(shared) < 2:
            continue
        mass = sum(weights.idf[t] for t in shared)
        if best is None or (mass, turn) > best[:2]:
            best = (mass, turn, [weights.holders[t][turn] for t in shared])
    if best is None:
        return 0, []
    return best[1], list(dict.fromkeys(best[2]))


def excerpt(turn: Sequence[BaseMessage], terms: Sequence[str], limit: int = ITEM_CHARS) -> str:
    """A recalled turn: what carries what was said in it, within `limit` characters.

    When the user told something (a statement among their sentences), their message is
    what is remembered, and of the answer only the sentences bearing on the message that
    recalls it (sharing a term or a synonym), so the budget holds more of the user's turns.
    When the user only asked ("What's the guest wifi password?"), the answer is what was
    said, and it is kept. If still too long, the sentences that match.
    """
    wanted = _wanted(tuple(terms))
    said = user_text(turn).strip()
    reply = list(_sentences(final_answer(turn).strip()))
    if not only_asks(said):
        kept = [i for i, s in enumerate(reply) if wanted & _terms_of(s)]
        reply = [
            ("… " if n and i != kept[n - 1] + 1 else "") + reply[i] for n, i in enumerate(kept)
        ]
    answer = " ".join(reply)
    parts = [("사용자", said), ("AI", answer)]
    parts = [(who, text) for who, text in parts if text]
    whole = "\n".join(f"{who}: {' '.join(text.split())}" for who, text in parts)
    if len(whole) <= limit:
        return whole
    pieces = [(who, s) for who, text in parts for s in sentences(text)]
    order = sorted(
        range(len(pieces)),
        key=lambda i: (-len(wanted & _terms_of(pieces[i][1])), i),
    )
    keep: set[int] = set()
    size = 0
    for i in order:
        cost = len(pieces[i][1]) + 6
        if size + cost > limit and keep:
            continue
        keep.add(i)
        size += cost
    lines: dict[str, list[str]] = {}
    last = -2
    for i in sorted(keep):
        who, sentence = pieces[i]
        gap = "… " if i != last + 1 and lines.get(who) else ""
        lines.setdefault(who, []).append(gap + sentence)
        last = i
    text = "\n".join(f"{who}: {' '.join(lines[who])}" for who, _ in parts if who in lines)
    return cut_words(text, limit)


_ASKING = re.compile(r"([?？]|(까|나요|가요|죠|니|냐|래|줘|주세요|줄래요?|알려\S*))\s*[.!~]*\s*$")
"""A sentence that asks or requests ("...?", "...알려 줘", "...있을까요")."""


@functools.lru_cache(maxsize=4096)
def only_asks(text: str) -> bool:
    """Whether every sentence of a user message asks or requests (nothing is stated)."""
    said = sentences(text)
    return bool(said) and all(_ASKING.search(s.strip()) for s in said)


@functools.lru_cache(maxsize=256)
def _wanted(terms: tuple[str, ...]) -> frozenset[str]:
    """The terms and their synonyms: what a recalled sentence must share to bear on them.

    Remembered: every candidate of one recall is cut to the same message's terms.
    """
    return frozenset(s for t in terms for s in synonyms(t))


@functools.lru_cache(maxsize=4096)
def _sentences(text: str) -> tuple[str, ...]:
    """An archived answer's sentences (remembered: the same turns are recalled again)."""
    return tuple(sentences(text))


@functools.lru_cache(maxsize=16_384)
def _terms_of(sentence: str) -> frozenset[str]:
    """The recall terms of an answer's sentence.

    Remembered: the same archived turns come up again and again as candidates, and Kiwi's
    analysis is most of a recall's time.
    """
    from graph.retrieval.tokenize import recall_tokens

    return frozenset(recall_tokens(sentence))


def item_text(item: Recalled) -> str:
    """One recalled turn as the context shows it: its label line, then its text."""
    when = describe_time(item.time)
    label = f"[{item.turn}턴, {when}]" if when else f"[{item.turn}턴]"
    return f"{label}\n{item.text}"


def format_recalled(items: Sequence[Recalled | dict[str, object]]) -> str:
    """The body of the `[관련 이전 대화]` section, oldest turn first; '' when empty."""
    shown = [i if isinstance(i, Recalled) else Recalled(**i) for i in items]  # type: ignore[arg-type]
    return "\n\n".join(item_text(i) for i in sorted(shown, key=lambda i: i.turn))


def section_chars(items: Sequence[Recalled]) -> int:
    """Characters the section takes in the system prompt, header included."""
    if not items:
        return 0
    return len(get_prompt("system.recalled", recalled=format_recalled(items)))


def recall(archive: Archive, thread_id: str, message: str, budget: int) -> list[Recalled]:
    """The archived turns of the thread relevant to `message`, within `budget` characters.

    The best turns are taken while the whole section (header included) fits the budget;
    a turn that does not fit is skipped for a smaller one after it (until MISFITS in a row
    did not fit).
    """
    terms = query_terms(message)
    if not terms or budget <= 0:
        return []
    index = _Index(archive, thread_id)
    found = _candidates(terms, index)
    if not found.items:
        return []
    kinds = answer_kinds(message)
    stating: dict[str, list[int]] = {}
    if kinds:  # the turns that state such a value, as the index marks them
        with archive.lock:
            marked = turns_with(archive.conn, thread_id, [KIND + kind for kind in sorted(kinds)])
        stating = {term.removeprefix(KIND): turns for term, turns in marked.items()}

    def typed(turn: int) -> frozenset[str]:
        return frozenset(kind for kind, turns in stating.items() if holds(turns, turn))

    ranked = _score(found, typed if kinds else None)
    read = _Reader(archive, thread_id, [s.turn for s in ranked])

    @functools.cache  # read once, when a hit is first followed up
    def changed() -> set[int]:
        with archive.lock:
            cues = read_postings(archive.conn, thread_id, sorted(UPDATE_CUES))
        return {turn for turns in cues.turns.values() for turn in turns}

    chosen: list[Recalled] = []
    # the section's size as items are added (header, items, blank lines between them)
    size = len(get_prompt("system.recalled", recalled="")) - 2

    def fits(item: Recalled) -> bool:
        return size + len(item_text(item)) + 2 <= budget

    followed = misfits = 0
    for scored in ranked:
        if budget - size < MIN_ITEM_CHARS or misfits >= MISFITS:
            break  # full: no turn fits any more (or none of the last few did)
        messages = read(scored.turn)
        if not messages or any(c.turn == scored.turn for c in chosen):
            continue
        item = _item(scored.turn, messages, scored.relevance, scored.terms, terms)
        if not fits(item):
            misfits += 1
            continue
        misfits = 0
        chosen.append(item)
        size += len(item_text(item)) + 2
        if followed >= FOLLOWED_HITS:
            continue
        followed += 1
        later, shared = _follow_up(index, scored.turn, user_text(messages), changed)
        if not later or any(c.turn == later for c in chosen):
            continue
        update = read(later)
        if update:
            follow = _item(later, update, scored.relevance, shared, [*terms, *shared])
            follow.follows = scored.turn
            if fits(follow):
                chosen.append(follow)
                size += len(item_text(follow)) + 2
    return sorted(chosen, key=lambda i: i.turn)


class _Reader:
    """Archived turns read as recall reaches them, a batch of the ranked ones at a time.

    The section is full after a handful of turns, so the candidates ranked below are never
    read (a long thread has many that pass the relevance bar).
    """

    BATCH = 8

    def __init__(self, archive: Archive, thread_id: str, ranked: Sequence[int]) -> None:
        self.archive, self.thread_id, self.ranked = archive, thread_id, list(ranked)
        self.position = {turn: i for i, turn in enumerate(self.ranked)}
        self.read: dict[int, list[BaseMessage]] = {}

    def __call__(self, turn: int) -> list[BaseMessage]:
        """The turn's messages ([] if it is not archived)."""
        if turn not in self.read:
            at = self.position.get(turn)
            batch = [turn] if at is None else self.ranked[at : at + self.BATCH]
            batch = [t for t in batch if t not in self.read]
            found = load_archived_turns(self.archive, self.thread_id, batch, cached=True)
            self.read.update({t: found.get(t, []) for t in batch})
        return self.read[turn]


def _item(
    turn: int,
    messages: Sequence[BaseMessage],
    score: float,
    why: list[str],
    terms: Sequence[str],
) -> Recalled:
    return Recalled(
        turn=turn,
        time=turn_time(messages),
        score=score,
        terms=why,
        text=excerpt(messages, terms),
        data=any(untrusted_message(m) for m in messages),
    )
