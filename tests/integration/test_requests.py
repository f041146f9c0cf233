"""Requests are not notes (issue 44, items 1 and 2), through the offline graph as the app runs it.

A request with code asks to run that code (after approval); a request for code with none
in it is told plainly that the offline engine writes no code, with an example that works
when sent; a request to act that no tool here can do is told so, never "noted". The
wordings are issue 44's sets (`tests/fixtures/issue44/wordings.json`), written before
the change.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from graph.offline import NOTED_EN, NOTED_KO
from graph.session import new_thread, open_app, run_turn
from graph.settings import load_settings
from graph.tools.sandbox import isolation_problem

WORDINGS = json.loads(
    (Path(__file__).resolve().parents[1] / "fixtures/issue44/wordings.json").read_text("utf-8")
)
CODE = WORDINGS["item1_code"]
ACT = WORDINGS["item2_act"]
NOTED = (NOTED_KO, NOTED_EN, "기억해 두겠습니다", "I will keep this in mind")
CANNOT = re.compile(r"할 수 없|하지 못|못 합니다|못합니다|cannot|can't|can not|do not|don't")

needs_sandbox = pytest.mark.skipif(
    isolation_problem() is not None, reason="python_repl needs bubblewrap"
)


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("requests")
    app = open_app(
        load_settings(
            {
                "CHAT_DB_PATH": str(tmp / "a.sqlite"),
                "CHAT_PROVIDER": "offline",
                "INDEX_DIR": str(tmp / "index"),
            }
        )
    )
    yield app
    app.persistence.close()


def _ask(app, text: str):
    return run_turn(app, new_thread(app), text, turn_count=1, compression_rate=0.3)


@needs_sandbox
@pytest.mark.parametrize("case", CODE["with_code"], ids=lambda c: c["message"][:24])
def test_a_request_with_code_asks_to_run_that_code(app, case: dict) -> None:
    out = _ask(app, case["message"])
    assert out.pending is not None, out.answer
    assert out.pending["tool"] == "python_repl"
    assert out.pending["args"]["code"].strip() == case["code"]


@needs_sandbox
@pytest.mark.parametrize("message", CODE["no_code"])
def test_a_request_for_code_without_code_says_so_with_a_working_example(app, message) -> None:
    out = _ask(app, message)
    assert out.pending is None
    assert not any(n in out.answer for n in NOTED), out.answer
    assert CANNOT.search(out.answer), out.answer
    # the example the answer gives, sent as it is, opens the approval box
    example = re.search(r"`([^`\n]+)`", out.answer)
    assert example, out.answer
    sent = _ask(app, example.group(1))
    assert sent.pending is not None and sent.pending["tool"] == "python_repl", sent.answer


@pytest.mark.parametrize("message", ACT["requests"])
def test_a_request_to_act_is_never_taken_as_a_note(app, message: str) -> None:
    out = _ask(app, message)
    assert not any(n in out.answer for n in NOTED), out.answer
    assert out.pending is None
    assert CANNOT.search(out.answer), out.answer


@pytest.mark.parametrize("message", ACT["notes"])
def test_statements_and_asks_to_remember_are_still_notes(app, message: str) -> None:
    out = _ask(app, message)
    assert any(n in out.answer for n in NOTED), out.answer
