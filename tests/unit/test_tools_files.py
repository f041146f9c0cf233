"""read_file reads small text files under its folder and refuses every way out."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from graph.tools.base import ToolError
from graph.tools.files import MAX_BYTES, read_text_file


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
