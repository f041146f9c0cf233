"""read_file: text files under one folder, and nothing else."""

from __future__ import annotations

import stat
import urllib.parse
from pathlib import Path

from graph.tools.base import ToolError

MAX_BYTES = 200_000


def read_text_file(root: str | Path, path: str) -> str:
    """Read `path` (relative to `root`) if it is a small UTF-8 text file inside `root`."""
    base = Path(root).resolve()
    raw = path.strip()
    decoded = urllib.parse.unquote(raw)
    if not raw or "\x00" in decoded:
        raise ToolError("give a relative path of a file in the documents folder")
    if decoded.startswith(("/", "~")) or "\\" in decoded or Path(decoded).is_absolute():
        raise ToolError(f"{path!r} is not allowed: use a path relative to the documents folder")
    if any(part == ".." for part in Path(decoded).parts):
        raise ToolError(f"{path!r} is not allowed: '..' may not leave the documents folder")
    candidate = base / decoded
    try:
        resolved = candidate.resolve(strict=True)
    except (FileNotFoundError, RuntimeError, OSError) as exc:
        raise ToolError(f"no file {path!r} in the documents folder") from exc
    if not resolved.is_relative_to(base):
        raise ToolError(f"{path!r} points outside the documents folder")
    info = resolved.stat()
    if not stat.S_ISREG(info.st_mode):
        raise ToolError(f"{path!r} is not a regular file")
    if info.st_size > MAX_BYTES:
        raise ToolError(f"{path!r} is {info.st_size:,} bytes; the limit is {MAX_BYTES:,}")
    data = resolved.read_bytes()
    if b"\x00" in data:
        raise ToolError(f"{path!r} is a binary file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ToolError(f"{path!r} is not UTF-8 text") from exc
