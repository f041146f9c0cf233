"""read_file reads small text files under its folder and refuses every way out."""

from __future__ import annotations

import ctypes
import errno
import multiprocessing
import os
from collections import Counter
from pathlib import Path

import pytest

from graph.tools.base import ToolError
from graph.tools.files import MAX_BYTES, open_beneath, read_text_file


@pytest.fixture
def root(tmp_path: Path) -> Path:
    docs = tmp_path / "docs"
    (docs / "sub").mkdir(parents=True)
    (docs / "guide.md").write_text("# 안내\n본문입니다.", encoding="utf-8")
    (docs / "sub" / "note.txt").write_text("note", encoding="utf-8")
    (tmp_path / "secret.txt").write_text("TOP SECRET", encoding="utf-8")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.txt").write_text("outside", encoding="utf-8")
    (docs / "link_out.txt").symlink_to(tmp_path / "secret.txt")
    (docs / "dir_out").symlink_to(outside)
    (docs / "huge.txt").write_bytes(b"a" * (MAX_BYTES + 1))
    (docs / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00binary")
    (docs / "latin1.txt").write_bytes("café".encode("latin-1"))
    os.mkfifo(docs / "pipe")
    (docs / "dev_null").symlink_to("/dev/null")
    return docs


def test_reads_text_files_inside_the_folder(root: Path) -> None:
    assert read_text_file(root, "guide.md") == "# 안내\n본문입니다."
    assert read_text_file(root, "sub/note.txt") == "note"
    assert read_text_file(root, "./sub/note.txt") == "note"


def test_symlinks_that_stay_inside_are_followed(root: Path) -> None:
    (root / "alias.md").symlink_to(root / "guide.md")
    assert read_text_file(root, "alias.md").startswith("# 안내")


TRICKS = [
    ("/etc/passwd", "relative"),
    ("../secret.txt", "'..'"),
    ("sub/../../secret.txt", "'..'"),
    ("%2e%2e/secret.txt", "'..'"),
    ("%2E%2E%2Fsecret.txt", "'..'"),
    ("..\\secret.txt", "relative"),
    ("guide.md\x00.txt", "relative path"),
    ("~/.bashrc", "relative"),
    ("link_out.txt", "outside"),
    ("dir_out/x.txt", "outside"),
    ("pipe", "not a regular file"),
    ("dev_null", "outside"),
    ("sub", "not a regular file"),
    ("huge.txt", "limit"),
    ("image.png", "binary"),
    ("latin1.txt", "UTF-8"),
    ("missing.md", "no file"),
    ("", "relative path"),
]


@pytest.mark.parametrize(("path", "reason"), TRICKS, ids=[t[0] or "empty" for t in TRICKS])
def test_path_tricks_are_refused(root: Path, path: str, reason: str) -> None:
    with pytest.raises(ToolError, match=reason):
        read_text_file(root, path)


def test_a_hard_link_to_a_file_outside_is_refused(root: Path) -> None:
    os.link(root.parent / "secret.txt", root / "hard.txt")
    with pytest.raises(ToolError, match="hard links"):
        read_text_file(root, "hard.txt")
    assert read_text_file(root, "guide.md").startswith("# 안내")  # one link: read


def test_the_open_follows_no_link_on_the_way(root: Path) -> None:
    # what a link swapped in after the real path was checked meets: refused, not followed
    (root / "alias_dir").symlink_to(root / "sub")
    (root / "alias.md").symlink_to(root / "guide.md")
    for parts in [("alias_dir", "note.txt"), ("alias.md",), ("dir_out", "x.txt")]:
        with pytest.raises(OSError) as caught:
            open_beneath(root, parts)
        assert caught.value.errno in (errno.ELOOP, errno.ENOTDIR), parts
    os.close(open_beneath(root, ("sub", "note.txt")))
    with pytest.raises(OSError):
        open_beneath(root, ("sub", "..", "..", "secret.txt"))


def _swap_forever(root: Path, what: str) -> None:
    """Exchange `sub/sub.txt` (a file) with a symlink to /etc/passwd, or the folder `sub`
    (holding `passwd`) with a symlink to /etc, again and again, each in one atomic step
    (renameat2 RENAME_EXCHANGE), so the name always exists, half the time as a link."""
    libc = ctypes.CDLL(None, use_errno=True)
    at_fdcwd, rename_exchange = -100, 2
    if what == "the file":
        real, link = root / "sub" / "sub.txt", root / "link.tmp"
        os.symlink("/etc/passwd", link)
    else:
        real, link = root / "sub", root / "link.tmp"
        os.symlink("/etc", link)
    a, b = bytes(real), bytes(link)
    while True:
        libc.renameat2(at_fdcwd, a, at_fdcwd, b, rename_exchange)


@pytest.mark.parametrize("what", ["the file", "a folder on the way"])
def test_a_link_swapped_in_during_the_read_never_reaches_etc_passwd(
    tmp_path: Path, what: str
) -> None:
    # the swapper is a process of its own, so it races the reads truly (a thread would take
    # turns with them under the GIL); the code before this check read /etc/passwd 14 times
    # in 2,000 reads of the folder race
    root = tmp_path / "data"
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "passwd").write_text("harmless\n")
    (root / "sub" / "sub.txt").write_text("harmless\n")
    name = "sub/sub.txt" if what == "the file" else "sub/passwd"
    swapper = multiprocessing.get_context("fork").Process(
        target=_swap_forever, args=(root, what), daemon=True
    )
    swapper.start()
    outcomes: Counter[str] = Counter()
    try:
        for _ in range(2000):
            try:
                text = read_text_file(root, name)
            except ToolError:
                outcomes["refused"] += 1
                continue
            outcomes["passwd" if "root:" in text else "harmless"] += 1
    finally:
        swapper.kill()
        swapper.join()
    assert outcomes["passwd"] == 0, outcomes
    assert outcomes["harmless"] > 0, outcomes  # the race did not refuse every read either
