"""Seed 002: trigger table and turn extraction (a turn = user + tool steps + final AI)."""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from graph.turns import (
    extract_current_turn,
    extract_last_n_turns,
    original_chars,
    should_summarize,
    split_turns,
)


@pytest.mark.parametrize(
    ("turn", "expected"),
    [
        (1, False),
        (2, False),
        (3, False),
        (4, True),
        (5, False),
        (6, False),
        (7, True),
        (8, False),
        (9, False),
        (10, True),
        (13, True),
        (0, False),
    ],
)
def test_trigger_table(turn: int, expected: bool) -> None:
    assert should_summarize(turn) is expected


def _conversation() -> list:
    return [
        HumanMessage("hi", id="h1"),
        AIMessage("hello", id="a1"),
        HumanMessage("2+3?", id="h2"),
        AIMessage(
            "",
            tool_calls=[{"name": "calculator", "args": {"expression": "2+3"}, "id": "c1"}],
            id="t2",
        ),
        ToolMessage("5", tool_call_id="c1", name="calculator", id="r2"),
        AIMessage("It is 5.", id="a2"),
        HumanMessage("thanks", id="h3"),
        AIMessage("welcome", id="a3"),
        HumanMessage("now?", id="h4"),
        AIMessage("", tool_calls=[{"name": "clock", "args": {}, "id": "c2"}], id="t4"),
    ]


def test_tool_steps_belong_to_their_turn() -> None:
    turns, current = split_turns(_conversation())
    assert [[m.id for m in t] for t in turns] == [
        ["h1", "a1"],
        ["h2", "t2", "r2", "a2"],
        ["h3", "a3"],
    ]
    assert [m.id for m in current] == ["h4", "t4"]


def test_extract_last_n_turns_excludes_the_turn_in_progress() -> None:
    msgs = _conversation()
    assert [m.id for m in extract_last_n_turns(msgs, 2)] == ["h2", "t2", "r2", "a2", "h3", "a3"]
    assert [m.id for m in extract_last_n_turns(msgs, 10)][0] == "h1"
    assert extract_last_n_turns(msgs, 0) == []


def test_extract_current_turn() -> None:
    msgs = _conversation()
    assert [m.id for m in extract_current_turn(msgs)] == ["h4", "t4"]
    assert [m.id for m in extract_current_turn(msgs[:1])] == ["h1"]
    assert extract_current_turn(msgs[:2]) == []


def test_ai_message_with_empty_tool_call_list_ends_a_turn() -> None:
    msgs = [HumanMessage("a"), AIMessage("b", tool_calls=[])]
    assert len(split_turns(msgs)[0]) == 1


def test_original_chars_is_the_joined_content_length() -> None:
    turns, _ = split_turns(_conversation())
    block = [m for t in turns for m in t]
    assert original_chars(block) == len("hihello2+3?5It is 5.thankswelcome")
