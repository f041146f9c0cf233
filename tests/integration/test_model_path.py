"""The model path against servers that behave like local ones (issue 33).

Each test runs the real langchain-openai client and the whole graph against a local fake
HTTP server: llama.cpp's habits (`tests/fakes/llamacpp.py`) or a scripted OpenAI one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from graph.session import TurnEvents, load_thread, new_thread, open_app, run_turn
from graph.session.runner import TurnRequest, run_request
from prompt import get_prompt
from tests.fakes import llamacpp
from tests.fakes import openai_server as oai
from tests.fakes.http_server import FakeHTTPServer, Reply, Request

_settings = llamacpp.app_settings
_calculator = llamacpp.calculator


def _events() -> tuple[TurnEvents, list[dict[str, Any]]]:
    seen: list[dict[str, Any]] = []
    return TurnEvents("t", seen.append), seen


def _turn_meta(events: list[dict[str, Any]]) -> dict[str, Any]:
    return next(
        e["metadata"] for e in events if e["type"] == "metadata" and e["metadata"]["kind"] == "turn"
    )


def test_a_llamacpp_server_runs_tools_sees_the_system_prompt_and_gets_a_token_limit(
    http_server: FakeHTTPServer, tmp_path: Path
) -> None:
    ran: list[str] = []
    template = "{% for m in messages %}<start_of_turn>{{ m.role }}{{ m.content }}{% endfor %}"
    fake = llamacpp.install(
        http_server,
        [llamacpp.call("calculator", {"expression": "2+3"}), llamacpp.say("2+3은 5입니다.")],
        props={"chat_template": template},
    )
    app = open_app(
        _settings(http_server, tmp_path),
        tools=[_calculator(ran)],
        approval_required=frozenset(),
        index=None,
    )
    thread = new_thread(app)
    out = run_turn(app, thread, "2+3 계산해 줘", turn_count=1, compression_rate=0.3)
    assert out.answer == "2+3은 5입니다." and out.error_code is None
    assert ran == ["2+3"]  # the tool ran: tool_choice was sent, the round not streamed
    assert len(fake.refused) == 1 and fake.refused[0]["stream"]  # refused once, remembered
    assert [s.body.get("stream") for s in fake.seen] == [None, None]
    assert all(s.body["tool_choice"] == "auto" for s in fake.seen)
    assert all(s.body["max_tokens"] == 1024 for s in fake.seen)  # LLM_MAX_TOKENS' answer
    # the template drops the system role (its /props says so): the system text was folded
    # into the user's message, so the model saw it
    assert all(m["role"] != "system" for s in fake.seen for m in s.body["messages"])
    assert get_prompt("system.base") in fake.seen[0].prompt_text


def test_the_system_prompt_is_folded_when_the_setting_asks(
    http_server: FakeHTTPServer, tmp_path: Path
) -> None:
    fake = llamacpp.install(http_server, [llamacpp.say("네.")], drops_system=True)
    app = open_app(
        _settings(http_server, tmp_path, LLM_SYSTEM_ROLE="user"),
        tools=[],
        index=None,
    )
    run_turn(app, new_thread(app), "안녕", turn_count=1, compression_rate=0.3)
    first = fake.seen[0].body["messages"]
    assert [m["role"] for m in first] == ["user"]
    assert first[0]["content"].startswith(get_prompt("system.base"))
    assert first[0]["content"].endswith("안녕")


def test_a_reused_tool_call_id_runs_the_new_call(
    http_server: FakeHTTPServer, tmp_path: Path
) -> None:
    """A server that calls every tool `call_1` (local servers, the project's own fake)."""
    ran: list[str] = []
    oai.install(
        http_server,
        [
            oai.tool("calculator", {"expression": "2+3"}, "call_1"),
            oai.text("5입니다."),
            oai.tool("calculator", {"expression": "7*6"}, "call_1"),
            oai.text("42입니다."),
        ],
    )
    app = open_app(
        _settings(http_server, tmp_path),
        tools=[_calculator(ran)],
        approval_required=frozenset(),
        index=None,
    )
    thread = new_thread(app)
    run_turn(app, thread, "2+3은?", turn_count=1, compression_rate=0.3)
    run_turn(app, thread, "7*6은?", turn_count=2, compression_rate=0.3)
    assert ran == ["2+3", "7*6"]  # not the first turn's result handed back
    results = [m.content for turn in load_thread(app, thread).turns for m in turn[1]]
    assert "42" in results


def test_a_cut_off_answer_is_kept_and_continue_appends_to_it(
    http_server: FakeHTTPServer, tmp_path: Path
) -> None:
    bodies = oai.install(
        http_server,
        [oai.broken("length"), oai.text("렸지만, 이어서 끝까지 씁니다.")],
    )
    app = open_app(_settings(http_server, tmp_path), tools=[], index=None)
    thread = new_thread(app)
    events, seen = _events()
    outcome = run_request(app, TurnRequest(thread, message="긴 답을 해 줘", turn_count=1), events)
    assert outcome.answer == "이 답은 중간에서 잘" and outcome.error_code is None
    assert outcome.cut_off == "LLM_TRUNCATED"
    meta = _turn_meta(seen)
    assert meta["status"] == "done" and meta["cut_off"] == meta["error_code"] == "LLM_TRUNCATED"
    assert not [e for e in seen if e["type"] == "error"]  # an answer, not a failure

    events, seen = _events()
    outcome = run_request(app, TurnRequest(thread, kind="continue"), events)
    assert outcome.answer == "이 답은 중간에서 잘렸지만, 이어서 끝까지 씁니다."
    assert outcome.cut_off is None and outcome.error_code is None
    tokens = "".join(e["content"] for e in seen if e["type"] == "token")
    assert tokens == "렸지만, 이어서 끝까지 씁니다."  # only the new text streams
    asked = bodies[-1]["messages"]
    assert asked[-2] == {"role": "assistant", "content": "이 답은 중간에서 잘"}
    assert asked[-1]["content"] == get_prompt("system.continue")
    assert "tools" not in bodies[-1]
    view = load_thread(app, thread)
    assert len(view.turns) == 1  # the same turn, one answer
    answers = [m.content for m in view.turns[0][1] if m.type == "ai"]
    assert answers == ["이 답은 중간에서 잘렸지만, 이어서 끝까지 씁니다."]
    events, seen = _events()
    refused = run_request(app, TurnRequest(thread, kind="continue"), events)
    assert refused.refused and "nothing to continue" in refused.refused


def test_cut_off_or_unparseable_tool_arguments_never_run(
    http_server: FakeHTTPServer, tmp_path: Path
) -> None:
    def bad_args(body: dict[str, Any]) -> Reply:
        call = {"index": 0, "id": "call_9", "type": "function"}
        call["function"] = {"name": "calculator", "arguments": '{"expression": 12 34}'}
        chunks = [
            oai._chunk({"role": "assistant", "content": None, "tool_calls": [call]}),
            oai._chunk({}, "tool_calls"),
            b"data: [DONE]\n\n",
        ]
        return Reply(chunks=iter(chunks))

    ran: list[str] = []
    oai.install(http_server, [oai.broken("cut_tool_args"), bad_args])
    app = open_app(
        _settings(http_server, tmp_path),
        tools=[_calculator(ran)],
        approval_required=frozenset(),
        index=None,
    )
    thread = new_thread(app)
    cut = run_turn(app, thread, "123456*1000 계산해 줘", turn_count=1, compression_rate=0.3)
    bad = run_turn(app, thread, "12*34 계산해 줘", turn_count=2, compression_rate=0.3)
    assert (cut.error_code, bad.error_code) == ("LLM_TRUNCATED", "LLM_BAD_RESPONSE")
    assert ran == []


def test_arguments_that_never_close_never_run_whatever_the_finish_reason(
    http_server: FakeHTTPServer, tmp_path: Path
) -> None:
    """Issue 43, row 3: the client "repairs" JSON that never closed; a call runs as sent."""
    ran: list[str] = []
    oai.install(http_server, [oai.broken("cut_tool_args_stop"), oai.broken("cut_sum_args_stop")])
    app = open_app(
        _settings(http_server, tmp_path),
        tools=[_calculator(ran)],
        approval_required=frozenset(),
        index=None,
    )
    thread = new_thread(app)
    big = run_turn(app, thread, "123456*1000 계산해 줘", turn_count=1, compression_rate=0.3)
    small = run_turn(app, thread, "1+1 계산해 줘", turn_count=2, compression_rate=0.3)
    assert ran == []  # neither 123456*1000 nor 1 was computed
    assert (big.error_code, small.error_code) == ("LLM_BAD_RESPONSE", "LLM_BAD_RESPONSE")
    assert "123456000" not in big.answer


def test_the_turn_time_limit_keeps_the_text_so_far(
    http_server: FakeHTTPServer, tmp_path: Path
) -> None:
    words = " ".join(f"w{i}" for i in range(40))
    oai.install(http_server, [oai.slow_text(words, 0.1)])
    app = open_app(_settings(http_server, tmp_path, LLM_TURN_TIMEOUT_S="1"), tools=[], index=None)
    events, seen = _events()
    outcome = run_request(
        app, TurnRequest(new_thread(app), message="천천히 답해 줘", turn_count=1), events
    )
    assert outcome.cut_off == "LLM_TIMEOUT" and outcome.error_code is None
    assert outcome.answer.startswith("w0 w1") and "w39" not in outcome.answer
    assert _turn_meta(seen)["cut_off"] == "LLM_TIMEOUT"


def test_an_apology_is_never_sent_back_and_the_metadata_says_failed(
    http_server: FakeHTTPServer, tmp_path: Path
) -> None:
    bodies = oai.install(http_server, [oai.status(400), oai.text("네, 도와드릴게요.")])
    app = open_app(_settings(http_server, tmp_path), tools=[], index=None)
    thread = new_thread(app)
    events, seen = _events()
    failed = run_request(
        app, TurnRequest(thread, message="제 이름은 민준이에요", turn_count=1), events
    )
    assert failed.error_code == "LLM_BAD_RESPONSE"
    assert _turn_meta(seen)["status"] == "failed"  # as the job's status (error -> done)
    assert len(bodies) == 1  # a 400 is not asked again
    run_turn(app, thread, "도와주세요", turn_count=2, compression_rate=0.3)
    sent = json.dumps(bodies[-1]["messages"], ensure_ascii=False)
    assert "제 이름은 민준이에요" in sent
    assert "오류 코드" not in sent and "LLM_BAD_RESPONSE" not in sent


def test_a_refused_optional_parameter_is_left_out_from_then_on(
    http_server: FakeHTTPServer, tmp_path: Path
) -> None:
    bodies: list[dict[str, Any]] = []

    def strict(req: Request) -> Reply:
        body = req.json()
        bodies.append(body)
        if "stream_options" in body:
            message = "Unrecognized request argument supplied: stream_options"
            return Reply(400, {"error": {"message": message}})
        return Reply(chunks=oai.stream_text("네."))

    http_server.route("POST", "/v1/chat/completions", strict)
    app = open_app(_settings(http_server, tmp_path), tools=[], index=None)
    thread = new_thread(app)
    for turn in (1, 2):
        out = run_turn(app, thread, f"{turn}번째 질문", turn_count=turn, compression_rate=0.3)
        assert out.answer == "네." and out.error_code is None
    assert ["stream_options" in b for b in bodies] == [True, False, False]


def test_a_failed_turn_is_neither_summarized_nor_a_source_of_lost_facts(
    http_server: FakeHTTPServer, tmp_path: Path
) -> None:
    from graph.storage.facts import load_facts

    summaries: list[str] = []

    def summary(body: dict[str, Any]) -> str:
        summaries.append(json.dumps(body["messages"], ensure_ascii=False))
        return "사용자는 회의가 3시라고 했고 예산은 500만원이다."

    oai.install(
        http_server,
        [oai.status(400), oai.text("3시 회의 알겠습니다."), oai.text("500만원 확인했습니다.")],
        summary=summary,
        default=oai.text("네."),
    )
    app = open_app(_settings(http_server, tmp_path), tools=[], index=None)
    thread = new_thread(app)
    for turn, text in enumerate(
        ["안녕하세요", "회의는 3시예요", "예산은 500만원이에요", "고마워요"], 1
    ):
        run_turn(app, thread, text, turn_count=turn, compression_rate=0.3)
    assert summaries and "LLM_BAD_RESPONSE" not in summaries[0] and "오류 코드" not in summaries[0]
    facts = [
        f[0]
        for record in load_facts(app.persistence.archive, thread).values()
        for f in record["facts"]
    ]
    assert "500만원" in facts and not [f for f in facts if "LLM_" in f]


def test_a_request_the_server_says_it_does_not_support_is_not_asked_again(
    http_server: FakeHTTPServer, tmp_path: Path
) -> None:
    asked: list[str] = []

    def refuse(req: Request) -> Reply:
        asked.append(req.path)
        message = "1 validation error: logit_bias Input should be a valid dictionary"
        if len(asked) > 1:  # a passing fault is asked again, as the client's retries say
            message = "the model is loading"
        return Reply(500, {"error": {"message": message}})

    http_server.route("POST", "/v1/chat/completions", refuse)
    app = open_app(_settings(http_server, tmp_path, LLM_MAX_RETRIES="2"), tools=[], index=None)
    thread = new_thread(app)
    first = run_turn(app, thread, "안녕하세요, 질문이 있어요", turn_count=1, compression_rate=0.3)
    assert first.error_code == "LLM_SERVER_ERROR" and len(asked) == 1
    second = run_turn(app, thread, "다시 물어볼게요", turn_count=2, compression_rate=0.3)
    assert second.error_code == "LLM_SERVER_ERROR" and len(asked) == 1 + 3


def test_a_tool_round_goes_back_with_empty_content_not_null(
    http_server: FakeHTTPServer, tmp_path: Path
) -> None:
    def strict(seen: llamacpp.Seen) -> llamacpp.Answer:
        # llama-cpp-python's server: "Input should be a valid string" for content null
        assert all(m.get("content") is not None for m in seen.body["messages"])
        return {"content": "5입니다."}

    ran: list[str] = []
    fake = llamacpp.install(
        http_server, [llamacpp.call("calculator", {"expression": "2+3"}), strict]
    )
    app = open_app(
        _settings(http_server, tmp_path),
        tools=[_calculator(ran)],
        approval_required=frozenset(),
        index=None,
    )
    out = run_turn(app, new_thread(app), "2+3 계산해 줘", turn_count=1, compression_rate=0.3)
    assert out.answer == "5입니다." and ran == ["2+3"]
    sent = fake.seen[-1].body["messages"]
    assert [m["content"] for m in sent if m["role"] == "assistant"] == [""]


def test_a_continue_that_never_finished_puts_the_cut_off_answer_back(
    http_server: FakeHTTPServer, tmp_path: Path
) -> None:
    from langchain_core.messages import RemoveMessage

    from graph.errors import ErrorCode
    from graph.session.app import config_for, thread_values
    from graph.session.closing import close_unanswered

    oai.install(http_server, [oai.broken("length"), oai.text("새 질문의 답입니다.")])
    app = open_app(_settings(http_server, tmp_path), tools=[], index=None)
    thread = new_thread(app)
    run_turn(app, thread, "긴 답을 해 줘", turn_count=1, compression_rate=0.3)
    cut = thread_values(app, thread)["messages"][-1]
    # Continue took the answer out to go on from it, then the process died (or Stop)
    app.graph.update_state(
        config_for(thread, app.settings),
        {"messages": [RemoveMessage(id=cut.id or "")], "continuing": cut.content},
        as_node="recall_node",
    )
    closed = close_unanswered(app, thread, ErrorCode.TURN_INTERRUPTED)
    assert closed is not None and closed.content == "이 답은 중간에서 잘"
    assert closed.response_metadata["cut_off"] == "LLM_TRUNCATED"  # Continue is offered again
    nxt = run_turn(app, thread, "다른 질문", turn_count=2, compression_rate=0.3)
    assert nxt.answer == "새 질문의 답입니다."  # not glued to the old answer
