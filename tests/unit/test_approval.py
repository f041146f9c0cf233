"""Code never runs before approval; approve, edit and respond resume the paused graph,
and reject ends the task (seed 004's resume contract, in the application API)."""

from __future__ import annotations

from pathlib import Path

import pytest

from graph.errors import InputError
from graph.session import load_thread, new_thread, open_app, pending_approval, resume_turn, run_turn
from graph.settings import load_settings

CODE_MESSAGE = "이 코드 실행해줘\n```python\nprint(6 * 7)\n```"


@pytest.fixture
def app(tmp_path: Path):
    chat = open_app(
        load_settings({"CHAT_DB_PATH": str(tmp_path / "c.sqlite"), "CHAT_PROVIDER": "offline"})
    )
    yield chat
    chat.persistence.close()


def _pause(app) -> str:
    thread = new_thread(app)
    out = run_turn(app, thread, CODE_MESSAGE, turn_count=1, compression_rate=0.3)
    assert out.pending == {
        "kind": "approval",
        "category": "code",
        "tool": "python_repl",
        "args": {"code": "print(6 * 7)"},
        "tool_call_id": out.pending["tool_call_id"],
    }
    return thread


def _tool_message(app, thread):
    messages = load_thread(app, thread).turns[-1][1]
    return next(m for m in messages if m.type == "tool")


def test_approve_runs_the_code(app) -> None:
    thread = _pause(app)
    assert pending_approval(app, thread) is not None
    out = resume_turn(app, thread, "approve")
    assert "42" in out.answer and out.pending is None
    assert _tool_message(app, thread).content == "[ok]\n42\n"
    assert pending_approval(app, thread) is None


def test_reject_does_not_run_it_and_ends_the_task(app) -> None:
    thread = _pause(app)
    out = resume_turn(app, thread, "reject")
    assert out.error_code == "APPROVAL_REJECTED" and out.pending is None
    # the code names it; the answer says it in words, with no error code (issue 44)
    assert "42" not in out.answer and out.error_code == "APPROVAL_REJECTED"
    assert "거절" in out.answer and "APPROVAL_REJECTED" not in out.answer
    view = load_thread(app, thread)
    messages = view.turns[-1][1]
    assert _tool_message(app, thread).content == (
        "Error: the user rejected this call; it was not run."
    )
    # the model was not asked again: the turn ends with the apology, after the tool result
    assert [m.type for m in messages] == ["human", "ai", "tool", "ai"]
    assert messages[-1].response_metadata["error_code"] == "APPROVAL_REJECTED"
    # closed: nothing waits, no retry is offered, and the next message is a new turn
    assert pending_approval(app, thread) is None and not view.is_waiting_human
    assert not view.retryable
    assert view.errors[-1]["code"] == "APPROVAL_REJECTED"
    nxt = run_turn(app, thread, "고마워요", turn_count=2, compression_rate=0.3)
    assert nxt.error_code is None and nxt.answer
    again = load_thread(app, thread)
    assert again.turn_count == 2 and [n for n, _ in again.turns] == [1, 2]
    assert again.turns[0][1][0].content == CODE_MESSAGE  # the turn before stays intact


def test_respond_hands_the_users_text_to_the_model_instead_of_running(app) -> None:
    thread = _pause(app)
    out = resume_turn(
        app, thread, "respond", response="  실행하지 말고, 6 곱하기 7은 42라고만 해 줘  "
    )
    tool = _tool_message(app, thread)
    assert tool.content == (
        "Not run: the user answered instead of approving this call: "
        "실행하지 말고, 6 곱하기 7은 42라고만 해 줘"
    )
    assert tool.artifact == {"args": {"code": "print(6 * 7)"}, "decision": "respond"}
    assert out.error_code is None and "6 곱하기 7은 42라고만 해 줘" in out.answer
    assert pending_approval(app, thread) is None


def test_respond_needs_text(app) -> None:
    thread = _pause(app)
    with pytest.raises(InputError, match="respond"):
        resume_turn(app, thread, "respond", response="   ")
    with pytest.raises(InputError, match="Unknown decision"):
        resume_turn(app, thread, "maybe")
    assert pending_approval(app, thread) is not None  # nothing was decided


def test_is_waiting_human_while_paused(app) -> None:
    thread = new_thread(app)
    assert not load_thread(app, thread).is_waiting_human
    thread = _pause(app)
    assert load_thread(app, thread).is_waiting_human
    resume_turn(app, thread, "approve")
    assert not load_thread(app, thread).is_waiting_human


def test_edit_runs_the_edited_code(app) -> None:
    thread = _pause(app)
    resume_turn(app, thread, "edit", {"code": "print(6 * 9)"})
    tool = _tool_message(app, thread)
    assert tool.content == "[ok]\n54\n"
    assert tool.artifact == {"args": {"code": "print(6 * 9)"}, "decision": "edit"}


def test_the_pause_survives_a_restart_and_blocks_new_messages(app, tmp_path: Path) -> None:
    thread = _pause(app)
    with pytest.raises(InputError, match="waiting for a tool approval"):
        run_turn(app, thread, "다른 질문", turn_count=2, compression_rate=0.3)
    app.persistence.close()
    again = open_app(
        load_settings({"CHAT_DB_PATH": str(tmp_path / "c.sqlite"), "CHAT_PROVIDER": "offline"})
    )
    assert pending_approval(again, thread)["args"] == {"code": "print(6 * 7)"}
    assert "42" in resume_turn(again, thread, "approve").answer
    run_turn(again, thread, "고마워", turn_count=2, compression_rate=0.3)
    assert load_thread(again, thread).turn_count == 2
    again.persistence.close()
    app.persistence = again.persistence  # the fixture closes this one


def test_nothing_to_approve_is_a_clear_error(app) -> None:
    thread = new_thread(app)
    with pytest.raises(InputError, match="Nothing is waiting"):
        resume_turn(app, thread, "approve")
