"""The thread's timeline: its kept checkpoints, and forking a new thread from one of them."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import streamlit as st

from component.i18n import t
from graph.settings import MAX_COMPRESSION_RATE, MIN_COMPRESSION_RATE
from graph.times import describe_time


def node_label(node: str, lang: str) -> str:
    """A checkpoint's node in words ('after the summary step'); unknown nodes as they are."""
    key = f"node_{node}"
    try:
        return t(key, lang)
    except KeyError:
        return node


def checkpoint_row(item: Mapping[str, Any], lang: str) -> str:
    """One line of the timeline: turn, node, what happened there, and when."""
    marks = ""
    if item.get("node") in ("summary_node", "memory_node") and item.get("summarized_to"):
        marks += t("mark_summary", lang, n=item["summarized_to"])
    if item.get("pending_approval"):
        marks += t("mark_approval", lang)
    if item.get("error_code"):
        marks += t("mark_error", lang, code=item["error_code"])
    return t(
        "timeline_row",
        lang,
        turn=item.get("turn", "?"),
        node=node_label(str(item.get("node", "")), lang),
        marks=marks,
        time=describe_time(str(item.get("time") or ""), lang) or "",
    )


def distinct_rows(rows: Sequence[tuple[str, str]]) -> dict[str, str]:
    """Checkpoint id -> its row, newest first, each row told apart from the others.

    The picker keeps its choice by the row's text (Streamlit stores a select box's label),
    so two rows that read alike (two model steps of a tool turn in the same minute) would
    fork at the other one. A repeat gets a number, counted from the oldest, so a row keeps
    its text when newer checkpoints come.
    """
    seen: dict[str, int] = {}
    oldest_first = []
    for checkpoint_id, row in reversed(rows):
        seen[row] = seen.get(row, 0) + 1
        oldest_first.append((checkpoint_id, row if seen[row] == 1 else f"{row} ({seen[row]})"))
    return dict(reversed(oldest_first))


def render_timeline(
    items: Sequence[Mapping[str, Any]],
    keep_turns: int,
    rate: float,
    lang: str,
    on_fork: Callable[[str, float], None],
    key: str,
) -> None:
    """The kept checkpoints, newest first, and a fork from the one picked (at a rate)."""
    turns = t("timeline_all", lang) if keep_turns == 0 else keep_turns
    with st.expander(t("timeline", lang, n=len(items), turns=turns)):
        if not items:
            return
        st.caption(t("timeline_help", lang))
        rows = distinct_rows(
            [(str(item["checkpoint_id"]), checkpoint_row(item, lang)) for item in items]
        )
        picked = st.selectbox(
            t("fork_pick", lang),
            list(rows),
            format_func=rows.__getitem__,
            key=f"{key}_pick",
        )
        fork_rate = st.slider(
            t("fork_rate", lang),
            MIN_COMPRESSION_RATE,
            MAX_COMPRESSION_RATE,
            value=rate,
            step=0.05,
            key=f"{key}_rate",
        )
        if st.button(t("fork_button", lang), key=f"{key}_fork"):
            on_fork(str(picked), float(fork_rate))
