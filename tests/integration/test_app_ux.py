"""What a new user tripped on (issue 12, bugs 1-5), through AppTest: edit-and-run runs the
edited code, rename saves what was typed, refusals show by the input and give the text
back, the language switches at once and survives a reload, delete asks first."""

from __future__ import annotations

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.integration.test_app import ROOT, TIMEOUT, _app, _say, _state, _thread

CODE = "이 코드 실행해줘\n```python\nprint('ORIGINAL')\n```"


def test_edit_and_run_runs_the_edited_code_without_committing_the_box(db: Path) -> None:
    at = _app()
    _say(at, CODE)
    box = next(a for a in at.text_area if a.key.startswith("edit_"))
    # typed, then the button clicked at once: the new text arrives with the click
    box.input("print('EDITED')")
    at.button(key="edit").click().run()
    assert not at.exception, at.exception
    shown = "\n".join(t.value for t in at.text)
    assert "EDITED" in shown and "ORIGINAL" not in shown.replace("print('ORIGINAL')", "")
    assert any(c.value == "결정: 수정해서 실행" for c in at.caption)
    # the tool step shows the code that ran, not the one first proposed
    steps = [c.value for c in at.code if c.language == "json"]
    assert any("EDITED" in v for v in steps) and not any("ORIGINAL" in v for v in steps)


def test_rename_is_prefilled_and_saves_what_was_typed(db: Path) -> None:
    at = _app()
    _say(at, "첫 메시지로 제목이 정해집니다")
    thread = _thread(at)
    box = _title_box(at, thread)
    assert box.value == "첫 메시지로 제목이 정해집니다"
    box.input("A")
    at.sidebar.button(key="rename_btn").click().run()
    assert any(b.label == "▶ A" for b in at.sidebar.button)
    _title_box(at, thread).input("B")
    at.sidebar.button(key="rename_btn").click().run()
    assert any(b.label == "▶ B" for b in at.sidebar.button)
    assert not any(b.label == "▶ A" for b in at.sidebar.button)


def _title_box(at: AppTest, thread: str):
    return next(b for b in at.sidebar.text_input if b.key.startswith(f"title_{thread}"))


def _walk(node) -> list:
    """Every element below `node`, in page order."""
    out = [node]
    for child in getattr(node, "children", {}).values():
        out += _walk(child)
    return out


def test_a_refused_message_shows_by_the_input_and_comes_back(db: Path) -> None:
    at = _app()
    _say(at, "안녕하세요")
    long = "가" * 8_001
    _say(at, long)
    order = _walk(at.main)
    warning = next(e for e in order if e.type == "warning" and "8,001" in e.value)
    assert "8,000" in warning.value and "글자" in warning.value  # in the UI's language
    last_message = max(i for i, e in enumerate(order) if e.type == "chat_message")
    assert order.index(warning) > last_message  # below the chat, next to the input
    # the text is in the box again (the widget carries it to the browser), and not sent
    assert at.chat_input[0].proto.value == long and at.chat_input[0].proto.set_value
    assert len(at.chat_message) == 2


def test_a_message_during_a_pending_approval_comes_back(db: Path) -> None:
    at = _app()
    _say(at, "이 코드 실행해줘\n```python\nprint(1)\n```")
    _say(at, "승인 전에 보낸 메시지")
    assert any("승인" in w.value for w in at.main.warning)
    assert at.chat_input[0].proto.value == "승인 전에 보낸 메시지"


def test_the_language_switches_at_once_and_survives_a_reload(db: Path) -> None:
    at = _app()
    assert at.title[0].value == "요약하며 기억하는 채팅"
    _say(at, "회의는 3시에 있어요.")
    assert "**오프라인 엔진 (모델 없음, API 키 없음)**" in [m.value for m in at.sidebar.markdown]
    assert "경로: agent — 질문이 아닌 말: 찾아볼 것이 없음" in [c.value for c in at.caption]
    at.sidebar.selectbox(key="language_picker").set_value("en").run()
    assert at.title[0].value == "A chat that shows how it remembers"  # no lag
    assert "**Offline engine (no model, no API key)**" in [m.value for m in at.sidebar.markdown]
    assert "Turn 1" in [c.value for c in at.caption]
    weekday = re.compile(r"^🕒 \d{4}-\d\d-\d\d \((Mon|Tue|Wed|Thu|Fri|Sat|Sun)\) \d\d:\d\d$")
    assert any(weekday.match(c.value) for c in at.caption)  # the weekday in English too
    assert at.query_params["lang"] in ("en", ["en"])
    thread = _thread(at)
    again = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    again.query_params["thread"] = thread
    again.query_params["lang"] = "en"
    again.run()
    assert again.title[0].value == "A chat that shows how it remembers"


def test_delete_asks_first_and_empty_threads_do_not_pile_up(db: Path) -> None:
    at = _app()
    _say(at, "지울 대화")
    thread = _thread(at)
    at.sidebar.button(key="delete_btn").click().run()
    assert any(f"open_{thread}" == b.key for b in at.sidebar.button)  # not yet
    at.sidebar.button(key="delete_no").click().run()
    assert any(f"open_{thread}" == b.key for b in at.sidebar.button)
    at.sidebar.button(key="delete_btn").click().run()
    at.sidebar.button(key="delete_yes").click().run()
    assert not any(f"open_{thread}" == b.key for b in at.sidebar.button)
    # "new conversation" twice opens the same empty thread
    at.sidebar.button(key="new_thread").click().run()
    first = _thread(at)
    at.sidebar.button(key="new_thread").click().run()
    assert _thread(at) == first
    assert len([b for b in at.sidebar.button if b.key.startswith("open_")]) == 1


def test_the_server_stays_on_this_machine_and_sends_no_statistics() -> None:
    import tomllib

    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text("utf-8"))
    assert config["browser"]["gatherUsageStats"] is False
    assert config["server"]["address"] == "127.0.0.1"


def test_the_sidebar_shows_the_document_index(db: Path) -> None:
    at = _app()
    captions = [c.value for c in at.sidebar.caption]
    # offline there are no vectors: keyword search (issue 37), whatever RETRIEVAL_MODE says
    assert any(c.startswith("문서 ") and "검색: 키워드만" in c for c in captions), captions
    assert [e.label for e in at.sidebar.expander if e.label.startswith("📚")] == [
        "📚 문서 색인 · 키워드만"
    ]
    # each document with its kind, whether it has steps, and its sections (seed 003)
    docs = [c for c in captions if c.startswith("📄")]
    (size,) = [c for c in captions if c.startswith("문서 ")]
    assert size.startswith(f"문서 {len(docs)}개"), (size, docs)
    (faq,) = [c for c in docs if "`faq.md`" in c]
    assert "· FAQ" in faq and "섹션 " in faq
    assert any("· 안내서 · 절차 있음 · 섹션 " in c for c in docs), docs


def test_the_retrieval_mode_setting_shows_in_the_sidebar_and_a_wrong_one_is_named(
    db: Path, monkeypatch
) -> None:
    import streamlit as st

    monkeypatch.setenv("RETRIEVAL_MODE", "keyword")
    at = _app()
    assert "📚 문서 색인 · 키워드만" in [e.label for e in at.sidebar.expander]
    monkeypatch.setenv("RETRIEVAL_MODE", "vectors")
    st.cache_resource.clear()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT).run()
    assert not at.exception
    assert any("RETRIEVAL_MODE must be keyword, faiss or hybrid" in e.value for e in at.error)


def _keyed(widgets, start: str, end: str):
    """The one widget whose key is `start` + the thread + `end`."""
    (found,) = [w for w in widgets if w.key and w.key.startswith(start) and w.key.endswith(end)]
    return found


def _user_messages(at: AppTest) -> list[str]:
    return [
        m.children[0].value
        for m in at.chat_message
        if m.name == "user" and m.children and hasattr(m.children[0], "value")
    ]


def _versions_label(at: AppTest, turn: int) -> list[str]:
    """The `2/3` of a turn's switcher (empty when the turn has one version)."""
    boxes = [b for b in at.main.get("flex_container") if b.key and b.key.startswith("versions_")]
    found = [b for b in boxes if b.key.endswith(f"_{turn}")]
    return [m.value for b in found for m in _walk(b) if getattr(m, "type", "") == "markdown"]


def test_regenerate_and_edit_make_versions_in_place_with_a_switcher(db: Path) -> None:
    at = _app()
    _say(at, "제 이름은 하늘입니다")
    _say(at, "제 이름이 뭐였죠?")
    thread = _thread(at)
    assert _versions_label(at, 2) == []  # one version: no switcher
    _keyed(at.button, "regenerate_", "_2").click().run()
    assert not at.exception, at.exception
    assert _thread(at) == thread  # the same thread, answered again in place
    assert _user_messages(at) == ["제 이름은 하늘입니다", "제 이름이 뭐였죠?"]
    assert any("2턴을 다시 보냈습니다: 버전 2/2" in s.value for s in at.success)
    assert any("하늘" in m.value for m in at.markdown)
    assert _versions_label(at, 2) == ["2/2"]
    # edit and resend the FIRST message: the text typed (not committed) goes with the click
    _keyed(at.text_area, "resend_", "_1").input("제 이름의 첫 글자는?")
    _keyed(at.button, "resend_", "_1_send").click().run()
    assert not at.exception, at.exception
    assert _thread(at) == thread
    assert _user_messages(at) == ["제 이름의 첫 글자는?"]  # its continuation starts empty
    assert _versions_label(at, 1) == ["2/2"] and _versions_label(at, 2) == []
    titles = [b.label for b in at.sidebar.button if b.key.startswith("open_")]
    assert len(titles) == 1 and not any("(다시)" in x for x in titles), titles
    # ◀ goes back to version 1 of turn 1, whose turn 2 has its own two versions
    _keyed(at.button, "version_prev_", "_1").click().run()
    assert not at.exception, at.exception
    assert _user_messages(at) == ["제 이름은 하늘입니다", "제 이름이 뭐였죠?"]
    assert _versions_label(at, 1) == ["1/2"] and _versions_label(at, 2) == ["2/2"]
    assert _keyed(at.button, "version_prev_", "_1").disabled
    _keyed(at.button, "version_prev_", "_2").click().run()
    assert _versions_label(at, 2) == ["1/2"]
    # a reload shows the same versions
    again = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    again.query_params["thread"] = thread
    again.run()
    assert _versions_label(again, 1) == ["1/2"] and _versions_label(again, 2) == ["1/2"]
    _keyed(again.button, "version_next_", "_1").click().run()
    assert _user_messages(again) == ["제 이름의 첫 글자는?"]


def test_a_version_left_unanswered_still_shows_its_switcher(db: Path) -> None:
    """A new version whose run never came (refused, or the tab closed first) shows the
    turns before it and a switcher back to the answered version."""
    from graph.session import new_version, open_app
    from graph.settings import load_settings

    at = _app()
    _say(at, "첫 메시지")
    _say(at, "두 번째 메시지")
    thread = _thread(at)
    other = open_app(load_settings(), tools=[], index=None)  # as another process would
    try:
        new_version(other, thread, 2)
    finally:
        other.persistence.close()
    at.run()
    assert not at.exception, at.exception
    assert _user_messages(at) == ["첫 메시지"]
    assert any("2턴의 이 버전은 아직 답을 받지 못했습니다" in c.value for c in at.caption)
    assert _versions_label(at, 2) == ["2/2"]
    _keyed(at.button, "version_prev_", "_2").click().run()
    assert not at.exception, at.exception
    assert _user_messages(at) == ["첫 메시지", "두 번째 메시지"]
    assert _versions_label(at, 2) == ["1/2"]


def test_an_empty_edit_is_refused_by_the_input_and_makes_no_branch(db: Path) -> None:
    at = _app()
    _say(at, "첫 메시지")
    thread = _thread(at)
    _keyed(at.text_area, "resend_", "_1").input("   ")
    _keyed(at.button, "resend_", "_1_send").click().run()
    assert not at.exception, at.exception
    assert _thread(at) == thread
    assert any("empty" in w.value or "비어" in w.value for w in at.warning)


def _pick(at: AppTest, thread: str):
    return next(s for s in at.selectbox if s.key.startswith(f"timeline_{thread}_pick"))


def test_the_fork_picker_keeps_the_checkpoint_picked_and_forks_there(db: Path) -> None:
    """Issue 35: after a new turn the picker held its old place in a longer list, so it
    showed (and forked at) another checkpoint than the one picked."""
    at = _app()
    _say(at, "첫 번째 메시지입니다.")
    _say(at, "두 번째 메시지입니다.")
    thread = _thread(at)
    labels = list(_pick(at, thread).options)
    picked = next(label for label in labels if label.startswith("1턴 · 모델 답변 후"))
    _pick(at, thread).select(picked).run()
    _say(at, "세 번째 메시지입니다.")  # new checkpoints come first in the list
    pick = _pick(at, thread)
    assert pick.options[0].startswith("3턴")
    assert pick.options[pick.index] == picked  # the label shown is the one picked
    next(b for b in at.button if b.key.startswith(f"timeline_{thread}_fork")).click().run()
    assert not at.exception, at.exception
    assert _thread(at) != thread
    assert any("1턴에서 갈라낸 대화" in c.value for c in at.caption)
    # the fork's title is in the UI's language (it said "(fork at turn 1)")
    titles = [b.label for b in at.sidebar.button]
    assert any(label.endswith("(1턴에서 갈라냄)") for label in titles), titles
    assert not any("fork at turn" in label for label in titles), titles


def test_each_checkpoint_has_its_own_label_and_the_fork_is_at_the_one_picked(db: Path) -> None:
    """A tool turn has two model steps in the same minute: their rows read alike, and the
    picker (which keeps its choice by its label) forked at the other one."""
    at = _app()
    _say(at, "2400의 15%는 얼마야?")
    thread = _thread(at)
    pick = _pick(at, thread)
    labels = list(pick.options)
    assert len(set(labels)) == len(labels), labels
    steps = [i for i, label in enumerate(labels) if label.startswith("1턴 · 모델 답변 후")]
    assert len(steps) == 2  # the tool call, then the answer (newest first)
    pick.select_index(steps[1]).run()
    next(b for b in at.button if b.key.startswith(f"timeline_{thread}_fork")).click().run()
    assert not at.exception, at.exception
    fork = _thread(at)
    assert fork != thread
    last = _state(db, fork)["messages"][-1]
    assert last.tool_calls and last.tool_calls[0]["name"] == "calculator"


def test_sidebar_titles_are_plain_text_not_markdown(db: Path) -> None:
    """Issue 35: a title taken from a message in markdown showed its marks (or a heading)."""
    at = _app()
    _say(at, "# **준비**: `a.md` [링크](http://x.io) 2*3*4")
    label = next(b.label for b in at.sidebar.button if b.key.startswith("open_"))
    # the marks are gone; what is left is escaped, so the button's markdown reads none
    assert label == "▶ 준비\\: a.md 링크 2\\*3\\*4", label


def test_a_deleted_threads_link_says_so_instead_of_opening_another(db: Path) -> None:
    """Issue 35: a link to a deleted conversation silently opened the newest other one."""
    at = _app()
    _say(at, "남아 있는 대화")
    kept = _thread(at)
    at.query_params["thread"] = "session_0123456789ab"  # deleted, or never there
    at.run()
    assert not at.exception, at.exception
    assert any("더 이상 없습니다" in w.value for w in at.warning), [w.value for w in at.warning]
    opened = _thread(at)
    assert opened not in (kept, "session_0123456789ab")
    assert not [m for m in at.chat_message if m.name == "user"]  # an empty conversation
    # the notice is said once: the next click does not repeat it
    at.run()
    assert not any("더 이상 없습니다" in w.value for w in at.warning)
    assert _thread(at) == opened
