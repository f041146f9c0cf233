"""read_file: text files under one folder, and nothing else."""

from __future__ import annotations

import os
import stat
import urllib.parse
from pathlib import Path

from graph.tools.base import ToolError

MAX_BYTES = 200_000


def read_text_file(root: str | Path, path: str) -> str:
    """Return the text of `path` (relative to `root`) if it is a small UTF-8 file inside `root`.

    Refused with `ToolError`: absolute paths, `~`, backslashes, NUL bytes and `..` (also
    percent-encoded), anything whose real path (symlinks resolved) leaves `root`, anything
    that is not a regular file, files over `MAX_BYTES`, and binary or non-UTF-8 files.
    """
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
    # Open the resolved path without following a link swapped in since the check, and
    # without blocking on a FIFO; then judge the file by the descriptor actually opened.
    try:
        fd = os.open(resolved, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as exc:
        raise ToolError(f"{path!r} cannot be opened ({exc.strerror})") from exc
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ToolError(f"{path!r} is not a regular file")
        if info.st_size > MAX_BYTES:
            raise ToolError(f"{path!r} is {info.st_size:,} bytes; the limit is {MAX_BYTES:,}")
        with os.fdopen(os.dup(fd), "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    finally:
        os.close(fd)
    if len(data) > MAX_BYTES:
        raise ToolError(f"{path!r} is larger than the limit of {MAX_BYTES:,} bytes")
    if b"\x00" in data:
        raise ToolError(f"{path!r} is a binary file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ToolError(f"{path!r} is not UTF-8 text") from exc
