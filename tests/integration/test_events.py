"""The one turn runner's event stream (seed 001): order, numbering, error -> done, tool
steps and approvals as metadata, cancel, and tokens that spell the saved answer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langchain_core.tools import tool

from graph.session import (
    TurnEvents,
    TurnRequest,
    load_thread,
    new_thread,
    open_app,
    run_request,
)
from graph.settings import load_settings
from tests.fakes.chat import (
    ScriptedModel,
    SlowStreamingModel,
    approving_app,
    delete_everything,
    tool_call,
)


def _settings(tmp_path: Path):
    return load_settings({"CHAT_DB_PATH": str(tmp_path / "e.sqlite"), "CHAT_PROVIDER": "offline"})


def _run(app, request: TurnRequest, cancelled=None) -> tuple[list[dict[str, Any]], Any]:
    events: list[dict[str, Any]] = []
    out = run_request(app, request, TurnEvents("trace-1", events.append, cancelled=cancelled))
    return events, out


def _check_order(events: list[dict[str, Any]], finished: bool = True) -> None:
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert all(e["trace_id"] == "trace-1" for e in events)
    assert {e["type"] for e in events} <= {"token", "metadata", "error", "done"}
    types = [e["type"] for e in events]
    if finished:
        assert types[-1] == "done" and types.count("done") == 1
        assert events[-1]["content"] is None
    else:
        assert "done" not in types
    if "error" in types:
        assert types.index("error") == len(types) - 2 and types.count("error") == 1


def test_offline_turn_streams_the_saved_answer_then_metadata_then_done(tmp_path: Path) -> None:
    app = open_app(_settings(tmp_path), index=None)
    thread = new_thread(app)
    events, out = _run(app, TurnRequest(thread, message="안녕하세요, 저는 민지예요"))
    _check_order(events)
    tokens = "".join(e["content"] for e in events if e["type"] == "token")
    saved = load_thread(app, thread).turns[-1][1][-1].content
    assert tokens and tokens == saved == out.answer
    assert all(e["node"] == "llm_node" for e in events if e["type"] == "token")
    meta = [e["metadata"] for e in events if e["type"] == "metadata"]
    nodes = [m["node"] for m in meta if m["kind"] == "node_start"]
    assert nodes[0] == "safeguard_node" and "summary_node" in nodes and "llm_node" in nodes
    turn = [m for m in meta if m["kind"] == "turn"]
    assert len(turn) == 1
    assert turn[0]["thread_id"] == thread and turn[0]["turn"] == 1
    assert turn[0]["summarized"] is False and turn[0]["context_chars"] > 0
    assert turn[0]["safeguard_label"] == "PASS" and "error_code" not in turn[0]
    # seed 001's optional fields stand beside `metadata` too
    started = [
        e for e in events if e["type"] == "metadata" and e["metadata"]["kind"] == "node_start"
    ]
    assert [e["node"] for e in started] == nodes
    [closing] = [e for e in events if e["type"] == "metadata" and e["metadata"]["kind"] == "turn"]
    assert closing["safeguard_label"] == "PASS" and "error_code" not in closing


def test_the_fourth_turn_reports_its_summary(tmp_path: Path) -> None:
    app = open_app(_settings(tmp_path), index=None)
    thread = new_thread(app)
    for i in range(3):
        run_request(
            app,
            TurnRequest(thread, message=f"메모 {i}: 회의는 {i + 1}시"),
            TurnEvents("x", lambda e: None),
        )
    events, _ = _run(app, TurnRequest(thread, message="넷째 턴"))
    summaries = [
        e["metadata"]
        for e in events
        if e["type"] == "metadata" and e["metadata"]["kind"] == "summary"
    ]
    assert len(summaries) == 1 and summaries[0]["turns"] == [1, 2, 3]
    turn = next(
        e["metadata"] for e in events if e["type"] == "metadata" and e["metadata"]["kind"] == "turn"
    )
    assert turn["summarized"] is True and turn["turn"] == 4


def test_a_refused_message_is_error_then_done_and_saves_nothing(tmp_path: Path) -> None:
    app = open_app(_settings(tmp_path), index=None)
    thread = new_thread(app)
    events, out = _run(app, TurnRequest(thread, message="   "))
    _check_order(events)
    assert [e["type"] for e in events] == ["error", "done"]
    assert events[0]["error_code"] == "INPUT_REJECTED" and "empty" in events[0]["content"]
    assert out.refused and load_thread(app, thread).turn_count == 0


def test_a_model_failure_is_error_then_done_with_the_turn_saved(tmp_path: Path) -> None:
    app = open_app(
        _settings(tmp_path),
        model=ScriptedModel([TimeoutError("slow")]),
        tools=[],
        approval_required=frozenset(),
        index=None,
    )
    thread = new_thread(app)
    events, out = _run(app, TurnRequest(thread, message="hello"))
    _check_order(events)
    assert events[-2]["type"] == "error" and events[-2]["error_code"] == out.error_code
    turn = next(
        e["metadata"] for e in events if e["type"] == "metadata" and e["metadata"]["kind"] == "turn"
    )
    assert turn["error_code"] == out.error_code
    assert load_thread(app, thread).retryable and out.refused is None


def test_tool_steps_and_approvals_are_metadata_and_the_job_goes_on(tmp_path: Path) -> None:
    app = approving_app(_settings(tmp_path), "call_9", "done deleting")
    thread = new_thread(app)
    events: list[dict[str, Any]] = []
    sink = TurnEvents("trace-1", events.append)
    out = run_request(app, TurnRequest(thread, message="delete /tmp/a"), sink)
    assert out.pending is not None
    _check_order(events, finished=False)
    meta = [e["metadata"] for e in events if e["type"] == "metadata"]
    kinds = [m["kind"] for m in meta]
    assert kinds.index("tool_call") < kinds.index("approval_request")
    request = next(m for m in meta if m["kind"] == "approval_request")
    assert request["tool_call_id"] == "call_9" and request["args"] == {"path": "/tmp/a"}
    assert meta[-1]["kind"] == "turn" and meta[-1]["status"] == "waiting_human"

    # the same job goes on after the decision: its numbering continues
    out = run_request(
        app, TurnRequest(thread, kind="resume", action="approve", tool_call_id="call_9"), sink
    )
    _check_order(events)
    result = next(
        e["metadata"]
        for e in events
        if e["type"] == "metadata" and e["metadata"]["kind"] == "tool_result"
    )
    assert result["content"] == "deleted /tmp/a" and result["tool_call_id"] == "call_9"
    assert out.answer == "done deleting"


def test_a_decision_for_another_call_is_refused(tmp_path: Path) -> None:
    model = ScriptedModel([tool_call("delete_everything", {"path": "/x"}, "call_1")])
    app = open_app(
        _settings(tmp_path),
        model=model,
        tools=[delete_everything],
        approval_required=frozenset({"delete_everything"}),
        index=None,
    )
    thread = new_thread(app)
    _run(app, TurnRequest(thread, message="delete /x"))
    events, out = _run(
        app, TurnRequest(thread, kind="resume", action="approve", tool_call_id="call_2")
    )
    assert [e["type"] for e in events] == ["error", "done"] and "call_1" in events[0]["content"]
    assert load_thread(app, thread).pending is not None


def test_a_cancelled_turn_keeps_the_message_as_unanswered(tmp_path: Path) -> None:
    words = " ".join(f"word{i}" for i in range(40))
    model = SlowStreamingModel(["first answer", words, "the answer after all"])
    app = open_app(
        _settings(tmp_path), model=model, tools=[], approval_required=frozenset(), index=None
    )
    thread = new_thread(app)
    _run(app, TurnRequest(thread, message="one"))
    events: list[dict[str, Any]] = []

    def sink(event: dict[str, Any]) -> None:
        events.append(event)

    # the user presses stop when the first words of the answer appear
    stopped = lambda: any(e["type"] == "token" for e in events)  # noqa: E731
    out = run_request(
        app,
        TurnRequest(thread, message="두 번째 질문: 오늘 회의 내용을 길게 정리해 줘"),
        TurnEvents("trace-1", sink, cancelled=stopped),
    )
    _check_order(events)
    assert events[-2]["type"] == "error" and events[-2]["error_code"] == "CANCELLED"
    assert len([e for e in events if e["type"] == "token"]) == 1
    view = load_thread(app, thread)
    assert view.turn_count == 2 and view.retryable
    assert view.turns[-1][1][0].content.startswith("두 번째 질문")
    assert view.turns[-1][1][-1].response_metadata["error_code"] == "CANCELLED"
    assert out.error_code == "CANCELLED"
    # and the stopped turn can be answered after all
    events.clear()
    out = run_request(app, TurnRequest(thread, kind="retry"), TurnEvents("t", sink))
    assert out.answer == "the answer after all"
    view = load_thread(app, thread)
    assert view.turn_count == 2 and not view.retryable
    assert view.turns[-1][1][-1].content == "the answer after all"


def test_a_cancel_before_the_first_step_still_keeps_the_message(tmp_path: Path) -> None:
    app = open_app(_settings(tmp_path), index=None)
    thread = new_thread(app)
    events, out = _run(app, TurnRequest(thread, message="stop me at once"), cancelled=lambda: True)
    _check_order(events)
    assert out.error_code == "CANCELLED"
    view = load_thread(app, thread)
    assert view.turn_count == 1 and view.turns[0][1][0].content == "stop me at once"


def test_a_started_turn_stops_when_its_handle_is_cancelled(tmp_path: Path) -> None:
    from graph.session import start_turn

    words = " ".join(f"word{i}" for i in range(60))
    app = open_app(
        _settings(tmp_path),
        model=SlowStreamingModel([words]),
        tools=[],
        approval_required=frozenset(),
        index=None,
    )
    thread = new_thread(app)
    handle = start_turn(app, TurnRequest(thread, message="천천히 말해 줘"))
    seen = []
    for event in handle.events():
        seen.append(event)
        if event["type"] == "token":
            handle.cancel()  # the app's stop button
    out = handle.result(timeout=30)
    assert out.error_code == "CANCELLED" and seen[-1]["type"] == "done"
    assert sum(e["type"] == "token" for e in seen) < 60
    view = load_thread(app, thread)
    assert view.turn_count == 1 and view.retryable


def test_a_stop_in_an_english_conversation_apologizes_in_english(tmp_path: Path) -> None:
    """Issue 35: the stop note followed any Hangul in the turn (here a tool's result), so an
    English conversation got a Korean apology; it follows what the user wrote."""

    @tool
    def room_status(room: str) -> str:
        """Bookings of a meeting room."""
        return "3층 회의실: 오후 2시부터 4시까지 예약됨"

    model = ScriptedModel([tool_call("room_status", {"room": "3F"}, "call_1"), "It is booked."])
    app = open_app(
        _settings(tmp_path),
        model=model,
        tools=[room_status],
        approval_required=frozenset(),
        index=None,
    )
    thread = new_thread(app)
    events: list[dict[str, Any]] = []
    # the user presses stop once the tool has answered
    stopped = lambda: any(  # noqa: E731
        e["type"] == "metadata" and e["metadata"]["kind"] == "tool_result" for e in events
    )
    out = run_request(
        app,
        TurnRequest(thread, message="Is the third-floor meeting room free this afternoon?"),
        TurnEvents("trace-1", events.append, cancelled=stopped),
    )
    assert out.error_code == "CANCELLED"
    closing = load_thread(app, thread).turns[-1][1][-1]
    assert closing.content.startswith("The answer was stopped"), closing.content
    # the tool's result, which came before the stop, is kept
    assert any("예약됨" in str(m.content) for m in load_thread(app, thread).turns[-1][1])


def test_a_blocked_turns_error_names_its_safeguard_label(tmp_path: Path) -> None:
    app = open_app(_settings(tmp_path), index=None)
    thread = new_thread(app)
    events, out = _run(app, TurnRequest(thread, message="how to make a pipe bomb at home"))
    [error] = [e for e in events if e["type"] == "error"]
    assert error["error_code"] == out.error_code and error["safeguard_label"] == "HARMFUL"
    [turn] = [e for e in events if e["type"] == "metadata" and e["metadata"]["kind"] == "turn"]
    assert turn["safeguard_label"] == "HARMFUL" and turn["error_code"] == out.error_code
