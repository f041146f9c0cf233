"""Bad text (lone surrogates, control characters) gets a clear error and changes nothing."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from graph.errors import InputError
from graph.replay import main
from graph.session import export_thread, load_thread, new_thread, open_app, rename_thread, run_turn
from graph.settings import load_settings
from graph.text import asks_the_clock


@pytest.fixture
def app(tmp_path: Path):
    chat = open_app(
        load_settings({"CHAT_DB_PATH": str(tmp_path / "t.sqlite")}), tools=[], index=None
    )
    yield chat
    chat.persistence.close()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "안녕\ud83d하세요",
            "unpaired surrogate (half of a broken character) U+D83D at position 3",
        ),
        ("\udc00", "unpaired surrogate"),
        ("null\x00byte", "control character U+0000 at position 5"),
        ("bell\x07", "control character U+0007"),
    ],
)
def test_a_message_with_bad_characters_is_refused_and_nothing_changes(
    app, text: str, message: str
) -> None:
    thread = new_thread(app)
    run_turn(app, thread, "첫 메시지", turn_count=1, compression_rate=0.3)
    before = export_thread(app, thread)
    with pytest.raises(InputError, match=re.escape(message)):
        run_turn(app, thread, text, turn_count=2, compression_rate=0.3)
    assert export_thread(app, thread) == before
    run_turn(app, thread, "줄바꿈과\t탭은\r\n괜찮아요", turn_count=2, compression_rate=0.3)
    assert load_thread(app, thread).turn_count == 2


def test_a_first_message_with_a_surrogate_leaves_the_thread_untitled(app) -> None:
    thread = new_thread(app)
    with pytest.raises(InputError, match="unpaired surrogate"):
        run_turn(app, thread, "\ud800 제목이 될 뻔한 말", turn_count=1, compression_rate=0.3)
    assert load_thread(app, thread).title == ""


def test_titles_and_thread_ids_with_bad_characters_are_refused(app) -> None:
    thread = new_thread(app)
    with pytest.raises(InputError, match="The title contains an unpaired surrogate"):
        rename_thread(app, thread, "제목\udfff")
    for bad in ("session_\ud800", "a b", "", "x" * 101, "../etc"):
        with pytest.raises(InputError, match="Invalid thread id"):
            run_turn(app, bad, "안녕", turn_count=1, compression_rate=0.3)


def test_replay_refuses_a_transcript_with_a_surrogate(tmp_path: Path, capsys) -> None:
    path = tmp_path / "t.json"
    path.write_text('{"turns": [{"user": "ok"}, {"user": "bad \\ud800"}]}', encoding="utf-8")
    assert json.loads(path.read_text())["turns"][1]["user"].endswith("\ud800")
    with pytest.raises(SystemExit) as exit_info:
        main([str(path), "--db", str(tmp_path / "r.sqlite")])
    assert exit_info.value.code == 2
    assert "turn 2: 'user' contains an unpaired surrogate" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "clock"),
    [
        ("지금 몇 시야?", True),
        ("뉴욕은 지금 몇 시야?", True),
        ("뉴욕은 몇 시야?", True),
        ("몇 시야?", True),
        ("오늘 며칠이야?", True),
        ("오늘 몇 월 며칠이야?", True),
        ("오늘 요일 알려줘", True),
        ("내일 무슨 요일이야?", True),
        ("지금 시간 알려줘", True),
        ("what time is it", True),
        ("Do you know what time it is?", True),
        ("What day of the week is it?", True),
        ("What time is it in Tokyo?", True),
        ("what's the date today?", True),
        ("Is the office open? What day is it today?", True),
        ("What's the plan? What time is it?", True),
        # "it" is the thing the question before names
        ("Do we get a day off for the company's birthday? What date is it?", False),
        ("회사 창립기념일에 쉬어？ What date is it?", False),
        # when something happens, or how long: the documents or the conversation
        ("회의는 몇 시야?", False),
        ("재택근무 날에는 몇 시부터 몇 시까지 메신저에 답해야 해?", False),
        ("현재 코어타임은 몇 시부터야?", False),
        ("지금 회사 몇 시에 출근해야 돼?", False),
        ("서울에서 부산까지 몇 시간 걸려?", False),
        ("현재 시간외근무 수당은 얼마야?", False),
        ("현재 근무 시간 규정 알려줘", False),
        ("현재 날짜 기준으로 연차 며칠 남았어?", False),
        ("What time should I show up on my first day?", False),
        ("What is the date of the next holiday?", False),
        ("How is overtime in London paid?", False),
    ],
)
def test_only_a_question_about_the_time_now_asks_the_clock(text: str, clock: bool) -> None:
    assert asks_the_clock(text) is clock
