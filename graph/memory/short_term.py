"""Seed 003's short-term store: a tenant's recursive memory in Redis, gone after 24 h unused.

Seed 003 §3.2-3.3 keeps the recursive memory in Redis under

    chat:{tenant}:{session}:short      the last 5 turns, raw
    chat:{tenant}:{session}:memory     the long-term memory M_i
    chat:{tenant}:{session}:entities   the entities [{key, value, turn}, ...]

each with a TTL of 24 hours that every use renews ("24시간 미사용 시 자동 삭제"). Here the
conversation's record stays the checkpoint (SQLite or PostgreSQL): it is what turns, forks
and versions read, and it never expires. With REDIS_URL set, memory_node writes these
three keys after every answer of a recursive thread (`RedisShortTermStore`), for whatever
reads a tenant's working memory without the database; a read renews the TTL too. Without
REDIS_URL nothing is written anywhere else: the embedded default is unchanged
(`short_term_store` gives None).

The tenant is the thread's owner, the service's user who made it (`default` for a thread
with none, as `service.users.DEFAULT_USER`). Each part of a key is escaped ('%' and ':'),
so `chat:{tenant}:{session}` can never name another tenant's keys, whatever the ids hold.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage

from graph.settings import Settings
from graph.turns import content_text

log = logging.getLogger(__name__)

DEFAULT_TENANT = "default"
"""The tenant of a thread with no owner (the service's `DEFAULT_USER`)."""
DEFAULT_TTL_S = 24 * 3600
"""Seed 003: 24 hours unused, then gone (SHORT_TERM_TTL_S)."""
PARTS = ("short", "memory", "entities")
SOCKET_TIMEOUT_S = 2.0
"""A Redis that does not answer costs the turn's end at most this, never the answer."""


@dataclass
class ShortTerm:
    """What the store keeps of one thread."""

    turn: int
    """The thread's turn when it was written."""
    short: list[dict[str, Any]] = field(default_factory=list)
    """The last 5 turns, raw: {turn, messages: [{role, content, ...}]}, oldest first."""
    memory: str = ""
    entities: list[dict[str, Any]] = field(default_factory=list)


class ShortTermStore(Protocol):
    """Where a tenant's short-term memory is kept."""

    def save(self, tenant: str, thread_id: str, value: ShortTerm) -> None:
        """Write the thread's keys, each with the TTL."""
        ...

    def load(self, tenant: str, thread_id: str) -> ShortTerm | None:
        """The thread's keys as the tenant wrote them (renewing the TTL), or None."""
        ...

    def delete(self, tenant: str, thread_id: str) -> None:
        """Remove the thread's keys (the thread was deleted)."""
        ...


def _escape(part: str) -> str:
    return part.replace("%", "%25").replace(":", "%3A")


def key(tenant: str, thread_id: str, part: str) -> str:
    """`chat:{tenant}:{session}:{part}`, each id escaped (see the module)."""
    return f"chat:{_escape(tenant or DEFAULT_TENANT)}:{_escape(thread_id)}:{part}"


def turn_record(number: int, turn: Sequence[BaseMessage]) -> dict[str, Any]:
    """One raw turn as JSON: its number and its messages (role, content, tool calls)."""
    messages: list[dict[str, Any]] = []
    for msg in turn:
        item: dict[str, Any] = {"role": msg.type, "content": content_text(msg)}
        if isinstance(msg, AIMessage) and msg.tool_calls:
            item["tool_calls"] = [{"name": c["name"], "args": c["args"]} for c in msg.tool_calls]
        if isinstance(msg, ToolMessage):
            item["tool"] = msg.name
        messages.append(item)
    return {"turn": number, "messages": messages}


class RedisShortTermStore:
    """The store in Redis, with the `redis` client the service's broker uses."""

    def __init__(self, url: str, ttl_s: int = DEFAULT_TTL_S, client: Any = None) -> None:
        import redis

        self.ttl_s = int(ttl_s)
        self.client = client or redis.Redis.from_url(
            url,
            decode_responses=True,
            socket_timeout=SOCKET_TIMEOUT_S,
            socket_connect_timeout=SOCKET_TIMEOUT_S,
        )

    def save(self, tenant: str, thread_id: str, value: ShortTerm) -> None:
        """The three keys in one transaction, each with the TTL."""
        short = json.dumps({"turn": value.turn, "turns": value.short}, ensure_ascii=False)
        entities = json.dumps(value.entities, ensure_ascii=False)
        with self.client.pipeline(transaction=True) as pipe:
            pipe.set(key(tenant, thread_id, "short"), short, ex=self.ttl_s)
            pipe.set(key(tenant, thread_id, "memory"), value.memory, ex=self.ttl_s)
            pipe.set(key(tenant, thread_id, "entities"), entities, ex=self.ttl_s)
            pipe.execute()

    def load(self, tenant: str, thread_id: str) -> ShortTerm | None:
        """Read the three keys and renew their TTL (a read is a use)."""
        with self.client.pipeline(transaction=True) as pipe:
            for part in PARTS:
                pipe.getex(key(tenant, thread_id, part), ex=self.ttl_s)
            short, memory, entities = pipe.execute()
        if short is None:
            return None
        data = json.loads(short)
        return ShortTerm(
            turn=int(data.get("turn", 0)),
            short=list(data.get("turns", [])),
            memory=memory or "",
            entities=json.loads(entities) if entities else [],
        )

    def delete(self, tenant: str, thread_id: str) -> None:
        """Remove the thread's three keys."""
        self.client.delete(*(key(tenant, thread_id, part) for part in PARTS))


def short_term_store(settings: Settings) -> ShortTermStore | None:
    """The store REDIS_URL names, or None (the embedded default: no store)."""
    url = settings.short_term_redis_url.strip()
    if not url:
        return None
    return RedisShortTermStore(url, settings.short_term_ttl)
