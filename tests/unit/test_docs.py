"""The README fits on a few screens and the docs beside it hold together (issue 46, item 1):
at most 300 lines, every relative link in README.md and docs/*.md points to a file that
exists (and a `#anchor` into Markdown to one of its headings), every docs page says first
which question it answers, and every page is reachable from the README by links."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
MAX_README_LINES = 300

# [text](target) and ![alt](target); the target ends at the first space or ")"
_LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
_CODE_SPAN = re.compile(r"`[^`\n]*`")
_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$", re.M)


def _pages() -> list[Path]:
    return [README, *sorted(DOCS.glob("*.md"))]


def _prose(text: str) -> str:
    """The text without fenced code blocks (links there are examples, not links)."""
    return _FENCE.sub("", text)


def _links(text: str) -> list[str]:
    """Link targets of a Markdown text; code (blocks and spans) holds examples, not links."""
    return _LINK.findall(_CODE_SPAN.sub("", _prose(text)))


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation out, spaces to hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    text = text.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    """Every heading's anchor in a Markdown file, repeats numbered as GitHub numbers them."""
    seen: dict[str, int] = {}
    anchors: set[str] = set()
    for _, heading in _HEADING.findall(_prose(path.read_text("utf-8"))):
        slug = _slug(heading)
        n = seen.get(slug, 0)
        anchors.add(slug if n == 0 else f"{slug}-{n}")
        seen[slug] = n + 1
    return anchors


def _relative(target: str) -> bool:
    return not re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) and not target.startswith("//")


def test_the_readme_is_at_most_300_lines() -> None:
    lines = README.read_text("utf-8").count("\n")
    assert lines <= MAX_README_LINES, f"README.md has {lines} lines; at most {MAX_README_LINES}"


def test_every_relative_link_points_to_a_file_and_heading_that_exist() -> None:
    broken: list[str] = []
    for page in _pages():
        for target in _links(page.read_text("utf-8")):
            if not _relative(target):
                continue
            path_part, _, anchor = target.partition("#")
            dest = (page.parent / unquote(path_part)).resolve() if path_part else page
            name = f"{page.relative_to(ROOT)}: {target}"
            if not dest.exists():
                broken.append(f"{name} (no such file)")
            elif anchor and dest.suffix == ".md" and unquote(anchor) not in _anchors(dest):
                broken.append(f"{name} (no such heading)")
    assert broken == []


def test_every_docs_page_starts_with_the_question_it_answers() -> None:
    pages = sorted(DOCS.glob("*.md"))
    assert len(pages) >= 8, "docs/ holds a page per reader's question"
    lacking = []
    for page in pages:
        lines = [line for line in page.read_text("utf-8").splitlines() if line.strip()]
        # the title, then "This page answers: ..."
        if (
            len(lines) < 2
            or not lines[0].startswith("# ")
            or not lines[1].startswith("This page answers: ")
        ):
            lacking.append(page.name)
    assert lacking == []


def test_every_docs_page_is_reachable_from_the_readme() -> None:
    reached = {README.resolve()}
    todo = [README.resolve()]
    while todo:
        page = todo.pop()
        for target in _links(page.read_text("utf-8")):
            path_part = target.partition("#")[0]
            if not _relative(target) or not path_part.endswith(".md"):
                continue
            dest = (page.parent / unquote(path_part)).resolve()
            if dest.exists() and dest not in reached:
                reached.add(dest)
                todo.append(dest)
    unreached = [p.name for p in sorted(DOCS.glob("*.md")) if p.resolve() not in reached]
    assert len(reached) > 1
    assert unreached == []


def test_the_link_checker_sees_a_broken_link_and_a_broken_anchor(tmp_path: Path) -> None:
    # the checker itself: a link in a code block is no link; a missing file and a missing
    # heading are both seen
    page = tmp_path / "page.md"
    page.write_text(
        "# Title\n\n## Where `it` is, and why\n\n[ok](#where-it-is-and-why) [gone](nothing.md)"
        " [bad](#no-such) [code](`x`)\n\n```\n[not a link](nowhere.md)\n```\n",
        "utf-8",
    )
    links = _links(page.read_text("utf-8"))
    assert "nowhere.md" not in links
    assert {"#where-it-is-and-why", "nothing.md", "#no-such"} <= set(links)
    assert "where-it-is-and-why" in _anchors(page)
    assert "no-such" not in _anchors(page)
