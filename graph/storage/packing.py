"""Stored JSON values: compact UTF-8, compressed with the preset dictionary when that pays."""

from __future__ import annotations

import json
from typing import Any

from graph.storage.zdict import deflate, inflate


def dump(value: Any) -> str:
    """Compact JSON text (no ASCII escapes, no spaces)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


COMPRESS_OVER = 24
"""Stored JSON longer than this (bytes) is compressed (`graph.storage.zdict`) when that
makes it smaller."""


_ZLIB = 0x78
"""The first byte of a zlib stream; compact JSON never starts with it (`x`)."""


def pack_json(value: Any) -> bytes:
    """A value as stored: compact UTF-8 JSON, compressed when that pays.

    With the preset dictionary of `graph.storage.zdict`, a turn of Korean JSON shrinks to
    about 60%, a summary's costs to about 40%; a tiny value stays plain. Bytes on both
    engines (a PostgreSQL column has one type).
    """
    return pack_text(dump(value))


def unpack_json(stored: str | bytes | memoryview) -> Any:
    """A value stored by `pack_json` (or as JSON text by earlier versions)."""
    return json.loads(unpack_text(stored))


def pack_text(text: str) -> bytes:
    """Text (of JSON) as stored: UTF-8, compressed when that pays (`pack_json`)."""
    raw = text.encode("utf-8")
    if len(raw) <= COMPRESS_OVER:
        return raw
    packed = deflate(raw)
    return packed if len(packed) < len(raw) else raw


def unpack_text(stored: str | bytes | memoryview) -> str:
    """Text stored by `pack_text`."""
    if isinstance(stored, str):
        return stored
    raw = bytes(stored)
    return (inflate(raw) if raw[:1] == bytes([_ZLIB]) else raw).decode("utf-8")
