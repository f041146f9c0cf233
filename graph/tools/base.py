"""What every tool shares: the error type, HTTP status messages and settings parsing."""

from __future__ import annotations


class ToolError(Exception):
    """An expected tool failure; the graph reports it to the model as `Error: <message>`."""


def status_error(service: str, status: int) -> ToolError:
    """A `ToolError` that explains an HTTP error status of `service` in plain words."""
    if status in (401, 403):
        return ToolError(f"{service} refused the key (HTTP {status})")
    if status == 429:
        return ToolError(f"{service} is rate limiting (HTTP 429); try again later")
    return ToolError(f"{service} failed (HTTP {status})")


def as_float(raw: str, default: float) -> float:
    """Parse a settings value, falling back to `default` when it is not a number."""
    try:
        return float(raw)
    except (TypeError, ValueError):
        return default
