"""A storage error at any write site: nothing committed is lost, nothing is reported wrongly,
and a saved message without an answer stays its own turn (STORAGE_ERROR / TURN_INTERRUPTED)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from graph.session import load_thread, new_thread, open_app, run_turn
from graph.settings import load_settings
from graph.storage.persistence import StorageError


def _app(tmp_path: Path):
    settings = load_settings(
        {"CHAT_DB_PATH": str(tmp_path / "f.sqlite"), "CHAT_PROVIDER": "offline"}
    )
    return open_app(settings, tools=[], index=None)


def _boom(*args, **kwargs):
    raise sqlite3.OperationalError("database is locked (injected)")


def _talk(app, thread: str, first: int, last: int) -> None:
    for turn in range(first, last + 1):
        run_turn(
            app,
            thread,
            f"메모 {turn}: 회의실 {turn}0{turn}호, 오후 {turn}시.",
            turn_count=turn,
            compression_rate=0.3,
        )


# write sites inside a turn: the message reaches the checkpoint, the answer does not
SITES = {
    "archive of summarized turns": "graph.memory.run.archive_turns",
    "summary cost record": "graph.memory.run.record_summary_meta",
    "lost-facts record": "graph.memory.run.record_facts",
    "context statistics": "graph.nodes.llm.record_context_stats",
}


@pytest.mark.parametrize("site", sorted(SITES))
def test_a_failed_write_inside_a_turn_leaves_an_unanswered_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, site: str
) -> None:
    app = _app(tmp_path)
    thread = new_thread(app)
    _talk(app, thread, 1, 3)
    with monkeypatch.context() as patch:
        patch.setattr(SITES[site], _boom)
        out = run_turn(app, thread, "네 번째 메시지", turn_count=4, compression_rate=0.3)
    assert out.error_code == "STORAGE_ERROR" and "STORAGE_ERROR" in out.answer
    view = load_thread(app, thread)
    assert view.turn_count == 4
    turn4 = view.turns[-1][1]
    assert (
        turn4[0].content == "네 번째 메시지"
        and turn4[-1].response_metadata["error_code"] == "STORAGE_ERROR"
    )
    # the next message is its own turn, and the numbering stays right
    _talk(app, thread, 5, 7)
    view = load_thread(app, thread)
    assert [n for n, _ in view.turns] == list(range(1, 8))
    assert [e["turns"] for e in view.summary_history] == [[1, 2, 3], [4, 5, 6]]
    assert not [e for e in view.errors if "turns missing" in e["message"]]
    app.persistence.close()


def test_a_message_that_could_not_be_saved_is_not_a_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = _app(tmp_path)
    thread = new_thread(app)
    _talk(app, thread, 1, 2)
    monkeypatch.setattr(app.persistence.saver, "put", _boom)
    with pytest.raises(StorageError, match="could not be saved"):
        run_turn(app, thread, "저장되지 않을 메시지", turn_count=3, compression_rate=0.3)
    monkeypatch.undo()
    view = load_thread(app, thread)
    assert view.turn_count == 2
    said = [m.content for _, t in view.turns for m in t if isinstance(m, HumanMessage)]
    assert "저장되지 않을 메시지" not in said
    _talk(app, thread, 3, 3)
    assert load_thread(app, thread).turn_count == 3
    app.persistence.close()


def test_a_failure_after_the_commit_is_not_reported_as_lost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = _app(tmp_path)
    thread = new_thread(app)
    monkeypatch.setattr("graph.session.streaming.prune_checkpoints", _boom)
    out = run_turn(app, thread, "안녕하세요", turn_count=1, compression_rate=0.3)
    assert out.error_code is None and out.answer
    monkeypatch.undo()
    assert load_thread(app, thread).turn_count == 1
    app.persistence.close()


def test_a_turn_cut_off_mid_way_is_closed_when_the_thread_is_next_used(tmp_path: Path) -> None:
    app = _app(tmp_path)
    thread = new_thread(app)
    _talk(app, thread, 1, 2)
    # as after a kill between the checkpoint of the message and the answer
    config = {"configurable": {"thread_id": thread}}
    app.graph.update_state(
        config, {"messages": [HumanMessage("끊긴 메시지")], "turn_count": 3}, as_node="summary_node"
    )
    out = run_turn(app, thread, "다음 메시지", turn_count=4, compression_rate=0.3)
    assert out.error_code is None
    view = load_thread(app, thread)
    third = dict(view.turns)[3]
    assert third[0].content == "끊긴 메시지"
    assert (
        isinstance(third[-1], AIMessage)
        and third[-1].response_metadata["error_code"] == "TURN_INTERRUPTED"
    )
    assert dict(view.turns)[4][0].content == "다음 메시지"
    app.persistence.close()


def _rows(db: Path, thread: str) -> dict[str, int]:
    conn = sqlite3.connect(db)
    try:
        tables = [
            "checkpoints",
            "writes",
            "archive_turns",
            "summary_costs",
            "memory_facts",
            "chat_threads",
        ]
        return {
            t: conn.execute(f"SELECT count(*) FROM {t} WHERE thread_id = ?", (thread,)).fetchone()[
                0
            ]
            for t in tables
        }  # noqa: S608
    finally:
        conn.close()


def test_deleting_a_thread_removes_all_of_it_or_nothing(tmp_path: Path) -> None:
    from graph.memory.recall import recall
    from graph.session import delete_thread

    app = _app(tmp_path)
    keep, gone = new_thread(app), new_thread(app)
    for thread in (keep, gone):
        _talk(app, thread, 1, 7)
    db = tmp_path / "f.sqlite"
    before = _rows(db, gone)
    assert all(before[t] for t in ("checkpoints", "archive_turns", "summary_costs", "chat_threads"))
    # a failure at the last statement (the thread list) rolls the whole delete back
    conn = sqlite3.connect(db)
    conn.execute(
        "CREATE TRIGGER no_delete BEFORE DELETE ON chat_threads BEGIN SELECT RAISE(ABORT, 'injected'); END"
    )
    conn.commit()
    with pytest.raises(StorageError):
        delete_thread(app, gone)
    assert _rows(db, gone) == before
    assert load_thread(app, gone).turn_count == 7
    conn.execute("DROP TRIGGER no_delete")
    conn.commit()
    conn.close()
    delete_thread(app, gone)
    assert set(_rows(db, gone).values()) == {0}
    assert recall(app.persistence.archive, gone, "회의실 3호는 몇 시였죠?", 2000) == []
    assert recall(
        app.persistence.archive, keep, "회의실 303호는 몇 시였죠?", 2000
    )  # the other stays
    app.persistence.close()
