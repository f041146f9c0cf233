"""What the next model call would receive: the preview of the panel."""

from __future__ import annotations

from dataclasses import dataclass

from langchain_core.messages import BaseMessage, HumanMessage

from graph.context import context_chars
from graph.memory import strategy_context
from graph.nodes import planned_summary
from graph.session.threads import ThreadView


@dataclass
class NextContext:
    """What the next model call would receive if the user sent a message now."""

    messages: list[BaseMessage]
    chars: int
    summarize_first: list[int]
    """Turns that will be summarized before that call (empty when none are due)."""


def preview_next_context(view: ThreadView, placeholder: str = "…") -> NextContext:
    """The context of the next turn's first model call, with a placeholder message.

    Summaries due before that call are listed in `summarize_first`; the context shown is the
    one the model gets if they have not been made yet (as after a failed summary).
    """
    state = {
        **view.state,
        "messages": [*view.state.get("messages", []), HumanMessage(content=placeholder)],
        "turn_count": view.turn_count + 1,
        "strategy": view.strategy,
    }
    context = strategy_context(state)
    return NextContext(
        messages=context,
        chars=context_chars(context),
        summarize_first=planned_summary(state),  # type: ignore[arg-type]
    )
