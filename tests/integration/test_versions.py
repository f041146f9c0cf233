"""Answer versions in place (issue 35, item 4): regenerate and edit-and-resend make a new
version of a turn in the same thread, each version with its own continuation; switching
brings back that version's state, summaries, recall index and pins; versions survive a
reopen and an export/import round trip, and an export from before versions still imports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graph.errors import InputError, ThreadBusy
from graph.memory.recall import recall
from graph.session import (
    ensure_thread,
    export_thread,
    import_thread,
    load_thread,
    new_thread,
    new_version,
    open_app,
    pin,
    pinned_facts,
    run_turn,
    save_comparison,
    switch_version,
    threads,
    turn_versions,
)
from graph.session.threads import EXPORT_VERSION
from graph.settings import load_settings
from graph.storage.archive import version_slots
from tests.conftest import Store

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "export"


def _open(where: dict[str, str]):
    settings = load_settings({**where, "CHAT_PROVIDER": "offline", "CHECKPOINT_KEEP_TURNS": "0"})
    return open_app(settings, tools=[], approval_required=frozenset(), index=None)


@pytest.fixture
def app(store: Store):
    chat = _open(store("chat"))
    yield chat
    chat.persistence.close()


def _say(app, thread: str, text: str) -> None:
    turn = load_thread(app, thread, recent_turns=0).turn_count + 1
    run_turn(app, thread, text, turn_count=turn, compression_rate=0.3)


def _note(n: int) -> str:
    return f"메모 {n}: 회의실 {n}0{n}호, 오후 {n}시."


def _asked(app, thread: str) -> list[str]:
    return [str(messages[0].content) for _, messages in load_thread(app, thread).turns]


def _redo(app, thread: str, turn: int, text: str | None = None) -> None:
    redo = new_version(app, thread, turn, text)
    assert redo.thread_id == thread and redo.turn_count == turn
    run_turn(app, thread, redo.message, turn_count=turn, compression_rate=0.3)


def _recalled(app, thread: str, message: str) -> list[int]:
    return [r.turn for r in recall(app.persistence.archive, thread, message, 2000)]


def _summarized(app, thread: str) -> list[list[int]]:
    return [e["turns"] for e in load_thread(app, thread).summary_history]


def test_regenerating_twice_makes_three_versions_and_version_one_goes_on_as_itself(app) -> None:
    thread = new_thread(app)
    for n in range(1, 8):  # turns 4 and 7 summarize 1-3 and 4-6
        _say(app, thread, _note(n))
    pin(app, thread, "505호", 5)
    save_comparison(app, thread, {"three_turn": [10, 20]})
    v1 = load_thread(app, thread)
    assert _summarized(app, thread) == [[1, 2, 3], [4, 5, 6]]

    _redo(app, thread, 4)  # regenerate turn 4: version 2, its continuation starts empty
    _say(app, thread, "버전 2의 다섯째 턴")
    _redo(app, thread, 4)  # and again: version 3
    assert [r["thread_id"] for r in threads(app)] == [thread]  # one thread in the list
    assert turn_versions(app, thread)[4].shown == 3 and turn_versions(app, thread)[4].count == 3
    v3 = load_thread(app, thread)
    assert v3.turn_count == 4 and _asked(app, thread) == [_note(n) for n in range(1, 5)]
    assert _summarized(app, thread) == [[1, 2, 3]] and len(v3.summary_meta) == 1
    assert pinned_facts(app, thread) == []  # pinned in version 1, after its turn 4
    assert v3.comparison == {}  # a comparison replays the line it was made on
    assert 5 not in _recalled(app, thread, "회의실 505호")  # archived in version 1 alone

    switch_version(app, thread, 4, 2)  # version 2, with its own turn 5
    assert _asked(app, thread)[-1] == "버전 2의 다섯째 턴"
    assert load_thread(app, thread).versions[4].shown == 2

    switch_version(app, thread, 4, 1)
    back = load_thread(app, thread)
    assert back.turns == v1.turns and back.summary_history == v1.summary_history
    assert back.state["turn_count"] == 7 and back.summary_meta == v1.summary_meta
    assert [p["fact"] for p in pinned_facts(app, thread)] == ["505호"]
    assert back.comparison == {"three_turn": [10, 20]}
    assert _recalled(app, thread, "회의실 505호")[0] == 5
    # the next message continues version 1: turn 8, on version 1's summaries
    _say(app, thread, _note(8))
    after = load_thread(app, thread)
    assert after.turn_count == 8 and _asked(app, thread) == [_note(n) for n in range(1, 9)]
    assert _summarized(app, thread) == [[1, 2, 3], [4, 5, 6]]
    assert after.versions[4].shown == 1 and after.versions[4].count == 3
    # and version 3 is still as it was
    switch_version(app, thread, 4, 3)
    assert load_thread(app, thread).turns == v3.turns


def test_editing_turn_2_of_5_starts_an_empty_continuation_and_keeps_the_first(app) -> None:
    thread = new_thread(app)
    for n in range(1, 6):
        _say(app, thread, _note(n))
    new_version(app, thread, 2, "두 번째 메시지를 고쳤어요")
    assert load_thread(app, thread).turn_count == 1 and _asked(app, thread) == [_note(1)]
    run_turn(app, thread, "두 번째 메시지를 고쳤어요", turn_count=2, compression_rate=0.3)
    assert _asked(app, thread) == [_note(1), "두 번째 메시지를 고쳤어요"]
    assert _summarized(app, thread) == []
    assert turn_versions(app, thread)[2].count == 2
    _say(app, thread, "고친 갈래의 세 번째")
    switch_version(app, thread, 2, 1)
    assert _asked(app, thread) == [_note(n) for n in range(1, 6)]
    assert _summarized(app, thread) == [[1, 2, 3]]
    # an edit of a turn of version 1 after turn 2: its versions belong to version 1's line
    _redo(app, thread, 4, "네 번째를 고쳤어요")
    assert set(turn_versions(app, thread)) == {2, 4}
    switch_version(app, thread, 2, 2)
    assert set(turn_versions(app, thread)) == {2}
    assert _asked(app, thread) == [_note(1), "두 번째 메시지를 고쳤어요", "고친 갈래의 세 번째"]
    switch_version(app, thread, 2, 1)
    assert turn_versions(app, thread)[4].shown == 2
    assert _asked(app, thread)[-1] == "네 번째를 고쳤어요"
    with pytest.raises(InputError):
        switch_version(app, thread, 2, 3)
    with pytest.raises(InputError):
        new_version(app, thread, 9)
    # the slots parking the other versions are no conversations of their own
    slots = version_slots(app.persistence.archive, thread)
    assert len(slots) == 4 and [r["thread_id"] for r in threads(app)] == [thread]  # 2 + 2
    for slot in slots:
        with pytest.raises(InputError, match="Unknown thread"):
            ensure_thread(app, slot)
        with pytest.raises(InputError, match="Unknown thread"):
            new_version(app, slot, 1)


def test_versions_survive_a_reopen_and_deleting_the_thread_deletes_them(store: Store) -> None:
    where = store("reopen")
    chat = _open(where)
    thread = new_thread(chat)
    for n in range(1, 4):
        _say(chat, thread, _note(n))
    _redo(chat, thread, 3, "세 번째를 고쳤어요")
    chat.persistence.close()

    chat = _open(where)
    try:
        assert turn_versions(chat, thread)[3].shown == 2
        assert _asked(chat, thread)[-1] == "세 번째를 고쳤어요"
        switch_version(chat, thread, 3, 1)
        assert _asked(chat, thread)[-1] == _note(3)
        from graph.session import delete_thread

        delete_thread(chat, thread)
        rows = chat.persistence.archive.execute("SELECT count(*) FROM chat_threads")
        assert rows[0][0] == 0  # its slots went with it
    finally:
        chat.persistence.close()


def _lines(app, thread: str) -> dict[str, list[str]]:
    """Every version's user messages, walking each switcher (it is left as found)."""
    out = {"shown": _asked(app, thread)}
    for turn, versions in sorted(turn_versions(app, thread).items()):
        for k in range(1, versions.count + 1):
            switch_version(app, thread, turn, k)
            out[f"{turn}/{k}"] = _asked(app, thread)
        switch_version(app, thread, turn, versions.shown)
    return out


def test_an_export_carries_the_versions_and_imports_them(app) -> None:
    thread = new_thread(app)
    for n in range(1, 6):
        _say(app, thread, _note(n))
    _redo(app, thread, 5)
    _redo(app, thread, 2, "두 번째를 고쳤어요")
    switch_version(app, thread, 2, 1)
    switch_version(app, thread, 5, 1)
    exported = json.loads(json.dumps(export_thread(app, thread), ensure_ascii=False))
    assert exported["export_version"] == EXPORT_VERSION == 2
    assert [(v["turn"], v["shown"], sorted(v["others"])) for v in exported["versions"]] == [
        (2, 1, ["2"]),
        (5, 1, ["2"]),
    ]
    copy = import_thread(app, exported)
    assert {r["thread_id"] for r in threads(app)} == {thread, copy}
    assert turn_versions(app, copy) == turn_versions(app, thread)
    assert _lines(app, copy) == _lines(app, thread)
    # the imported versions go on as any turn does
    switch_version(app, copy, 2, 2)
    _say(app, copy, "가져온 갈래에서 계속")
    assert _asked(app, copy) == [_note(1), "두 번째를 고쳤어요", "가져온 갈래에서 계속"]


def test_an_export_with_a_version_not_answered_yet_imports(app) -> None:
    """A new version of the last turn whose run never came: the export has one turn
    fewer than its versions entry names, and imports all the same."""
    thread = new_thread(app)
    for n in range(1, 3):
        _say(app, thread, _note(n))
    new_version(app, thread, 2)  # made, not run
    exported = json.loads(json.dumps(export_thread(app, thread), ensure_ascii=False))
    assert [(v["turn"], v["shown"]) for v in exported["versions"]] == [(2, 2)]
    copy = import_thread(app, exported)
    assert turn_versions(app, copy) == turn_versions(app, thread)
    switch_version(app, copy, 2, 1)
    assert _asked(app, copy) == [_note(1), _note(2)]


def test_a_broken_versions_entry_is_refused_and_writes_nothing(app) -> None:
    thread = new_thread(app)
    for n in range(1, 3):
        _say(app, thread, _note(n))
    _redo(app, thread, 2)
    exported = export_thread(app, thread)
    before = app.persistence.archive.execute("SELECT count(*) FROM chat_threads")[0][0]
    for broken in (
        {**exported, "versions": [{"turn": 7, "shown": 1, "others": {"2": {}}}]},
        {**exported, "versions": [{"turn": 2, "shown": 1, "others": {"3": {}}}]},
        {**exported, "export_version": 3},
        {**exported, "versions": [{"turn": 2, "shown": 2, "others": {"1": "text"}}]},
        {**exported, "versions": [{"turn": 2, "shown": 2, "others": {"1": {"turns": 3}}}]},
    ):
        with pytest.raises(InputError):
            import_thread(app, broken)
    assert app.persistence.archive.execute("SELECT count(*) FROM chat_threads")[0][0] == before


@pytest.mark.parametrize("name", ["export-v1.json", "export-v2.json"])
def test_exports_of_each_format_still_import(app, name: str) -> None:
    """export-v1.json was written before versions (no `export_version`); export-v2.json
    carries a turn 3 with two versions."""
    data = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    copy = import_thread(app, data)
    assert _asked(app, copy)[:2] == [_note(1), _note(2)]
    if name == "export-v1.json":
        assert "export_version" not in data and turn_versions(app, copy) == {}
        assert load_thread(app, copy).turn_count == 4
        return
    assert turn_versions(app, copy)[3].count == 2
    assert _asked(app, copy)[-1] == "세 번째를 고쳤어요"
    switch_version(app, copy, 3, 1)
    assert _asked(app, copy) == [_note(n) for n in range(1, 5)]
    _say(app, copy, _note(5))
    assert load_thread(app, copy).turn_count == 5


def test_another_process_recalls_the_version_shown_not_the_one_it_read_before(
    store: Store,
) -> None:
    """Two processes on one database (the service's workers): one reads an archived turn
    for recall, the other makes a new version of it; the first then recalls the new one."""
    where = store("two")
    writer, reader = _open(where), _open(where)
    try:
        thread = new_thread(writer)
        for n in range(1, 8):  # turn 7 archives turns 4-6
            _say(writer, thread, _note(n))
        assert "505호" in _recalled_text(reader, thread, "회의실 505호")
        _redo(writer, thread, 5, "메모 5: 창고 열쇠는 경비실 금고에 있어요.")
        for n in (6, 7):
            _say(writer, thread, _note(n))
        text = _recalled_text(reader, thread, "창고 열쇠 경비실 금고")
        assert "경비실 금고" in text and "505호" not in text
        switch_version(writer, thread, 5, 1)
        assert "505호" in _recalled_text(reader, thread, "회의실 505호")
    finally:
        writer.persistence.close()
        reader.persistence.close()


def _recalled_text(app, thread: str, message: str) -> str:
    found = [r for r in recall(app.persistence.archive, thread, message, 2000) if r.turn == 5]
    return found[0].text if found else ""


def test_no_version_is_made_or_switched_while_a_turn_runs(app) -> None:
    thread = new_thread(app)
    for n in range(1, 3):
        _say(app, thread, _note(n))
    _redo(app, thread, 2)
    with app.turn_lock(thread):  # as a turn running in a worker holds it
        with pytest.raises(ThreadBusy):
            switch_version(app, thread, 2, 1)
        with pytest.raises(ThreadBusy):
            new_version(app, thread, 1)
    assert turn_versions(app, thread)[2].shown == 2 and set(turn_versions(app, thread)) == {2}
