"""What the next model call would receive: the preview of the panel."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage

from graph.context import context_chars
from graph.memory import state_extras, strategy_context
from graph.memory.recall import recall
from graph.memory.recursive import fold_after_next
from graph.nodes import planned_summary
from graph.session.app import ChatApp
from graph.session.threads import ThreadView
from graph.storage.facts import read_pins


@dataclass
class NextContext:
    """What the next model call would receive if the user sent a message now."""

    messages: list[BaseMessage]
    chars: int
    summarize_first: list[int]
    """Turns that will be summarized before that call (empty when none are due)."""
    recalled: list[dict[str, Any]] = field(default_factory=list)
    """The archived turns the message would recall, with their scores."""
    fold_after: list[int] = field(default_factory=list)
    """Recursive strategy: the turns its memory takes in after that answer, off the
    answer's path (empty when no update is due then). The context shown is before it."""


def preview_next_context(
    app: ChatApp, view: ThreadView, message: str = "", placeholder: str = "…"
) -> NextContext:
    """The context of the next turn's first model call if `message` were sent now.

    Pinned facts are always in it; with a `message`, so are the archived turns it would
    recall (the placeholder recalls nothing). Summaries due before that call are listed in
    `summarize_first`; the context shown is the one the model gets if they have not been
    made yet (as after a failed summary). A recursive thread's update comes after the
    answer (`fold_after`): the context shown is exactly the one the model gets.
    """
    text = message.strip() or placeholder
    archive = app.persistence.archive
    recalled = (
        recall(archive, view.thread_id, message, app.settings.recall_budget)
        if view.recall and message.strip()
        else []
    )
    state = {
        **view.state,
        "messages": [*view.state.get("messages", []), HumanMessage(content=text)],
        "turn_count": view.turn_count + 1,
        "strategy": view.strategy,
        "recalled": [r.as_dict() for r in recalled],
        "pinned": read_pins(archive, view.thread_id),
    }
    context = strategy_context(state, state_extras(state, budgets=app.settings.token_budgets))
    return NextContext(
        messages=context,
        chars=context_chars(context),
        summarize_first=planned_summary(state),  # type: ignore[arg-type]
        recalled=state["recalled"],
        fold_after=fold_after_next(view.state) if view.strategy == "recursive" else [],
    )
