"""When a turn was sent: ISO 8601 with its time zone, recorded once and shown everywhere.

A turn's time rides on its user message (`additional_kwargs["time"]`), so it moves with
the message into the archive, the export and the summaries. A turn without a recorded
time has none: nothing here invents one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from langchain_core.messages import BaseMessage, HumanMessage

TIME_KEY = "time"
"""Key of the sent time in a user message's `additional_kwargs`."""
_WEEKDAYS_KO = "월화수목금토일"


def _zone(timezone: str) -> ZoneInfo:
    try:
        return ZoneInfo(timezone)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def now_iso(timezone: str) -> str:
    """The current time in `timezone` (IANA name; UTC if unknown), ISO 8601 with offset."""
    return datetime.now(_zone(timezone)).isoformat(timespec="seconds")


def in_zone(value: str, timezone: str) -> str:
    """An ISO 8601 time with offset shown in `timezone` (e.g. a checkpoint's UTC time)."""
    return datetime.fromisoformat(value).astimezone(_zone(timezone)).isoformat(timespec="seconds")


def parse_time(value: str) -> str:
    """Check an ISO 8601 time with a time zone and return it normalized; ValueError if not."""
    try:
        moment = datetime.fromisoformat(value.strip())
    except (ValueError, AttributeError) as exc:
        raise ValueError(
            f"{value!r} is not an ISO 8601 time (e.g. 2026-03-02T09:14:00+09:00)"
        ) from exc
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"{value!r} has no time zone; add one, e.g. +09:00 or Z")
    return moment.isoformat(timespec="seconds")


def message_time(msg: BaseMessage) -> str:
    """The recorded time of a user message, or ''."""
    if isinstance(msg, HumanMessage):
        return str(msg.additional_kwargs.get(TIME_KEY) or "")
    return ""


def turn_time(turn: Sequence[BaseMessage]) -> str:
    """When a turn was sent (its user message's time), or ''."""
    return next((t for t in map(message_time, turn) if t), "")


def describe_time(value: str, lang: str = "ko") -> str:
    """`2026-03-02 (월) 09:14`: date, weekday and local time as it was recorded; '' if none.

    The weekday is Korean (as the context shows it) unless `lang` is "en" (`(Mon)`).
    """
    if not value:
        return ""
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return value
    weekday = f"{moment:%a}" if lang == "en" else _WEEKDAYS_KO[moment.weekday()]
    return f"{moment:%Y-%m-%d} ({weekday}) {moment:%H:%M}"


def describe_span(first: str, last: str, lang: str = "ko") -> str:
    """A time span for a summary; '' if none.

    Within a day `2026-03-02 (월) 09:14–11:30`; across days the dates, the year once if it
    is the same (`2026-03-02 (월) – 03-04 (수)`): over days, the minutes tell nothing.
    """
    if not first and not last:
        return ""
    start, end = describe_time(first or last, lang), describe_time(last or first, lang)
    if start == end:
        return start
    if not _TIMED.fullmatch(start) or not _TIMED.fullmatch(end):
        return f"{start} – {end}"  # not a time this module wrote
    day = len(start) - 5  # everything but the HH:MM
    if start[:day] == end[:day]:  # the same day: show it once
        return f"{start}–{end[day:]}"
    start_day, end_day = start[: day - 1], end[: len(end) - 6]
    if start_day[:5] == end_day[:5]:  # the same year
        end_day = end_day[5:]
    return f"{start_day} – {end_day}"


_TIMED = re.compile(r"\d{4}-\d{2}-\d{2} \(\S+\) \d{2}:\d{2}")
"""What `describe_time` writes for a time it could read."""
_KO_WEEKDAY = re.compile(r"(\d{2}-\d{2}) \(([월화수목금토일])\)")
_WEEKDAYS_EN = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def english_weekdays(text: str) -> str:
    """Times as the context shows them (`2026-03-02 (월)`) with English weekdays (`(Mon)`).

    The context labels times in Korean for the model; an answer in English names them so.
    """
    return _KO_WEEKDAY.sub(
        lambda m: f"{m.group(1)} ({_WEEKDAYS_EN[_WEEKDAYS_KO.index(m.group(2))]})", text
    )


def item_time(item: Mapping[str, Any], times: Mapping[str, Sequence[str]]) -> list[str]:
    """[first, last] sent time of a summary (looked up in `times`) or digest; [] if none."""
    if item.get("time"):
        return list(item["time"])
    return list(times.get(str(int(item["turns"][0])), []))
