"""Query expansion for the lexical retrievers: an HR and office glossary.

BM25 only matches words that occur in a document, so an English
question cannot reach a Korean document and "월급" does not reach "급여". Classic
cross-language retrieval solves this with query translation through a bilingual
dictionary; this is a small one. It was written from the vocabulary of the documents in
data/docs, topic by topic (each Korean term a document uses, with the English and
colloquial Korean words people use for it), not from evaluation questions. Semantic
embeddings (OpenAI) need none of this and get the raw query.

The tables are data, `data/lexicon/glossary_en_ko.tsv` and `glossary_ko_ko.tsv`: each row
is `topic`, `phrase | phrase`, `한국어 용어들`: any of the phrases, found in a query, adds the
Korean terms as alternatives of the same query concept.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache

from graph.lexicon import read_table
from graph.retrieval.tokenize import stem_english, tokens

GLOSSARY_FILES = ("glossary_en_ko.tsv", "glossary_ko_ko.tsv")
"""The English -> Korean and everyday Korean -> document Korean tables (`graph.lexicon`):
columns topic, phrases ('|' between them), the terms each adds."""


@dataclass(frozen=True)
class Concept:
    """One idea of a query: the word(s) it was written with and their glossary terms."""

    written: tuple[str, ...]
    """Search tokens of the words in the query."""
    alternatives: frozenset[str]
    """All tokens that count as this idea being present (written tokens included)."""


Table = dict[tuple[str, ...], tuple[str, ...]]
"""Phrase (as tokens) -> Korean search tokens it adds."""


def _parse(rows: Iterable[tuple[str, ...]], key_tokens: Callable[[str], tuple[str, ...]]) -> Table:
    """The rows (topic, phrases, terms) as a table; a phrase on two rows adds both's terms."""
    table: Table = {}
    for _, phrases, terms in rows:
        expansion = tuple(dict.fromkeys(tokens(terms)))
        for phrase in phrases.split("|"):
            key = key_tokens(phrase.strip())
            if key:
                table[key] = tuple(dict.fromkeys(table.get(key, ()) + expansion))
    return table


def _english_key(phrase: str) -> tuple[str, ...]:
    return tuple(stem_english(w) for w in re.findall(r"[a-z0-9]+", phrase.lower()))


def _korean_key(phrase: str) -> tuple[str, ...]:
    return tuple(tokens(phrase))


@lru_cache(maxsize=1)
def _glossary() -> tuple[Table, Table]:
    """Both tables, parsed (and their Korean tokenized) on first use."""
    english, korean = (read_table(name, 3) for name in GLOSSARY_FILES)
    return _parse(english, _english_key), _parse(korean, _korean_key)


def _matches(sequence: list[str], table: Table) -> list[tuple[int, int, tuple[str, ...]]]:
    """Longest non-overlapping glossary phrases in `sequence`: (start, end, expansion)."""
    longest = max((len(k) for k in table), default=0)
    found: list[tuple[int, int, tuple[str, ...]]] = []
    i = 0
    while i < len(sequence):
        for size in range(min(longest, len(sequence) - i), 0, -1):
            expansion = table.get(tuple(sequence[i : i + size]))
            if expansion is not None:
                found.append((i, i + size, expansion))
                i += size
                break
        else:
            i += 1
    return found


def concepts(query: str) -> list[Concept]:
    """The query as concepts: each written word with the glossary terms for it.

    Args:
        query: The user's question, Korean, English or mixed.

    Returns:
        One concept per content word or glossary phrase of the query, in order. A phrase
        ("work from home") becomes one concept whose alternatives are its own tokens plus
        the Korean terms ("재택", "근무"); other words are concepts of their own.
    """
    en_table, ko_table = _glossary()
    query_tokens = tokens(query)
    groups: list[tuple[set[str], set[str]]] = []  # (written, alternatives)
    claimed: set[str] = set()

    raw_words = [stem_english(w) for w in re.findall(r"[a-z0-9]+", query.lower())]
    for start, end, expansion in _matches(raw_words, en_table):
        written = {w for w in raw_words[start:end] if w in query_tokens}
        groups.append((written, written | set(expansion)))
        claimed |= written
    hangul_tokens = [t for t in query_tokens if not t.isascii()]
    for start, end, expansion in _matches(hangul_tokens, ko_table):
        written = set(hangul_tokens[start:end])
        groups.append((written, written | set(expansion)))
        claimed |= written

    out: list[Concept] = []
    for token in dict.fromkeys(query_tokens):
        if token not in claimed:
            out.append(Concept((token,), frozenset({token})))
    for written, alternatives in groups:
        out.append(Concept(tuple(sorted(written)), frozenset(alternatives)))
    return out


def expand(query: str, ideas: list[Concept] | None = None) -> str:
    """The query followed by the glossary terms of its words (for lexical embeddings).

    `ideas`: the query's `concepts`, when the caller has them already.
    """
    ideas = concepts(query) if ideas is None else ideas
    extra = [t for c in ideas for t in sorted(c.alternatives - set(c.written))]
    return f"{query} {' '.join(extra)}" if extra else query


expand_query = expand
"""The name the index uses."""
