"""Sidebar: the thread's memory settings, conversations, engine and tools, language.

Memory settings: compression slider, summary budget, recall switch and strategy.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable, Mapping, Sequence
from datetime import date, datetime
from typing import Any

import streamlit as st

from component.i18n import LANGUAGES, known, t

RATE_MIN, RATE_MAX, RATE_STEP = 0.1, 0.5, 0.05
BUDGET_MIN, BUDGET_MAX, BUDGET_STEP = 100, 50_000, 500


def render_rate_slider(thread_id: str, rate: float, lang: str) -> float:
    """The seed's compression slider, kept per thread; returns the chosen rate."""
    st.subheader(t("advanced", lang))
    value = st.slider(
        t("rate", lang),
        min_value=RATE_MIN,
        max_value=RATE_MAX,
        value=min(RATE_MAX, max(RATE_MIN, rate)),
        step=RATE_STEP,
        help=t("rate_help", lang),
        key=f"rate_{thread_id}",
    )
    st.caption(t("rate_scale", lang))
    st.caption(t("rate_next", lang))
    return round(float(value), 2)


def render_budget(thread_id: str, budget: int, lang: str) -> int:
    """How many characters of summaries the context holds before digests start (per thread)."""
    value = st.number_input(
        t("budget", lang),
        min_value=BUDGET_MIN,
        max_value=BUDGET_MAX,
        value=min(BUDGET_MAX, max(BUDGET_MIN, int(budget))),
        step=BUDGET_STEP,
        help=t("budget_help", lang),
        key=f"budget_{thread_id}",
    )
    return int(value)


def render_recall(thread_id: str, enabled: bool, lang: str) -> bool:
    """Whether each message searches the archived turns for relevant earlier ones."""
    return bool(
        st.toggle(
            t("recall", lang), value=enabled, help=t("recall_help", lang), key=f"recall_{thread_id}"
        )
    )


def render_strategy(
    thread_id: str, strategy: str, choices: Sequence[str], started: bool, lang: str
) -> str:
    """The thread's memory strategy; once the thread has started, a note says what changes."""
    value = st.selectbox(
        t("strategy", lang),
        list(choices),
        index=list(choices).index(strategy) if strategy in choices else 0,
        format_func=lambda name: t(f"strategy_{name}", lang),
        help=t("strategy_help", lang),
        key=f"strategy_{thread_id}",
    )
    st.caption(t(f"strategy_about_{value}", lang))
    if started:
        st.caption(t("strategy_switch", lang))
    return str(value)


def render_threads(
    threads: Sequence[Mapping[str, Any]],
    current: str,
    lang: str,
    *,
    on_new: Callable[[], None],
    on_switch: Callable[[str], None],
    on_rename: Callable[[str, str], None],
    on_delete: Callable[[str], None],
) -> None:
    """Conversations grouped by day, newest first, with a title search.

    New, switch, rename (prefilled with the title) and delete (after a confirmation).
    """
    st.subheader(t("threads", lang))
    st.button(t("new_thread", lang), on_click=on_new, width="stretch", key="new_thread")
    query = ""
    if len(threads) > SEARCH_FROM:
        query = st.text_input(t("search_threads", lang), key="thread_search").strip().casefold()
    shown = [r for r in threads if query in str(r.get("title") or "").casefold()]
    if query and not shown:
        st.caption(t("no_threads_found", lang))
    group = ""
    for record in shown:
        thread_id = str(record["thread_id"])
        day = day_label(float(record.get("updated_at") or record.get("created_at") or 0), lang)
        if day != group:
            group = day
            st.caption(day)
        st.button(
            ("▶ " if thread_id == current else "") + thread_title(record, lang),
            key=f"open_{thread_id}",
            on_click=on_switch,
            args=(thread_id,),
            width="stretch",
            type="primary" if thread_id == current else "secondary",
        )
    record = next((r for r in threads if str(r["thread_id"]) == current), {})
    with st.expander(t("rename", lang) + " / " + t("delete", lang)):
        title = str(record.get("title") or "")
        # a new key per title: the box shows the current title, also after a rename
        key = f"title_{current}_{zlib.crc32(title.encode()):08x}"
        st.text_input(t("rename", lang), value=title, key=key)
        # the callback reads the box when clicked: a value typed but not yet committed
        # (no Enter) arrives with the click, after this run drew the button
        st.button(
            t("save", lang),
            key="rename_btn",
            on_click=lambda: on_rename(current, str(st.session_state.get(key, ""))),
        )
        confirm = f"confirm_delete_{current}"
        if not st.session_state.get(confirm):
            st.button(
                t("delete", lang),
                key="delete_btn",
                on_click=lambda: st.session_state.update({confirm: True}),
            )
            return
        st.warning(t("delete_confirm", lang))
        yes, no = st.columns(2)
        yes.button(
            t("delete_yes", lang),
            key="delete_yes",
            on_click=on_delete,
            args=(current,),
            type="primary",
        )
        no.button(
            t("cancel", lang),
            key="delete_no",
            on_click=lambda: st.session_state.pop(confirm, None),
        )


SEARCH_FROM = 5
"""A title search appears once the list has more conversations than this."""


def thread_title(record: Mapping[str, Any], lang: str) -> str:
    """A conversation's title as plain text for a button label, or '(untitled)'."""
    return plain_title(str(record.get("title") or "")) or t("untitled", lang)


_MARKS = (
    (re.compile(r"```[\w+-]*"), " "),  # code fences and their language
    (re.compile(r"!?\[([^\]]*)\]\([^)]*\)?"), r"\1"),  # links and images: their text
    (re.compile(r"(?m)^\s{0,3}(#{1,6}|>+|[-*+]|\d+[.)])\s+"), ""),  # headings, quotes, lists
    (re.compile(r"(\*\*|__|~~)(.+?)\1"), r"\2"),  # bold, strikethrough
    (re.compile(r"(?<![\w*])([*_])(?=\S)(.+?)(?<=\S)\1(?![\w*])"), r"\2"),  # italics
    (re.compile(r"`+"), ""),  # inline code
    (re.compile(r"\s+"), " "),
)
_SPECIAL = re.compile(r"([\\`*_\[\]<>#|~$:])")
"""What markdown (and Streamlit's :color[...] and :emoji:) would read in one line of text."""


def plain_title(title: str) -> str:
    """A title taken from a markdown message, as the text it reads (no marks, no heading).

    A button's label is markdown: what the marks leave is escaped, so `2*3*4` stays itself.
    """
    for pattern, replacement in _MARKS:
        title = pattern.sub(replacement, title)
    return _SPECIAL.sub(r"\\\1", title.strip())


def day_label(stamp: float, lang: str, today: date | None = None) -> str:
    """'Today', 'Yesterday', or the date, for grouping conversations by their last use."""
    day = datetime.fromtimestamp(stamp).date()
    today = today or date.today()
    if day == today:
        return t("today", lang)
    if (today - day).days == 1:
        return t("yesterday", lang)
    return day.isoformat()


def engine_label(kind: str, model: str, url: str, lang: str) -> str:
    """One line naming the engine that answers, in `lang`."""
    return t(f"engine_{kind}", lang, model=model, url=url)


def render_engine(
    label: str, offline: bool, summary_by: str, tools: Mapping[str, str | None], lang: str
) -> None:
    """Which engine answers and which tools are active (and why the others are not)."""
    st.subheader(t("engine", lang))
    st.markdown(f"**{label}**")
    if offline:
        st.info(t("offline_note", lang))
    st.caption(t("summary_by", lang, name=summary_by))
    with st.expander(t("tools", lang)):
        for name, reason in tools.items():
            label = t(f"tool_label_{name}", lang) if known(f"tool_label_{name}") else name
            if reason is None:
                st.markdown(f"✅ {label} · `{name}`")
            else:
                st.markdown(f"⛔ {label} · `{name}` — {tool_reason(reason, lang)}")


def tool_reason(reason: str, lang: str) -> str:
    """Why a tool is off (`graph.tools.tool_availability`'s words), in `lang`."""
    key = re.fullmatch(r"needs (\w+_KEY)", reason)
    if key:
        return t("tool_needs_key", lang, var=key.group(1))
    sandbox = re.fullmatch(r"the sandbox needs (.+)", reason)
    if sandbox:
        return t("tool_needs_sandbox", lang, what=sandbox.group(1))
    return t("tool_off", lang, reason=reason)


def index_mode_label(status: Mapping[str, Any], lang: str) -> str:
    """The search mode in use, or, while a server's vectors are built, how far along.

    "building vectors 40/154; keyword search meanwhile" until the vectors are there.
    """
    building = status.get("building")
    if building:
        return t("index_building", lang, done=building["done"], total=building["total"])
    return t(f"index_mode_{status['mode']}", lang)


def render_index(status: Mapping[str, Any] | None, lang: str) -> None:
    """The documents' index: its size and search mode, and a warning when it degraded."""
    if status is None:
        return
    if status["degraded"]:
        st.warning(t("index_degraded", lang), icon="⚠️")
    mode = index_mode_label(status, lang)
    with st.expander(f"{t('index', lang)} · {mode}"):  # the search mode in use, at a glance
        st.caption(
            t("index_size", lang, docs=status["documents"], chunks=status["chunks"], mode=mode)
        )
        if status.get("keyword_reason"):
            st.caption(f"ℹ️ {t('index_reason_' + str(status['keyword_reason']), lang)}")
        for problem in status["problems"]:
            st.caption(f"⚠️ {problem}")
        for doc in status.get("catalog", []):
            kind = t(f"doc_kind_{doc['doc_type']}", lang)
            steps = f" · {t('doc_steps', lang)}" if doc["has_steps"] else ""
            st.caption(
                f"📄 **{doc['title']}** `{doc['source']}` · {kind}{steps} · "
                + t("doc_sections", lang, n=doc["sections"])
            )


def render_language(lang: str, on_change: Callable[[str], None]) -> None:
    """Interface language picker.

    The choice applies at once (a callback, before the page is drawn again), not one
    interaction later.
    """
    codes = list(LANGUAGES)
    st.selectbox(
        t("language", lang),
        codes,
        index=codes.index(lang) if lang in codes else 0,
        format_func=LANGUAGES.__getitem__,
        key="language_picker",
        on_change=lambda: on_change(str(st.session_state["language_picker"])),
    )
