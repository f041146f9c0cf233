"""The panel's numbers (issue 44, item 8): a negative saving is shown as the cost it is,
with why, never clamped; each strategy's panel explains its own trigger; every figure
carries its unit. The short threads are issue 44's set
(`tests/fixtures/issue44/wordings.json`), written before the change.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from graph.session import load_thread, new_thread, open_app, pin, run_turn
from graph.settings import load_settings
from tests.integration.test_app import _app, _say, _thread

WORDINGS = json.loads(
    (Path(__file__).resolve().parents[1] / "fixtures/issue44/wordings.json").read_text("utf-8")
)["item8_panel"]
NEGATIVE = re.compile(r"-\s?\d+\s?%|−\s?\d+\s?%")


def _chart_page(context_log: list, sections: dict) -> None:
    from component.summary_panel import render_chart

    render_chart(context_log, "ko", sections)


@pytest.mark.parametrize("messages", WORDINGS["short_threads"], ids=lambda m: m[0][:8])
def test_a_context_longer_than_the_transcript_is_shown_as_a_cost(tmp_path, messages) -> None:
    app = open_app(
        load_settings({"CHAT_DB_PATH": str(tmp_path / "p.sqlite"), "CHAT_PROVIDER": "offline"}),
        index=None,
    )
    try:
        thread = new_thread(app)
        for n, text in enumerate(messages, start=1):
            run_turn(app, thread, text, turn_count=n, compression_rate=0.3)
            if n == 1:  # a pinned fact rides in every context from now on
                pin(app, thread, "마케팅팀 창가 자리, 사번 MK-2291", 1)
            view = load_thread(app, thread)
            log = view.context_log
            used, whole = log[-1]["context_chars"], log[-1]["full_chars"]
            if used > whole:  # the case of the issue: the memory costs more than it saves
                break
        sections = (view.state.get("last_context") or {}).get("sections") or {}
    finally:
        app.persistence.close()
    assert used > whole, log
    at = AppTest.from_function(_chart_page, args=(log, sections), default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    (line,) = [c.value for c in at.caption if "턴:" in c.value]
    assert not NEGATIVE.search(line), line  # no "절감 -55%"
    assert f"{used - whole:,}자" in line and "더" in line, line  # the cost, with its unit
    assert "고정된 사실" in line, line  # and why: what the context holds that the transcript lacks


def test_the_sliding_window_panel_explains_its_own_trigger(db: Path) -> None:
    at = _app()
    _say(at, "안녕하세요")
    thread = _thread(at)
    at.sidebar.selectbox(key=f"strategy_{thread}").set_value("sliding_window").run()
    _say(at, "오늘 첫 출근이에요.")
    shown = [c.value for c in at.caption]
    assert not any("4번째 턴에 1-3턴이 요약" in c for c in shown), shown


def _comparison_page(sizes: dict) -> None:
    from component.summary_panel import render_comparison

    render_comparison(sizes, "ko", None)


def test_the_strategy_comparison_names_its_unit() -> None:
    sizes = {"three_turn": [25, 111, 197], "sliding_window": [25, 111, 397], "recursive": [831]}
    at = AppTest.from_function(_comparison_page, args=(sizes,), default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    (line,) = [c.value for c in at.caption if "197" in c.value]
    for number in ("197", "397", "831"):
        assert re.search(rf"{number}\s?자", line), line
