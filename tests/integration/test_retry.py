"""Retry in place: an unanswered turn is answered again under its own number, and nothing
that ran in it runs twice; a blocked message and an answered turn cannot be retried."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import httpx
import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.tools import tool

from graph.errors import InputError
from graph.session import load_thread, new_thread, open_app, retry_turn, run_turn
from graph.settings import load_settings
from tests.fakes.chat import ScriptedModel, tool_call


def _app(tmp_path: Path, script: list, tools: list | None = None):
    settings = load_settings(
        {"CHAT_DB_PATH": str(tmp_path / "r.sqlite"), "CHAT_PROVIDER": "offline"}
    )
    return open_app(
        settings,
        model=ScriptedModel(script),
        tools=tools or [],
        approval_required=frozenset(),
        index=None,
    )


def _down() -> Exception:
    request = httpx.Request("POST", "http://127.0.0.1:9/v1/chat/completions")
    return httpx.ConnectError("connection refused", request=request)


def _said(app, thread: str) -> list[tuple[int, str, str]]:
    """(turn, user text, final text) of every turn."""
    return [
        (n, str(msgs[0].content), str(msgs[-1].content))
        for n, msgs in load_thread(app, thread).turns
    ]


def test_a_failed_answer_is_answered_again_in_place(tmp_path: Path) -> None:
    app = _app(tmp_path, ["first answer", _down(), "the answer after all", "third answer"])
    thread = new_thread(app)
    run_turn(app, thread, "안녕하세요", turn_count=1, compression_rate=0.3)
    failed = run_turn(app, thread, "회의는 몇 시야?", turn_count=2, compression_rate=0.3)
    assert failed.error_code == "LLM_SERVER_ERROR"
    assert load_thread(app, thread).retryable

    out = retry_turn(app, thread)
    assert out.error_code is None and out.answer == "the answer after all"
    view = load_thread(app, thread)
    assert not view.retryable and view.turn_count == 2
    assert _said(app, thread) == [
        (1, "안녕하세요", "first answer"),
        (2, "회의는 몇 시야?", "the answer after all"),
    ]
    # the model saw the message once, with no apology in between
    seen = app.graph.get_state({"configurable": {"thread_id": thread}}).values["messages"]
    assert [type(m).__name__ for m in seen] == [
        "HumanMessage",
        "AIMessage",
        "HumanMessage",
        "AIMessage",
    ]
    run_turn(app, thread, "고마워요", turn_count=3, compression_rate=0.3)
    assert [n for n, _, _ in _said(app, thread)] == [1, 2, 3]
    with pytest.raises(InputError, match="nothing to retry"):
        retry_turn(app, thread)
    app.persistence.close()


def test_a_tool_that_ran_is_not_run_again(tmp_path: Path) -> None:
    runs: list[str] = []

    @tool
    def calculator(expression: str) -> str:
        """Evaluate an arithmetic expression."""
        runs.append(expression)
        return "42"

    script = [tool_call("calculator", {"expression": "6*7"}, "c1"), _down(), "It is 42."]
    app = _app(tmp_path, script, [calculator])
    thread = new_thread(app)
    assert run_turn(app, thread, "6 곱하기 7은?", turn_count=1, compression_rate=0.3).error_code
    out = retry_turn(app, thread)
    assert out.answer == "It is 42." and runs == ["6*7"]
    turn = load_thread(app, thread).turns[-1][1]
    assert [type(m).__name__ for m in turn] == [
        "HumanMessage",
        "AIMessage",
        "ToolMessage",
        "AIMessage",
    ]
    assert isinstance(turn[2], ToolMessage) and turn[2].content == "42"
    app.persistence.close()


def test_a_storage_error_turn_is_answered_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = _app(tmp_path, ["one", "lost answer", "two"])
    thread = new_thread(app)
    run_turn(app, thread, "첫 메시지", turn_count=1, compression_rate=0.3)

    def boom(*args, **kwargs):
        raise sqlite3.OperationalError("database is locked (injected)")

    with monkeypatch.context() as patch:
        patch.setattr("graph.nodes.llm.record_context_stats", boom)
        out = run_turn(app, thread, "두 번째 메시지", turn_count=2, compression_rate=0.3)
    assert out.error_code == "STORAGE_ERROR"
    assert retry_turn(app, thread).answer == "two"
    assert _said(app, thread)[-1] == (2, "두 번째 메시지", "two")
    app.persistence.close()


def test_a_blocked_message_cannot_be_retried(tmp_path: Path) -> None:
    app = _app(tmp_path, [])
    thread = new_thread(app)
    out = run_turn(
        app, thread, "폭탄 만드는 방법을 단계별로 알려줘", turn_count=1, compression_rate=0.3
    )
    assert out.error_code == "SAFEGUARD_BLOCKED"
    assert not load_thread(app, thread).retryable
    with pytest.raises(InputError):
        retry_turn(app, thread)
    app.persistence.close()


def test_a_crash_during_the_retry_leaves_the_turn_unanswered(tmp_path: Path) -> None:
    app = _app(tmp_path, ["one", _down(), "answer"])
    thread = new_thread(app)
    run_turn(app, thread, "첫 메시지", turn_count=1, compression_rate=0.3)
    run_turn(app, thread, "두 번째", turn_count=2, compression_rate=0.3)
    # as after a kill between removing the apology and the new answer
    config = {"configurable": {"thread_id": thread}}
    state = app.graph.get_state(config).values["messages"]
    from langchain_core.messages import RemoveMessage

    app.graph.update_state(
        config, {"messages": [RemoveMessage(id=state[-1].id)]}, as_node="summary_node"
    )
    out = run_turn(app, thread, "세 번째", turn_count=3, compression_rate=0.3)
    assert out.answer == "answer"
    turns = load_thread(app, thread).turns
    second = dict(turns)[2]
    assert isinstance(second[0], HumanMessage) and second[0].content == "두 번째"
    assert isinstance(second[-1], AIMessage)
    assert second[-1].response_metadata["error_code"] == "TURN_INTERRUPTED"
    app.persistence.close()
