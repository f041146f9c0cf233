"""A weight-free embedding for FAISS in tests and benchmarks; the app does not use it.

Feature hashing of morphemes and their character n-grams into a fixed number of
dimensions, log-scaled and L2-normalized. It is lexical, not semantic: it matches shared
words and word pieces. Until issue 37 the app used it for FAISS offline; measured on the
330 section questions, BM25 with the glossary found the right section first 0.770 of the
time and hybrid search with these vectors 0.739 (`bench/offline_search.py`), so offline
search is now BM25 alone. It stays as a stand-in for an embeddings server: the FAISS and
hybrid code paths are tested with it, and the fake server (`tests/fakes`) serves it.
"""

from __future__ import annotations

import hashlib

import numpy as np
from langchain_core.embeddings import Embeddings

from graph.retrieval.tokenize import tokens

DIMENSIONS = 1024


def _features(text: str) -> list[str]:
    feats: list[str] = []
    for token in tokens(text):
        feats.append(f"w:{token}")
        padded = f"<{token}>"
        feats.extend(f"g:{padded[i : i + 3]}" for i in range(max(1, len(padded) - 2)))
    return feats


def _index(feature: str) -> tuple[int, float]:
    digest = hashlib.blake2b(feature.encode(), digest_size=8).digest()
    value = int.from_bytes(digest, "little")
    return value % DIMENSIONS, 1.0 if (value >> 63) & 1 else -1.0


class HashingEmbeddings(Embeddings):
    """Lexical hashing embeddings (no model, no network)."""

    def _embed(self, text: str) -> list[float]:
        vector = np.zeros(DIMENSIONS, dtype=np.float32)
        for feature in _features(text):
            slot, sign = _index(feature)
            vector[slot] += sign * (2.0 if feature.startswith("w:") else 1.0)
        vector = np.sign(vector) * np.log1p(np.abs(vector))
        norm = float(np.linalg.norm(vector))
        return (vector / norm).tolist() if norm else vector.tolist()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed documents."""
        return [self._embed(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        """Embed a query."""
        return self._embed(text)
