"""Damage inside a compressed value, written into a real SQLite file the way a failing disk
would (bytes of the file itself, not an UPDATE): the open-time check cannot see it, so the
read must name it (STORAGE_CORRUPT), never misread it or raise a zlib or zstd error."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from graph.errors import ErrorCode, StorageCorrupt
from graph.session import load_thread, new_thread, open_app, run_turn, salvage_thread
from graph.settings import load_settings
from graph.storage.checkpointer import CompressedSerializer
from graph.storage.zdict import CHECKED


def _app(db: Path):
    return open_app(
        load_settings({"CHAT_DB_PATH": str(db), "CHAT_PROVIDER": "offline"}), tools=[], index=None
    )


def _said(turn: int) -> str:
    return f"메모 {turn}: 회의실 {turn}0{turn}호는 프로젝트 PX-{1000 + turn} 팀이 씁니다."


def _conversation(db: Path, turns: int) -> tuple[str, str]:
    app = _app(db)
    good, bad = new_thread(app), new_thread(app)
    for thread in (good, bad):
        for turn in range(1, turns + 1):
            run_turn(app, thread, _said(turn), turn_count=turn, compression_rate=0.3)
    app.persistence.close()
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # every value in the file itself
    conn.close()
    return good, bad


def _damage_in_file(db: Path, stored: bytes) -> None:
    """Flip three bytes inside `stored`'s compressed stream where it lies in the file.

    Its first 48 bytes: a value longer than a page keeps its start on the page of its row
    (the rest goes to overflow pages), so they lie together in the file.
    """
    data = bytearray(db.read_bytes())
    head = stored[:48]
    at = data.find(head)
    assert at > 0 and data.find(head, at + 1) < 0, "the value's start lies once in the file"
    assert stored[:1] == CHECKED  # written with its checksum (schema 11)
    for offset in (20, 21, 22):  # past the marker and the CRC-32: inside the stream
        data[at + offset] ^= 0x5A
    db.write_bytes(bytes(data))
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"  # unseen at open
    conn.close()


def _blob(db: Path, thread: str, *, newest: bool) -> bytes:
    """A compressed `messages` value of the thread: the newest checkpoint's, or one that
    only an earlier checkpoint of the last turn uses."""
    conn = sqlite3.connect(db)
    type_, row = conn.execute(
        "SELECT type, checkpoint FROM checkpoints WHERE thread_id = ? "
        "ORDER BY checkpoint_id DESC LIMIT 1",
        (thread,),
    ).fetchone()
    current = str(CompressedSerializer().loads_typed((type_, row))["channel_versions"]["messages"])
    rows = conn.execute(
        "SELECT version, blob FROM checkpoint_blobs WHERE thread_id = ? AND channel = 'messages' "
        "AND type LIKE '%+zs' AND length(blob) > 48",
        (thread,),
    ).fetchall()
    conn.close()
    found = [bytes(b) for v, b in rows if (v == current) == newest]
    assert found, rows
    return found[-1]


def test_a_damaged_checkpoint_value_is_named_and_the_other_thread_goes_on(
    tmp_path: Path,
) -> None:
    db = tmp_path / "c.sqlite"
    good, bad = _conversation(db, 4)
    _damage_in_file(db, _blob(db, bad, newest=True))
    app = _app(db)
    try:
        assert app.persistence.notice == ""  # not moved aside: the file itself is sound
        with pytest.raises(StorageCorrupt, match=f"thread {bad}.*channel messages.*damaged") as e:
            app.persistence.saver.get_tuple({"configurable": {"thread_id": bad}})
        assert e.value.code == ErrorCode.STORAGE_CORRUPT == "STORAGE_CORRUPT"
        with pytest.raises(Exception, match="checksum does not match"):  # the session's words
            load_thread(app, bad)
        salvaged = salvage_thread(app, bad)  # what can be read: the archived turns
        assert [t["turn"] for t in salvaged["turns"]] == [1, 2, 3]
        outcome = run_turn(app, good, _said(5), turn_count=5, compression_rate=0.3)
        assert outcome.error_code is None and outcome.answer
        assert load_thread(app, good).turn_count == 5
    finally:
        app.persistence.close()


def test_damage_met_by_the_housekeeping_after_a_turn_does_not_fail_the_answered_turn(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # before: the turn was answered and saved, then packing the finished turn's checkpoints
    # met a zstd error and the turn was reported failed ("decompression error")
    db = tmp_path / "c.sqlite"
    _, bad = _conversation(db, 4)
    _damage_in_file(db, _blob(db, bad, newest=False))
    app = _app(db)
    try:
        with caplog.at_level(logging.WARNING):
            outcome = run_turn(app, bad, _said(5), turn_count=5, compression_rate=0.3)
        assert outcome.error_code is None and outcome.refused is None and outcome.answer
        assert any("damaged" in r.getMessage() for r in caplog.records)  # named in the log
        view = load_thread(app, bad)
        assert view.turn_count == 5
        assert view.turns[-1][1][0].content == _said(5)
    finally:
        app.persistence.close()


def test_a_damaged_packed_block_is_named_and_costs_only_its_own_turns(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    app = _app(db)
    thread = new_thread(app)
    for turn in range(1, 38):  # turns 1-30 archived to their end: one packed block
        run_turn(app, thread, _said(turn), turn_count=turn, compression_rate=0.3)
    app.persistence.close()
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    (stored,) = conn.execute(
        "SELECT turns FROM archive_blocks WHERE thread_id = ?", (thread,)
    ).fetchone()
    conn.close()
    _damage_in_file(db, bytes(stored))
    app = _app(db)
    try:
        # the block also holds the summaries' records the thread view reads: named
        with pytest.raises(Exception, match=f"the packed turns 1-30 of thread {thread} is damaged"):
            load_thread(app, thread)
        salvaged = salvage_thread(app, thread)
        assert salvaged["unreadable_turns"] == list(range(1, 31))
        assert [t["turn"] for t in salvaged["turns"]][:1] == [31]
    finally:
        app.persistence.close()
