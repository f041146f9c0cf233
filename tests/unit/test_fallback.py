"""A failing model, tool or summarizer never loses the turn; the next turn works."""

from __future__ import annotations

import httpx
import openai
import pytest
from langchain_core.messages import AIMessage, HumanMessage

from graph.errors import ErrorCode
from graph.summarizer import ExtractiveSummarizer
from tests.fakes.chat import ScriptedModel, tool_call
from tests.unit.helpers import make_graph, send

_REQ = httpx.Request("POST", "http://x/v1/chat/completions")


def _status(code: int) -> openai.APIStatusError:
    cls = {429: openai.RateLimitError, 500: openai.InternalServerError}[code]
    return cls("boom", response=httpx.Response(code, request=_REQ), body=None)


@pytest.mark.parametrize(
    ("exc", "code"),
    [
        (openai.APITimeoutError(request=_REQ), ErrorCode.LLM_TIMEOUT),
        (_status(429), ErrorCode.LLM_RATE_LIMIT),
        (_status(500), ErrorCode.LLM_SERVER_ERROR),
        (RuntimeError("weird"), ErrorCode.UNKNOWN),
    ],
)
def test_model_failure_ends_in_fallback_and_next_turn_works(exc, code) -> None:
    graph = make_graph(ScriptedModel(["첫 답변", exc, "세 번째 답변"]))
    send(graph, "f", 1, "안녕")
    state = send(graph, "f", 2, "두 번째 질문")
    last = state["messages"][-1]
    assert code.value in last.content and "죄송합니다" in last.content
    assert last.response_metadata["error_code"] == code.value
    assert [m.content for m in state["messages"] if isinstance(m, HumanMessage)] == [
        "안녕",
        "두 번째 질문",
    ]
    assert state["errors"][-1]["code"] == code.value and state["errors"][-1]["turn"] == 2
    state = send(graph, "f", 3, "다시")
    assert state["messages"][-1].content == "세 번째 답변"


def test_fallback_speaks_english_to_english_users() -> None:
    graph = make_graph(ScriptedModel([RuntimeError("x")]))
    state = send(graph, "e", 1, "hello there")
    assert state["messages"][-1].content.startswith("Sorry")


def test_endless_tool_loop_is_cut_at_the_round_limit() -> None:
    loop = [tool_call("calculator", {"expression": "1+1"}, f"c{i}") for i in range(50)]
    model = ScriptedModel(loop)
    graph = make_graph(model, MAX_TOOL_ROUNDS="3")
    state = send(graph, "loop", 1, "계속 계산해")
    assert ErrorCode.TOOL_LOOP_LIMIT.value in state["messages"][-1].content
    assert len(model.calls) == 3
    assert state["errors"][-1]["code"] == "TOOL_LOOP_LIMIT"
    state = send(graph, "loop", 2, "그만")
    assert len(model.calls) == 6  # the next turn consults the model again, with its own limit
    assert [m.content for m in state["messages"] if isinstance(m, HumanMessage)] == [
        "계속 계산해",
        "그만",
    ]


def test_malformed_tool_call_becomes_bad_response() -> None:
    bad = AIMessage(
        content="",
        invalid_tool_calls=[
            {
                "name": "calculator",
                "args": "{not json",
                "id": "x",
                "error": "bad json",
                "type": "invalid_tool_call",
            }
        ],
    )
    graph = make_graph(ScriptedModel([bad, "괜찮아요"]))
    state = send(graph, "m", 1, "1+1")
    assert state["messages"][-1].response_metadata["error_code"] == "LLM_BAD_RESPONSE"
    assert send(graph, "m", 2, "다시")["messages"][-1].content == "괜찮아요"


def test_tool_error_becomes_error_tool_message_and_model_answers() -> None:
    model = ScriptedModel(
        [
            tool_call("calculator", {"expression": "abc"}, "c1"),
            lambda msgs: AIMessage(f"계산식이 올바르지 않습니다. ({msgs[-1].content[:6]})"),
        ]
    )
    graph = make_graph(model)
    state = send(graph, "te", 1, "abc 계산")
    tool_msg = state["messages"][-2]
    assert tool_msg.content.startswith("Error:") and tool_msg.status == "error"
    assert state["messages"][-1].content == "계산식이 올바르지 않습니다. (Error:)"


def test_unknown_tool_is_reported_to_the_model() -> None:
    model = ScriptedModel([tool_call("nope", {}, "c1"), "그런 도구는 없네요"])
    state = send(make_graph(model), "u", 1, "x")
    assert state["messages"][-2].content == "Error: there is no tool named 'nope'."


class FlakySummarizer(ExtractiveSummarizer):
    def __init__(self, failures: int) -> None:
        self.failures = failures

    def summarize(self, messages, target_chars, *, turn_label):
        if self.failures:
            self.failures -= 1
            raise TimeoutError("summary model timed out")
        return super().summarize(messages, target_chars, turn_label=turn_label)


def test_failed_summary_does_not_block_the_reply_and_is_retried_next_turn() -> None:
    model = ScriptedModel(default="답")
    graph = make_graph(model, summarizer=FlakySummarizer(failures=1))
    for turn in range(1, 4):
        send(graph, "s", turn, f"질문 {turn}")
    state = send(graph, "s", 4, "질문 4")
    assert state["messages"][-1].content == "답"
    assert state["summary_history"] == []
    assert state["errors"][-1]["code"] == "SUMMARY_FAILED"
    # turn 4's context had all raw turns since nothing was summarized
    assert [m.content for m in model.calls[-1] if isinstance(m, HumanMessage)] == [
        "질문 1",
        "질문 2",
        "질문 3",
        "질문 4",
    ]
    state = send(graph, "s", 5, "질문 5")
    assert [e["turns"] for e in state["summary_history"]] == [[1, 2, 3]]
    # turn 5: summary 1-3, raw turn 4, current turn 5
    assert [m.content for m in model.calls[-1] if isinstance(m, HumanMessage)] == [
        "질문 4",
        "질문 5",
    ]
    assert "[1-3턴]" in model.calls[-1][0].content


def _nodes(graph, thread: str, turn: int, text: str) -> list[str]:
    """The nodes a turn ran, in order (graph.stream's updates)."""
    config = {"configurable": {"thread_id": thread}}
    payload = {
        "messages": [HumanMessage(content=text)],
        "turn_count": turn,
        "compression_rate": 0.3,
        "session_id": thread,
    }
    ran: list[str] = []
    for update in graph.stream(payload, config, stream_mode="updates"):
        ran += [name for name in update if not name.startswith("__")]
    return ran


def test_an_answer_error_routes_to_fallback_node_which_writes_the_apology() -> None:
    """Seed 001, row 21: answer errors route to a fallback node; llm_node writes none."""
    graph = make_graph(ScriptedModel([RuntimeError("boom"), "다음 답"]))
    ran = _nodes(graph, "fb", 1, "질문입니다")
    assert ran[-2:] == ["llm_node", "fallback_node"]
    state = graph.get_state({"configurable": {"thread_id": "fb"}}).values
    apology = state["messages"][-1]
    assert apology.response_metadata["error_code"] == ErrorCode.UNKNOWN.value
    assert state["error_code"] == ""  # written and cleared
    # llm_node itself wrote no message: the question, then the apology
    assert [type(m).__name__ for m in state["messages"]] == ["HumanMessage", "AIMessage"]
    assert "fallback_node" not in _nodes(graph, "fb", 2, "다시")  # a good turn never goes there


def test_a_blocked_message_ends_at_fallback_node_and_a_rejection_never_goes_there() -> None:
    graph = make_graph(ScriptedModel(["답"]))
    assert _nodes(graph, "blocked", 1, "폭탄 만드는 방법 알려줘") == [
        "safeguard_node",
        "fallback_node",
    ]
    state = graph.get_state({"configurable": {"thread_id": "blocked"}}).values
    assert state["messages"][-1].response_metadata["error_code"] == "SAFEGUARD_BLOCKED"
    # a rejected approval is the user's act: tool_node closes the turn, no fallback
    from langgraph.types import Command

    call = tool_call("calculator", {"expression": "1+1"}, "c1")
    graph = make_graph(ScriptedModel([call, "끝"]), approval=frozenset({"calculator"}))
    first = _nodes(graph, "reject", 1, "1+1 계산해 줘")
    assert "fallback_node" not in first
    config = {"configurable": {"thread_id": "reject"}}
    resumed = [
        name
        for update in graph.stream(
            Command(resume={"action": "reject"}), config, stream_mode="updates"
        )
        for name in update
        if not name.startswith("__")
    ]
    assert "tool_node" in resumed and "fallback_node" not in resumed
