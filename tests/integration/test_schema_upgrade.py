"""Databases written by earlier versions open, upgrade in place, and lose nothing."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from graph.memory.recall import recall
from graph.session import load_thread, open_app, run_turn, threads
from graph.settings import load_settings
from graph.storage.archive import load_archived_turns, load_summary_meta
from graph.storage.persistence import PAGE_SIZE, StorageError
from graph.storage.recall_index import document_terms, read_postings
from graph.storage.schema import CHURN_VACUUM_THRESHOLD, SCHEMA_VERSION, schema_version
from tests.postgres import PostgresServer

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "db"


def _open(path: Path):
    settings = load_settings({"CHAT_DB_PATH": str(path), "CHAT_PROVIDER": "offline"})
    return open_app(settings, tools=[], index=None)


@pytest.mark.parametrize("version", range(1, SCHEMA_VERSION))
def test_an_older_file_upgrades_in_place_and_keeps_every_thread(
    tmp_path: Path, version: int
) -> None:
    db = tmp_path / "old.sqlite"
    shutil.copy(FIXTURES / f"schema-v{version}.sqlite", db)
    conn = sqlite3.connect(db)
    assert schema_version(conn) == version
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    before = conn.execute(
        "SELECT thread_id, turn, messages FROM archive_turns WHERE messages IS NOT NULL"
    ).fetchall()
    conn.close()
    app = _open(db)
    try:
        assert app.persistence.archive.upgraded_from == version
        listed = threads(app)
        assert len(listed) == 2
        views = {
            load_thread(app, t["thread_id"]).strategy: load_thread(app, t["thread_id"])
            for t in listed
        }
        assert views["three_turn"].turn_count == 8 and views["recursive"].turn_count == 16
        assert (
            views["three_turn"].turns[0][1][0].content
            == "제 이름은 한지우이고 사번은 HS-20417입니다."
        )
        # the archived turns were indexed during the upgrade: recall finds them
        thread = views["three_turn"].thread_id
        hits = recall(app.persistence.archive, thread, "거래처 담당자가 누구였죠?", 2000)
        assert [h.turn for h in hits] == [5]
        costs = load_summary_meta(app.persistence.archive, thread)
        assert [m["turns"][0] for m in costs] == [1, 4] and all("summarizer" in m for m in costs)
        # the index holds each archived turn's terms as the current tokenizer makes them
        # (v3: English words whole, also before a period)
        archived = load_archived_turns(app.persistence.archive, thread, range(1, 7))
        for turn, messages in archived.items():
            terms = sorted(set(document_terms(messages)))
            with app.persistence.archive.lock:
                postings = read_postings(app.persistence.archive.conn, thread, terms)
            assert all(turn in postings.turns[t] for t in terms), (turn, terms)
        # and the conversation goes on
        run_turn(app, thread, "제 사번이 뭐였죠?", turn_count=9, compression_rate=0.3)
        assert load_thread(app, thread).turn_count == 9
        # the recursive thread's summaries, all in its state before v4, stay whole once
        # its next summary stores them apart and the state keeps its working set
        long = views["recursive"].thread_id
        before_summaries = [e["turns"] for e in views["recursive"].summary_history]
        for turn in range(17, 22):
            run_turn(app, long, f"추가 메모 {turn}", turn_count=turn, compression_rate=0.3)
        after = load_thread(app, long)
        assert [e["turns"] for e in after.summary_history][: len(before_summaries)] == (
            before_summaries
        )
        # made under the old timing (turns 1-5 and 6-10 folded, 11-16 raw), it catches up
        # after turn 17's answer (6 waiting: 11-15) and folds 16-20 after turn 21's
        assert [e["turns"][0] for e in after.summary_history][len(before_summaries) :] == [11, 16]
        assert len(after.state["summary_history"]) <= 3
    finally:
        app.persistence.close()
    conn = sqlite3.connect(db)
    assert schema_version(conn) == SCHEMA_VERSION
    after = conn.execute("SELECT thread_id, turn, messages FROM archive_turns").fetchall()
    assert set(before) <= set(after)
    # v9: a rowid table (a turn waiting for its block no longer spills into a page of its
    # own); the file keeps the page size it was made with
    (ddl,) = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'archive_turns'").fetchone()
    assert "WITHOUT ROWID" not in ddl.upper()
    assert conn.execute("PRAGMA page_size").fetchone()[0] == page_size
    conn.close()
    # opening again changes nothing
    app = _open(db)
    assert app.persistence.archive.upgraded_from == SCHEMA_VERSION
    app.persistence.close()


def test_a_file_from_a_newer_version_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    db = tmp_path / "new.sqlite"
    _open(db).persistence.close()
    conn = sqlite3.connect(db)
    conn.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    conn.commit()
    conn.close()
    with pytest.raises(StorageError, match=f"schema version {SCHEMA_VERSION + 1}, newer than"):
        _open(db)


def test_a_new_file_is_made_of_small_pages(tmp_path: Path) -> None:
    # about thirty tables and indexes, many holding a row or none: each takes a page
    db = tmp_path / "new.sqlite"
    _open(db).persistence.close()
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA page_size").fetchone()[0] == PAGE_SIZE == 1024
    conn.close()


def test_the_fixture_of_the_current_version_exists() -> None:
    # each schema version keeps a small file written by the code of that version
    for version in range(1, SCHEMA_VERSION + 1):
        assert (FIXTURES / f"schema-v{version}.sqlite").exists(), (
            f"run make_fixture.py for v{version}"
        )


def test_the_v3_upgrade_reindexes_english_words_cut_by_version_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from langchain_core.messages import AIMessage, HumanMessage

    import graph.retrieval.tokenize as tokenize
    from graph.storage.messages import pack_turn
    from graph.storage.recall_index import index_turns

    db = tmp_path / "v2.sqlite"
    shutil.copy(FIXTURES / "schema-v2.sqlite", db)
    turn = [HumanMessage("Please keep this detail."), AIMessage("Noted, it is kept.")]
    # an archived turn as version 2 indexed it: Kiwi's pieces of "detail." left apart
    with monkeypatch.context() as patch:
        patch.setattr(tokenize, "_join_latin", lambda morphs: list(morphs))
        cut = document_terms(turn)
    assert "detail" not in cut
    conn = sqlite3.connect(db)
    conn.execute(
        "INSERT INTO chat_threads (thread_id, created_at, record) VALUES (?, 0, ?)",
        ("session_v2cut", '{"thread_id": "session_v2cut", "title": "v2"}'),
    )
    conn.execute(
        "INSERT INTO archive_turns (thread_id, turn, messages) VALUES (?, 1, ?)",
        ("session_v2cut", pack_turn(turn)),
    )
    index_turns(conn, "session_v2cut", [(1, cut)])
    conn.commit()
    conn.close()
    app = _open(db)
    try:
        with app.persistence.archive.lock:
            postings = read_postings(app.persistence.archive.conn, "session_v2cut", ["detail"])
        assert postings.turns["detail"] == [1]
        assert [
            h.turn for h in recall(app.persistence.archive, "session_v2cut", "the detail", 900)
        ] == [1]
    finally:
        app.persistence.close()


def test_a_postgresql_database_records_its_version_and_refuses_a_newer_one(pg_url: str) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from graph.storage.persistence import open_persistence

    # two processes starting on a new database at once: one makes the tables, both open
    with ThreadPoolExecutor(2) as pool:
        opened = list(pool.map(lambda _: open_persistence(pg_url), range(2)))
    # one made the tables; the other waited for it and found them current
    assert sorted(p.archive.upgraded_from for p in opened) == [0, SCHEMA_VERSION]
    for persistence in opened:
        persistence.close()
    persistence = open_persistence(pg_url)
    assert persistence.archive.upgraded_from == SCHEMA_VERSION
    assert schema_version(persistence.archive.conn) == SCHEMA_VERSION
    persistence.archive.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    persistence.close()
    with pytest.raises(StorageError, match=f"schema version {SCHEMA_VERSION + 1}, newer than"):
        open_persistence(pg_url)


POSTGRES_DUMPS = sorted(FIXTURES.glob("schema-v*.postgres.sql"))
"""`pg_dump`s of databases written by earlier versions (PostgreSQL from version 5 on)."""


@pytest.mark.parametrize("dump", POSTGRES_DUMPS, ids=lambda p: p.name)
def test_a_postgresql_database_of_an_earlier_version_opens_and_goes_on(
    postgres: PostgresServer, dump: Path
) -> None:
    import psycopg

    url = postgres.database()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(dump.read_text())
    version = int(dump.name.removeprefix("schema-v").split(".")[0])
    app = open_app(
        load_settings({"DATABASE_URL": url, "CHAT_PROVIDER": "offline"}), tools=[], index=None
    )
    try:
        assert app.persistence.archive.upgraded_from == version
        views = {
            load_thread(app, t["thread_id"]).strategy: load_thread(app, t["thread_id"])
            for t in threads(app)
        }
        assert views["three_turn"].turn_count == 8 and views["recursive"].turn_count == 16
        thread = views["three_turn"].thread_id
        hits = recall(app.persistence.archive, thread, "거래처 담당자가 누구였죠?", 2000)
        assert [h.turn for h in hits] == [5]
        # each summary's costs survive (stored as bytes from version 6 on)
        costs = load_summary_meta(app.persistence.archive, thread)
        assert [m["turns"][0] for m in costs] == [1, 4] and all("summarizer" in m for m in costs)
        run_turn(app, thread, "제 사번이 뭐였죠?", turn_count=9, compression_rate=0.3)
        assert load_thread(app, thread).turn_count == 9
        assert schema_version(app.persistence.archive.conn) == SCHEMA_VERSION
        # version 7: the churn tables are vacuumed after CHURN_VACUUM_THRESHOLD dead rows
        options = app.persistence.archive.execute(
            "SELECT reloptions FROM pg_class WHERE relname = 'checkpoints'"
        )[0][0]
        assert f"autovacuum_vacuum_threshold={CHURN_VACUUM_THRESHOLD}" in options
    finally:
        app.persistence.close()


def test_every_postgresql_version_keeps_a_fixture() -> None:
    for version in range(5, SCHEMA_VERSION + 1):  # the first version PostgreSQL ran on
        assert (FIXTURES / f"schema-v{version}.postgres.sql").exists(), (
            f"run make_fixture.py for v{version}"
        )


def test_a_postgresql_upgrade_reindexing_thousands_of_threads_fits_the_lock_table() -> None:
    """Version 6's upgrade re-indexes every archived turn in one transaction. A lock per
    thread there would need a slot of PostgreSQL's lock table each until the commit: here
    the table holds 10 x 20 (and what it borrows) and the database has 2,500 threads."""
    import psycopg
    from langchain_core.messages import AIMessage, HumanMessage

    from graph.storage.messages import pack_turn
    from tests.postgres import start_or_skip

    server = start_or_skip(
        pytest.skip, pytest.fail, max_locks_per_transaction="10", max_connections="20"
    )
    try:
        url = server.database()
        packed = pack_turn([HumanMessage("주차 등록 번호는 12가 3456이에요"), AIMessage("네")])
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute((FIXTURES / "schema-v5.postgres.sql").read_text())
            with conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO public.archive_turns (thread_id, turn, messages) VALUES (%s, 1, %s)",
                    [(f"bulk-{i}", packed) for i in range(2500)],
                )
        app = open_app(
            load_settings({"DATABASE_URL": url, "CHAT_PROVIDER": "offline"}), tools=[], index=None
        )
        try:
            assert app.persistence.archive.upgraded_from == 5
            hits = recall(app.persistence.archive, "bulk-2499", "주차 등록 번호가 뭐였죠?", 2000)
            assert [h.turn for h in hits] == [1]
        finally:
            app.persistence.close()
    finally:
        server.stop()


def test_a_version_12_file_keeps_the_versions_of_a_turn(tmp_path: Path) -> None:
    """From version 12 a thread may hold versions of a turn, parked in hidden slots: they
    are not listed, and switching between them works after the file is opened again."""
    from graph.session import switch_version

    db = tmp_path / "v12.sqlite"
    shutil.copy(FIXTURES / "schema-v12.sqlite", db)
    app = _open(db)
    try:
        listed = threads(app)
        assert len(listed) == 2  # the slot of the version not shown is not listed
        views = {v.strategy: v for v in (load_thread(app, t["thread_id"]) for t in listed)}
        thread = views["three_turn"].thread_id
        assert views["three_turn"].versions[8].shown == 2
        assert views["three_turn"].versions[8].count == 2
        switch_version(app, thread, 8, 1)
        first = load_thread(app, thread)
        assert first.turn_count == 8 and first.versions[8].shown == 1
        assert first.turns[-1][1][0].content == "노트북 자산번호는 NB-7731이에요."
        run_turn(app, thread, "제 사번이 뭐였죠?", turn_count=9, compression_rate=0.3)
        assert load_thread(app, thread).turn_count == 9
    finally:
        app.persistence.close()
