"""Storage faults are named and contained: a read-only folder, a file deleted or replaced under
the running app, a damaged thread that must not take the app down."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from graph.session import load_thread, new_thread, open_app, run_turn, salvage_thread
from graph.settings import load_settings
from graph.storage.persistence import StorageError, open_persistence

ROOT = Path(__file__).resolve().parents[2]


def _app(db: Path):
    return open_app(
        load_settings({"CHAT_DB_PATH": str(db), "CHAT_PROVIDER": "offline"}), tools=[], index=None
    )


def _talk(app, thread: str, turns: int) -> None:
    for turn in range(1, turns + 1):
        run_turn(
            app,
            thread,
            f"메모 {turn}: 회의실 {turn}0{turn}호",
            turn_count=turn,
            compression_rate=0.3,
        )


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders anyway")
def test_a_read_only_folder_is_named_as_such(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    with pytest.raises(StorageError, match="is read-only"):
        open_persistence(folder / "c.sqlite")


def test_a_read_only_file_is_named_as_such_not_called_damaged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "c.sqlite"
    app = _app(db)
    _talk(app, new_thread(app), 2)
    app.persistence.close()
    real_access = os.access
    monkeypatch.setattr(
        os,
        "access",
        lambda p, mode: False if Path(p) == db and mode == os.W_OK else real_access(p, mode),
    )
    with pytest.raises(StorageError, match="is read-only"):
        open_persistence(db)
    assert db.exists() and not list(tmp_path.glob("*.corrupt-*"))  # not moved aside as damaged


@pytest.mark.parametrize("how", ["deleted", "replaced"])
def test_a_database_deleted_or_replaced_under_the_app_is_noticed(tmp_path: Path, how: str) -> None:
    db = tmp_path / "c.sqlite"
    app = _app(db)
    thread = new_thread(app)
    _talk(app, thread, 2)
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    if how == "replaced":
        shutil.copy(ROOT / "tests" / "fixtures" / "db" / "schema-v1.sqlite", db)
    with pytest.raises(StorageError, match=how):
        run_turn(
            app,
            thread,
            "이 턴은 저장된다고 거짓말하면 안 됩니다",
            turn_count=3,
            compression_rate=0.3,
        )
    app.persistence.close()


def test_a_damaged_thread_keeps_the_app_and_the_other_threads_working(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "c.sqlite"
    app = _app(db)
    good, bad = new_thread(app), new_thread(app)
    _talk(app, good, 5)
    _talk(app, bad, 5)
    app.persistence.close()
    conn = sqlite3.connect(db)  # the bad thread's checkpoint blob becomes garbage
    conn.execute("UPDATE checkpoints SET checkpoint = X'DEADBEEF00FF' WHERE thread_id = ?", (bad,))
    conn.commit()
    conn.close()
    app = _app(db)
    with pytest.raises(Exception):  # noqa: B017 - whatever the deserializer raises
        load_thread(app, bad)
    salvaged = salvage_thread(app, bad)
    assert [t["turn"] for t in salvaged["turns"]] == [1, 2, 3]  # the archived turns survive
    assert load_thread(app, good).turn_count == 5
    app.persistence.close()
    monkeypatch.setenv("CHAT_DB_PATH", str(db))
    monkeypatch.setenv("CHAT_PROVIDER", "offline")
    monkeypatch.setenv("INDEX_DIR", str(tmp_path / "index"))
    st.cache_resource.clear()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params["thread"] = bad
    at.run()
    assert not at.exception, at.exception
    assert any("저장된 상태를 읽을 수 없습니다" in e.value for e in at.error)
    # the sidebar still lists both conversations, so the user can go on elsewhere
    assert len([b for b in at.sidebar.button if "메모 1" in b.label]) == 2
    st.cache_resource.clear()
