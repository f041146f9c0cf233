"""Archived turns packed by the block (schema version 8): read, recalled, forked, rewritten,
exported and upgraded as if each turn had its own row."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from graph.memory.recall import recall
from graph.session import (
    delete_thread,
    export_thread,
    import_thread,
    load_thread,
    new_thread,
    open_app,
    run_turn,
    salvage_thread,
)
from graph.session.history import checkpoints, fork_thread
from graph.session.transfer import IMPORTED_MARK
from graph.settings import load_settings
from graph.storage import blocks, summaries
from graph.storage.archive import (
    archive_turns,
    load_archived_turns,
    load_context_stats,
    load_summary_meta,
    record_summary_meta,
)
from graph.storage.facts import facts_in_range, load_facts
from graph.storage.messages import pack_turn
from graph.storage.packing import dump, pack_text
from graph.storage.schema import SCHEMA_VERSION
from tests.conftest import Store
from tests.fixtures.db.make_fixture import long_turn
from tests.integration.test_transfer import _comparable

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "db"


THINGS = (
    "사과 바나나 체리 두리안 망고 자두 포도 호두 레몬 키위 수박 참외 딸기 밤 배 귤 살구 "
    "앵두 대추 유자 모과 석류 오디 머루 다래 비파 감 홍시 곶감 매실 복숭아 오렌지 자몽 "
    "라임 무화과 블루베리 크랜베리"
).split()


def _said(turn: int) -> str:
    return f"{THINGS[turn]} 상자 {turn}개는 창고 {100 + turn}호에 있어요."


def _open(where: dict[str, str], **env: str):
    settings = load_settings({**where, "CHAT_PROVIDER": "offline", **env})
    return open_app(settings, tools=[], index=None)


def _talk(app, thread: str, turns: range) -> None:
    for turn in turns:
        run_turn(app, thread, _said(turn), turn_count=turn, compression_rate=0.3)


def _packed(app, thread: str) -> list[int]:
    rows = app.persistence.archive.execute(
        "SELECT first_turn FROM archive_blocks WHERE thread_id = ? ORDER BY first_turn", (thread,)
    )
    return [int(r[0]) for r in rows]


def _all_rows(app, thread: str) -> list[int]:
    rows = app.persistence.archive.execute(
        "SELECT turn FROM archive_turns WHERE thread_id = ? ORDER BY turn", (thread,)
    )
    return [int(r[0]) for r in rows]


def _own_rows(app, thread: str) -> list[int]:
    rows = app.persistence.archive.execute(
        "SELECT turn FROM archive_turns WHERE thread_id = ? AND messages IS NOT NULL ORDER BY turn",
        (thread,),
    )
    return [int(r[0]) for r in rows]


@pytest.fixture
def six(monkeypatch: pytest.MonkeyPatch) -> int:
    """Blocks of six turns, so that a short conversation packs some."""
    monkeypatch.setattr(blocks, "BLOCK_TURNS", 6)
    return 6


def test_a_block_archived_to_its_end_is_one_row_and_reads_as_before(store: Store, six) -> None:
    app = _open(store("packed"))
    try:
        thread = new_thread(app)
        _talk(app, thread, range(1, 17))
        view = load_thread(app, thread)
        archived = int(view.state["archived_turns"])
        assert archived == 15
        # turns 1-6 and 7-12 are packed; 13-15 keep their own rows until 18 is archived
        assert _packed(app, thread) == [1, 7]
        assert _own_rows(app, thread) == [13, 14, 15]
        # a packed block holds its turns' statistics too: their rows are gone
        assert _all_rows(app, thread) == [13, 14, 15, 16]
        stats = load_context_stats(app.persistence.archive, thread)
        assert [s["turn"] for s in stats] == list(range(1, 17))
        assert all(s["context_chars"] > 0 for s in stats)
        assert [n for n, _ in view.turns] == list(range(1, 17))
        assert [turn[0].content for _, turn in view.turns] == [_said(t) for t in range(1, 17)]
        # a turn of a packed block is recalled, and read alone
        assert [h.turn for h in recall(app.persistence.archive, thread, f"{THINGS[4]} 상자", 2000)][
            :1
        ] == [4]
        found = load_archived_turns(app.persistence.archive, thread, [4, 9, 14, 99])
        assert sorted(found) == [4, 9, 14] and found[9][0].content == _said(9)
        # export and import: the copy is packed the same way and exports the same
        original = export_thread(app, thread)
        assert len(original["summary_meta"]) == 5 and len(original["lost_facts"]) == 5
        copy = import_thread(app, json.loads(json.dumps(original)))
        assert _packed(app, copy) == [1, 7]
        again = export_thread(app, copy)
        assert again["title"] == f"{original['title']}{IMPORTED_MARK}"
        assert _comparable({**again, "title": original["title"]}) == _comparable(original)
    finally:
        app.persistence.close()


def test_a_fork_cut_inside_a_packed_block_holds_only_the_turns_before_it(store: Store, six) -> None:
    app = _open(store("fork"), CHECKPOINT_KEEP_TURNS="0")
    try:
        thread = new_thread(app)
        _talk(app, thread, range(1, 17))
        # the end of turn 10: turns 1-9 were archived then, block 7-12 is packed now
        at = next(
            c
            for c in reversed(checkpoints(app, thread))
            if c["turn"] == 10 and c["node"] == "llm_node"
        )
        fork = fork_thread(app, thread, at["checkpoint_id"])
        view = load_thread(app, fork)
        assert view.state["archived_turns"] == 9
        assert _packed(app, fork) == [1] and _own_rows(app, fork) == [7, 8, 9]
        assert [n for n, _ in view.turns] == list(range(1, 11))
        # statistics: block 1-6's in the copied block, those of 7-10 in rows of their own
        stats = load_context_stats(app.persistence.archive, fork)
        original = load_context_stats(app.persistence.archive, thread)
        assert stats == original[:10]
        assert _all_rows(app, fork) == [7, 8, 9, 10]
        found = load_archived_turns(app.persistence.archive, fork, range(1, 17))
        assert sorted(found) == list(range(1, 10))
        # of the summaries packed in block 7-12, the fork takes those its state had made
        assert [e["turns"][0] for e in summaries.load(app.persistence.archive, fork, {})[0]] == [
            1,
            4,
            7,
        ]
        assert [m["turns"][0] for m in load_summary_meta(app.persistence.archive, fork)] == [
            1,
            4,
            7,
        ]
        assert sorted(load_facts(app.persistence.archive, fork)) == [(1, 3), (4, 6), (7, 9)]
        # the fork's recall knows its own turns only
        recalled = recall(app.persistence.archive, fork, f"{THINGS[11]} 상자", 2000)
        assert recalled and all(h.turn <= 9 and THINGS[11] not in h.text for h in recalled)
        assert [h.turn for h in recall(app.persistence.archive, fork, f"{THINGS[8]} 상자", 2000)][
            :1
        ] == [8]
        # and goes on: its block 7-12 packs when its turn 12 is archived
        _talk(app, fork, range(11, 14))
        assert _packed(app, fork) == [1, 7]
    finally:
        app.persistence.close()


def test_a_turn_or_summary_written_into_a_packed_block_goes_into_the_block(
    store: Store, six
) -> None:
    app = _open(store("rewrite"))
    try:
        thread = new_thread(app)
        _talk(app, thread, range(1, 8))
        archive = app.persistence.archive
        assert _packed(app, thread) == [1]
        archive_turns(archive, thread, 2, [[HumanMessage("고친 메모: 파인애플"), AIMessage("네")]])
        assert _packed(app, thread) == [1] and _own_rows(app, thread) == []
        turns = load_archived_turns(archive, thread, range(1, 7))
        assert turns[2][0].content == "고친 메모: 파인애플" and turns[3][0].content == _said(3)
        # a summary made again with other text (a crash lost the state that held the
        # first) takes the new text, in the block
        history, _, _ = summaries.load(archive, thread, {})
        again = {**history[0], "summary": "다시 만든 요약"}
        summaries.store(archive, thread, summaries.SUMMARY, [again], made_at=4)
        assert summaries.load(archive, thread, {})[0][0]["summary"] == "다시 만든 요약"
        assert _rows(app, "summary_items", thread) == 0
    finally:
        app.persistence.close()


def _rows(app, table: str, thread: str) -> int:
    return int(
        app.persistence.archive.execute(
            f"SELECT count(*) FROM {table} WHERE thread_id = ?", (thread,)
        )[0][0]
    )


def test_a_blocks_summaries_their_costs_and_facts_are_packed_with_it(store: Store, six) -> None:
    app = _open(store("summaries"), CHECKPOINT_KEEP_TURNS="0")
    try:
        thread = new_thread(app)
        _talk(app, thread, range(1, 17))
        archive = app.persistence.archive
        # summaries of 1-3, 4-6, 7-9, 10-12 are in blocks 1 and 7; 13-15 in rows
        assert _packed(app, thread) == [1, 7]
        assert _rows(app, "summary_costs", thread) == 1
        assert _rows(app, "memory_facts", thread) == 1
        (kinds,) = archive.execute(
            "SELECT count(*) FROM summary_items WHERE thread_id = ? AND kind = 'summary'",
            (thread,),
        )
        assert kinds[0] == 1
        history, _, _ = summaries.load(archive, thread, {})
        assert [e["turns"] for e in history] == [list(range(a, a + 3)) for a in (1, 4, 7, 10, 13)]
        assert all(e["thread_id"] == thread for e in history)
        costs = load_summary_meta(archive, thread)
        assert [m["turns"] for m in costs] == [[a, a + 2] for a in (1, 4, 7, 10, 13)]
        facts = load_facts(archive, thread)
        assert sorted(facts) == [(a, a + 2) for a in (1, 4, 7, 10, 13)]
        assert ["104호", 4, "number"] in facts[4, 6]["facts"]
        assert [r for r in facts_in_range(archive, thread, 4, 9)] == [facts[4, 6], facts[7, 9]]
        # what the panel shows: every summary, with its costs and facts
        view = load_thread(app, thread)
        assert len(view.summary_history) == 5 and len(view.summary_meta) == 5
        # a fork at the end of turn 8 (turns 1-6 archived and summarized) takes block 1
        # whole, and nothing of block 7
        at = next(c for c in checkpoints(app, thread) if c["turn"] == 8 and c["node"] == "llm_node")
        fork = fork_thread(app, thread, at["checkpoint_id"])
        assert _packed(app, fork) == [1]
        assert [e["turns"][0] for e in summaries.load(archive, fork, {})[0]] == [1, 4]
        assert [m["turns"][0] for m in load_summary_meta(archive, fork)] == [1, 4]
        assert sorted(load_facts(archive, fork)) == [(1, 3), (4, 6)]
    finally:
        app.persistence.close()


def test_a_damaged_block_loses_only_its_own_turns_in_a_salvage(tmp_path: Path, six) -> None:
    db = tmp_path / "salvage.sqlite"
    app = _open({"CHAT_DB_PATH": str(db)})
    thread = new_thread(app)
    _talk(app, thread, range(1, 17))
    app.persistence.close()
    conn = sqlite3.connect(db)
    conn.execute("UPDATE archive_blocks SET turns = X'78DEADBEEF' WHERE first_turn = 7")
    conn.commit()
    conn.close()
    app = _open({"CHAT_DB_PATH": str(db)})
    try:
        salvaged = salvage_thread(app, thread)
        assert [t["turn"] for t in salvaged["turns"]] == [1, 2, 3, 4, 5, 6, 13, 14, 15]
        assert salvaged["unreadable_turns"] == [7, 8, 9, 10, 11, 12]
    finally:
        app.persistence.close()


LONG_FIXTURES = sorted(FIXTURES.glob("schema-v*-long.sqlite"))
"""Files of one 37-turn thread written by each version from 7 on (make_fixture.py)."""


def test_every_version_from_7_on_keeps_a_long_fixture() -> None:
    for version in range(7, SCHEMA_VERSION + 1):
        assert (FIXTURES / f"schema-v{version}-long.sqlite").exists(), (
            f"run make_fixture.py for schema-v{version}-long.sqlite"
        )


@pytest.mark.parametrize("fixture", LONG_FIXTURES, ids=lambda p: p.name)
def test_a_long_file_of_an_earlier_version_has_its_archived_blocks_packed(
    tmp_path: Path, fixture: Path
) -> None:
    db = tmp_path / "long.sqlite"
    shutil.copy(fixture, db)  # 37 turns, 36 archived
    version = int(fixture.name.removeprefix("schema-v").split("-")[0])
    app = _open({"CHAT_DB_PATH": str(db)})
    try:
        assert app.persistence.archive.upgraded_from == version
        (record,) = app.persistence.archive.execute("SELECT thread_id FROM chat_threads")
        thread = str(record[0])
        assert _packed(app, thread) == [1] and _own_rows(app, thread) == list(range(31, 37))
        view = load_thread(app, thread)
        assert [n for n, _ in view.turns] == list(range(1, 38))
        assert [turn[0].content for _, turn in view.turns] == [long_turn(n) for n in range(1, 38)]
        assert [h.turn for h in recall(app.persistence.archive, thread, "PX-1005", 2000)][:1] == [5]
        # the summaries' entries, costs and facts records of turns 1-30 went into the block
        spans = [(a, a + 2) for a in range(1, 37, 3)]
        archive = app.persistence.archive
        assert [tuple(e["turns"][::2]) for e in view.summary_history] == spans
        assert [tuple(m["turns"]) for m in load_summary_meta(archive, thread)] == spans
        assert sorted(k for k, r in load_facts(archive, thread).items() if "facts" in r) == spans
        assert _rows(app, "summary_costs", thread) == 2  # 31-33 and 34-36
        run_turn(app, thread, "PX-1005 담당자가 누구였죠?", turn_count=38, compression_rate=0.3)
        assert load_thread(app, thread).turn_count == 38
    finally:
        app.persistence.close()


def test_a_postgresql_database_of_version_7_packs_its_blocks_when_it_upgrades(pg_url: str) -> None:
    import psycopg

    turns = [
        [HumanMessage(_said(t)), AIMessage(f"네, {t}번 메모를 기억할게요.")] for t in range(1, 36)
    ]
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute((FIXTURES / "schema-v7.postgres.sql").read_text())
        with conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO public.archive_turns (thread_id, turn, messages) VALUES (%s, %s, %s)",
                [("long", n, pack_turn(turn)) for n, turn in enumerate(turns, 1)],
            )
    app = _open({"DATABASE_URL": pg_url})
    try:
        assert app.persistence.archive.upgraded_from == 7
        assert _packed(app, "long") == [1] and _own_rows(app, "long") == list(range(31, 36))
        found = load_archived_turns(app.persistence.archive, "long", range(1, 36))
        assert [found[n][0].content for n in range(1, 36)] == [_said(n) for n in range(1, 36)]
    finally:
        app.persistence.close()


def test_a_damaged_row_leaves_its_block_unpacked_and_costs_only_itself(
    tmp_path: Path,
) -> None:
    db = tmp_path / "v7.sqlite"
    shutil.copy(FIXTURES / "schema-v7-long.sqlite", db)
    conn = sqlite3.connect(db)
    conn.execute("UPDATE archive_turns SET messages = X'78DEADBEEF' WHERE turn = 7")
    conn.commit()
    conn.close()
    app = _open({"CHAT_DB_PATH": str(db)})  # the upgrade does not fail on it
    try:
        (record,) = app.persistence.archive.execute("SELECT thread_id FROM chat_threads")
        thread = str(record[0])
        assert _packed(app, thread) == [] and len(_own_rows(app, thread)) == 36
        salvaged = salvage_thread(app, thread)
        assert salvaged["unreadable_turns"] == [7]
        assert [t["turn"] for t in salvaged["turns"]] == [n for n in range(1, 37) if n != 7]
    finally:
        app.persistence.close()


def test_deleting_a_thread_deletes_its_packed_blocks(store: Store, six) -> None:
    app = _open(store("delete"))
    try:
        kept, gone = new_thread(app), new_thread(app)
        _talk(app, kept, range(1, 8))
        _talk(app, gone, range(1, 8))
        assert _packed(app, gone) == [1]
        delete_thread(app, gone)
        assert _packed(app, gone) == [] and _packed(app, kept) == [1]
        assert load_archived_turns(app.persistence.archive, kept, [3])[3][0].content == _said(3)
    finally:
        app.persistence.close()


def test_a_cost_is_kept_once_by_its_first_turn_in_a_row_or_a_block(store: Store, six) -> None:
    app = _open(store("costs"))
    try:
        thread = new_thread(app)
        _talk(app, thread, range(1, 8))
        archive = app.persistence.archive
        # a summary over turns 4-8 spans two blocks: its costs stay in a row ...
        record_summary_meta(archive, thread, {"turns": [4, 8], "target_chars": 1})
        assert [m["turns"] for m in load_summary_meta(archive, thread)] == [[1, 3], [4, 8]]
        # ... until one over 4-6 replaces it, in the block
        record_summary_meta(archive, thread, {"turns": [4, 6], "target_chars": 2})
        assert [m["turns"] for m in load_summary_meta(archive, thread)] == [[1, 3], [4, 6]]
        assert _rows(app, "summary_costs", thread) == 0
        record_summary_meta(archive, thread, {"turns": [4, 8], "target_chars": 3})
        assert [m["turns"] for m in load_summary_meta(archive, thread)] == [[1, 3], [4, 8]]
    finally:
        app.persistence.close()


def test_a_block_read_in_part_cannot_be_stored_again() -> None:
    whole = blocks.Block(
        {"c": [[1, {"turns": [1, 3]}]], "f": [], "s": [], "t": [[1, ["안녕"]]], "x": [[1, [9]]]}
    )
    costs_only = blocks.Block.load(whole.pack(), "c")
    assert costs_only.costs == {1: {"turns": [1, 3]}} and costs_only.turns == {}
    with pytest.raises(ValueError, match="without all of its parts"):
        costs_only.pack()
    again = blocks.Block.load(whole.pack())
    assert again.turns == {1: ["안녕"]} and again.pack() == whole.pack()
    assert blocks.Block.load(blocks.Block().pack(), "c").costs == {}
    # a block packed by version 8 has no statistics line: it reads whole, with none
    v8 = pack_text("\n".join(dump(p) for p in ([[1, {"turns": [1, 3]}]], [], [], [[1, ["안녕"]]])))
    old = blocks.Block.load(v8)
    assert old.whole and old.stats == {} and old.turns == {1: ["안녕"]}
    assert blocks.Block.load(old.pack()).costs == {1: {"turns": [1, 3]}}
