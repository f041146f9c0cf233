"""Synonym groups as recall sees them: each word reduced to its search term.

People ask weeks later in other words than they first used ("아빠 생일" for "아버지 생신",
"flat" for "apartment"). Recall treats the words of one group (`data/lexicon/synonyms.tsv`) as one
concept: a query term matches a turn that holds any member of its group. The groups are
general everyday vocabulary, written without looking at any evaluation data.
"""

from __future__ import annotations

from functools import lru_cache

from graph.lexicon import read_table

SYNONYMS_FILE = "synonyms.tsv"
"""The groups (`graph.lexicon`): columns topic, the words of one group ('|' between them)."""


@lru_cache(maxsize=1)
def synonym_table() -> dict[str, frozenset[str]]:
    """Search term -> the search terms of its whole group (itself included)."""
    from graph.retrieval.tokenize import tokens

    table: dict[str, frozenset[str]] = {}
    for _, words in read_table(SYNONYMS_FILE, 2):
        terms: set[str] = set()
        for word in words.split("|"):
            found = tokens(word.strip())
            if len(found) == 1:  # a word that analyzes into several terms is a phrase
                terms.add(found[0])
        if len(terms) < 2:
            continue
        group = frozenset(terms)
        for term in terms:
            table[term] = table.get(term, frozenset()) | group
    return table


def synonyms(term: str) -> frozenset[str]:
    """The terms that mean the same as `term` (itself included)."""
    return synonym_table().get(term, frozenset((term,)))
