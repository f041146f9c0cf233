"""Seed 001's in-memory checkpointer with versions and a cleanup policy (CHECKPOINTER=memory).

Ephemeral sessions: the checkpoints live in the process; after each turn the thread is
pruned to CHECKPOINT_KEEP_TURNS turns (values no kept checkpoint uses go too), threads
unused for MEMORY_IDLE_S are deleted whole and past MEMORY_MAX_THREADS the least
recently used go first.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from graph.errors import InputError
from graph.session import new_thread, open_app, run_turn, threads
from graph.session.app import ChatApp, thread_values
from graph.session.history import checkpoints
from graph.session.versions import redo_last_turn
from graph.settings import load_settings
from graph.storage.memory_checkpointer import MemoryChatSaver


def _app(tmp_path: Path, **env: str) -> ChatApp:
    settings = load_settings(
        {
            "CHAT_DB_PATH": str(tmp_path / "chat.sqlite"),
            "CHAT_PROVIDER": "offline",
            "CHECKPOINTER": "memory",
            **env,
        }
    )
    return open_app(settings, tools=[], index=None)


def _talk(app: ChatApp, thread: str, turns: range) -> None:
    for turn in turns:
        out = run_turn(
            app, thread, f"{turn}번째 메모: 회의실 {turn}호", turn_count=turn, compression_rate=0.3
        )
        assert out.error_code is None, out.answer


def test_checkpoints_live_in_memory_with_versions_and_are_pruned_by_turn(tmp_path: Path) -> None:
    app = _app(tmp_path, CHECKPOINT_KEEP_TURNS="2")
    saver = app.persistence.saver
    assert isinstance(saver, MemoryChatSaver)
    thread = new_thread(app)
    _talk(app, thread, range(1, 6))
    listed = checkpoints(app, thread)
    assert sorted({c["turn"] for c in listed}) == [3, 4, 5]  # 4-5 and the one before 4
    assert listed[0]["node"] == "llm_node" and listed[0]["turn"] == 5
    # versions: every checkpoint names its channels' versions, a counter per channel
    newest = saver.get_tuple({"configurable": {"thread_id": thread}})
    assert newest is not None
    versions = newest.checkpoint["channel_versions"]
    assert all(len(str(v)) == 8 and str(v).isdigit() for v in versions.values())
    assert int(versions["messages"]) > int(versions["turn_count"]) >= 5
    # the values only pruned checkpoints used are gone with them
    kept = {
        (ch, str(v))
        for found in saver.list({"configurable": {"thread_id": thread}})
        for ch, v in found.checkpoint["channel_versions"].items()
    }
    held = {(k[2], str(k[3])) for k in saver.blobs if k[0] == thread}
    assert held <= kept
    assert thread_values(app, thread)["turn_count"] == 5
    # nothing of it on disk: the file's checkpoint tables stay empty
    rows = app.persistence.archive.execute("SELECT count(*) FROM checkpoints", ())
    assert rows[0][0] == 0


def test_idle_sessions_are_deleted_whole(tmp_path: Path) -> None:
    app = _app(tmp_path, MEMORY_IDLE_S="1")
    old = new_thread(app)
    _talk(app, old, range(1, 3))
    time.sleep(1.3)  # unused for longer than MEMORY_IDLE_S
    fresh = new_thread(app)
    _talk(app, fresh, range(1, 2))  # any turn sweeps
    assert [t["thread_id"] for t in threads(app)] == [fresh]
    assert thread_values(app, old) == {}
    assert old not in app.persistence.saver.storage  # type: ignore[union-attr]
    assert thread_values(app, fresh)["turn_count"] == 1


def test_past_the_limit_the_least_recently_used_session_goes(tmp_path: Path) -> None:
    app = _app(tmp_path, MEMORY_MAX_THREADS="2")
    first, second, third = new_thread(app), new_thread(app), new_thread(app)
    _talk(app, first, range(1, 2))
    _talk(app, second, range(1, 2))
    _talk(app, first, range(2, 3))  # first is used again: second is now the oldest
    _talk(app, third, range(1, 2))
    assert sorted(app.persistence.saver.threads()) == sorted([first, third])  # type: ignore[union-attr]
    assert {t["thread_id"] for t in threads(app)} == {first, third}
    assert thread_values(app, first)["turn_count"] == 2


def test_versions_and_bad_limits_are_refused_naming_the_setting(tmp_path: Path) -> None:
    app = _app(tmp_path)
    thread = new_thread(app)
    _talk(app, thread, range(1, 2))
    with pytest.raises(InputError, match="CHECKPOINTER=memory"):
        redo_last_turn(app, thread)
    with pytest.raises(ValueError, match="MEMORY_IDLE_S"):
        _app(tmp_path / "bad", MEMORY_IDLE_S="0")
    with pytest.raises(ValueError, match="CHECKPOINTER must be"):
        _app(tmp_path / "bad2", CHECKPOINTER="mongo")
