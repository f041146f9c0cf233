"""Export -> import round-trips a thread: turns, tool steps, summaries, settings, times,
pins, lost facts and statistics; the imported thread goes on where the export stopped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graph.errors import InputError
from graph.memory.recall import recall
from graph.session import (
    export_thread,
    import_thread,
    is_export,
    load_thread,
    new_thread,
    open_app,
    pin,
    run_turn,
    set_thread_budget,
    set_thread_rate,
    set_thread_recall,
    threads,
)
from graph.session.transfer import IMPORTED_MARK
from graph.settings import load_settings
from tests.conftest import Store

SAID = [
    "제 차는 흰색 아반떼이고 주차 자리는 지하 2층 B-14예요.",
    "2+3 계산해줘",
    "다음 주 화요일 3월 14일에 부산 출장이 있어요.",
    "출장 예산은 45만원으로 잡았어요.",
    "발표 자료는 김민수 과장님이 검토해 주시기로 했어요.",
    "I booked the Lotte Hotel near Seomyeon for two nights.",
    "The client dinner is at 7 pm on Wednesday.",
    "제 사번은 NB-7731이에요.",
]


def _app(where: dict[str, str]):
    settings = load_settings({**where, "CHAT_PROVIDER": "offline"})
    return open_app(settings, index=None)


def _comparable(export: dict) -> dict:
    out = json.loads(json.dumps(export))
    out.pop("thread_id")
    for entry in out["summary_history"]:
        entry.pop("thread_id")
    for turn in out["turns"]:
        for msg in turn["messages"]:
            msg["data"].pop("id", None)
    for record in out["pinned"]:
        record.pop("pinned_at", None)
    return out


def test_an_export_imports_as_the_same_thread(store: Store) -> None:
    app = _app(store("t"))
    thread = new_thread(app)
    set_thread_budget(app, thread, 3000)
    set_thread_recall(app, thread, True)
    for turn, text in enumerate(SAID, start=1):
        if turn == 5:
            set_thread_rate(app, thread, 0.2)
        run_turn(
            app,
            thread,
            text,
            turn_count=turn,
            compression_rate=0.3 if turn < 5 else 0.2,
            sent_at=f"2026-03-0{turn}T09:30:00+09:00",
        )
    pin(app, thread, "B-14", 1)
    original = export_thread(app, thread)
    assert original["archived_turns"] == 6 and len(original["summary_history"]) == 2
    assert original["summary_calls"] >= 2  # the panel's count survives the round trip
    assert any(m["type"] == "tool" for t in original["turns"] for m in t["messages"])

    data = json.loads(json.dumps(original, ensure_ascii=False))  # as read back from the file
    assert is_export(data)
    copy = import_thread(app, data)
    assert copy != thread and copy in {str(r["thread_id"]) for r in threads(app)}
    again = export_thread(app, copy)
    # the copy's title says it is one (issue 44); the rest is the original as it was
    assert again["title"] == f"{original['title']}{IMPORTED_MARK}"
    assert _comparable({**again, "title": original["title"]}) == _comparable(original)

    # it goes on where the export stopped: numbering, summaries, and recall of archived turns
    run_turn(app, copy, "주차 자리가 어디라고 했죠?", turn_count=9, compression_rate=0.2)
    view = load_thread(app, copy)
    assert view.turn_count == 9 and [n for n, _ in view.turns] == list(range(1, 10))
    assert [r.turn for r in recall(app.persistence.archive, copy, "제 차 주차 자리", 2000)] == [1]
    app.persistence.close()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["turns"].pop(0), "Turn 1"),
        (lambda d: d.update(strategy="bogus"), "Unknown memory strategy"),
        (lambda d: d.update(compression_rate=0.9), "out of range"),
        (lambda d: d["turns"][0]["messages"][0]["data"].update(content="\ud800"), "Turn 1"),
        (lambda d: d["summary_history"][0].pop("summary"), "Summary 1"),
        (lambda d: d.update(archived_turns=99), "archives 99 turns"),
        (lambda d: d.update(summary_calls=-1), "summary_calls must be a whole number"),
    ],
)
def test_a_broken_export_is_refused_and_writes_nothing(tmp_path: Path, change, message) -> None:
    app = _app({"CHAT_DB_PATH": str(tmp_path / "t.sqlite")})
    thread = new_thread(app)
    for turn, text in enumerate(SAID[:4], start=1):
        run_turn(app, thread, text, turn_count=turn, compression_rate=0.3)
    data = export_thread(app, thread)
    change(data)
    before = threads(app)
    with pytest.raises(InputError, match=message):
        import_thread(app, data)
    assert threads(app) == before
    app.persistence.close()


WORDINGS = json.loads(
    (Path(__file__).resolve().parents[1] / "fixtures/issue44/wordings.json").read_text("utf-8")
)["item9_service"]


@pytest.mark.parametrize("title", WORDINGS["import_titles"])
def test_an_imported_thread_is_told_apart_from_its_original(tmp_path: Path, title: str) -> None:
    # issue 44, item 9: the list showed two conversations of the same title
    app = _app({"CHAT_DB_PATH": str(tmp_path / "t.sqlite")})
    try:
        original = new_thread(app, title=title)
        run_turn(app, original, "첫 메시지", turn_count=1, compression_rate=0.3)
        copy = import_thread(app, export_thread(app, original), " (가져옴)")
        titles = {r["thread_id"]: r["title"] for r in threads(app)}
        assert titles[copy] != titles[original]
        assert titles[copy] == f"{titles[original]} (가져옴)"
    finally:
        app.persistence.close()
