"""The turn API on a real SQLite file: bad input changes nothing, the archive keeps everything."""

from __future__ import annotations

from pathlib import Path

import pytest

from graph.errors import InputError
from graph.session import (
    delete_thread,
    export_thread,
    load_thread,
    new_thread,
    open_app,
    preview_next_context,
    rename_thread,
    run_turn,
    set_thread_rate,
    threads,
)
from graph.settings import load_settings


@pytest.fixture
def app(tmp_path: Path):
    settings = load_settings(
        {"CHAT_DB_PATH": str(tmp_path / "chat.sqlite"), "MAX_MESSAGE_CHARS": "200"}
    )
    chat = open_app(settings, tools=[], approval_required=frozenset())
    yield chat
    chat.persistence.close()


def _talk(app, thread: str, n: int, start: int = 1) -> None:
    for turn in range(start, start + n):
        run_turn(
            app,
            thread,
            f"메모 {turn}: 회의실 {turn}0{turn}호, 오후 {turn}시.",
            turn_count=turn,
            compression_rate=0.3,
        )


@pytest.mark.parametrize(
    ("text", "rate", "message"),
    [
        ("", 0.3, "empty"),
        ("   \n\t ", 0.3, "empty"),
        ("x" * 201, 0.3, "limit is 200"),
        ("hello", 0.05, "between 0.1 and 0.5"),
        ("hello", 0.9, "between 0.1 and 0.5"),
    ],
)
def test_bad_input_is_refused_and_nothing_changes(app, text, rate, message) -> None:
    thread = new_thread(app)
    _talk(app, thread, 2)
    before = export_thread(app, thread)
    with pytest.raises(InputError, match=message):
        run_turn(app, thread, text, turn_count=3, compression_rate=rate)
    assert export_thread(app, thread) == before
    run_turn(app, thread, "이어서", turn_count=3, compression_rate=0.3)
    assert load_thread(app, thread).turn_count == 3


def test_unknown_thread_is_a_clear_error(app) -> None:
    with pytest.raises(InputError, match="Unknown thread"):
        run_turn(app, "session_nope", "hi", turn_count=1, compression_rate=0.3)
    with pytest.raises(InputError, match="Unknown thread"):
        load_thread(app, "session_nope")


def test_turn_out_of_order_is_refused(app) -> None:
    thread = new_thread(app)
    _talk(app, thread, 1)
    with pytest.raises(InputError, match="out of order"):
        run_turn(app, thread, "again", turn_count=1, compression_rate=0.3)


def test_archive_keeps_the_whole_conversation(app) -> None:
    thread = new_thread(app)
    _talk(app, thread, 11)
    view = load_thread(app, thread)
    assert view.state["archived_turns"] == 9
    assert [n for n, _ in view.turns] == list(range(1, 12))
    assert view.turns[0][1][0].content.startswith("메모 1:")
    assert view.turns[10][1][0].content.startswith("메모 11:")
    recent = load_thread(app, thread, recent_turns=4)
    assert [n for n, _ in recent.turns] == [8, 9, 10, 11] and recent.first_turn_shown == 8
    exported = export_thread(app, thread)
    assert [e["turns"] for e in exported["summary_history"]] == [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    assert exported["summary_history"][-1] == view.state["summary_history"][-1]
    assert len(exported["turns"]) == 11


def test_threads_listed_newest_first_with_titles_rename_and_delete(app) -> None:
    first = new_thread(app)
    run_turn(
        app,
        first,
        "첫 번째 대화의 아주 긴 제목이 될 메시지입니다. 이 문장은 잘려야 합니다.",
        turn_count=1,
        compression_rate=0.3,
    )
    second = new_thread(app)
    run_turn(app, second, "둘째", turn_count=1, compression_rate=0.3)
    listed = threads(app)
    assert [t["thread_id"] for t in listed] == [second, first]
    assert listed[1]["title"].endswith("…") and len(listed[1]["title"]) == 40
    rename_thread(app, first, "새 이름")
    assert load_thread(app, first).title == "새 이름"
    with pytest.raises(InputError):
        rename_thread(app, first, "  ")
    _talk(app, second, 4, start=2)
    delete_thread(app, second)
    assert [t["thread_id"] for t in threads(app)] == [first]
    with pytest.raises(InputError):
        load_thread(app, second)
    assert load_thread(app, first).turn_count == 1


def test_preview_shows_the_next_context_and_pending_summary(app) -> None:
    thread = new_thread(app)
    _talk(app, thread, 3)
    nxt = preview_next_context(app, load_thread(app, thread), placeholder="?")
    assert nxt.summarize_first == [1, 2, 3]
    _talk(app, thread, 1, start=4)
    nxt = preview_next_context(app, load_thread(app, thread), placeholder="?")
    assert nxt.summarize_first == []
    assert "[1-3턴]" in nxt.messages[0].content
    assert [m.content for m in nxt.messages[1:]][-1] == "?"
    assert nxt.chars == sum(len(m.content) for m in nxt.messages)


def test_two_threads_do_not_mix(app) -> None:
    a, b = new_thread(app), new_thread(app)
    _talk(app, a, 4)
    run_turn(app, b, "다른 대화", turn_count=1, compression_rate=0.5)
    assert len(load_thread(app, a).summary_history) == 1
    assert load_thread(app, b).summary_history == []
    assert load_thread(app, b).compression_rate == 0.5


def test_rate_is_remembered_per_thread_and_validated(app) -> None:
    a, b = new_thread(app), new_thread(app)
    set_thread_rate(app, a, 0.45)
    assert load_thread(app, a).compression_rate == 0.45
    assert load_thread(app, b).compression_rate == 0.3
    with pytest.raises(InputError, match="between 0.1 and 0.5"):
        set_thread_rate(app, a, 0.7)
    assert load_thread(app, a).compression_rate == 0.45


def test_summary_budget_and_recall_are_per_thread_settings(app) -> None:
    from graph.session import set_thread_budget, set_thread_recall

    tight, default = new_thread(app), new_thread(app)
    assert load_thread(app, default).context_budget == 8000
    assert set_thread_budget(app, tight, 500) == 500
    for value in (99, 50_001):
        with pytest.raises(InputError, match="between 100 and 50,000"):
            set_thread_budget(app, tight, value)
    assert set_thread_recall(app, tight, False) is False
    view = load_thread(app, tight)
    assert (view.context_budget, view.recall) == (500, False)
    for thread in (tight, default):
        for turn in range(1, 17):
            run_turn(
                app,
                thread,
                f"메모 {turn}: {turn}층 회의실 {turn}0{turn}호는 정원 {turn + 4}명, 예약은 오후 {turn % 9 + 1}시입니다.",
                turn_count=turn,
                compression_rate=0.5,
            )
    tight_state = load_thread(app, tight).state
    assert tight_state["context_budget"] == 500 and tight_state["recall"] is False
    assert tight_state["summary_digests"]  # past 500 characters of summaries: merged
    assert load_thread(app, default).state.get("summary_digests", []) == []
    assert export_thread(app, tight)["context_budget"] == 500
