"""read_file: text files under one folder, and nothing else."""

from __future__ import annotations

import errno
import os
import stat
import urllib.parse
from pathlib import Path

from graph.tools.base import ToolError

MAX_BYTES = 200_000


_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
"""O_NONBLOCK: a FIFO opens without waiting for a writer (and is then refused by its type)."""


def open_beneath(root: str | Path, parts: tuple[str, ...]) -> int:
    """A read-only descriptor of `root/parts...`, opened without following any link.

    Each folder is opened from the one before (`openat` with O_DIRECTORY|O_NOFOLLOW) and
    the file last with O_NOFOLLOW, so a path whose folder or file is renamed and replaced
    by a symlink between a check and the open fails with ELOOP or ENOTDIR instead of
    reaching where the link points. `parts` must be plain names (no `..`, no `/`).

    Raises:
        OSError: a name is missing, is a link, or a folder on the way is not one.
    """
    if not parts or any(part in ("", ".", "..") or "/" in part for part in parts):
        raise OSError(errno.EINVAL, "not a plain relative path")
    fd = os.open(root, _DIR_FLAGS)
    try:
        for part in parts[:-1]:
            child = os.open(part, _DIR_FLAGS, dir_fd=fd)
            os.close(fd)
            fd = child
        return os.open(parts[-1], _FILE_FLAGS, dir_fd=fd)
    finally:
        os.close(fd)


def read_text_file(root: str | Path, path: str) -> str:
    """Return the text of `path` (relative to `root`) if it is a small UTF-8 file inside `root`.

    Refused with `ToolError`: absolute paths, `~`, backslashes, NUL bytes and `..` (also
    percent-encoded), anything whose real path (symlinks resolved) leaves `root`, anything
    that is not a regular file, a file with more than one hard link (the other may be
    outside `root`), files over `MAX_BYTES`, and binary or non-UTF-8 files. The real path
    is then opened from `root` one name at a time without following any link
    (`open_beneath`), so a link swapped in after the check is refused, not followed.
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
    if resolved == base:
        raise ToolError(f"{path!r} is not a regular file")
    try:
        fd = open_beneath(base, resolved.relative_to(base).parts)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR, errno.ENOENT):
            raise ToolError(
                f"{path!r} changed while it was opened (a link or a missing folder "
                "appeared on its way); not read"
            ) from exc
        raise ToolError(f"{path!r} cannot be opened ({exc.strerror})") from exc
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ToolError(f"{path!r} is not a regular file")
        if info.st_nlink > 1:
            raise ToolError(
                f"{path!r} has {info.st_nlink} hard links (one may be a file outside the "
                "documents folder); not read"
            )
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
