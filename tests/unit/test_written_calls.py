"""Calls not worth running: said back from a tool's description, or made already
(graph/nodes/written_calls.py)."""

from __future__ import annotations

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.messages.tool import tool_call

from graph.nodes.written_calls import copies_example, pointless, tool_descriptions, tool_schemas
from graph.settings import load_settings
from graph.tools import build_tools

TOOLS = build_tools(load_settings({}))
DESCRIPTIONS = tool_descriptions(TOOLS)
SCHEMAS = tool_schemas(TOOLS)


def _copies(name: str, args: dict[str, str], *said: str) -> bool:
    call = tool_call(name=name, args=args, id="call_1")
    sent = [
        HumanMessage(content=s) if i % 2 == 0 else AIMessage(content=s) for i, s in enumerate(said)
    ]
    return copies_example(call, DESCRIPTIONS[name], SCHEMAS[name], sent)


def test_the_description_s_example_unasked_is_said_back() -> None:
    assert _copies("calculator", {"expression": "123 * 456"}, "저는 대학원생 최지훈이에요.")
    assert _copies("calculator", {"expression": "123  *  456"}, "hello")  # spacing aside
    assert _copies("calculator", {"expression": "sqrt(2) ** 3"}, "hello")


def test_a_call_the_user_asked_for_is_not() -> None:
    assert not _copies("calculator", {"expression": "123 * 456"}, "123 * 456 계산해줘")
    # asked in an earlier turn of the context
    assert not _copies("calculator", {"expression": "123 * 456"}, "123 * 456?", "56088", "또?")
    assert not _copies("calculator", {"expression": "37 * 12"}, "hello")  # not the example
    # words of a description are not its examples: only what it quotes is
    assert not _copies("search_wikipedia", {"query": "Wikipedia summary"}, "hello")
    assert not _copies("calculator", {"expression": "123"}, "hello")


def test_a_call_with_nothing_required_is_not() -> None:
    """The clock's example time zone is a fine default, not a request said back."""
    assert "Asia/Seoul" in DESCRIPTIONS["get_current_datetime"]
    assert not _copies("get_current_datetime", {"timezone": "Asia/Seoul"}, "지금 몇 시야?")


def test_a_reply_is_pointless_only_when_each_of_its_calls_is() -> None:
    made = tool_call(name="calculator", args={"expression": "37 * 12"}, id="call_0")
    sent = [
        HumanMessage(content="37 * 12는?"),
        AIMessage(content="", tool_calls=[made]),
        ToolMessage(content="444", tool_call_id="call_0"),
    ]
    again = tool_call(name="calculator", args={"expression": "37 * 12"}, id="call_1")
    example = tool_call(name="calculator", args={"expression": "123 * 456"}, id="call_2")
    asked = tool_call(name="get_current_datetime", args={}, id="call_3")
    assert pointless([again], sent, SCHEMAS, DESCRIPTIONS) == (
        "a call this turn already made, or of its own result"
    )
    # one said back, one made already: neither is worth running, and both reasons are said
    both = pointless([again, example], sent, SCHEMAS, DESCRIPTIONS)
    assert "already made" in both and "says back its tool's description" in both
    assert pointless([again, example, asked], sent, SCHEMAS, DESCRIPTIONS) == ""
    assert pointless([], sent, SCHEMAS, DESCRIPTIONS) == ""
