"""What `graph.retrieval.vectors` accepts from an embeddings server, and what it asks again."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from graph.retrieval.vectors import (
    PER_TOKEN,
    EmbeddingError,
    VectorCache,
    cache_key,
    checked,
    retryable,
)


def test_pooled_vectors_are_taken_and_per_token_ones_refused() -> None:
    assert checked([[1.0, 0.0], [0.0, 1.0]], 2).shape == (2, 2)
    with pytest.raises(EmbeddingError, match="per-token"):
        checked([[[1.0, 0.0], [0.5, 0.5]], [[0.0, 1.0]]], 2)  # a list of vectors per input
    with pytest.raises(EmbeddingError, match="per-token"):
        checked([[1.0, 0.0, 0.0], [0.0, 1.0]], 2)  # lengths that follow the token count
    with pytest.raises(EmbeddingError, match="per-token"):
        checked([[1.0, 0.0, 0.0]], 1, dim=2)  # the batch before had another length
    with pytest.raises(EmbeddingError, match="returned 1 embeddings for 2 inputs"):
        checked([[1.0]], 2)
    assert "llama.cpp --pooling mean" in PER_TOKEN


class _Status(Exception):
    def __init__(self, status_code: int, message: str) -> None:
        super().__init__(f"Error code: {status_code} - {message}")
        self.status_code = status_code


@pytest.mark.parametrize(
    ("error", "again"),
    [
        (_Status(500, "{'error': {'message': 'Input should be a valid string'}}"), False),
        (_Status(500, "model does not support embeddings (not supported)"), False),
        (_Status(501, "Not Implemented"), False),
        (_Status(400, "bad request"), False),
        (_Status(404, "not found"), False),
        (_Status(429, "rate limited"), True),
        (_Status(503, "loading model"), True),
        (_Status(500, "out of memory"), True),
        (TimeoutError("read timed out"), True),
        (ValueError("No embedding data received"), False),
    ],
)
def test_only_passing_failures_are_asked_again(error: Exception, again: bool) -> None:
    assert retryable(error) is again


def test_the_cache_is_keyed_by_model_server_and_exact_text(tmp_path: Path) -> None:
    cache = VectorCache(tmp_path / "vectors.sqlite")
    key = cache_key("m @ http://a/v1", "text")
    assert key != cache_key("m @ http://b/v1", "text") != cache_key("m @ http://a/v1", "text ")
    cache.put({key: np.array([0.5, 0.25], dtype=np.float32)})
    again = VectorCache(tmp_path / "vectors.sqlite").get([key, "missing"])  # another opener
    assert list(again) == [key] and again[key].tolist() == [0.5, 0.25]
