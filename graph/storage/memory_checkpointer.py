"""Seed 001's in-memory checkpointer, with versions and a cleanup policy (CHECKPOINTER=memory).

For ephemeral sessions: LangGraph's `InMemorySaver` keeps every checkpoint of a thread
(one after each node) in this process, each channel value once per version (versions
numbered by `ChatMetadata.get_next_version`), with seed 001's metadata. Nothing of it
outlives the process. The cleanup policy:

- after each turn the thread's history is pruned to CHECKPOINT_KEEP_TURNS turns, and the
  channel values no kept checkpoint uses any more are dropped with them;
- a thread unused for MEMORY_IDLE_S seconds (read or written) is deleted whole, and past
  MEMORY_MAX_THREADS threads the least recently used go first (`sweep`, which
  `graph.storage.persistence.Persistence.sweep` runs after every turn, taking their
  archive and list entry with them).
"""

from __future__ import annotations

import builtins
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import (
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
)
from langgraph.checkpoint.memory import InMemorySaver

from graph.storage.apart import ApartHistory, thread_config


class MemoryChatSaver(ApartHistory, InMemorySaver):
    """InMemorySaver with seed 001's metadata, pruning by turns and idle-thread cleanup."""

    def __init__(
        self,
        idle_s: float = 3600.0,
        max_threads: int = 100,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        InMemorySaver.__init__(self)
        ApartHistory.__init__(self)
        self.idle_s = idle_s
        self.max_threads = max_threads
        self._clock = clock
        self._used: dict[str, float] = {}
        """thread -> when it was last read or written."""
        self._lock = threading.RLock()

    def _touch(self, config: RunnableConfig | None) -> None:
        thread = (config or {}).get("configurable", {}).get("thread_id")
        if thread is not None:
            self._used[str(thread)] = self._clock()

    def setup(self) -> None:
        """Nothing to make."""

    def close(self) -> None:
        """Drop everything (the process's sessions end with it)."""
        with self._lock:
            for thread in builtins.list(self.storage):
                InMemorySaver.delete_thread(self, thread)
            self._used.clear()

    # LangGraph's interface, under one lock (turns run on several threads)
    def put(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        """Save the checkpoint with seed 001's metadata."""
        with self._lock:
            thread_id, ns, meta, _ = self._with_metadata(config, checkpoint, metadata)
            saved = InMemorySaver.put(self, config, checkpoint, meta, new_versions)  # type: ignore[arg-type]
            self._remember(thread_id, ns, checkpoint)
            self._touch(config)
            return saved

    def put_writes(
        self,
        config: RunnableConfig,
        writes: Sequence[tuple[str, Any]],
        task_id: str,
        task_path: str = "",
    ) -> None:
        """Save a step's pending writes."""
        with self._lock:
            InMemorySaver.put_writes(self, config, writes, task_id, task_path)
            self._touch(config)

    def get_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        """A checkpoint (the newest without an id); a read is a use."""
        with self._lock:
            if str(config["configurable"].get("thread_id")) not in self.storage:
                return None  # LangGraph's defaultdict would hold an empty thread after
            self._touch(config)
            return InMemorySaver.get_tuple(self, config)

    def list(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> Iterator[CheckpointTuple]:
        """LangGraph's listing, read whole under the lock."""
        thread = (config or {}).get("configurable", {}).get("thread_id")
        with self._lock:
            if thread is not None and str(thread) not in self.storage:
                return
            found = builtins.list(
                InMemorySaver.list(self, config, filter=filter, before=before, limit=limit)
            )
        yield from found

    def delete_thread(self, thread_id: str) -> None:
        """Delete the thread's checkpoints, writes and values."""
        with self._lock:
            InMemorySaver.delete_thread(self, thread_id)
            self._used.pop(str(thread_id), None)
            self._forget(str(thread_id))

    # what ApartHistory asks
    def _rows(self, thread_id: str) -> builtins.list[CheckpointTuple]:
        return [
            found
            for found in self.list(thread_config(thread_id))
            if found.config["configurable"].get("checkpoint_ns", "") == ""
        ]

    def _delete_checkpoints(self, thread_id: str, checkpoint_ids: set[str]) -> None:
        with self._lock:
            saved = self.storage.get(thread_id, {}).get("", {})
            for checkpoint_id in checkpoint_ids:
                saved.pop(checkpoint_id, None)
                self.writes.pop((thread_id, "", checkpoint_id), None)
            used = {
                (channel, str(version))
                for checkpoint, _, _ in saved.values()
                for channel, version in self.serde.loads_typed(checkpoint)[
                    "channel_versions"
                ].items()
            }
            for key in [k for k in self.blobs if k[0] == thread_id and k[1] == ""]:
                if (key[2], str(key[3])) not in used:
                    del self.blobs[key]

    # the cleanup policy
    def threads(self) -> builtins.list[str]:
        """The threads held, least recently used first."""
        with self._lock:
            held = {t for t, spaces in self.storage.items() if any(spaces.values())}
            return sorted(held, key=lambda t: self._used.get(t, 0.0))

    def sweep(self) -> builtins.list[str]:
        """Delete the idle threads and those past MEMORY_MAX_THREADS; return their ids."""
        now = self._clock()
        with self._lock:
            order = self.threads()
            idle = [t for t in order if now - self._used.get(t, 0.0) > self.idle_s]
            over = [t for t in order if t not in idle][
                : max(0, len(order) - len(idle) - self.max_threads)
            ]
            for thread in idle + over:
                self.delete_thread(thread)
        return idle + over
