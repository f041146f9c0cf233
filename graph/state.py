"""Graph state: the seed-002 `ChatState` plus bookkeeping for errors, archive and statistics.

`messages` holds the *working set*: the raw turns not yet summarized plus the current turn.
Once a block of turns is summarized, its messages move to the thread's archive in the
archive table (see `graph.storage.archive`) and leave the state. The model never needed them
again, and keeping them out keeps each checkpoint, and so each turn, the same size at turn
300 as at turn 10. The full transcript is archive + working set.
"""

from __future__ import annotations

from typing import Annotated, Any

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from typing_extensions import TypedDict

SummaryEntry = dict[str, Any]
"""One `summary_history` item with exactly the seed's fields:
thread_id, turns, turn_length, original_chars, summary_chars, compression_rate, summary."""

SUMMARY_FIELDS = (
    "thread_id",
    "turns",
    "turn_length",
    "original_chars",
    "summary_chars",
    "compression_rate",
    "summary",
)


def this_turn(
    old: list[dict[str, Any]] | None, new: list[dict[str, Any]] | None
) -> list[dict[str, Any]]:
    """Reducer of `decisions`: entries join those of their turn; a later turn's replace them.

    No node has to clear the list first, whichever node runs first in a turn.
    """
    old, new = list(old or []), list(new or [])
    if not new:
        return old
    latest = max(int(e.get("turn", 0)) for e in new)
    return [e for e in old if int(e.get("turn", 0)) >= latest] + new


def gather(
    old: list[dict[str, Any]] | None, new: list[dict[str, Any]] | None
) -> list[dict[str, Any]]:
    """Reducer of `candidate_replies`: each candidate task adds its entry; None clears."""
    if new is None:
        return []
    return [*(old or []), *new]


UNTRUSTED_RECORDS = 64
"""Records of untrusted text the state keeps (the newest): the context stays tainted while
any is kept (see `graph.untrusted`)."""


def keep_records(
    old: list[dict[str, Any]] | None, new: list[dict[str, Any]] | None
) -> list[dict[str, Any]]:
    """Reducer of `untrusted`: new records join, each once; the newest are kept."""
    kept = list(old or [])
    for record in new or []:
        if record not in kept:
            kept.append(dict(record))
    return kept[-UNTRUSTED_RECORDS:]


class ChatState(TypedDict, total=False):
    """State of one conversation thread."""

    messages: Annotated[list[AnyMessage], add_messages]
    """Working set: unsummarized raw turns and the current turn (Human, AI, Tool messages)."""
    session_id: str
    """The thread id."""
    summary_history: list[SummaryEntry]
    """The summaries the memory works with, oldest first, with the seed's fields only: all
    of them until the first is stored apart, then the working set (`graph.memory.run.
    working_set`); every summary made is in the archive (`graph.storage.summaries`)."""
    summary_times: dict[str, list[str]]
    """When the turns of each summary were sent: first turn (as a string) -> [first, last]
    ISO 8601 times; summaries of turns with no recorded time have none."""
    turn_count: int
    """Current turn number; app.py increments it before invoking the graph."""
    compression_rate: float
    """Rate for the next summary (0.1-0.5); earlier entries keep their own."""
    context_budget: int
    """three_turn: characters of summaries the context holds before digests (per thread)."""
    recall: bool
    """Whether this thread recalls earlier turns from the archive (per thread)."""
    archived_turns: int
    """Turns whose messages moved from `messages` to the archive (always a prefix)."""
    transcript_chars: int
    """Characters of all completed turns: what the context would hold with no summaries."""
    last_context: dict[str, Any]
    """This turn's context size: turn, context_chars, context_messages, full_chars (without
    summaries). Every turn's figures are also kept in the archive for the chart."""
    errors: list[dict[str, Any]]
    """Errors recorded on the way: turn, node, code (ErrorCode), message."""
    error_code: str
    """The ErrorCode of this turn's failed answer step (or of a blocked message), until
    fallback_node writes its apology and clears it ('')."""
    strategy: str
    """Memory strategy of the thread: three_turn (default), sliding_window or recursive."""
    working_set_for: str
    """The strategy the state's summaries were kept for (see `graph.memory.run.working_set`);
    another strategy starts from the whole history in the archive."""
    summary_digests: list[dict[str, Any]]
    """three_turn: digests that replaced the oldest summaries in the context (hierarchy)."""
    window_summary: str
    """sliding_window: up to 3 summaries joined by the seed's separator, oldest first."""
    memory: str
    """recursive: the single rewritten memory M_i (20 sentences, 500 tokens at most). Each
    update is also a `summary_history` entry of the 5 turns it took in, whose summary is
    the memory as rewritten with them."""
    entities: list[dict[str, Any]]
    """recursive: {key, value, turn}, an updated key moved to the end, at most 25."""
    summary_calls: int
    """Summaries and merges (digests, memory rewrites) made in this thread."""
    summary_model_calls: int
    """Model calls spent on summaries and merges (0 for the offline extractive summarizer)."""
    safeguard: dict[str, Any]
    """The current message's safeguard label, policy and reasons (seed 001)."""
    route: str
    """Route of the current turn (agent or rag), when a router runs."""
    route_reason: str
    """Why the router chose that route."""
    retrieved: list[dict[str, Any]]
    """Passages retrieved for the current turn: source, heading, score, text."""
    retrieval: dict[str, Any]
    """The retrieval loop of the current turn: outcome, steps (each tool call and the
    judgement after it, seed 003's JSON), menus suggested (see `graph.retrieval.loop`)."""
    decisions: Annotated[list[dict[str, Any]], this_turn]
    """The current turn's structured decisions (router, rerank, safeguard, entities): turn,
    decision, how (json_schema, json_object, text, or rule when the offline rule decided),
    fallback, and the reason for a fallback (see `graph.structured`)."""
    candidates: list[dict[str, Any]]
    """ANSWER_CANDIDATES above 1: the last model step's candidates: index, score, chosen,
    chars, preview, tool_calls, error (see `graph.nodes.candidates`)."""
    candidate_replies: Annotated[list[dict[str, Any]], gather]
    """The fan-out's answers while a step's candidates run: each candidate_node adds
    {index, reply, score} or {index, error, code}; quorum_node reads and clears them."""
    recalled: list[dict[str, Any]]
    """Archived turns recalled for the current turn: turn, time, score, terms, text."""
    pinned: list[dict[str, Any]]
    """Facts the user pinned, as of the current turn: fact, turn, source."""
    continuing: str
    """Continue: the cut-off answer the next model call goes on from ('' otherwise); the
    llm_node appends the continuation to it and clears this."""
    plan: dict[str, Any]
    """AGENT_MODE=supervisor: the turn's intent and plan: goal, parts, category, steps
    (agent, question, category; at most MAX_STEPS), left_out, how (json_schema, ...,
    rule) (see `graph.supervisor.plan`)."""
    untrusted: Annotated[list[dict[str, Any]], keep_records]
    """Untrusted text that came into the thread: {turn, source} for each tool result, each
    retrieved document and each history payload's assistant message. The text may have
    gone into a summary since; while it is recorded here, outbound and code calls ask
    (see `graph.untrusted`)."""
    steps: list[dict[str, Any]]
    """AGENT_MODE=supervisor: the plan's steps run so far: n, agent, question, category,
    status (running, done, failed, rejected), approval, answer, sources, the passages and
    retrieval of a documents step (see `graph.supervisor.specialists`)."""
