"""search_wikipedia: a short summary and the page URL, through the `wikipedia` package.

The package keeps its endpoint in the module global `wikipedia.wikipedia.API_URL` and calls
`requests.get` with no timeout. So each lookup holds `_LOCK` while it points the global at
the configured URL and swaps the module's `requests` for one that always passes a timeout (and turns HTTP
error statuses into `ToolError`),
and the whole lookup also runs in a worker thread with a deadline (a server that drips bytes
slowly would otherwise reset the socket timeout forever). Results of the package's own
`@cache`d helpers (`summary`, `search`) are keyed by arguments only, not by language or
URL, so they are not used.
"""

from __future__ import annotations

import re
import threading
import types
from typing import Any

from graph.tools.base import ToolError, status_error

LANGS = ("ko", "en")
SENTENCES = 3
MAX_CHARS = 800

_LOCK = threading.Lock()
_SENTENCE_END = re.compile(r"(?<=[.!?。])\s+")


def _first_sentences(text: str) -> str:
    parts = [p for p in _SENTENCE_END.split(text.strip()) if p]
    summary = " ".join(parts[:SENTENCES])
    return summary if len(summary) <= MAX_CHARS else summary[: MAX_CHARS - 1] + "…"


def _getter(timeout_s: float) -> Any:
    import requests

    def get(url: str, **kwargs: Any) -> Any:
        resp = requests.get(url, timeout=timeout_s, **kwargs)
        if resp.status_code >= 400:
            raise status_error("Wikipedia", resp.status_code)
        return resp

    return get


def _lookup(query: str, api_url: str, timeout_s: float) -> str:
    import requests
    import wikipedia

    module: Any = wikipedia.wikipedia
    if not _LOCK.acquire(timeout=timeout_s):
        raise ToolError("Wikipedia is busy with another lookup; try again")
    saved = module.API_URL, module.requests
    module.API_URL = api_url
    module.requests = types.SimpleNamespace(get=_getter(timeout_s))
    try:
        try:
            page = wikipedia.page(query, auto_suggest=False)
        except wikipedia.exceptions.PageError:
            # Not an exact title: take the best hit of a full-text search, if any.
            found = module._wiki_request(
                {"list": "search", "srsearch": query, "srlimit": 1, "srprop": ""}
            )
            hits = (found.get("query") or {}).get("search") or []
            if not hits:
                raise
            page = wikipedia.page(hits[0]["title"], auto_suggest=False)
        return f"{page.title}: {_first_sentences(page.summary)}\n{page.url}"
    except wikipedia.exceptions.DisambiguationError as exc:
        options = ", ".join(exc.options[:5]) or "none listed"
        raise ToolError(f"{query!r} is ambiguous on Wikipedia; candidates: {options}") from exc
    except wikipedia.exceptions.PageError as exc:
        raise ToolError(f"no Wikipedia page for {query!r}") from exc
    except requests.Timeout as exc:
        raise ToolError(f"Wikipedia did not answer within {timeout_s:g} s") from exc
    except requests.ConnectionError as exc:
        raise ToolError(f"Wikipedia could not be reached ({type(exc).__name__})") from exc
    except (
        requests.RequestException,
        ValueError,
        KeyError,
        IndexError,
        TypeError,
        AttributeError,
    ) as exc:
        # Non-JSON error pages (HTTP 5xx) and malformed answers end up here.
        raise ToolError("Wikipedia answered something unexpected (server error?)") from exc
    finally:
        module.API_URL, module.requests = saved
        _LOCK.release()


def wikipedia_summary(query: str, *, lang: str, api_url: str, timeout_s: float) -> str:
    """Return a few sentences from Wikipedia about `query` in `lang` (ko or en) and the URL.

    `api_url` contains `{lang}`. Missing pages and disambiguation pages (with a few
    candidates) become `ToolError`, and so does a server that does not answer within
    `timeout_s` seconds.
    """
    if lang not in LANGS:
        raise ToolError("lang must be ko or en")
    if not query.strip():
        raise ToolError("give a search term")
    outcome: dict[str, Any] = {}

    def work() -> None:
        try:
            outcome["text"] = _lookup(query.strip(), api_url.format(lang=lang), timeout_s)
        except Exception as exc:  # noqa: BLE001 - handed back to the caller's thread
            outcome["error"] = exc

    worker = threading.Thread(target=work, name="search_wikipedia", daemon=True)
    worker.start()
    worker.join(timeout_s + 0.5)
    if worker.is_alive():
        raise ToolError(f"Wikipedia did not answer within {timeout_s:g} s")
    if "error" in outcome:
        error = outcome["error"]
        if isinstance(error, ToolError):
            raise error
        raise ToolError(f"Wikipedia lookup failed ({type(error).__name__})") from error
    return str(outcome["text"])
