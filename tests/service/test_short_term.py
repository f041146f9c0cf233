"""Seed 003's short-term store in a real redis-server: tenant keys, the 24 h TTL, isolation.

With REDIS_URL set, a recursive thread's last 5 turns, memory and entities are written to
`chat:{tenant}:{session}:short|memory|entities` after every answer, each key with a TTL
that a write or a read renews; without it nothing is written anywhere.
"""

from __future__ import annotations

import time
from pathlib import Path

import redis
from langchain_core.messages import HumanMessage

from graph.memory.short_term import (
    DEFAULT_TENANT,
    DEFAULT_TTL_S,
    RedisShortTermStore,
    ShortTerm,
    key,
    short_term_store,
    sweep,
)
from graph.session import delete_thread, new_thread, open_app, run_turn, set_thread_strategy
from graph.session.app import thread_values
from graph.settings import load_settings
from service.users import DEFAULT_USER
from tests.fakes.chat import ScriptedModel


def _value(turn: int, memory: str) -> ShortTerm:
    return ShortTerm(
        turn=turn,
        short=[{"turn": turn, "messages": [{"role": "human", "content": memory}]}],
        memory=memory,
        entities=[{"key": "owner", "value": memory, "turn": turn}],
    )


def test_the_keys_are_the_seeds_each_with_the_24_hour_ttl(redis_url: str) -> None:
    store = RedisShortTermStore(redis_url)
    raw = redis.Redis.from_url(redis_url, decode_responses=True)
    store.save("alice", "session_1", _value(7, "앨리스의 기억"))
    assert sorted(raw.keys("chat:*")) == [
        "chat:alice:session_1:entities",
        "chat:alice:session_1:memory",
        "chat:alice:session_1:short",
    ]
    for part in ("short", "memory", "entities"):
        ttl = raw.ttl(key("alice", "session_1", part))
        assert DEFAULT_TTL_S - 5 <= ttl <= DEFAULT_TTL_S == 24 * 3600
    assert raw.get("chat:alice:session_1:memory") == "앨리스의 기억"
    loaded = store.load("alice", "session_1")
    assert loaded == _value(7, "앨리스의 기억")


def test_unused_for_the_ttl_the_keys_are_gone_and_a_read_renews_them(redis_url: str) -> None:
    store = RedisShortTermStore(redis_url, ttl_s=2)
    store.save("alice", "s", _value(1, "m"))
    time.sleep(1.2)
    assert store.load("alice", "s") is not None  # a use: the TTL starts again
    time.sleep(1.2)  # 2.4 s after the write, 1.2 s after the read
    assert store.load("alice", "s") is not None
    time.sleep(2.3)  # unused for longer than the TTL
    assert store.load("alice", "s") is None
    raw = redis.Redis.from_url(redis_url, decode_responses=True)
    assert raw.keys("chat:alice:*") == []


def test_two_tenants_never_see_each_others_data(redis_url: str) -> None:
    store = RedisShortTermStore(redis_url)
    store.save("alice", "shared-id", _value(3, "alice's"))
    store.save("bob", "shared-id", _value(5, "bob's"))
    alice, bob = store.load("alice", "shared-id"), store.load("bob", "shared-id")
    assert alice is not None and bob is not None
    assert (alice.memory, alice.turn) == ("alice's", 3) and (bob.memory, bob.turn) == ("bob's", 5)
    store.save("alice", "only-alice", _value(1, "private"))
    assert store.load("bob", "only-alice") is None
    # ids that hold the separator cannot reach into another tenant's keys
    store.save("a", "b:c", _value(1, "tenant a"))
    store.save("a:b", "c", _value(1, "tenant a:b"))
    assert key("a", "b:c", "memory") != key("a:b", "c", "memory")
    assert store.load("a", "b:c").memory == "tenant a"  # type: ignore[union-attr]
    assert store.load("a:b", "c").memory == "tenant a:b"  # type: ignore[union-attr]
    store.delete("bob", "shared-id")
    assert store.load("bob", "shared-id") is None and store.load("alice", "shared-id")


def test_a_recursive_thread_writes_its_tenants_keys_after_each_answer(
    redis_url: str, tmp_path: Path
) -> None:
    assert DEFAULT_TENANT == DEFAULT_USER
    settings = load_settings(
        {
            "CHAT_DB_PATH": str(tmp_path / "chat.sqlite"),
            "CHAT_PROVIDER": "offline",
            "REDIS_URL": redis_url,
        }
    )
    app = open_app(settings, tools=[], index=None)
    raw = redis.Redis.from_url(redis_url, decode_responses=True)
    try:
        mine = new_thread(app, owner="alice")
        theirs = new_thread(app)  # made outside the service: the default tenant
        plain = new_thread(app, owner="alice")  # three_turn: seed 002's, nothing in Redis
        for thread in (mine, theirs):
            set_thread_strategy(app, thread, "recursive")
        for turn in range(1, 8):
            for thread in (mine, theirs, plain):
                run_turn(
                    app,
                    thread,
                    f"{turn}번째: 제 예산은 {turn}00만원이에요.",
                    turn_count=turn,
                    compression_rate=0.3,
                )
        store = short_term_store(settings)
        assert store is not None
        kept = store.load("alice", mine)
        state = thread_values(app, mine)
        assert kept is not None and kept.turn == 7
        assert [t["turn"] for t in kept.short] == [3, 4, 5, 6, 7]  # the last 5 turns, raw
        assert kept.short[-1]["messages"][0] == {
            "role": "human",
            "content": "7번째: 제 예산은 700만원이에요.",
        }
        assert kept.memory == state["memory"] and kept.memory  # folded after turn 6
        assert kept.entities == state["entities"]
        assert 0 < raw.ttl(key("alice", mine, "memory")) <= DEFAULT_TTL_S
        assert store.load(DEFAULT_TENANT, theirs) is not None
        assert store.load("alice", theirs) is None and store.load(DEFAULT_TENANT, mine) is None
        assert store.load("alice", plain) is None
        delete_thread(app, mine)
        assert store.load("alice", mine) is None
        assert store.load(DEFAULT_TENANT, theirs) is not None
    finally:
        app.persistence.close()


def test_without_redis_url_nothing_is_kept_outside_the_database() -> None:
    assert short_term_store(load_settings({})) is None


def test_a_worker_without_the_threads_checkpoint_starts_it_from_redis(
    redis_url: str, tmp_path: Path
) -> None:
    """CHECKPOINTER=memory: the process that ran turns 1-8 is gone; another runs turn 9."""
    env = {
        "CHAT_DB_PATH": str(tmp_path / "chat.sqlite"),
        "CHAT_PROVIDER": "offline",
        "REDIS_URL": redis_url,
        "CHECKPOINTER": "memory",
    }
    first = open_app(load_settings(env), tools=[], index=None)
    said = [f"{n}번째: 제 예산은 {n}00만원이고 회의실은 {n}0{n}호예요." for n in range(1, 10)]
    try:
        thread = new_thread(first, owner="alice")
        set_thread_strategy(first, thread, "recursive")
        for turn, text in enumerate(said[:8], 1):
            run_turn(first, thread, text, turn_count=turn, compression_rate=0.3)
        before = thread_values(first, thread)
    finally:
        first.persistence.close()  # its checkpoints go with it
    model = ScriptedModel(default="네, 기억하고 있어요.")
    second = open_app(load_settings(env), model=model, tools=[], index=None)
    try:
        assert thread_values(second, thread) == {}  # nothing of it in this process
        out = run_turn(second, thread, said[8], turn_count=9, compression_rate=0.3)
        assert out.error_code is None and out.answer == "네, 기억하고 있어요."
        state = thread_values(second, thread)
        assert state["turn_count"] == 9
        assert state["memory"] == before["memory"] and state["memory"]
        assert state["entities"] == before["entities"]
        context = model.calls[-1]
        assert "[장기 기억]" in context[0].content and before["memory"] in context[0].content
        asked = [m.content for m in context if isinstance(m, HumanMessage)]
        assert asked == said[3:9]  # turns 4-8 raw, as the first process had them, then 9
        # the memory holds turns 1-5 (updated after turn 6): the next update is after 11
        assert max(e["turns"][-1] for e in state["summary_history"]) == 5
    finally:
        second.persistence.close()


def _plant(raw: redis.Redis, tenant: str, session: str, ttl: int | None = DEFAULT_TTL_S) -> None:
    for part in ("short", "memory", "entities"):
        name = key(tenant, session, part)
        raw.set(name, "{}" if part != "memory" else "m")
        if ttl is not None:
            raw.expire(name, ttl)


def test_the_batch_cleanup_removes_idle_and_orphaned_threads_only(redis_url: str) -> None:
    raw = redis.Redis.from_url(redis_url, decode_responses=True)
    owners = {"live": "alice", "idle": "alice", "notll": "bob", "half": "bob", "mine": ""}
    _plant(raw, "alice", "live")
    _plant(raw, "alice", "idle", ttl=DEFAULT_TTL_S - 7200)  # unused for two hours
    _plant(raw, "bob", "notll", ttl=None)
    _plant(raw, "bob", "half")
    raw.delete(key("bob", "half", "entities"))
    _plant(raw, "carol", "gone")  # the database no longer has this thread
    _plant(raw, "mallory", "live")  # another tenant's keys for alice's thread
    _plant(raw, DEFAULT_TENANT, "mine")
    _plant(raw, "a:b", "c:d")  # escaped ids, never split wrongly
    owners["c:d"] = "a:b"
    raw.rpush("chat:thread:x:short", "job-1")  # the broker's keys are never touched
    raw.set("chat:jobs", "x")
    report = sweep(raw, DEFAULT_TTL_S, 3600, owners.get, batch=2)
    assert report.removed == {
        "idle": ["alice/idle"],
        "incomplete": ["bob/half"],
        "no TTL": ["bob/notll"],
        "other tenant": ["mallory/live"],
        "thread gone": ["carol/gone"],
    }
    assert report.scanned == 8 * 3 - 1
    left = sorted({k.rsplit(":", 1)[0] for k in raw.keys("chat:*:*:*")})
    assert left == [
        "chat:a%3Ab:c%3Ad",
        "chat:alice:live",
        f"chat:{DEFAULT_TENANT}:mine",
        "chat:thread:x",
    ]
    assert raw.exists("chat:jobs")
    # without the database's view only the keys themselves decide
    _plant(raw, "carol", "gone")
    assert sweep(raw, DEFAULT_TTL_S, 3600).threads == 0


def test_the_sweep_command_and_the_services_schedule(redis_url: str, tmp_path: Path) -> None:
    import subprocess
    import sys

    from tests.service.conftest import ROOT, service_env, start_service

    env = service_env(tmp_path, REDIS_URL=redis_url)
    raw = redis.Redis.from_url(redis_url, decode_responses=True)
    _plant(raw, "alice", "deleted-thread")
    _plant(raw, "alice", "idle-thread", ttl=100)
    done = subprocess.run(  # noqa: S603 - our own interpreter and module
        [sys.executable, "-m", "service.short_term_sweep", "--idle-s", "3600"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert "removed the keys of 2 threads" in done.stdout
    assert "thread gone: 1" in done.stdout and "idle: 1" in done.stdout
    assert raw.keys("chat:alice:*") == []
    # the service sweeps on its own, every SHORT_TERM_SWEEP_S
    svc = start_service(tmp_path, REDIS_URL=redis_url, SHORT_TERM_SWEEP_S="1")
    try:
        _plant(raw, "alice", "orphan")
        deadline = time.monotonic() + 20
        while raw.keys("chat:alice:*") and time.monotonic() < deadline:
            time.sleep(0.2)
        assert raw.keys("chat:alice:*") == []
    finally:
        svc.proc.stop()
