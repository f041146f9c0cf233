"""A tool call in one of seed 004's categories pauses the graph with `interrupt()`, the
category in the request, the event and the thread's view; reject ends the task there."""

from __future__ import annotations

from pathlib import Path

from langchain_core.tools import tool

from graph.approval import NOT_RUN_AFTER_REJECT, REJECTED
from graph.session import (
    TurnEvents,
    TurnRequest,
    load_thread,
    new_thread,
    open_app,
    pending_approval,
    run_request,
)
from graph.settings import load_settings
from tests.fakes.chat import ScriptedModel, tool_calls


def _app(tmp_path: Path, script: list, ran: list[str]):
    @tool
    def web_search(query: str) -> str:
        """Search the web."""
        ran.append(f"web_search {query}")
        return "결과: 조회됨"

    @tool
    def send_form(form: str, fields: dict) -> str:
        """Submit a web form."""
        ran.append(f"send_form {form}")
        return "제출됨"

    @tool
    def calculator(expression: str) -> str:
        """Evaluate an arithmetic expression."""
        ran.append(f"calculator {expression}")
        return "2"

    settings = load_settings(
        {"CHAT_DB_PATH": str(tmp_path / "c.sqlite"), "CHAT_PROVIDER": "offline"}
    )
    return open_app(
        settings,
        model=ScriptedModel(script),
        tools=[web_search, send_form, calculator],
        approval_required=frozenset({"python_repl"}),
        index=None,
    )


def _run(app, request: TurnRequest) -> tuple[object, list[dict]]:
    events: list[dict] = []
    outcome = run_request(app, request, TurnEvents(request.thread_id, events.append))
    return outcome, events


def _requests(events: list[dict]) -> list[dict]:
    return [
        e["metadata"]
        for e in events
        if e["type"] == "metadata" and e["metadata"]["kind"] == "approval_request"
    ]


def test_a_payment_pauses_with_its_category_and_runs_once_approved(tmp_path: Path) -> None:
    ran: list[str] = []
    form = ("send_form", {"form": "관리비", "fields": {"amount": 120000}})
    app = _app(
        tmp_path, [tool_calls(("calculator", {"expression": "1+1"}), form), "냈습니다."], ran
    )
    thread = new_thread(app)
    out, events = _run(app, TurnRequest(thread, message="이번 달 관리비 결제해 줘"))
    assert out.pending is not None and out.pending["category"] == "payment"
    assert out.pending["tool"] == "send_form" and out.pending["tool_call_id"] == "call_1"
    assert ran == ["calculator 1+1"]  # the local call ran; the payment waits
    # the category is in the event, the saved pause and the thread's view
    (request,) = _requests(events)
    assert request["category"] == "payment" and request["tool"] == "send_form"
    assert pending_approval(app, thread)["category"] == "payment"
    view = load_thread(app, thread)
    assert view.is_waiting_human and view.pending["category"] == "payment"
    out, events = _run(
        app, TurnRequest(thread, kind="resume", action="approve", tool_call_id="call_1")
    )
    assert out.answer == "냈습니다." and ran == ["calculator 1+1", "send_form 관리비"]
    assert [e["type"] for e in events][-1] == "done"
    assert not load_thread(app, thread).is_waiting_human


def test_sensitive_data_in_the_arguments_pauses_and_reject_ends_the_task(tmp_path: Path) -> None:
    ran: list[str] = []
    search = ("web_search", {"query": "900101-1234567 조회"})
    later = ("web_search", {"query": "서울 날씨"})
    app = _app(tmp_path, [tool_calls(search, later), "다 찾았습니다."], ran)
    thread = new_thread(app)
    out, _ = _run(app, TurnRequest(thread, message="제 주민번호로 조회해 줘"))
    assert out.pending["category"] == "sensitive" and out.pending["tool_call_id"] == "call_0"
    out, events = _run(app, TurnRequest(thread, kind="resume", action="reject"))
    # the task ended: nothing ran, the later call was never asked, the model not called again
    assert ran == [] and out.error_code == "APPROVAL_REJECTED" and out.pending is None
    assert [e["type"] for e in events][-2:] == ["error", "done"]
    assert events[-2]["error_code"] == "APPROVAL_REJECTED"
    turn = next(e["metadata"] for e in events if e.get("metadata", {}).get("kind") == "turn")
    assert turn["status"] == "failed" and turn["error_code"] == "APPROVAL_REJECTED"
    messages = load_thread(app, thread).turns[-1][1]
    tools = [m.content for m in messages if m.type == "tool"]
    assert tools == [REJECTED, NOT_RUN_AFTER_REJECT]
    assert messages[-1].response_metadata["error_code"] == "APPROVAL_REJECTED"
    assert not load_thread(app, thread).is_waiting_human


def test_an_ordinary_call_runs_without_asking(tmp_path: Path) -> None:
    ran: list[str] = []
    app = _app(tmp_path, [tool_calls(("web_search", {"query": "서울 날씨"})), "맑음"], ran)
    thread = new_thread(app)
    out, events = _run(app, TurnRequest(thread, message="서울 날씨 알려줘"))
    assert out.pending is None and out.answer == "맑음" and ran == ["web_search 서울 날씨"]
    assert _requests(events) == []


def test_respond_gives_the_waiting_call_the_users_text(tmp_path: Path) -> None:
    ran: list[str] = []
    model = ScriptedModel(
        [tool_calls(("send_form", {"form": "계약서", "fields": {}})), lambda m: m[-1].content]
    )
    settings = load_settings(
        {"CHAT_DB_PATH": str(tmp_path / "c.sqlite"), "CHAT_PROVIDER": "offline"}
    )

    @tool
    def send_form(form: str, fields: dict) -> str:
        """Submit a web form."""
        ran.append(form)
        return "제출됨"

    app = open_app(settings, model=model, tools=[send_form], index=None)
    thread = new_thread(app)
    out, _ = _run(app, TurnRequest(thread, message="이 계약서에 서명해 줘"))
    assert out.pending["category"] == "contract"
    out, _ = _run(
        app,
        TurnRequest(thread, kind="resume", action="respond", response="서명은 내가 직접 할게"),
    )
    # the model read the user's answer as the call's result; the form was never sent
    assert ran == [] and out.error_code is None
    assert out.answer.endswith("서명은 내가 직접 할게")
    assert "Not run: the user answered" in model.calls[-1][-1].content
