"""Stored JSON values: compact UTF-8, compressed with the preset dictionary when that pays."""

from __future__ import annotations

import json
from typing import Any

from graph.errors import StorageCorrupt
from graph.storage.zdict import CHECKED, checked, deflate, inflate, with_checksum


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


def unpack_json(stored: str | bytes | memoryview, what: str = "a stored value") -> Any:
    """A value stored by `pack_json` (or as JSON text by earlier versions).

    Raises:
        StorageCorrupt: the value is damaged; `what` names it.
    """
    return loads(unpack_text(stored, what), what)


def loads(text: str | bytes, what: str = "a stored value") -> Any:
    """JSON text read back from storage; text that is not JSON is a damaged value.

    Raises:
        StorageCorrupt: `text` is not JSON; `what` names the value.
    """
    try:
        return json.loads(text)
    except ValueError as exc:
        raise StorageCorrupt(f"{what} is damaged: {exc}") from exc


def pack_text(text: str) -> bytes:
    """Text (of JSON) as stored: UTF-8, compressed when that pays (`pack_json`).

    Compressed text carries its checksum (`graph.storage.zdict.with_checksum`).
    """
    raw = text.encode("utf-8")
    if len(raw) <= COMPRESS_OVER:
        return raw
    packed = with_checksum(deflate(raw), raw)
    return packed if len(packed) < len(raw) else raw


def unpack_text(stored: str | bytes | memoryview, what: str = "a stored value") -> str:
    """Text stored by `pack_text` (compressed with or without a checksum, or plain).

    Raises:
        StorageCorrupt: the value is damaged; `what` names it.
    """
    if isinstance(stored, str):
        return stored
    raw = bytes(stored)
    if raw[:1] in (CHECKED, bytes([_ZLIB])):
        raw = checked(raw, inflate, what)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise StorageCorrupt(f"{what} is damaged: {exc}") from exc
