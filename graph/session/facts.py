"""Lost facts and pins as the UI and the service use them."""

from __future__ import annotations

from typing import Any

from graph.memory.facts import normalize
from graph.memory.pins import pin_fact, unpin_fact
from graph.session.app import ChatApp, require_thread
from graph.session.errors import storage_errors
from graph.storage.archive import load_archived_turns
from graph.storage.facts import load_facts, read_pins
from graph.summarizer import sentences
from graph.turns import turn_document


def lost_facts(app: ChatApp, thread_id: str) -> dict[tuple[int, int], dict[str, Any]]:
    """The lost-facts record of every summary and digest, by (first turn, last turn)."""
    return load_facts(app.persistence.archive, thread_id)


def pinned_facts(app: ChatApp, thread_id: str) -> list[dict[str, Any]]:
    """The thread's pinned facts, oldest first."""
    return read_pins(app.persistence.archive, thread_id)


def _source_sentence(app: ChatApp, thread_id: str, fact: str, turn: int) -> str:
    messages = load_archived_turns(app.persistence.archive, thread_id, [turn]).get(turn, [])
    wanted = normalize(fact)
    for sentence in sentences(turn_document(messages)):
        if wanted in normalize(sentence):
            return sentence
    return ""


def pin(app: ChatApp, thread_id: str, fact: str, turn: int) -> dict[str, Any]:
    """Pin a fact said at `turn`: from the next turn on it is always in the context."""
    require_thread(app, thread_id)
    with storage_errors():
        source = _source_sentence(app, thread_id, fact, turn)
        return pin_fact(app.persistence.archive, thread_id, fact, turn, source)


def unpin(app: ChatApp, thread_id: str, fact: str) -> bool:
    """Unpin a fact; False if it was not pinned."""
    require_thread(app, thread_id)
    with storage_errors():
        return unpin_fact(app.persistence.archive, thread_id, fact)
