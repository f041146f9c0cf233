"""Pinned facts: what the user asked to be always remembered, whatever the summaries dropped.

At most `MAX_PINS` per thread, kept in the database (not the checkpoint), loaded into the
context of every turn as `[고정된 사실]`, never evicted; separate from the recursive
strategy's entity list, which it neither fills nor reads.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from graph.errors import InputError
from graph.storage.archive import Archive
from graph.storage.facts import delete_pin, insert_pin
from graph.summarizer import cut_words

MAX_PINS = 25
"""Pinned facts a thread may hold; a 26th is refused until one is unpinned."""
SOURCE_CHARS = 120
"""Characters of the sentence a pinned fact came from, kept beside it."""


def pin_fact(
    archive: Archive, thread_id: str, fact: str, turn: int, source: str = ""
) -> dict[str, Any]:
    """Pin `fact` (said at `turn`, in the sentence `source`); InputError past MAX_PINS."""
    text = " ".join(fact.split())
    if not text:
        raise InputError("An empty fact cannot be pinned.")
    record = {
        "fact": text[:200],
        "turn": int(turn),
        "source": cut_words(" ".join(source.split()), SOURCE_CHARS),
    }
    if not insert_pin(archive, thread_id, record, MAX_PINS):
        raise InputError(
            f"This conversation already has {MAX_PINS} pinned facts; unpin one before pinning another."
        )
    return record


def unpin_fact(archive: Archive, thread_id: str, fact: str) -> bool:
    """Unpin a fact; False if it was not pinned."""
    return delete_pin(archive, thread_id, " ".join(fact.split()))


def format_pins(pins: Sequence[Mapping[str, Any]]) -> str:
    """One line per pinned fact for the system prompt, with its turn and sentence."""
    lines = []
    for pin in pins:
        source = f": {pin['source']}" if pin.get("source") else ""
        lines.append(f"- {pin['fact']} ({pin['turn']}턴{source})")
    return "\n".join(lines)
