"""Split documents into chunks that keep their source path and heading path."""

from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

SUFFIXES = (".md", ".markdown", ".txt")
MAX_CHUNK = 900
"""Characters per chunk; longer sections are split on paragraphs with some overlap."""
OVERLAP = 150
MAX_FILE_BYTES = 1_000_000
_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_KEYWORDS = re.compile(r"^\s*<!--\s*(?:keywords|검색어)\s*:\s*(.*?)\s*-->\s*$", re.I)
"""A section's search keywords: the words people ask with that its text does not use
("월급" for a section on 급여, "quit" for 퇴사). An HTML comment, so a Markdown viewer
hides it; the index searches it with the section, and quotes never show it."""


@dataclass(frozen=True)
class Chunk:
    """A searchable piece of a document."""

    chunk_id: str
    source: str
    """Path relative to the documents folder (posix)."""
    heading: str
    """Heading path, e.g. '연차 휴가 > 신청 절차'."""
    text: str
    keywords: str = ""
    """The section's search keywords (`<!-- keywords: ... -->` lines): searched, not shown."""


def _chunk_id(source: str, heading: str, index: int) -> str:
    return hashlib.sha1(f"{source}\x00{heading}\x00{index}".encode()).hexdigest()[:16]


def _split_long(text: str) -> list[str]:
    if len(text) <= MAX_CHUNK:
        return [text]
    parts, current = [], ""
    for paragraph in re.split(r"\n\s*\n", text):
        if current and len(current) + len(paragraph) > MAX_CHUNK:
            parts.append(current.strip())
            current = current[-OVERLAP:] + "\n\n"
        current += paragraph + "\n\n"
    if current.strip():
        parts.append(current.strip())
    return [p[i : i + MAX_CHUNK] for p in parts for i in range(0, len(p), MAX_CHUNK)]


_FRONT = re.compile(r"\A---\s*\n(.*?)\n---\s*\n", re.S)


def front_matter(text: str) -> tuple[dict[str, str], str]:
    """A document's front matter (`key: value` lines between `---` lines) and the rest."""
    match = _FRONT.match(text)
    if not match:
        return {}, text
    meta = {}
    for line in match.group(1).splitlines():
        key, sep, value = line.partition(":")
        if sep and key.strip():
            meta[key.strip().lower()] = value.strip().strip("'\"")
    return meta, text[match.end() :]


def split_document(source: str, text: str) -> list[Chunk]:
    """Chunks of one document: one per section (split further when long).

    A section's keywords hold for its subsections too (the title's for every section);
    inside a fenced code block nothing is a heading or a keywords line.
    """
    text = front_matter(text)[1]
    preamble: list[str] = []  # keywords before the first heading: the whole document's
    stack: list[tuple[int, str, list[str]]] = []  # the open headings, each with its keywords
    # each section: heading path, lines, and the keyword lists it inherits (its own last)
    sections: list[tuple[str, list[str], list[list[str]]]] = [("", [], [preamble])]
    title = Path(source).stem
    fenced = False
    for line in text.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        heading = None if fenced else _HEADING.match(line)
        listed = None if fenced else _KEYWORDS.match(line)
        if heading:
            level, name = len(heading.group(1)), heading.group(2).strip()
            stack = [entry for entry in stack if entry[0] < level] + [(level, name, [])]
            path = " > ".join(n for _, n, _ in stack)
            sections.append((path, [], [preamble, *(k for _, _, k in stack)]))
        elif listed:
            if listed.group(1):
                (stack[-1][2] if stack else preamble).append(listed.group(1))
        else:
            sections[-1][1].append(line)
    chunks: list[Chunk] = []
    for path, lines, inherited in sections:
        body = "\n".join(lines).strip()
        if not body:
            continue
        heading_path = path or title
        keywords = ", ".join(k for group in inherited for k in group)
        for piece in _split_long(body):
            chunk_id = _chunk_id(source, heading_path, len(chunks))
            chunks.append(Chunk(chunk_id, source, heading_path, piece, keywords))
    return chunks


def read_document(path: Path) -> str:
    """Text of a document; raise ValueError for binary, undecodable, huge or empty files."""
    size = path.stat().st_size
    if size > MAX_FILE_BYTES:
        raise ValueError(f"larger than {MAX_FILE_BYTES:,} bytes")
    data = path.read_bytes()
    if b"\x00" in data:
        raise ValueError("binary file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError("not UTF-8 text") from exc
    if not text.strip():
        raise ValueError("empty file")
    return text


def document_files(root: Path) -> list[Path]:
    """Document files under `root`, sorted, hidden files and folders skipped."""
    if not root.is_dir():
        return []
    return sorted(
        p
        for p in root.rglob("*")
        if p.is_file()
        and p.suffix.lower() in SUFFIXES
        and not any(part.startswith(".") for part in p.relative_to(root).parts)
    )


def load_chunks(root: Path) -> tuple[list[Chunk], list[str]]:
    """All chunks under `root`, and a warning for each file skipped."""
    chunks: list[Chunk] = []
    warnings: list[str] = []
    for path in document_files(root):
        source = path.relative_to(root).as_posix()
        try:
            chunks.extend(split_document(source, read_document(path)))
        except (OSError, ValueError) as exc:
            message = f"skipped {source}: {exc}"
            log.warning(message)
            warnings.append(message)
    return chunks, warnings
