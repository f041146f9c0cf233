"""One model server, one queue: a turn's calls first, document embeddings in the gaps.

A local server (llama.cpp, llama-cpp-python, Ollama with one slot) answers one request at
a time. When the same server embeds the documents in the background and answers the
chat, a turn's calls wait behind whatever embedding batch was sent before them: issue 42
measured a document question at 232 s, its rerank call 100 s behind the section
vectors. So, per server and process:

- a turn holds `turn()` while it runs (all of its calls, and the gaps between them);
- a background embedding request (`background()`) waits until no turn runs, and then
  holds the server's one embedding slot;
- an embedding a turn needs itself (a query's vector, `foreground()`) takes the slot too,
  so at most one embedding request is in flight, and a turn waits for at most the one
  batch that was already sent.

OpenAI's own API needs none of this: the queue is only used for a compatible server
(`OPENAI_BASE_URL`). Another process (a service worker) has its own queue: the service
builds the index's vectors in one process (`graph.retrieval.vectors`' lock file).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

POLL_S = 0.5
"""How often a waiting background request looks again (it is also woken when turns end)."""


@dataclass
class ServerQueue:
    """The turns running on one server, and its one embedding slot."""

    turns: int = 0
    """Turns running now."""
    waited_s: float = 0.0
    """Seconds background requests have waited for turns, in all (for the benchmarks)."""
    _changed: threading.Condition = field(default_factory=threading.Condition, repr=False)
    _slot: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @contextmanager
    def turn(self) -> Iterator[None]:
        """Held while a turn runs: background embeddings wait until it ends."""
        with self._changed:
            self.turns += 1
        try:
            yield
        finally:
            with self._changed:
                self.turns -= 1
                self._changed.notify_all()

    @contextmanager
    def background(self) -> Iterator[None]:
        """A background embedding request: after every running turn, alone in its slot."""
        import time

        start = time.monotonic()
        while True:
            with self._changed:
                while self.turns:
                    self._changed.wait(POLL_S)
            self._slot.acquire()
            with self._changed:
                if not self.turns:
                    break
            self._slot.release()  # a turn began meanwhile: it goes first
        self.waited_s += time.monotonic() - start
        try:
            yield
        finally:
            self._slot.release()

    @contextmanager
    def foreground(self) -> Iterator[None]:
        """An embedding a turn needs now: it waits only for a request already in flight."""
        with self._slot:
            yield


_QUEUES: dict[str, ServerQueue] = {}
_LOCK = threading.Lock()


def queue_for(base_url: str) -> ServerQueue | None:
    """The queue of the compatible server at `base_url`; None for OpenAI's own API ('')."""
    key = base_url.strip().rstrip("/")
    if not key:
        return None
    with _LOCK:
        return _QUEUES.setdefault(key, ServerQueue())


@contextmanager
def running_turn(base_url: str) -> Iterator[None]:
    """Hold the turn slot of the server at `base_url` (nothing for OpenAI's own API)."""
    queue = queue_for(base_url)
    if queue is None:
        yield
        return
    with queue.turn():
        yield
