"""The conversation survives a restart; a locked or corrupt database loses nothing."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from graph.errors import InputError
from graph.graph import build_graph
from graph.session import (
    ChatApp,
    export_thread,
    load_thread,
    new_thread,
    open_app,
    run_turn,
    threads,
)
from graph.settings import load_settings
from graph.storage.persistence import StorageError, open_persistence
from tests.conftest import Store
from tests.postgres import PostgresServer

ROOT = Path(__file__).resolve().parents[2]

_WRITER = """
import json, sys
from graph.session import open_app, new_thread, run_turn
from graph.settings import load_settings
app = open_app(load_settings(json.loads(sys.argv[1])), tools=[], approval_required=frozenset())
thread = new_thread(app)
for turn in range(1, 8):
    run_turn(app, thread, f"기록 {turn}: 예산 {turn * 100}만원", turn_count=turn, compression_rate=0.3)
print(json.dumps({"thread": thread}))
"""


def test_conversation_comes_back_in_a_new_process(store: Store) -> None:
    db = store("chat")
    out = subprocess.run(
        [sys.executable, "-c", _WRITER, json.dumps(db)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    thread = json.loads(out.stdout)["thread"]
    app = open_app(load_settings(db), tools=[], approval_required=frozenset())
    view = load_thread(app, thread)
    assert view.turn_count == 7
    assert [e["turns"] for e in view.summary_history] == [[1, 2, 3], [4, 5, 6]]
    assert [n for n, _ in view.turns] == list(range(1, 8))
    assert view.turns[0][1][0].content == "기록 1: 예산 100만원"
    assert [t["thread_id"] for t in threads(app)] == [thread]
    run_turn(app, thread, "이어서", turn_count=8, compression_rate=0.3)
    assert load_thread(app, thread).turn_count == 8


def test_corrupt_database_is_moved_aside_and_a_new_one_starts(tmp_path: Path) -> None:
    db = tmp_path / "chat.sqlite"
    db.write_bytes(b"this is not a database" * 100)
    persistence = open_persistence(db)
    assert "damaged" in persistence.notice
    aside = [p for p in tmp_path.iterdir() if ".corrupt-" in p.name]
    assert len(aside) == 1 and aside[0].read_bytes().startswith(b"this is not")
    app = ChatApp(
        build_graph(
            persistence.saver,
            archive=persistence.archive,
            settings=load_settings({}),
            tools=[],
            approval_required=frozenset(),
        ),
        persistence,
        load_settings({}),
    )
    thread = new_thread(app)
    assert run_turn(app, thread, "안녕", turn_count=1, compression_rate=0.3).answer


def test_locked_database_gives_a_clear_error_and_keeps_the_conversation(tmp_path: Path) -> None:
    db = tmp_path / "chat.sqlite"
    settings = load_settings({"CHAT_DB_PATH": str(db)})
    persistence = open_persistence(db, busy_timeout_s=0.2)
    app = ChatApp(
        build_graph(
            persistence.saver,
            archive=persistence.archive,
            settings=settings,
            tools=[],
            approval_required=frozenset(),
        ),
        persistence,
        settings,
    )
    thread = new_thread(app)
    run_turn(app, thread, "첫 메시지", turn_count=1, compression_rate=0.3)
    before = export_thread(app, thread)

    other = sqlite3.connect(str(db), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    try:
        with pytest.raises(StorageError, match="could not be saved"):
            run_turn(app, thread, "두 번째", turn_count=2, compression_rate=0.3)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert export_thread(app, thread)["turns"] == before["turns"]
    with pytest.raises(InputError):
        run_turn(app, thread, "   ", turn_count=2, compression_rate=0.3)
    run_turn(app, thread, "두 번째", turn_count=2, compression_rate=0.3)
    assert load_thread(app, thread).turn_count == 2


def test_a_postgresql_restart_under_a_running_app_loses_nothing(
    postgres: PostgresServer,
) -> None:
    """The server drops every connection; the next turn connects again and goes on."""
    url = postgres.database()
    app = open_app(
        load_settings({"DATABASE_URL": url, "CHAT_PROVIDER": "offline"}),
        tools=[],
        approval_required=frozenset(),
        index=None,
    )
    try:
        thread = new_thread(app)
        for turn in range(1, 4):
            run_turn(
                app,
                thread,
                f"기록 {turn}: 예산 {turn * 100}만원",
                turn_count=turn,
                compression_rate=0.3,
            )
        postgres.restart()
        run_turn(app, thread, "기록 4: 이어서", turn_count=4, compression_rate=0.3)
        view = load_thread(app, thread)
        assert view.turn_count == 4 and not view.retryable
        assert [e["turns"] for e in view.summary_history] == [[1, 2, 3]]
        assert app.persistence.archive.conn.reconnects >= 1  # type: ignore[attr-defined]
    finally:
        app.persistence.close()


def test_a_checkpoint_row_keeps_its_small_values_and_empty_channels(tmp_path: Path) -> None:
    from graph.session import load_thread, new_thread, open_app, run_turn
    from graph.storage.checkpointer import EMPTY, inline_value

    db = tmp_path / "inline.sqlite"
    app = open_app(
        load_settings({"CHAT_DB_PATH": str(db), "CHAT_PROVIDER": "offline"}), tools=[], index=None
    )
    try:
        thread = new_thread(app)
        run_turn(app, thread, "회의는 3시에 있어요.", turn_count=1, compression_rate=0.3)
        saver = app.persistence.saver
        rows = app.persistence.archive.execute(
            "SELECT type, checkpoint FROM checkpoints WHERE thread_id = ?", (thread,)
        )
        blobs = {
            str(ch)
            for (ch,) in app.persistence.archive.execute(
                "SELECT channel FROM checkpoint_blobs WHERE thread_id = ?", (thread,)
            )
        }
        for type_, blob in rows:
            stored = saver.serde.loads_typed((type_, blob))["channel_values"]
            assert EMPTY in stored  # every row of this version names its empty channels
            for channel, value in stored.items():
                if channel != EMPTY:
                    assert inline_value(value)
        assert "turn_count" not in blobs and "messages" in blobs
        view = load_thread(app, thread)
        assert view.turn_count == 1 and view.state["compression_rate"] == 0.3
        assert [m.content for _, turn in view.turns for m in turn][:1] == ["회의는 3시에 있어요."]
    finally:
        app.persistence.close()


def test_recall_reads_archived_turns_again_after_they_are_rewritten_or_deleted(
    tmp_path: Path,
) -> None:
    """Recall keeps turns it read unpacked (`Archive.recent`); writing a turn again or
    deleting its thread in this process must not leave the old text there."""
    from langchain_core.messages import AIMessage, HumanMessage

    from graph.storage.archive import archive_turns, delete_archive, load_archived_turns

    persistence = open_persistence(tmp_path / "chat.sqlite")
    archive = persistence.archive
    turn = [HumanMessage(content="주차 등록 번호는 12가 3456이에요"), AIMessage(content="네")]
    archive_turns(archive, "t", 1, [turn])
    first = load_archived_turns(archive, "t", [1], cached=True)[1]
    assert load_archived_turns(archive, "t", [1], cached=True)[1] is first  # kept
    changed = [HumanMessage(content="주차 등록 번호는 34나 5678이에요"), AIMessage(content="네")]
    archive_turns(archive, "t", 1, [changed])
    again = load_archived_turns(archive, "t", [1], cached=True)[1]
    assert again[0].content == "주차 등록 번호는 34나 5678이에요"
    delete_archive(archive, "t")
    assert load_archived_turns(archive, "t", [1], cached=True) == {}
    persistence.close()
