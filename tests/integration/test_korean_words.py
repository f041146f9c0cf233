"""The Korean UI speaks Korean to a plain user (issue 44, item 7).

Results of a rejected or edited call, the notes on a tool that needs a key, the tools list,
the supervisor's approval box (no agent names, no JSON to edit) and a read-only contract
question's wording. The wordings are issue 44's sets
(`tests/fixtures/issue44/wordings.json`), written before the change.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from graph.session import new_thread, open_app, resume_turn, run_turn
from graph.settings import load_settings
from graph.tools.sandbox import isolation_problem
from tests.integration.test_app import _app, _say

WORDINGS = json.loads(
    (Path(__file__).resolve().parents[1] / "fixtures/issue44/wordings.json").read_text("utf-8")
)["item7_words"]
ENGLISH = re.compile(r"\b(says|needs|rejected|You|the call|decision|Error)\b")
needs_sandbox = pytest.mark.skipif(
    isolation_problem() is not None, reason="python_repl needs bubblewrap"
)


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("words")
    app = open_app(
        load_settings({"CHAT_DB_PATH": str(tmp / "w.sqlite"), "CHAT_PROVIDER": "offline"}),
        index=None,
    )
    yield app
    app.persistence.close()


@needs_sandbox
@pytest.mark.parametrize("message", WORDINGS["code_only"])
@pytest.mark.parametrize("action", ["reject", "edit"])
def test_a_rejected_or_edited_code_message_is_answered_in_korean(app, message, action) -> None:
    thread = new_thread(app)
    out = run_turn(app, thread, message, turn_count=1, compression_rate=0.3)
    assert out.pending is not None and out.pending["tool"] == "python_repl", out.answer
    args = {"code": "print('편집됨')"} if action == "edit" else None
    closed = resume_turn(app, thread, action, args)
    assert re.search(r"[가-힣]", closed.answer), closed.answer
    assert not ENGLISH.search(closed.answer), closed.answer
    assert "python_repl" not in closed.answer, closed.answer


@pytest.mark.parametrize("message", WORDINGS["needs_a_key"])
def test_a_tool_that_needs_a_key_is_explained_in_korean(app, message: str) -> None:
    out = run_turn(app, new_thread(app), message, turn_count=1, compression_rate=0.3)
    assert re.search(r"[가-힣]", out.answer)
    assert "needs" not in out.answer and "`get_weather`" not in out.answer, out.answer
    assert "`web_search`" not in out.answer, out.answer


def test_the_tools_list_is_in_korean(db: Path) -> None:
    at = _app()
    lines = [m.value for m in at.sidebar.markdown if m.value.startswith(("✅", "⛔"))]
    assert lines, [m.value for m in at.sidebar.markdown]
    for line in lines:
        assert re.search(r"[가-힣]", line) and "needs" not in line, line


@needs_sandbox
def test_a_rejected_calls_step_says_so_in_korean(db: Path) -> None:
    at = _app()
    _say(at, WORDINGS["code_only"][0])
    at.button(key="reject").click().run()
    # the chat column (the panel's next-context view shows the model's input as it is)
    shown = [c.value for m in at.chat_message for c in m.caption]
    shown += [t.value for m in at.chat_message for t in m.text]
    assert any("거절" in s for s in shown), shown
    assert not any(s.startswith("decision:") for s in shown), shown
    assert not any("the user rejected" in s for s in shown), shown


@pytest.fixture
def supervisor(db: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("AGENT_MODE", "supervisor")
    return db


@pytest.mark.parametrize("message", WORDINGS["contract_questions"])
def test_the_supervisors_approval_box_speaks_to_a_plain_user(supervisor, message) -> None:
    at = _app()
    _say(at, message)
    box = [w.value for w in at.main.warning]
    assert box, "no approval box"
    shown = (
        box
        + [c.value for c in at.caption]
        + [m.value for m in at.markdown]
        + [c.value for c in at.code]
        + [a.value for a in at.text_area]
    )
    assert not any("_agent" in s for s in shown), shown
    assert not any(s.lstrip().startswith("{") for s in shown), shown  # no raw JSON to edit
    # a question about a contract reads it; nothing is signed, concluded or ended
    assert not any("서명·체결·해지" in s for s in box), box
