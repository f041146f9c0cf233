"""What every tool shares: the error type and number parsing of settings."""

from __future__ import annotations


class ToolError(Exception):
    """An expected tool failure; the graph reports it to the model as `Error: <message>`."""


def as_float(raw: str, default: float) -> float:
    """Parse a settings value, falling back to `default` when it is not a number."""
    try:
        return float(raw)
    except (TypeError, ValueError):
        return default
