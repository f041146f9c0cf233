"""Issue 42: tool calls a local model writes as text are tool calls, and markup is never shown.

Each test runs the real langchain-openai client and the whole graph against the fake of
llama.cpp's server (`tests/fakes/llamacpp.py`) whose model writes its calls as text, as
Qwen2.5 does with its GGUF's own template: Hermes tags, bare JSON, a fenced block.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from graph.session import TurnEvents, load_thread, new_thread, open_app
from graph.session.runner import TurnRequest, run_request
from tests.fakes import llamacpp
from tests.fakes.http_server import FakeHTTPServer

CALL = {"name": "calculator", "arguments": {"expression": "3*5"}}
MARKUP = ("tool_call", '"name"', '"arguments"', "<|im_end|>", "```")


def _settings(server: FakeHTTPServer, tmp_path: Path, **extra: str):
    return llamacpp.app_settings(
        server,
        tmp_path,
        **{"CHAT_MODEL": "qwen2.5-coder-0.5b-instruct", "LLM_MAX_RETRIES": "0", **extra},
    )


_calculator = llamacpp.calculator


def _app(server: FakeHTTPServer, tmp_path: Path, ran: list[str], **kw: Any):
    return open_app(
        _settings(server, tmp_path),
        tools=[_calculator(ran)],
        approval_required=kw.pop("approval_required", frozenset()),
        index=None,
        **kw,
    )


def _turn(app: Any, thread: str, message: str) -> tuple[Any, list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    outcome = run_request(
        app, TurnRequest(thread, message=message), TurnEvents(thread, events.append)
    )
    return outcome, events


def _streamed(events: list[dict[str, Any]]) -> str:
    return "".join(str(e.get("content") or "") for e in events if e["type"] == "token")


def _kinds(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [
        e["metadata"]
        for e in events
        if e["type"] == "metadata" and e["metadata"].get("kind") == kind
    ]


@pytest.mark.parametrize(
    "written",
    [
        f"<tool_call>\n{json.dumps(CALL)}\n</tool_call>",
        json.dumps(CALL),
        f"계산해 볼게요.\n```json\n{json.dumps(CALL)}\n```",
    ],
    ids=["hermes-tags", "bare-json", "fenced-json"],
)
def test_calc_3x5_written_as_text_runs_the_calculator_and_answers_15(
    http_server: FakeHTTPServer, tmp_path: Path, written: str
) -> None:
    ran: list[str] = []
    fake = llamacpp.install(http_server, [llamacpp.say(written), llamacpp.say("3*5 = 15입니다.")])
    app = _app(http_server, tmp_path, ran)
    thread = new_thread(app)
    outcome, events = _turn(app, thread, "calc 3*5 please")
    assert ran == ["3*5"]  # the calculator ran, once
    assert outcome.error_code is None
    assert "15" in outcome.answer
    for mark in MARKUP:
        assert mark not in outcome.answer and mark not in _streamed(events)
    calls = _kinds(events, "tool_call")
    assert [c["tool"] for c in calls] == ["calculator"]
    assert [r["tool"] for r in _kinds(events, "tool_result")] == ["calculator"]
    # the result went back to the server as a tool round (what it accepted)
    second = fake.seen[-1].body["messages"]
    assert any(m["role"] == "tool" and m["content"] == "15" for m in second)
    view = load_thread(app, thread)
    shown = [
        m
        for _, messages in view.turns
        for m in messages
        if m.type == "ai" and not getattr(m, "tool_calls", None)
    ]
    assert shown
    assert all(mark not in str(m.content) for m in shown for mark in MARKUP)


def test_a_written_call_to_an_unknown_tool_is_never_shown_and_asked_again_in_words(
    http_server: FakeHTTPServer, tmp_path: Path
) -> None:
    ran: list[str] = []
    unknown = '{"name": "leave_policy", "arguments": {"employee_id": "HB-20417"}}'
    fake = llamacpp.install(
        http_server, [llamacpp.say(unknown), llamacpp.say("사번은 HB-20417이라고 하셨어요.")]
    )
    app = _app(http_server, tmp_path, ran)
    thread = new_thread(app)
    outcome, events = _turn(app, thread, "제 사번이 뭐였죠?")
    assert ran == []
    assert outcome.error_code is None
    assert outcome.answer == "사번은 HB-20417이라고 하셨어요."
    assert "leave_policy" not in _streamed(events) and "leave_policy" not in outcome.answer
    retry = fake.seen[-1].body
    assert "tools" not in retry  # asked once more without tools, in words
    assert "도구 호출이나 JSON 없이" in retry["messages"][-1]["content"]
    assert _kinds(events, "tool_call") == []


def test_markup_again_without_tools_ends_the_turn_with_a_coded_apology(
    http_server: FakeHTTPServer, tmp_path: Path
) -> None:
    ran: list[str] = []
    bad = '<tool_call>{"name": "leave_policy", "arguments": {}}</tool_call>'
    llamacpp.install(http_server, [llamacpp.say(bad), llamacpp.say(bad + "<|im_end|>")])
    app = _app(http_server, tmp_path, ran)
    thread = new_thread(app)
    outcome, events = _turn(app, thread, "휴가 정책 알려줘")
    assert ran == []
    assert outcome.error_code == "LLM_BAD_RESPONSE"
    assert "leave_policy" not in _streamed(events) and "leave_policy" not in outcome.answer
    # the message is kept, the turn answered by the apology
    assert load_thread(app, thread).turn_count == 1


@pytest.mark.parametrize(
    "cut",
    [
        '{"name": "calculator", "arguments": {"expression": "123456*1000',
        '<tool_call>{"name": "calculator", "arguments": {"expression": "3*5"}}',
    ],
    ids=["object-never-closes", "tag-never-closes"],
)
def test_a_cut_written_call_never_runs(
    http_server: FakeHTTPServer, tmp_path: Path, cut: str
) -> None:
    ran: list[str] = []
    llamacpp.install(http_server, [llamacpp.say(cut), llamacpp.say("계산하지 못했습니다.")])
    app = _app(http_server, tmp_path, ran)
    thread = new_thread(app)
    outcome, events = _turn(app, thread, "123456 곱하기 1000은?")
    assert ran == []
    assert outcome.answer == "계산하지 못했습니다."
    assert "calculator" not in _streamed(events)


def test_a_written_call_to_a_risky_tool_asks_first_and_runs_once_after_approval(
    http_server: FakeHTTPServer, tmp_path: Path
) -> None:
    ran: list[str] = []
    llamacpp.install(http_server, [llamacpp.say(json.dumps(CALL)), llamacpp.say("답은 15입니다.")])
    app = _app(http_server, tmp_path, ran, approval_required=frozenset({"calculator"}))
    thread = new_thread(app)
    outcome, _ = _turn(app, thread, "calc 3*5 please")
    assert outcome.pending is not None and outcome.pending["tool"] == "calculator"
    assert ran == []  # not before the approval
    events: list[dict[str, Any]] = []
    approve = TurnRequest(
        thread, kind="resume", action="approve", tool_call_id=str(outcome.pending["tool_call_id"])
    )
    done = run_request(app, approve, TurnEvents(thread, events.append))
    assert ran == ["3*5"]
    assert done.answer == "답은 15입니다."


def test_a_server_that_refuses_tool_rounds_gets_them_as_text_from_then_on(
    http_server: FakeHTTPServer, tmp_path: Path
) -> None:
    ran: list[str] = []
    fake = llamacpp.install(
        http_server,
        [
            llamacpp.say(f"<tool_call>{json.dumps(CALL)}</tool_call>"),
            llamacpp.say("3*5 = 15입니다."),
            llamacpp.say(f"<tool_call>{json.dumps(CALL)}</tool_call>"),
            llamacpp.say("다시 해도 15입니다."),
        ],
        refuses_tool_rounds=True,
    )
    app = _app(http_server, tmp_path, ran)
    thread = new_thread(app)
    outcome, _ = _turn(app, thread, "calc 3*5 please")
    assert ran == ["3*5"] and outcome.answer == "3*5 = 15입니다."
    refused = [b for b in fake.refused if any(m.get("role") == "tool" for m in b["messages"])]
    assert len(refused) == 1  # refused once, then learned
    sent = fake.seen[1].body["messages"]
    assert not any(m["role"] == "tool" or m.get("tool_calls") for m in sent)
    assert "<tool_response>\n15\n</tool_response>" in sent[-1]["content"]
    assert sent[-2]["role"] == "assistant" and "<tool_call>" in sent[-2]["content"]
    again, _ = _turn(app, thread, "one more time: calc 3*5")
    assert again.answer == "다시 해도 15입니다." and ran == ["3*5", "3*5"]
    assert (
        len([b for b in fake.refused if any(m.get("role") == "tool" for m in b["messages"])]) == 1
    )


def test_markup_is_never_memory_over_a_ten_turn_walk(
    http_server: FakeHTTPServer, tmp_path: Path
) -> None:
    """The issue's walk: a model that answers every step with tool-call JSON (a made-up
    tool) and summarizes with it too. No answer, summary, recalled turn or lost fact holds it."""
    ran: list[str] = []
    junk = '{"name": "leave_policy", "arguments": {"topic": "memory"}}'

    def model(seen: llamacpp.Seen) -> dict[str, Any]:
        body = seen.body
        last = str(body["messages"][-1].get("content") or "")
        if body.get("tools"):
            return {"content": f"<tool_call>{junk}</tool_call>"}
        if "요약" in seen.prompt_text and "대화" in seen.prompt_text and not body.get("tools"):
            return {"content": f"```json\n{junk}\n```"}  # the summary, as markup
        said = last.split("\n\n(")[0]
        return {"content": f"네, 말씀하신 내용 잘 들었어요: {said[:60]}"}

    fake = llamacpp.install(http_server, [], default=model)
    app = _app(http_server, tmp_path, ran)
    thread = new_thread(app)
    messages = [
        "저는 서울 마포구에 살아요.",
        "제 사번은 HB-20417이에요.",
        "제 생일은 3월 14일이에요.",
        "오늘은 비가 오네요.",
        "점심은 김치찌개를 먹었어요.",
        "주말에 등산을 가려고 해요.",
        "제 사번이 뭐였죠?",
        "요즘 읽는 책은 클린 코드예요.",
        "커피는 하루에 두 잔 마셔요.",
        "제가 사는 동네가 어디라고 했죠?",
    ]
    for message in messages:
        outcome, events = _turn(app, thread, message)
        assert outcome.error_code is None, (message, outcome.answer)
        for text in (outcome.answer, _streamed(events)):
            assert "leave_policy" not in text and "tool_call" not in text
    view = load_thread(app, thread)
    assert [e["turns"] for e in view.summary_history] == [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    for entry in view.summary_history:
        assert "leave_policy" not in entry["summary"] and "{" not in entry["summary"]
    for meta in view.summary_meta:
        assert "tool call" in str(meta.get("fallback") or ""), meta  # refused, extractive
    assert "HB-20417" in view.summary_history[0]["summary"]  # the turns' own words
    assert ran == []
    assert not any("leave_policy" in str(m.content) for _, t in view.turns for m in t)
    # every answer step was asked again without tools, once
    assert sum(1 for s in fake.seen if "tools" not in s.body and "JSON 없이" in s.prompt_text) >= 10


def test_the_same_call_again_after_its_result_is_asked_in_words_not_run_twice(
    http_server: FakeHTTPServer, tmp_path: Path
) -> None:
    """Qwen2.5-Coder-0.5B, given the calculator's result, wrote the call again."""
    ran: list[str] = []
    again = json.dumps(CALL)
    fake = llamacpp.install(
        http_server,
        [llamacpp.say(again), llamacpp.say(again), llamacpp.say("3*5는 15입니다.")],
    )
    app = _app(http_server, tmp_path, ran)
    outcome, events = _turn(app, new_thread(app), "calc 3*5 please")
    assert ran == ["3*5"]
    assert outcome.answer == "3*5는 15입니다." and outcome.error_code is None
    assert "tools" not in fake.seen[-1].body
    assert len(_kinds(events, "tool_call")) == 1


def _described_calculator(ran: list[str]) -> Any:
    """The fake's calculator with the product's description: it shows an example call."""
    from graph.settings import load_settings
    from graph.tools import build_tools

    shown = next(t for t in build_tools(load_settings({})) if t.name == "calculator")
    assert "123 * 456" in shown.description  # what a small model said back
    return _calculator(ran).model_copy(update={"description": shown.description})


@pytest.mark.parametrize(
    ("message", "runs"),
    [("저는 대학원생 최지훈이에요. 전공은 기계공학이에요.", False), ("123 * 456 계산해줘", True)],
    ids=["unasked", "asked"],
)
def test_a_call_that_says_back_its_tools_example_unasked_is_asked_in_words_not_run(
    http_server: FakeHTTPServer, tmp_path: Path, message: str, runs: bool
) -> None:
    """Qwen2.5-Coder-0.5B answered a self-introduction by calling the calculator with its
    description's example (`123 * 456`) and showed 56088 as the answer; asked for, it runs."""
    ran: list[str] = []
    example = json.dumps({"name": "calculator", "arguments": {"expression": "123 * 456"}})
    words = "반가워요, 최지훈님." if not runs else "123 * 456 = 56088입니다."
    fake = llamacpp.install(http_server, [llamacpp.say(example), llamacpp.say(words)])
    app = open_app(
        _settings(http_server, tmp_path),
        tools=[_described_calculator(ran)],
        approval_required=frozenset(),
        index=None,
    )
    outcome, events = _turn(app, new_thread(app), message)
    assert outcome.error_code is None and outcome.answer == words
    assert ran == (["123 * 456"] if runs else [])
    assert len(_kinds(events, "tool_call")) == (1 if runs else 0)
    asked_again = "tools" not in fake.seen[-1].body and "JSON 없이" in fake.seen[-1].prompt_text
    assert asked_again is not runs
