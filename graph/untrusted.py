"""Untrusted text in what the model sees, and where it came from (issue 43).

Text from a file, a document, the web, or an assistant message of a history payload
(seed 001's `history`, not written by this app's model) is data: instructions hidden in
it must not make the model send anything out, or run code, unasked. Such text taints the
context it is in, whatever turn it came in and whatever form it took since:

- **this turn's** tool results and document passages (`retrieved`);
- **earlier turns** still raw in the state: their tool results and history answers;
- **earlier turns in a summary or the memory**: each untrusted text that came in is
  recorded in the state's `untrusted` (turn and source) when it comes, so the summary
  that took it in still taints, named as such;
- **recalled turns** that used data (`recalled[].data`).

Text the user typed, and turns with no untrusted content, taint nothing. `sources(state)`
names each untrusted text (`file notes.txt (read_file, turn 1)`) so the approval request
can say which it was.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage

from graph.state import keep_records
from graph.tools.effects import untrusted_result
from graph.turns import split_turns

UNTRUSTED_KEY = "untrusted"
"""`additional_kwargs` key of a message whose text is untrusted (a history payload's
assistant message): its value says where it came from."""
HISTORY_SOURCE = "assistant message of the history payload"
"""The source of a history payload's assistant message (seed 001's `history`)."""
SHOWN = 3
"""Sources an approval request names at most (newest first)."""


def describe_call(name: str, args: Mapping[str, Any] | None) -> str:
    """What a tool call read, as an approval request names it (never more than 60 chars)."""
    args = dict(args or {})
    first = next((str(v) for v in args.values() if isinstance(v, str) and v.strip()), "")
    shown = first if len(first) <= 40 else first[:39] + "…"
    if name == "read_file":
        return f"file {shown}"
    if name == "web_search":
        return f"web result for {shown!r}"
    if name == "search_wikipedia":
        return f"Wikipedia page for {shown!r}"
    if name == "get_weather":
        return f"weather report for {shown!r}"
    if name in ("search_all", "search_by_metadata", "get_section"):
        return f"documents found for {shown!r}"
    return f"{name} result" + (f" for {shown!r}" if shown else "")


def tool_record(turn: int, message: ToolMessage, args: Mapping[str, Any] | None) -> dict | None:
    """The record of a tool result that is untrusted text, or None."""
    name = str(message.name or "")
    if not untrusted_result(name) or str(message.content).startswith("Error:"):
        return None
    return {"turn": turn, "source": f"{describe_call(name, args)} ({name})"}


def passage_records(turn: int, passages: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Records of retrieved document passages, one per document."""
    names = dict.fromkeys(str(p.get("source") or "a document") for p in passages)
    return [{"turn": turn, "source": f"document {name}"} for name in names]


def history_records(first_turn: int, answers: int) -> list[dict[str, Any]]:
    """Records of a history payload's assistant messages (turns first_turn, ...)."""
    return [{"turn": first_turn + i, "source": HISTORY_SOURCE} for i in range(answers)]


def untrusted_message(message: BaseMessage) -> bool:
    """Whether a message is untrusted text.

    A result of a tool whose results are (`graph.tools.effects.UNTRUSTED_RESULTS`), or an
    assistant message marked so (a history payload's).
    """
    if isinstance(message, ToolMessage):
        return untrusted_result(str(message.name or "")) and not str(message.content).startswith(
            "Error:"
        )
    return isinstance(message, AIMessage) and bool(message.additional_kwargs.get(UNTRUSTED_KEY))


def _call_args(messages: Sequence[BaseMessage], call_id: str) -> dict[str, Any]:
    for m in messages:
        if isinstance(m, AIMessage):
            for call in m.tool_calls:
                if call["id"] == call_id:
                    return dict(call["args"])
    return {}


def live_records(
    messages: Sequence[BaseMessage], turn_count: int, results: Sequence[ToolMessage] = ()
) -> list[dict[str, Any]]:
    """Records of the untrusted texts in the live messages (and `results` of this step)."""
    completed, current = split_turns(messages)
    turns = [*completed, [*current, *results]]
    first = turn_count - len(completed)
    found: list[dict[str, Any]] = []
    for i, turn in enumerate(turns):
        number = first + i
        for m in turn:
            if isinstance(m, ToolMessage):
                artifact = m.artifact if isinstance(m.artifact, Mapping) else {}
                args = artifact.get("args") or _call_args(turn, m.tool_call_id)
                record = tool_record(number, m, args)
                if record:
                    found.append(record)
            elif isinstance(m, AIMessage) and m.additional_kwargs.get(UNTRUSTED_KEY):
                source = str(m.additional_kwargs[UNTRUSTED_KEY])
                found.append({"turn": number, "source": source})
    return found


def mark_looked_up(
    turns: Sequence[Sequence[BaseMessage]], first: int, records: Sequence[Mapping[str, Any]]
) -> list[list[BaseMessage]]:
    """`turns` (from turn `first`), each answer of a turn that took in untrusted text marked.

    Each such answer is marked with its sources, as a history payload's answer is. It
    passes on what a document, a file or the web said: a summary keeps the user's own words
    before it (`graph.summarizer`), since that text can be looked up again and the user's
    cannot.
    """
    named: dict[int, dict[str, None]] = {}
    for record in records:
        named.setdefault(int(record["turn"]), {})[str(record["source"])] = None
    marked: list[list[BaseMessage]] = []
    for i, turn in enumerate(turns):
        names = ", ".join(named.get(first + i, {}))
        marked.append(
            [
                m.model_copy(
                    update={"additional_kwargs": {**m.additional_kwargs, UNTRUSTED_KEY: names}}
                )
                if names and isinstance(m, AIMessage) and not m.additional_kwargs.get(UNTRUSTED_KEY)
                else m
                for m in turn
            ]
        )
    return marked


def sources(state: Mapping[str, Any], results: Sequence[ToolMessage] = ()) -> list[str]:
    """The untrusted texts in what the model sees now, newest first, each named once."""
    turn = int(state.get("turn_count", 0))
    records = [
        *keep_records(state.get(UNTRUSTED_KEY), None),
        *live_records(state.get("messages") or [], turn, results),
        *passage_records(turn, state.get("retrieved") or []),
    ]
    summarized = max(
        (int(e["turns"][-1]) for e in state.get("summary_history") or [] if e.get("turns")),
        default=0,
    )
    named: list[str] = []
    for record in sorted(records, key=lambda r: -int(r["turn"])):
        number = int(record["turn"])
        where = f"turn {number}, now in a summary" if number <= summarized else f"turn {number}"
        named.append(f"{record['source']}, {where}")
    for item in state.get("recalled") or []:
        if item.get("data"):
            named.append(
                f"recalled turn {item.get('turn')}, which used a file, a document or the web"
            )
    return list(dict.fromkeys(named))
