"""Current date and time in an IANA time zone."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from graph.tools.base import ToolError


def now_in(timezone: str) -> str:
    """The current date and time in `timezone`, with its abbreviation and weekday."""
    try:
        zone = ZoneInfo(timezone)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ToolError(
            f"unknown time zone {timezone!r} (use an IANA name like Asia/Seoul)"
        ) from exc
    now = datetime.now(zone)
    return f"{now:%Y-%m-%d %H:%M:%S} {now.tzname()} ({timezone}), {now:%A}"
