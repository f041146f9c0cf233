"""Issue 43: `turn_count` is an integer, and a history payload's answers are held to the
message limit, in the application API itself (every adapter and the Redis worker)."""

from __future__ import annotations

from pathlib import Path

import pytest

from graph.errors import InputError, MessageTooLong
from graph.session import new_thread, open_app, run_turn
from graph.settings import load_settings


@pytest.fixture
def app(tmp_path: Path):
    settings = load_settings(
        {"CHAT_DB_PATH": str(tmp_path / "s.sqlite"), "MAX_MESSAGE_CHARS": "100"}
    )
    return open_app(settings, tools=[], approval_required=frozenset(), index=None)


@pytest.mark.parametrize("count", [True, 1.0, "1"])
def test_turn_count_is_an_integer(app, count: object) -> None:
    thread = new_thread(app)
    with pytest.raises(InputError, match="turn_count must be an integer"):
        run_turn(app, thread, "안녕", turn_count=count, compression_rate=None)  # type: ignore[arg-type]
    assert run_turn(app, thread, "안녕", turn_count=1, compression_rate=None).error_code is None


def test_a_history_answer_past_the_limit_is_refused_naming_it(app) -> None:
    thread = new_thread(app)
    history = [{"role": "user", "content": "요약"}, {"role": "assistant", "content": "가" * 101}]
    with pytest.raises(MessageTooLong, match=r"history\[1\]"):
        run_turn(app, thread, "이어서", turn_count=None, compression_rate=None, history=history)
    history[1]["content"] = "가" * 100
    out = run_turn(app, thread, "이어서", turn_count=None, compression_rate=None, history=history)
    assert out.error_code is None
