"""An OpenAI-compatible /v1/embeddings endpoint on the fake HTTP server.

It answers pooled vectors (hashing vectors, so a ranking means something), or per-token
lists as llama.cpp does without pooling, and records every batch. It can fail after some
batches, answer slowly, or hold each answer until the test lets it go (`hold`/`step`).
"""

from __future__ import annotations

import threading
from typing import Any, Literal

from graph.retrieval.embeddings import HashingEmbeddings
from tests.fakes.http_server import FakeHTTPServer, Reply, Request

Shape = Literal["pooled", "per_token", "ragged"]
"""pooled: one vector per input; per_token: a list of vectors per input (llama.cpp with
--pooling none); ragged: one flat vector per input, of a length that varies with the input."""


class FakeEmbeddings:
    """A /v1/embeddings route that counts requests and batch sizes."""

    def __init__(
        self,
        server: FakeHTTPServer,
        shape: Shape = "pooled",
        fail_after: int | None = None,
        fail_status: int = 500,
        fail_message: str = "embeddings down",
        fail_count: int | None = None,
        delay_s: float = 0.0,
    ) -> None:
        self.shape: Shape = shape
        self.fail_after = fail_after
        """Batches answered before every further one fails (None: never)."""
        self.fail_count = fail_count
        """Requests that fail once failing starts; the ones after are answered (None: all)."""
        self.fail_status = fail_status
        self.fail_message = fail_message
        self.delay_s = delay_s
        self.batches: list[list[str]] = []
        """The inputs of each request, in order."""
        self.answered = 0
        self._vectors = HashingEmbeddings()
        self._gate: threading.Semaphore | None = None
        self._lock = threading.Lock()
        server.route("POST", "/v1/embeddings", self._handle)

    @property
    def requests(self) -> int:
        """Requests received."""
        return len(self.batches)

    @property
    def sizes(self) -> list[int]:
        """Inputs per request, in order."""
        return [len(b) for b in self.batches]

    def texts(self) -> list[str]:
        """Every input received, in order."""
        return [t for b in self.batches for t in b]

    def reset(self) -> None:
        """Forget the requests seen (a new run against the same server)."""
        with self._lock:
            self.batches = []
            self.answered = 0

    def hold(self) -> None:
        """From now on each request waits for a `step` before it is answered."""
        self._gate = threading.Semaphore(0)

    def step(self, n: int = 1) -> None:
        """Let `n` held requests be answered."""
        assert self._gate is not None
        for _ in range(n):
            self._gate.release()

    def release(self) -> None:
        """Answer every request at once again (held ones too)."""
        gate, self._gate = self._gate, None
        if gate is not None:
            for _ in range(1000):
                gate.release()

    def _handle(self, req: Request) -> Reply:
        body = req.json()
        texts = body["input"]
        texts = [texts] if isinstance(texts, str) else list(texts)
        with self._lock:
            self.batches.append(texts)
            number = len(self.batches)
        gate = self._gate
        if gate is not None:
            gate.acquire(timeout=30)
        failing = self.fail_after is not None and number > self.fail_after
        if failing and self.fail_count is not None:
            failing = number <= (self.fail_after or 0) + self.fail_count
        if failing:
            error = {"message": self.fail_message, "type": "server_error"}
            return Reply(self.fail_status, {"error": error}, delay_s=self.delay_s)
        data = [
            {"object": "embedding", "index": i, "embedding": self._embedding(text, i)}
            for i, text in enumerate(texts)
        ]
        with self._lock:
            self.answered += 1
        reply: dict[str, Any] = {"object": "list", "data": data, "model": body.get("model")}
        reply["usage"] = {"prompt_tokens": 0, "total_tokens": 0}
        return Reply(json_body=reply, delay_s=self.delay_s)

    def _embedding(self, text: str, position: int) -> Any:
        vector = self._vectors.embed_query(text)
        if self.shape == "per_token":
            return [vector[:8] for _ in range(2 + len(text) % 5)]
        if self.shape == "ragged":
            return vector[: 64 + position + len(text) % 32]  # as many numbers as tokens
        return vector
