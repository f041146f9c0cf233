"""A stop or a rejection is the user's own act, not an error (issue 44, item 6).

A turn the user stops keeps what was written so far, marked stopped, with one way to
answer it again; a rejected approval ends the task without an error's wording or a red
box. The wordings are issue 44's sets (`tests/fixtures/issue44/wordings.json`), written
before the change.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from graph.session import (
    TurnEvents,
    TurnRequest,
    load_thread,
    new_thread,
    open_app,
    resume_turn,
    run_request,
    run_turn,
)
from graph.settings import load_settings
from graph.tools.sandbox import isolation_problem
from tests.fakes.chat import SlowStreamingModel

WORDINGS = json.loads(
    (Path(__file__).resolve().parents[1] / "fixtures/issue44/wordings.json").read_text("utf-8")
)["item6_stop"]
LONG = " ".join(f"part{i}" for i in range(60))
ERROR_WORDS = ("오류 코드", "error code", "APPROVAL_REJECTED", "CANCELLED")


def _settings(tmp_path: Path):
    return load_settings({"CHAT_DB_PATH": str(tmp_path / "s.sqlite"), "CHAT_PROVIDER": "offline"})


@pytest.mark.parametrize("message", WORDINGS["stopped"])
def test_a_stopped_answer_keeps_what_was_written_marked_stopped(tmp_path, message) -> None:
    app = open_app(
        _settings(tmp_path),
        model=SlowStreamingModel([LONG, "answered again"], pause_s=0.02),
        tools=[],
        approval_required=frozenset(),
        index=None,
    )
    thread = new_thread(app)
    events: list[dict[str, Any]] = []
    tokens = lambda: sum(e["type"] == "token" for e in events)  # noqa: E731
    out = run_request(
        app,
        TurnRequest(thread, message=message),
        TurnEvents("t", events.append, cancelled=lambda: tokens() >= 5),
    )
    streamed = "".join(e["content"] for e in events if e["type"] == "token")
    assert streamed.strip() and "part59" not in streamed
    closing = load_thread(app, thread).turns[-1][1][-1]
    # what the user saw stays, marked stopped; no apology in its place
    assert closing.content.strip() == streamed.strip(), closing.content
    assert closing.response_metadata.get("stopped") is True
    assert out.answer.strip() == streamed.strip()
    assert not any(word in closing.content for word in ERROR_WORDS)
    view = load_thread(app, thread)
    assert view.retryable  # one way to redo: answer it again in place
    again = run_request(app, TurnRequest(thread, kind="retry"), TurnEvents("t", lambda e: None))
    assert again.answer == "answered again"


@pytest.mark.skipif(isolation_problem() is not None, reason="python_repl needs bubblewrap")
@pytest.mark.parametrize("message", WORDINGS["rejected"])
def test_a_rejection_ends_the_task_in_words_that_are_not_an_error(tmp_path, message) -> None:
    env = {"CHAT_DB_PATH": str(tmp_path / "r.sqlite"), "CHAT_PROVIDER": "offline"}
    if "결제" in message:  # a payment waits for approval in the supervisor's plan
        env["AGENT_MODE"] = "supervisor"
    app = open_app(load_settings(env), index=None)
    thread = new_thread(app)
    out = run_turn(app, thread, message, turn_count=1, compression_rate=0.3)
    assert out.pending is not None, out.answer
    closed = resume_turn(app, thread, "reject")
    assert not any(word in closed.answer for word in ERROR_WORDS), closed.answer
    assert "거절" in closed.answer or "rejected" in closed.answer.lower()


def _turn_page(kind: str) -> None:
    """A page with one stopped or rejected turn, drawn by the chat column."""
    from langchain_core.messages import AIMessage, HumanMessage

    from component.chat import LastTurnActions, render_turn

    meta = (
        {"error_code": "CANCELLED", "stopped": True}
        if kind == "stopped"
        else {"error_code": "APPROVAL_REJECTED"}
    )
    text = (
        "여기까지 쓴 답입니다 part0 part1"
        if kind == "stopped"
        else "거절하셔서 실행하지 않았습니다."
    )
    messages = [HumanMessage("질문"), AIMessage(content=text, response_metadata=meta)]
    actions = LastTurnActions(
        on_retry=(lambda: None) if kind == "stopped" else None,
        on_redo=lambda n, t: None,
    )
    render_turn(1, messages, "ko", actions, last=True)


@pytest.mark.parametrize("kind", ["stopped", "rejected"])
def test_a_stopped_or_rejected_turn_shows_no_error_and_one_way_to_redo(kind: str) -> None:
    at = AppTest.from_function(_turn_page, args=(kind,), default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    assert len(at.error) == 0, [e.value for e in at.error]
    labels = [b.label for b in at.button]
    redo = [label for label in labels if "다시" in label]
    assert len(redo) == 1, labels
    if kind == "stopped":
        assert any("여기까지 쓴 답" in m.value for m in at.markdown)
        assert any("중지" in c.value for c in at.caption)
