"""get_weather: current weather from OpenWeather through httpx, with a timeout."""

from __future__ import annotations

from typing import Any

import httpx

from graph.tools.base import ToolError, status_error


def weather(city: str, *, api_key: str, base_url: str, timeout_s: float) -> str:
    """Return the current weather of `city` from OpenWeather as one line of Korean text.

    Timeouts, refused keys and server errors become `ToolError` with a message that names
    the service and the HTTP status.
    """
    if not city.strip():
        raise ToolError("give a city name, e.g. Seoul")
    try:
        resp = httpx.get(
            f"{base_url.rstrip('/')}/data/2.5/weather",
            params={"q": city.strip(), "appid": api_key, "units": "metric", "lang": "kr"},
            timeout=timeout_s,
        )
    except httpx.TimeoutException as exc:
        raise ToolError(f"OpenWeather did not answer within {timeout_s:g} s") from exc
    except httpx.HTTPError as exc:
        raise ToolError(f"OpenWeather could not be reached ({type(exc).__name__})") from exc
    if resp.status_code == 404:
        raise ToolError(f"OpenWeather knows no city named {city!r}")
    if resp.status_code != 200:
        raise status_error("OpenWeather", resp.status_code)
    try:
        data: Any = resp.json()
    except ValueError as exc:
        raise ToolError("OpenWeather answered something that is not JSON") from exc
    if not isinstance(data, dict):
        raise ToolError("OpenWeather answered something unexpected")
    main = data.get("main") or {}
    desc = ((data.get("weather") or [{}])[0] or {}).get("description", "")
    return (
        f"{data.get('name', city)}: {desc}, {main.get('temp')}°C "
        f"(체감 {main.get('feels_like')}°C), 습도 {main.get('humidity')}%"
    )
