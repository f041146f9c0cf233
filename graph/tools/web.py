"""Network tools: OpenWeather, Wikipedia, Tavily web search. Failures become ToolError."""

from __future__ import annotations

import concurrent.futures
import threading
from typing import Any

import httpx

from graph.tools.base import ToolError

_WIKI_LOCK = threading.Lock()


def _status_error(service: str, status: int) -> ToolError:
    if status in (401, 403):
        return ToolError(f"{service} refused the key (HTTP {status})")
    if status == 404:
        return ToolError(f"{service} found nothing (HTTP 404)")
    if status == 429:
        return ToolError(f"{service} is rate limiting (HTTP 429); try again later")
    return ToolError(f"{service} failed (HTTP {status})")


def weather(city: str, *, api_key: str, base_url: str, timeout_s: float) -> str:
    """Current weather of `city` from OpenWeather."""
    try:
        resp = httpx.get(
            f"{base_url.rstrip('/')}/data/2.5/weather",
            params={"q": city, "appid": api_key, "units": "metric", "lang": "kr"},
            timeout=timeout_s,
        )
    except httpx.TimeoutException as exc:
        raise ToolError(f"OpenWeather did not answer within {timeout_s:g} s") from exc
    except httpx.HTTPError as exc:
        raise ToolError(f"OpenWeather could not be reached ({exc})") from exc
    if resp.status_code != 200:
        raise _status_error("OpenWeather", resp.status_code)
    data = resp.json()
    main, desc = data.get("main", {}), (data.get("weather") or [{}])[0].get("description", "")
    return (
        f"{data.get('name', city)}: {desc}, {main.get('temp')}°C "
        f"(체감 {main.get('feels_like')}°C), 습도 {main.get('humidity')}%"
    )


def wikipedia_summary(query: str, *, lang: str, api_url: str, timeout_s: float) -> str:
    """A few sentences from Wikipedia about `query`, with the page URL."""
    import wikipedia

    if lang not in ("ko", "en"):
        raise ToolError("lang must be ko or en")
    if not query.strip():
        raise ToolError("empty query")

    def lookup() -> str:
        with _WIKI_LOCK:  # the package keeps its endpoint in a module global
            wikipedia.wikipedia.API_URL = api_url.format(lang=lang)
            wikipedia.set_rate_limiting(False)
            try:
                page = wikipedia.page(query, auto_suggest=False)
                summary = wikipedia.summary(page.title, sentences=3, auto_suggest=False)
            except wikipedia.exceptions.DisambiguationError as exc:
                options = ", ".join(exc.options[:5])
                raise ToolError(f"{query!r} is ambiguous; candidates: {options}") from exc
            except wikipedia.exceptions.PageError as exc:
                raise ToolError(f"no Wikipedia page for {query!r}") from exc
            except wikipedia.exceptions.HTTPTimeoutError as exc:
                raise ToolError("Wikipedia did not answer in time") from exc
            except (ValueError, KeyError) as exc:
                raise ToolError(f"Wikipedia answered something unexpected ({exc})") from exc
            except Exception as exc:  # noqa: BLE001 - requests errors of every kind
                raise ToolError(f"Wikipedia could not be reached ({type(exc).__name__})") from exc
            return f"{page.title}: {summary}\n{page.url}"

    pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    try:
        return pool.submit(lookup).result(timeout=timeout_s)
    except concurrent.futures.TimeoutError as exc:
        raise ToolError(f"Wikipedia did not answer within {timeout_s:g} s") from exc
    finally:
        pool.shutdown(wait=False)


def web_search(query: str, *, api_key: str, base_url: str, timeout_s: float) -> str:
    """Top web results from Tavily: title, URL and a snippet each."""
    from tavily import TavilyClient
    from tavily.errors import (
        BadRequestError,
        ForbiddenError,
        InvalidAPIKeyError,
        UsageLimitExceededError,
    )

    client = TavilyClient(api_key=api_key, api_base_url=base_url)
    try:
        data: dict[str, Any] = client.search(query, max_results=3, timeout=timeout_s)
    except InvalidAPIKeyError as exc:
        raise ToolError("Tavily refused the key (HTTP 401)") from exc
    except (UsageLimitExceededError, ForbiddenError, BadRequestError) as exc:
        raise ToolError(f"Tavily refused the search ({exc})") from exc
    except Exception as exc:  # noqa: BLE001 - timeouts and HTTP errors from requests
        name = type(exc).__name__
        if "Timeout" in name:
            raise ToolError(f"Tavily did not answer within {timeout_s:g} s") from exc
        raise ToolError(f"Tavily search failed ({name}: {str(exc)[:200]})") from exc
    results = data.get("results") or []
    if not results:
        return f"No web results for {query!r}."
    return "\n\n".join(
        f"{i}. {r.get('title', '')}\n{r.get('url', '')}\n{str(r.get('content', ''))[:300]}"
        for i, r in enumerate(results, 1)
    )
