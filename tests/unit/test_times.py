"""When a turn was sent: recorded with its time zone, kept in the archive, shown, never invented."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graph.errors import InputError
from graph.memory import strategy_context
from graph.replay import main
from graph.session import ChatApp, load_thread, new_thread, open_app, run_turn
from graph.settings import load_settings
from graph.storage.archive import load_archived
from graph.times import describe_span, message_time, now_iso, parse_time
from tests.fakes.chat import ScriptedModel


@pytest.fixture
def app(tmp_path: Path) -> ChatApp:
    settings = load_settings({"CHAT_DB_PATH": str(tmp_path / "c.sqlite")})
    return open_app(settings, model=ScriptedModel(default="네, 알겠습니다."), tools=[], index=None)


def test_parse_time_needs_iso_8601_with_a_zone() -> None:
    assert parse_time("2026-03-02T09:14:00+09:00") == "2026-03-02T09:14:00+09:00"
    assert parse_time("2026-03-02T00:14:00Z") == "2026-03-02T00:14:00+00:00"
    with pytest.raises(ValueError, match="no time zone"):
        parse_time("2026-03-02T09:14:00")
    with pytest.raises(ValueError, match="not an ISO 8601 time"):
        parse_time("last Tuesday")
    assert parse_time(now_iso("Asia/Seoul")).endswith("+09:00")


def test_time_is_kept_in_the_archive_and_shown_in_the_summary_line(app: ChatApp) -> None:
    thread = new_thread(app)
    times = [f"2026-03-0{day}T1{day}:05:00+09:00" for day in range(2, 6)]
    for turn, sent in enumerate(times, 1):
        run_turn(
            app,
            thread,
            f"{turn}번째 메모: 회의실 {turn}호",
            turn_count=turn,
            compression_rate=0.3,
            sent_at=sent,
        )
    archived = load_archived(app.persistence.archive, thread, 1, 3)
    assert [message_time(turn[0]) for turn in archived] == times[:3]
    view = load_thread(app, thread)
    assert view.state["summary_times"] == {"1": [times[0], times[2]]}
    assert message_time(view.turns[-1][1][0]) == times[3]  # the live turn keeps it too
    system = str(strategy_context(view.state)[0].content)
    assert f"[1-3턴, {describe_span(times[0], times[2])}]" in system
    assert "[1-3턴, 2026-03-02 (월) – 03-04 (수)]" in system  # across days: the dates


def test_no_time_is_invented_and_a_bad_one_is_refused(app: ChatApp) -> None:
    thread = new_thread(app)
    for turn in range(1, 5):
        run_turn(app, thread, f"메모 {turn}", turn_count=turn, compression_rate=0.3)
    view = load_thread(app, thread)
    assert view.state.get("summary_times", {}) == {}
    assert all(message_time(m) == "" for _, turn in view.turns for m in turn)
    assert "[1-3턴]" in str(strategy_context(view.state)[0].content)
    with pytest.raises(InputError, match="no time zone"):
        run_turn(
            app, thread, "다음", turn_count=5, compression_rate=0.3, sent_at="2026-03-02 09:00"
        )
    assert load_thread(app, thread).turn_count == 4  # nothing was written


def test_replay_takes_optional_times_and_refuses_bad_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "good.json"
    turns = [
        {"user": f"질문 {n}", "assistant": f"답 {n}", "time": f"2026-03-0{n}T09:00:00+09:00"}
        for n in range(1, 5)
    ]
    turns[1].pop("time")
    good.write_text(json.dumps({"turns": turns}), encoding="utf-8")
    out = tmp_path / "r.json"
    assert main([str(good), "--db", str(tmp_path / "g.sqlite"), "--out", str(out)]) == 0
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"turns": [{"user": "x", "time": "yesterday"}]}), encoding="utf-8")
    with pytest.raises(SystemExit) as exit_info:
        main([str(bad), "--db", str(tmp_path / "b.sqlite")])
    assert exit_info.value.code == 2
    assert "turn 1: 'yesterday' is not an ISO 8601 time" in capsys.readouterr().err
