"""Network tools against local fake servers: the real clients (httpx, wikipedia, tavily) run."""

from __future__ import annotations

import time

import pytest

from graph.settings import load_settings
from graph.tools import build_tools
from graph.tools.base import ToolError
from tests.fakes.http_server import FakeHTTPServer, Reply, Request


def _tools(**env: str) -> dict:
    return {t.name: t for t in build_tools(load_settings({"TOOL_HTTP_TIMEOUT_S": "1", **env}))}


# --- OpenWeather -----------------------------------------------------------------------


def _weather(server: FakeHTTPServer, reply: Reply) -> object:
    server.route("GET", "/data/2.5/weather", lambda req: reply)
    return _tools(OPENWEATHER_API_KEY="ow-key", OPENWEATHER_BASE_URL=server.url)["get_weather"]


def test_weather_answers_and_sends_the_key(http_server: FakeHTTPServer) -> None:
    body = {
        "name": "Seoul",
        "weather": [{"description": "맑음"}],
        "main": {"temp": 21.5, "feels_like": 20.9, "humidity": 40},
    }
    tool = _weather(http_server, Reply(json_body=body))
    assert tool.invoke({"city": "Seoul"}) == "Seoul: 맑음, 21.5°C (체감 20.9°C), 습도 40%"
    query = http_server.requests[0].query
    assert query["appid"] == ["ow-key"] and query["q"] == ["Seoul"] and query["units"] == ["metric"]


@pytest.mark.parametrize(
    ("reply", "message"),
    [
        (Reply(401, {"message": "Invalid API key"}), r"refused the key \(HTTP 401\)"),
        (Reply(500, {"message": "oops"}), r"failed \(HTTP 500\)"),
        (Reply(json_body={}, delay_s=2), "did not answer within 1 s"),
    ],
    ids=["401", "500", "timeout"],
)
def test_weather_failures_are_clear(
    http_server: FakeHTTPServer, reply: Reply, message: str
) -> None:
    tool = _weather(http_server, reply)
    start = time.perf_counter()
    with pytest.raises(ToolError, match=message):
        tool.invoke({"city": "Seoul"})
    assert time.perf_counter() - start < 3


# --- Wikipedia ---------------------------------------------------------------------------


def _wiki_handler(req: Request) -> Reply:
    if req.query.get("list") == ["search"]:
        return Reply(json_body={"query": {"search": []}})
    prop = req.query.get("prop", [""])[0]
    title = req.query.get("titles", [""])[0]
    if title == "없는문서":
        return Reply(json_body={"query": {"pages": {"-1": {"title": title, "missing": ""}}}})
    page = {"pageid": 77, "title": title, "fullurl": f"https://ko.wikipedia.org/wiki/{title}"}
    if prop == "extracts":
        page["extract"] = (
            "세종은 조선의 제4대 국왕이다. 훈민정음을 창제하였다. 재위 기간은 1418년부터 1450년까지이다."
        )
    return Reply(json_body={"query": {"pages": {"77": page}}})


def _wiki(server: FakeHTTPServer) -> object:
    return _tools(WIKIPEDIA_API_URL=server.url + "/{lang}/w/api.php")["search_wikipedia"]


def test_wikipedia_summary_with_url(http_server: FakeHTTPServer) -> None:
    http_server.route("GET", "/ko/w/api.php", _wiki_handler)
    out = _wiki(http_server).invoke({"query": "세종", "lang": "ko"})
    assert out.startswith("세종: 세종은 조선의 제4대 국왕이다.")
    assert out.endswith("https://ko.wikipedia.org/wiki/세종")
    assert http_server.requests[0].path == "/ko/w/api.php"


def test_wikipedia_missing_page(http_server: FakeHTTPServer) -> None:
    http_server.route("GET", "/ko/w/api.php", _wiki_handler)
    with pytest.raises(ToolError, match="no Wikipedia page"):
        _wiki(http_server).invoke({"query": "없는문서"})


@pytest.mark.parametrize(
    ("reply", "message"),
    [
        (Reply(500, body=b"<html>error</html>"), r"Wikipedia failed \(HTTP 500\)"),
        (Reply(401, body=b"<html>no</html>"), r"Wikipedia refused the key \(HTTP 401\)"),
        (Reply(json_body={}, delay_s=3), "within 1 s"),
    ],
    ids=["500", "401", "timeout"],
)
def test_wikipedia_failures_are_clear(
    http_server: FakeHTTPServer, reply: Reply, message: str
) -> None:
    http_server.route("GET", "/en/w/api.php", lambda req: reply)
    start = time.perf_counter()
    with pytest.raises(ToolError, match=message):
        _wiki(http_server).invoke({"query": "Seoul", "lang": "en"})
    assert time.perf_counter() - start < 3


def test_wikipedia_asks_the_right_language_and_title(http_server: FakeHTTPServer) -> None:
    http_server.route("GET", "/ko/w/api.php", _wiki_handler)
    http_server.route("GET", "/en/w/api.php", _wiki_handler)
    tool = _wiki(http_server)
    tool.invoke({"query": "세종", "lang": "ko"})
    tool.invoke({"query": "세종", "lang": "en"})  # the package's caches must not answer this
    paths = [r.path for r in http_server.requests]
    assert "/ko/w/api.php" in paths and "/en/w/api.php" in paths
    assert http_server.requests[0].query["titles"] == ["세종"]


def test_wikipedia_falls_back_to_search_for_inexact_titles(
    http_server: FakeHTTPServer,
) -> None:
    def handler(req: Request) -> Reply:
        if req.query.get("list") == ["search"]:
            assert req.query["srsearch"] == ["세종대왕 업적"]
            return Reply(json_body={"query": {"search": [{"title": "세종"}]}})
        if req.query.get("titles") == ["세종대왕 업적"]:
            return Reply(json_body={"query": {"pages": {"-1": {"missing": ""}}}})
        return _wiki_handler(req)

    http_server.route("GET", "/ko/w/api.php", handler)
    out = _wiki(http_server).invoke({"query": "세종대왕 업적"})
    assert out.startswith("세종: ")


@pytest.mark.filterwarnings("ignore:No parser was explicitly specified")
def test_wikipedia_disambiguation_lists_candidates(http_server: FakeHTTPServer) -> None:
    html = "<ul><li><a>머큐리 (행성)</a></li><li><a>머큐리 (신화)</a></li></ul>"

    def handler(req: Request) -> Reply:
        if req.query.get("prop") == ["revisions"]:
            page = {"title": "머큐리", "revisions": [{"*": html}]}
            return Reply(json_body={"query": {"pages": {"5": page}}})
        page = {"pageid": 5, "title": "머큐리", "pageprops": {"disambiguation": ""}}
        return Reply(json_body={"query": {"pages": {"5": page}}})

    http_server.route("GET", "/ko/w/api.php", handler)
    with pytest.raises(ToolError, match=r"ambiguous.*머큐리 \(행성\), 머큐리 \(신화\)"):
        _wiki(http_server).invoke({"query": "머큐리"})


def test_wikipedia_unknown_language_is_refused() -> None:
    with pytest.raises(ToolError, match="ko or en"):
        _tools()["search_wikipedia"].invoke({"query": "x", "lang": "de"})


# --- Tavily ------------------------------------------------------------------------------


def _tavily(server: FakeHTTPServer, reply: Reply) -> object:
    server.route("POST", "/search", lambda req: reply)
    return _tools(TAVILY_API_KEY="tvly-key", TAVILY_BASE_URL=server.url)["web_search"]


def test_tavily_results(http_server: FakeHTTPServer) -> None:
    body = {
        "results": [
            {"title": "LangGraph", "url": "https://example.org/lg", "content": "A graph library."}
        ]
    }
    out = _tavily(http_server, Reply(json_body=body)).invoke({"query": "langgraph"})
    assert out == "1. LangGraph\nhttps://example.org/lg\nA graph library."
    sent = http_server.requests[0]
    assert sent.json()["query"] == "langgraph"
    assert "tvly-key" in sent.headers.get("authorization", "") + str(sent.json())


@pytest.mark.parametrize(
    ("reply", "message"),
    [
        (
            Reply(401, {"detail": {"error": "Unauthorized: missing or invalid API key."}}),
            r"refused the key",
        ),
        (Reply(500, {"detail": {"error": "Internal error"}}), r"Tavily failed \(HTTP 500\)"),
        (Reply(json_body={"results": []}, delay_s=3), "within 1 s"),
    ],
    ids=["401", "500", "timeout"],
)
def test_tavily_failures_are_clear(http_server: FakeHTTPServer, reply: Reply, message: str) -> None:
    tool = _tavily(http_server, reply)
    start = time.perf_counter()
    with pytest.raises(ToolError, match=message):
        tool.invoke({"query": "x"})
    assert time.perf_counter() - start < 4
