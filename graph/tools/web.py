"""web_search: top results from Tavily through the official `tavily-python` client."""

from __future__ import annotations

from typing import Any

from graph.tools.base import ToolError, status_error

MAX_RESULTS = 3
SNIPPET_CHARS = 300


def web_search(query: str, *, api_key: str, base_url: str, timeout_s: float) -> str:
    """Return the top Tavily results for `query`: title, URL and a snippet each.

    `base_url` goes to `TavilyClient(api_base_url=...)`. Timeouts, refused keys and server
    errors become `ToolError` with a message that names Tavily and the HTTP status.
    """
    import requests
    from tavily import TavilyClient
    from tavily.errors import (
        BadRequestError,
        ForbiddenError,
        InvalidAPIKeyError,
        UsageLimitExceededError,
    )
    from tavily.errors import (
        TimeoutError as TavilyTimeout,
    )

    if not query.strip():
        raise ToolError("give a search query")
    client = TavilyClient(api_key=api_key, api_base_url=base_url.rstrip("/"))
    try:
        data: Any = client.search(query.strip(), max_results=MAX_RESULTS, timeout=timeout_s)
    except InvalidAPIKeyError as exc:
        raise ToolError("Tavily refused the key (HTTP 401)") from exc
    except UsageLimitExceededError as exc:
        raise ToolError("Tavily usage limit reached (HTTP 429); try again later") from exc
    except (ForbiddenError, BadRequestError) as exc:
        raise ToolError(f"Tavily refused the search ({str(exc)[:200]})") from exc
    except (TavilyTimeout, requests.Timeout) as exc:
        raise ToolError(f"Tavily did not answer within {timeout_s:g} s") from exc
    except requests.HTTPError as exc:
        status = exc.response.status_code if exc.response is not None else 0
        raise status_error("Tavily", status) from exc
    except (requests.RequestException, ValueError) as exc:
        raise ToolError(f"Tavily could not be reached ({type(exc).__name__})") from exc
    finally:
        client.session.close()
    results = (data or {}).get("results") or [] if isinstance(data, dict) else []
    if not results:
        return f"No web results for {query!r}."
    return "\n\n".join(
        f"{i}. {r.get('title', '')}\n{r.get('url', '')}\n{str(r.get('content', ''))[:SNIPPET_CHARS]}"
        for i, r in enumerate(results, 1)
    )
