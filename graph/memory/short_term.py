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

Read back: a worker that starts a recursive thread it holds no checkpoint of (another
process ran it; CHECKPOINTER=memory lost it with its process) starts it from these keys
when they are there (`restored_values`, called by `graph.session.start`): the last 5 turns
raw, the memory with the turns it holds, the entities, the thread's turn count.

Batch cleanup (seed 003's checklist item 13, `sweep`): the TTL removes keys unused for a
day; a sweep, run by `python -m service.short_term_sweep` and on a schedule by the
service (SHORT_TERM_SWEEP_S), scans the keys in batches and removes in one go the threads
idle longer than SHORT_TERM_IDLE_S, those whose thread no longer exists in the database
or belongs to another tenant (deleted while Redis was out of reach, or swept with an
ephemeral session), keys with no TTL, and incomplete sets.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

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
    covered: int | None = None
    """The last turn the memory holds (None when written before this was kept)."""

    def memory_holds(self) -> int:
        """The last turn the memory holds; for older records, by seed 003's timing.

        The updates come after turns 6, 11, 16, ...: after turn t the memory holds turns
        1 to 5 * ((t - 1) // 5).
        """
        if self.covered is not None:
            return self.covered
        return 5 * ((self.turn - 1) // 5) if self.memory else 0


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
        short = json.dumps(
            {"turn": value.turn, "turns": value.short, "covered": value.covered},
            ensure_ascii=False,
        )
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
        covered = data.get("covered")
        return ShortTerm(
            turn=int(data.get("turn", 0)),
            short=list(data.get("turns", [])),
            memory=memory or "",
            entities=json.loads(entities) if entities else [],
            covered=int(covered) if isinstance(covered, int) else None,
        )

    def delete(self, tenant: str, thread_id: str) -> None:
        """Remove the thread's three keys."""
        self.client.delete(*(key(tenant, thread_id, part) for part in PARTS))


def turn_messages(record: Mapping[str, Any]) -> list[BaseMessage]:
    """The messages of a `turn_record`, tool calls paired with their results by order."""
    out: list[BaseMessage] = []
    calls: list[str] = []
    number = record.get("turn", 0)
    for i, item in enumerate(record.get("messages", [])):
        role, content = item.get("role"), str(item.get("content", ""))
        if role == "human":
            out.append(HumanMessage(content=content))
        elif role == "ai":
            wanted = [
                {"name": c["name"], "args": dict(c.get("args") or {}), "id": f"r{number}-{i}-{j}"}
                for j, c in enumerate(item.get("tool_calls") or [])
            ]
            calls += [c["id"] for c in wanted]
            out.append(AIMessage(content=content, tool_calls=wanted))
        elif role == "tool" and calls:
            out.append(
                ToolMessage(content=content, tool_call_id=calls.pop(0), name=item.get("tool"))
            )
    return out


def restored_values(kept: ShortTerm, thread_id: str, rate: float) -> dict[str, Any]:
    """The state a thread with no checkpoint starts with, from its short-term keys.

    The raw turns as they were kept, the memory (one `summary_history` entry for the last
    update, so the next update folds the turns after it), the entities, and the turns
    before the raw ones counted as archived.
    """
    numbered = sorted(kept.short, key=lambda r: int(r.get("turn", 0)))
    messages = [m for record in numbered for m in turn_messages(record)]
    first = int(numbered[0]["turn"]) if numbered else kept.turn + 1
    covered = kept.memory_holds()
    values: dict[str, Any] = {
        "messages": messages,
        "session_id": thread_id,
        "turn_count": kept.turn,
        "compression_rate": rate,
        "memory": kept.memory,
        "entities": list(kept.entities),
        "archived_turns": max(0, first - 1),
        "transcript_chars": sum(len(str(m.content)) for m in messages),
    }
    if covered and kept.memory:
        start = max(1, covered - 4)
        values["summary_history"] = [
            {
                "thread_id": thread_id,
                "turns": list(range(start, covered + 1)),
                "turn_length": covered - start + 1,
                "original_chars": 0,  # the turns are not in Redis: unknown here
                "summary_chars": len(kept.memory),
                "compression_rate": rate,
                "summary": kept.memory,
            }
        ]
    return values


RESERVED_TENANTS = frozenset(
    {
        "jobs",
        "epoch",
        "worker",
        "job",
        "stream",
        "processing",
        "payload",
        "thread",
        "parked",
        "cancel",
    }
)
"""The service's own `chat:{word}:...` keys (`service.redis_broker`): never swept."""


def _unescape(part: str) -> str:
    return part.replace("%3A", ":").replace("%25", "%")


@dataclass
class SweepReport:
    """What a batch cleanup found and removed."""

    scanned: int = 0
    """Short-term keys looked at."""
    removed: dict[str, list[str]] = field(default_factory=dict)
    """Why -> the `tenant/session` pairs removed for it."""

    @property
    def threads(self) -> int:
        """Threads whose keys were removed."""
        return sum(len(v) for v in self.removed.values())


def sweep(
    client: Any,
    ttl_s: int,
    idle_s: float,
    owner_of: Callable[[str], str | None] | None = None,
    batch: int = 500,
) -> SweepReport:
    """Remove, in batches, the short-term keys of idle or orphaned threads (see the module).

    A thread's idle time is read off its keys' TTL (every use renews it to `ttl_s`):
    `ttl_s - ttl`. `owner_of(session)` gives the tenant the database knows for the
    thread (None: no such thread); without it, threads are not checked against the
    database. Keys are scanned `batch` at a time and each batch's removals go in one
    pipeline.
    """
    report = SweepReport()
    groups: dict[tuple[str, str], set[str]] = {}
    for raw in client.scan_iter(match="chat:*", count=batch):
        name = raw.decode() if isinstance(raw, bytes) else str(raw)
        parts = name.split(":")
        if len(parts) != 4 or parts[3] not in PARTS or parts[1] in RESERVED_TENANTS:
            continue
        report.scanned += 1
        groups.setdefault((parts[1], parts[2]), set()).add(parts[3])
    pairs = sorted(groups)
    for start in range(0, len(pairs), batch):
        chunk = pairs[start : start + batch]
        with client.pipeline(transaction=False) as pipe:
            for tenant, session in chunk:
                for part in PARTS:
                    pipe.ttl(f"chat:{tenant}:{session}:{part}")
            ttls = pipe.execute()
        doomed: list[tuple[str, str, str]] = []
        for i, (tenant, session) in enumerate(chunk):
            left = ttls[i * len(PARTS) : (i + 1) * len(PARTS)]
            plain_tenant, plain_session = _unescape(tenant), _unescape(session)
            why = ""
            if any(t == -1 for t in left):
                why = "no TTL"
            elif any(t == -2 for t in left):
                why = "incomplete"
            elif ttl_s - min(left) > idle_s:
                why = "idle"
            elif owner_of is not None:
                owner = owner_of(plain_session)
                if owner is None:
                    why = "thread gone"
                elif (owner or DEFAULT_TENANT) != plain_tenant:
                    why = "other tenant"
            if why:
                doomed.append((tenant, session, why))
        if doomed:
            with client.pipeline(transaction=False) as pipe:
                for tenant, session, _ in doomed:
                    pipe.unlink(*(f"chat:{tenant}:{session}:{part}" for part in PARTS))
                pipe.execute()
        for tenant, session, why in doomed:
            report.removed.setdefault(why, []).append(f"{_unescape(tenant)}/{_unescape(session)}")
    return report


def short_term_store(settings: Settings) -> ShortTermStore | None:
    """The store REDIS_URL names, or None (the embedded default: no store)."""
    url = settings.short_term_redis_url.strip()
    if not url:
        return None
    return RedisShortTermStore(url, settings.short_term_ttl)
