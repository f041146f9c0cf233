"""The offline engine does the thing or says plainly what it cannot do offline (issue 12,
bug 6): with the app's real tools and document index, as a new user would ask."""

from __future__ import annotations

import pytest

from graph.session import load_thread, new_thread, open_app, pending_approval, run_turn
from graph.settings import load_settings


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("offline")
    settings = load_settings(
        {
            "CHAT_DB_PATH": str(tmp / "o.sqlite"),
            "CHAT_PROVIDER": "offline",
            "INDEX_DIR": str(tmp / "index"),
        }
    )
    app = open_app(settings)
    yield app
    app.persistence.close()


def _ask(app, *messages: str) -> list:
    """Send the messages to a new thread; the tool steps and answer of the last one."""
    thread = new_thread(app)
    for turn, text in enumerate(messages, start=1):
        out = run_turn(app, thread, text, turn_count=turn, compression_rate=0.3)
    return [thread, out, load_thread(app, thread).turns[-1][1]]


def _tools(turn: list) -> list[str]:
    return [call["name"] for m in turn for call in getattr(m, "tool_calls", [])]


def test_what_the_user_said_beats_a_document(app) -> None:
    _, out, _ = _ask(
        app, "My favorite color is teal.", "I like long walks.", "What's my favorite color?"
    )
    assert "teal" in out.answer and "printer" not in out.answer.lower()


def test_a_phone_number_is_not_arithmetic(app) -> None:
    _, out, turn = _ask(app, "제 번호는 010-1234-5678이에요.")
    assert "calculator" not in _tools(turn)


def test_a_percentage_of_a_number_is_calculated(app) -> None:
    _, out, turn = _ask(app, "What is 15% of 2400?")
    assert _tools(turn) == ["calculator"] and "360" in out.answer


def test_code_without_a_fence_is_run_after_approval(app) -> None:
    thread, out, _ = _ask(app, "Please run this Python code: print(1)")
    pending = pending_approval(app, thread)
    assert pending is not None and pending["tool"] == "python_repl"
    assert pending["args"]["code"] == "print(1)"


def test_a_tool_that_is_not_configured_is_named_with_what_it_needs(app) -> None:
    _, out, turn = _ask(app, "Search the web for the latest LangGraph release")
    assert not _tools(turn)
    # named as a user calls it, with the key it needs (issue 44: no function name)
    assert "Web search" in out.answer and "TAVILY_API_KEY" in out.answer


def test_a_file_outside_the_files_folder_is_refused_by_the_tool(app) -> None:
    _, out, turn = _ask(app, "read /etc/passwd")
    assert _tools(turn) == ["read_file"]
    assert "root:" not in out.answer and "failed" in out.answer
