"""The seven tools of the design (seed 000), exposed as LangChain tools.

`build_tools(settings)` returns the tools that can work under those settings; a tool that
needs a missing key is not offered, and `tool_availability` says why. Each tool declares
its effect (`graph.tools.effects.EFFECTS`, in its `metadata`): what its approval is decided
by first. `python_repl` (`code`) runs only after the user approves it (the graph's
tool_node pauses for that).
"""

from __future__ import annotations

from collections.abc import Callable

from langchain_core.tools import BaseTool, StructuredTool

from graph.settings import Settings
from graph.tools.base import ToolError, as_float
from graph.tools.calculator import calculate
from graph.tools.clock import now_in
from graph.tools.effects import EFFECT_KEY, EFFECTS
from graph.tools.files import read_text_file
from graph.tools.sandbox import Limits, isolation_problem, run_python
from graph.tools.weather import weather
from graph.tools.web import web_search
from graph.tools.wiki import wikipedia_summary

__all__ = ["APPROVAL_REQUIRED", "TOOL_NAMES", "ToolError", "build_tools", "tool_availability"]

APPROVAL_REQUIRED: frozenset[str] = frozenset({"python_repl"})
"""Tools that never run before the user approves the call."""

TOOL_NAMES = (
    "calculator",
    "get_current_datetime",
    "get_weather",
    "search_wikipedia",
    "web_search",
    "python_repl",
    "read_file",
)


def tool_availability(settings: Settings) -> dict[str, str | None]:
    """Every tool name -> None when it is offered, else why it is not."""
    return {
        name: (
            "needs OPENWEATHER_API_KEY"
            if name == "get_weather" and not settings.openweather_api_key
            else "needs TAVILY_API_KEY"
            if name == "web_search" and not settings.tavily_api_key
            else isolation_problem()
            if name == "python_repl"
            else None
        )
        for name in TOOL_NAMES
    }


def build_tools(settings: Settings) -> list[BaseTool]:
    """LangChain tools for every tool available under `settings`."""
    http_timeout = as_float(settings.tool_http_timeout_s, 10.0)
    limits = Limits(
        timeout_s=as_float(settings.python_timeout_s, 5.0),
        memory_mb=int(as_float(settings.python_memory_mb, 256)),
        max_output=int(as_float(settings.python_max_output, 10_000)),
    )

    def calculator(expression: str) -> str:
        """Evaluate an arithmetic expression, e.g. '123 * 456' or 'sqrt(2) ** 3'."""
        return calculate(expression)

    def get_current_datetime(timezone: str | None = None) -> str:
        """Current date and time; `timezone` is an IANA name such as Asia/Seoul."""
        return now_in(timezone or settings.timezone)

    def get_weather(city: str) -> str:
        """Current weather of a city (OpenWeather)."""
        return weather(
            city,
            api_key=settings.openweather_api_key,
            base_url=settings.openweather_base_url,
            timeout_s=http_timeout,
        )

    def search_wikipedia(query: str, lang: str = "ko") -> str:
        """A short Wikipedia summary and the page URL; lang is ko or en."""
        return wikipedia_summary(
            query, lang=lang, api_url=settings.wikipedia_api_url, timeout_s=http_timeout
        )

    def web_search_tool(query: str) -> str:
        """Search the web (Tavily) and return the top results."""
        return web_search(
            query,
            api_key=settings.tavily_api_key,
            base_url=settings.tavily_base_url,
            timeout_s=http_timeout,
        )

    def python_repl(code: str) -> str:
        """Run Python code in a separate, limited process; the user approves it first."""
        return run_python(code, limits, cancelled=_stop_flag())

    def read_file(path: str) -> str:
        """Read a text file from the documents folder; the path is relative to that folder."""
        return read_text_file(settings.files_dir, path)

    functions: dict[str, Callable[..., str]] = {
        "calculator": calculator,
        "get_current_datetime": get_current_datetime,
        "get_weather": get_weather,
        "search_wikipedia": search_wikipedia,
        "web_search": web_search_tool,
        "python_repl": python_repl,
        "read_file": read_file,
    }
    available = tool_availability(settings)
    return [
        StructuredTool.from_function(func, name=name, metadata={EFFECT_KEY: EFFECTS[name]})
        for name, func in functions.items()
        if available[name] is None
    ]


TURN_CANCELLED = "turn_cancelled"
"""Key in a run's `configurable`: a function that says whether Stop was pressed."""


def _stop_flag() -> Callable[[], bool] | None:
    """The running turn's stop flag (`TURN_CANCELLED`), or None outside a turn."""
    from langgraph.config import get_config

    try:
        flag = (get_config().get("configurable") or {}).get(TURN_CANCELLED)
    except RuntimeError:  # called outside a graph run
        return None
    return flag if callable(flag) else None
