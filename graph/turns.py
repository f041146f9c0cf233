"""Turns: a user message, the tool calls and results it caused, and the final AI message.

These functions follow seed 002 exactly; the rest of the graph builds on them.
"""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from graph.errors import ErrorCode
from graph.markup import strip_markup

SUMMARY_EVERY = 3
"""Turns covered by one summary."""


def should_summarize(turn_count: int) -> bool:
    """True at turns 4, 7, 10, 13, ...: the previous three turns are due for a summary."""
    if turn_count < 4:
        return False
    return (turn_count - 1) % 3 == 0


def is_turn_end(msg: BaseMessage) -> bool:
    """A turn ends with an AIMessage that has no tool calls (None or [])."""
    return isinstance(msg, AIMessage) and not msg.tool_calls


def is_apology(msg: BaseMessage) -> bool:
    """An AI message that ends a failed turn (it names an error code): not an answer.

    Apologies end their turn like answers do, but are never sent back to a model, never
    summarized and never a source of facts: they are the app's words, not the
    conversation's.
    """
    return isinstance(msg, AIMessage) and bool(msg.response_metadata.get("error_code"))


CUT_OFF = "cut_off"
"""response_metadata key of an answer kept although it was cut: the ErrorCode that cut it
(LLM_TRUNCATED at the length limit, LLM_TIMEOUT at the turn's time limit)."""


STOPPED = "stopped"
"""response_metadata key of a turn the user stopped: its answer is what was written before
the stop (or a note when nothing was), closed as CANCELLED and answered again by a retry."""


def is_stopped(msg: BaseMessage | None) -> bool:
    """Whether a turn's closing message is one the user stopped (not an error)."""
    return isinstance(msg, AIMessage) and bool(msg.response_metadata.get(STOPPED))


def cut_off(msg: BaseMessage | None) -> str:
    """The ErrorCode that cut an answer kept as it was ('' for a whole answer): Continue."""
    if not isinstance(msg, AIMessage) or msg.tool_calls:
        return ""
    return str(msg.response_metadata.get(CUT_OFF) or "")


def without_apologies(messages: Sequence[BaseMessage]) -> list[BaseMessage]:
    """`messages` less the apologies that closed failed turns."""
    return [m for m in messages if not is_apology(m)]


def turn_open(messages: Sequence[BaseMessage]) -> bool:
    """Whether the last turn has begun and not ended (no answer yet, or a tool step pending)."""
    return bool(messages) and not is_turn_end(messages[-1])


NOT_RETRYABLE = frozenset({ErrorCode.SAFEGUARD_BLOCKED, ErrorCode.APPROVAL_REJECTED})
"""Unanswered turns that a retry would not answer: a blocked message stays blocked, and a
task the user stopped by rejecting its call stays stopped (a new message goes on)."""


def retryable(messages: Sequence[BaseMessage]) -> bool:
    """Whether the thread's last turn is unanswered and may be answered again in place.

    Unanswered: closed with an apology (an error code), not cut off or stopped mid-answer
    by a tool call; and not one of NOT_RETRYABLE.
    """
    if not messages or not isinstance(messages[-1], AIMessage) or messages[-1].tool_calls:
        return False
    code = messages[-1].response_metadata.get("error_code")
    return bool(code) and code not in NOT_RETRYABLE


def split_turns(
    messages: Sequence[BaseMessage],
) -> tuple[list[list[BaseMessage]], list[BaseMessage]]:
    """Split messages into completed turns and the unfinished tail (the current turn)."""
    turns: list[list[BaseMessage]] = []
    current: list[BaseMessage] = []
    for msg in messages:
        current.append(msg)
        if is_turn_end(msg):
            turns.append(current)
            current = []
    return turns, current


def extract_last_n_turns(messages: Sequence[BaseMessage], n: int) -> list[BaseMessage]:
    """Messages of the last `n` completed turns (the turn in progress is excluded)."""
    if n <= 0:
        return []
    turns, _ = split_turns(messages)
    return [msg for turn in turns[-n:] for msg in turn]


def extract_current_turn(messages: Sequence[BaseMessage]) -> list[BaseMessage]:
    """Messages after the last completed turn: the current user message and its tool steps."""
    for i in range(len(messages) - 1, -1, -1):
        if is_turn_end(messages[i]):
            return list(messages[i + 1 :])
    return list(messages)


def content_text(msg: BaseMessage) -> str:
    """The text of a message; list contents (multimodal blocks) keep their text parts."""
    content = msg.content
    if isinstance(content, str):
        return content
    parts = []
    for block in content:
        if isinstance(block, str):
            parts.append(block)
        elif isinstance(block, dict) and block.get("type") == "text":
            parts.append(str(block.get("text", "")))
    return "".join(parts)


def said_text(msg: BaseMessage) -> str:
    """A message's text as memory keeps it: a model's without markup (`graph.markup`).

    A tool call written as text, a chat template's tokens or the prompt said back are
    never summarized, recalled or listed as facts; the user's words are kept as written.
    """
    text = content_text(msg)
    return strip_markup(text) if isinstance(msg, AIMessage) and text else text


def without_markup(messages: Sequence[BaseMessage]) -> list[BaseMessage]:
    """`messages` with any markup taken out of the model's own (`said_text`)."""
    out: list[BaseMessage] = []
    for msg in messages:
        said = said_text(msg)
        out.append(msg if said == content_text(msg) else msg.model_copy(update={"content": said}))
    return out


def original_chars(messages: Sequence[BaseMessage]) -> int:
    """Seed 002's `original_chars`: the length of all message contents joined."""
    return len("".join(content_text(m) for m in messages))


def user_text(turn: Sequence[BaseMessage]) -> str:
    """The user's message of a turn, or '' when the turn has none."""
    for msg in turn:
        if isinstance(msg, HumanMessage):
            return content_text(msg)
    return ""


def final_answer(turn: Sequence[BaseMessage]) -> str:
    """The text of a turn's final AI message (the one without tool calls), or ''.

    An apology that closed a failed turn is no answer: its turn has ''.
    """
    for msg in reversed(turn):
        if is_turn_end(msg):
            return "" if is_apology(msg) else said_text(msg)
    return ""


def turn_document(turn: Sequence[BaseMessage]) -> str:
    """What recall searches in a turn: the user's message and the final answer.

    Tool calls and results are left out: they are data the turn used, and the answer says
    what came of them.
    """
    return "\n".join(part for part in (user_text(turn), final_answer(turn)) if part)
