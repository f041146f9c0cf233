"""Word lists kept as data: `data/lexicon/*.tsv`, read once per process.

Each file starts with one comment line (`# ...`) saying where its list came from and what
each column means; every other line is one row of tab-separated columns, none empty. The
office glossary (`graph.retrieval.glossary`) and recall's synonym groups
(`graph.memory.thesaurus`) are read from here, so the word lists are edited as data, not
as Python.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

LEXICON_DIR = Path(__file__).resolve().parents[1] / "data" / "lexicon"
"""Where the word lists live (shipped with the code, not configurable)."""


class LexiconError(ValueError):
    """A word list that cannot be read: the message names the file and the line."""


@cache
def read_table(name: str, columns: int) -> tuple[tuple[str, ...], ...]:
    """The rows of `data/lexicon/<name>`, each a tuple of `columns` stripped strings.

    Args:
        name: The file's name, e.g. "glossary_en_ko.tsv".
        columns: How many tab-separated columns each row has.

    Raises:
        LexiconError: The file is missing, lacks its header comment line, or has a row with
            another number of columns or an empty one (naming the file and the line).
    """
    path = LEXICON_DIR / name
    try:
        lines = path.read_text("utf-8").splitlines()
    except OSError as exc:
        raise LexiconError(f"{path}: cannot read the word list ({exc})") from exc
    if not lines or not lines[0].startswith("#"):
        raise LexiconError(f"{path}:1: the first line must be a '# ...' comment on the columns")
    rows: list[tuple[str, ...]] = []
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        cells = tuple(cell.strip() for cell in line.split("\t"))
        if len(cells) != columns or not all(cells):
            raise LexiconError(
                f"{path}:{number}: expected {columns} non-empty tab-separated columns, "
                f"got {len(cells)}: {line[:80]!r}"
            )
        rows.append(cells)
    return tuple(rows)
