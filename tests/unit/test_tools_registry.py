"""The registry offers every tool that can work and says why the others are hidden."""

from __future__ import annotations

from pathlib import Path

import pytest

from graph.settings import load_settings
from graph.tools import APPROVAL_REQUIRED, ToolError, build_tools, tool_availability

ALL = [
    "calculator",
    "get_current_datetime",
    "get_weather",
    "search_wikipedia",
    "web_search",
    "python_repl",
    "read_file",
]


def test_without_keys_weather_and_web_search_are_hidden_with_a_reason() -> None:
    settings = load_settings({})
    names = [t.name for t in build_tools(settings)]
    assert names == [
        "calculator",
        "get_current_datetime",
        "search_wikipedia",
        "python_repl",
        "read_file",
    ]
    availability = tool_availability(settings)
    assert list(availability) == ALL
    assert availability["get_weather"] == "needs OPENWEATHER_API_KEY"
    assert availability["web_search"] == "needs TAVILY_API_KEY"
    assert [n for n, reason in availability.items() if reason is None] == names


def test_with_keys_all_seven_are_offered() -> None:
    settings = load_settings({"OPENWEATHER_API_KEY": "k", "TAVILY_API_KEY": "t"})
    assert [t.name for t in build_tools(settings)] == ALL
    assert all(reason is None for reason in tool_availability(settings).values())


def test_each_key_enables_only_its_tool() -> None:
    weather_only = [t.name for t in build_tools(load_settings({"OPENWEATHER_API_KEY": "k"}))]
    assert "get_weather" in weather_only and "web_search" not in weather_only


def test_argument_names_match_the_design() -> None:
    tools = {
        t.name: t
        for t in build_tools(load_settings({"OPENWEATHER_API_KEY": "k", "TAVILY_API_KEY": "t"}))
    }
    args = {name: sorted(tool.args) for name, tool in tools.items()}
    assert args == {
        "calculator": ["expression"],
        "get_current_datetime": ["timezone"],
        "get_weather": ["city"],
        "search_wikipedia": ["lang", "query"],
        "web_search": ["query"],
        "python_repl": ["code"],
        "read_file": ["path"],
    }
    assert all(tool.description for tool in tools.values())


def test_only_python_needs_approval() -> None:
    assert APPROVAL_REQUIRED == frozenset({"python_repl"})


def test_tools_run_through_langchain(tmp_path: Path) -> None:
    (tmp_path / "memo.txt").write_text("회의는 3시", encoding="utf-8")
    tools = {t.name: t for t in build_tools(load_settings({"FILES_DIR": str(tmp_path)}))}
    assert tools["calculator"].invoke({"expression": "123 * 456"}) == "56088"
    assert tools["read_file"].invoke({"path": "memo.txt"}) == "회의는 3시"
    with pytest.raises(ToolError, match="'..'"):
        tools["read_file"].invoke({"path": "../memo.txt"})


def test_clock_uses_the_default_zone_and_refuses_unknown_ones() -> None:
    clock = {t.name: t for t in build_tools(load_settings({}))}["get_current_datetime"]
    out = clock.invoke({})
    assert " KST (Asia/Seoul), " in out
    assert "UTC" in clock.invoke({"timezone": "UTC"})
    with pytest.raises(ToolError, match="unknown time zone 'Mars/Base'"):
        clock.invoke({"timezone": "Mars/Base"})
