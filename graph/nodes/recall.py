"""recall_node: put the archived turns relevant to the message back into the context."""

from __future__ import annotations

import logging
from typing import Any

from graph.errors import ErrorCode, error_record
from graph.memory.recall import recall
from graph.nodes.base import Node
from graph.state import ChatState
from graph.storage import DB_ERRORS
from graph.storage.archive import Archive
from graph.storage.facts import read_pins
from graph.turns import extract_current_turn, user_text

log = logging.getLogger(__name__)


def make_recall_node(archive: Archive | None, budget: int) -> Node:
    """recall_node: search the thread's archive for the current message; load pinned facts.

    Runs once a turn, after the summary (so the turns it just archived are searchable) and
    before the model. Without an archive, or with recall off for the thread, it recalls
    nothing; a database error is recorded and the turn goes on without recall.
    """

    def recall_node(state: ChatState) -> dict[str, Any]:
        if archive is None:
            return {}
        thread = str(state.get("session_id", ""))
        message = user_text(extract_current_turn(state["messages"]))
        update: dict[str, Any] = {"recalled": [], "pinned": []}
        try:
            update["pinned"] = read_pins(archive, thread)
            if state.get("recall", True) and message:
                update["recalled"] = [i.as_dict() for i in recall(archive, thread, message, budget)]
        except DB_ERRORS as exc:
            log.warning("recall failed: %s", exc)
            code = ErrorCode.RECALL_FAILED
            error = error_record(int(state.get("turn_count", 0)), "recall_node", code, exc)
            update["errors"] = [*state.get("errors", []), error]
        return update

    return recall_node
