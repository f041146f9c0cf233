"""Right-hand panel: every summary with what it cost and saved, the next context, a chart."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import streamlit as st
from langchain_core.messages import BaseMessage

from component.i18n import t
from graph.memory.stats import summary_stats
from graph.times import describe_span, describe_time, item_time

UPLOADER_CSS = """<style>
.st-key-import_upload [data-testid="stFileUploaderDropzoneInstructions"] * { font-size: 0; }
.st-key-import_upload [data-testid="stFileUploaderDropzoneInstructions"]::after {
  content: "@LIMIT"; font-size: 0.875rem; opacity: 0.7;
}
.st-key-import_upload [data-testid="stFileUploaderDropzone"] button
  [data-testid="stMarkdownContainer"] { display: none; }
.st-key-import_upload [data-testid="stFileUploaderDropzone"] button::after {
  content: "@BUTTON"; margin-left: 0.4rem;
}
</style>"""
"""The import box's drop zone in the UI's language (`@BUTTON`, `@LIMIT` filled in)."""
USERS_OWN = frozenset({"CANCELLED", "APPROVAL_REJECTED"})
"""Error codes of a turn the user ended themselves (a stop, a rejection)."""


def render_facts(
    record: Mapping[str, Any] | None,
    key: str,
    lang: str,
    on_pin: Callable[[str, int], None] | None,
    pinned: frozenset[str] = frozenset(),
) -> None:
    """A summary's lost-facts line: how many facts it kept, and a pin button per dropped one.

    A dropped fact already pinned (`pinned`) shows as pinned, with no button.
    """
    if not record or not record.get("total"):
        return
    facts = record.get("facts", [])
    dropped = [facts[i] for i in record.get("dropped", []) if i < len(facts)]
    line = t("facts_kept", lang, kept=record["kept"], total=record["total"])
    if dropped:
        line += " · " + t("facts_dropped", lang, facts=", ".join(str(f[0]) for f in dropped))
    st.caption(line, help=t("facts_help", lang))
    if on_pin is None or not dropped:
        return
    done = [str(text) for text, _turn, _kind in dropped if str(text) in pinned]
    if done:
        st.caption(t("facts_pinned", lang, facts=", ".join(done)))
    dropped = [f for f in dropped if str(f[0]) not in pinned]
    if not dropped:
        return
    columns = st.columns(min(3, len(dropped)))
    for i, (text, turn, _kind) in enumerate(dropped[:9]):
        columns[i % len(columns)].button(
            t("pin", lang, fact=text),
            key=f"pin_{key}_{i}",
            help=t("pin_help", lang, turn=turn),
            on_click=on_pin,
            args=(str(text), int(turn)),
        )


def render_card(
    entry: Mapping[str, Any],
    meta: Mapping[str, Any] | None,
    lang: str,
    replaced_by: Sequence[int] | None = None,
    facts: Mapping[str, Any] | None = None,
    span: str = "",
    on_pin: Callable[[str, int], None] | None = None,
    pinned: frozenset[str] = frozenset(),
) -> None:
    """One summary card: turns, rate, sizes, target, time, text, facts kept and cost."""
    turns = entry["turns"]
    target = int(entry["original_chars"] * entry["compression_rate"])
    with st.container(border=True):
        st.markdown(
            "**"
            + t("card_title", lang, start=turns[0], end=turns[-1], rate=entry["compression_rate"])
            + "**"
        )
        st.caption(t("card_chars", lang, orig=entry["original_chars"], summ=entry["summary_chars"]))
        pct = round(100 * entry["summary_chars"] / target) if target else 100
        st.caption(t("card_target", lang, target=target, summ=entry["summary_chars"], pct=pct))
        if span:
            st.caption(t("card_time", lang, span=span))
        st.write(entry["summary"])
        render_facts(facts, f"{turns[0]}_{turns[-1]}", lang, on_pin, pinned)
        if replaced_by:
            st.caption("↳ " + t("in_digest", lang, start=replaced_by[0], end=replaced_by[-1]))
        if meta:
            if meta.get("fallback"):  # the model's summary was not used
                st.caption(t("card_fallback", lang, reason=meta["fallback"]))
            tokens = ""
            if meta.get("input_tokens") is not None:
                about = "~" if meta.get("tokens_estimated") else ""
                tokens = f" · tokens {about}{meta['input_tokens']}→{about}{meta['output_tokens']}"
            st.caption(
                t(
                    "card_cost",
                    lang,
                    calls=meta.get("model_calls", 0),
                    ms=round(float(meta.get("elapsed_ms", 0)), 1),
                    tokens=tokens,
                )
            )


def _span(item: Mapping[str, Any]) -> tuple[int, int]:
    return int(item["turns"][0]), int(item["turns"][-1])


def top_digest_of(
    entry: Mapping[str, Any], digests: Sequence[Mapping[str, Any]]
) -> Sequence[int] | None:
    """The turn range of the widest digest that covers `entry`, or None."""
    first, last = _span(entry)
    covering = [d for d in digests if _span(d)[0] <= first and last <= _span(d)[1]]
    return max(covering, key=lambda d: _span(d)[1] - _span(d)[0])["turns"] if covering else None


def render_digests(
    digests: Sequence[Mapping[str, Any]],
    lang: str,
    facts: Mapping[tuple[int, int], Mapping[str, Any]] | None = None,
    on_pin: Callable[[str, int], None] | None = None,
    pinned: frozenset[str] = frozenset(),
) -> None:
    """The digests by level: range, sizes, what each replaced, and the facts it kept."""
    if not digests:
        return
    with st.expander(f"{t('digests', lang)} · {len(digests)}"):
        for digest in sorted(digests, key=lambda d: (-int(d["level"]), _span(d))):
            first, last = _span(digest)
            st.markdown(
                "**" + t("digest_title", lang, start=first, end=last, level=digest["level"]) + "**"
            )
            st.caption(
                t("card_chars", lang, orig=digest["original_chars"], summ=digest["summary_chars"])
                + " · "
                + t(
                    "digest_replaces",
                    lang,
                    items=", ".join(f"{a}-{b}" for a, b in digest["replaces"]),
                )
            )
            st.write(digest["summary"])
            render_facts((facts or {}).get((first, last)), f"d{first}_{last}", lang, on_pin, pinned)


def render_pins(
    pins: Sequence[Mapping[str, Any]], lang: str, on_unpin: Callable[[str], None] | None
) -> None:
    """The pinned facts, each with the sentence it came from and an unpin button."""
    with st.expander(t("pins", lang, n=len(pins)), expanded=bool(pins)):
        if not pins:
            st.caption(t("pins_empty", lang))
        for i, pin in enumerate(pins):
            left, right = st.columns([4, 1])
            left.markdown(f"**{pin['fact']}** · {t('turn', lang, n=pin['turn'])}")
            if pin.get("source"):
                left.caption(str(pin["source"]))
            if on_unpin is not None:
                right.button(
                    t("unpin", lang), key=f"unpin_{i}", on_click=on_unpin, args=(str(pin["fact"]),)
                )


def render_recalled(recalled: Sequence[Mapping[str, Any]], lang: str) -> None:
    """What recall added to this turn's context, and why.

    A hit shows its relevance and the matching words; a later change to a recalled turn
    shows which turn it follows.
    """
    with st.expander(t("recalled", lang, n=len(recalled))):
        if not recalled:
            st.caption(t("recalled_none", lang))
        for item in recalled:
            terms = ", ".join(str(x) for x in item.get("terms", []))
            label = (
                t("recalled_follow", lang, turn=item["turn"], hit=item["follows"], terms=terms)
                if item.get("follows")
                else t(
                    "recalled_item",
                    lang,
                    turn=item["turn"],
                    score=f"{float(item['score']):.2f}",
                    terms=terms,
                )
            )
            st.markdown(f"**{label}**")
            if item.get("time"):
                st.caption(describe_time(str(item["time"]), lang))
            st.text(str(item["text"]))


def render_candidates(candidates: Sequence[Mapping[str, Any]], lang: str) -> None:
    """ANSWER_CANDIDATES above 1: the last answer step's candidates, scores, the one kept."""
    if not candidates:
        return
    with st.expander(t("candidates", lang, n=len(candidates))):
        st.caption(t("candidates_rule", lang))
        for item in candidates:
            mark = "✅ " if item.get("chosen") else ""
            if item.get("error"):
                head = t("candidate_failed", lang, i=int(item["index"]) + 1)
            elif item.get("tool_calls"):
                head = t(
                    "candidate_tools",
                    lang,
                    i=int(item["index"]) + 1,
                    tools=", ".join(str(x) for x in item["tool_calls"]),
                )
            else:
                head = t(
                    "candidate_item",
                    lang,
                    i=int(item["index"]) + 1,
                    score=f"{float(item.get('score', 0)):.2f}",
                    chars=int(item.get("chars", 0)),
                )
            st.markdown(f"{mark}**{head}**")
            st.text(str(item.get("error") or item.get("preview") or ""))


def render_window(window: Sequence[str], lang: str) -> None:
    """Sliding window: its summaries, oldest first."""
    st.markdown(f"**{t('window', lang)}**")
    if not window:
        st.caption(t("window_empty", lang))
    for number, text in enumerate(window, 1):
        with st.container(border=True):
            st.caption(t("window_block", lang, n=number) + " · " + t("n_chars", lang, n=len(text)))
            st.write(text)


def render_memory(memory: str, entities: Sequence[Mapping[str, Any]], lang: str) -> None:
    """Recursive strategy: the single memory and the entity table."""
    st.markdown(f"**{t('memory', lang)}**")
    if memory:
        with st.container(border=True):
            st.caption(t("n_chars", lang, n=len(memory)))
            st.write(memory)
    else:
        st.caption(t("memory_empty", lang))
    st.markdown(f"**{t('entities', lang)}** · {len(entities)}")
    if entities:
        st.table(
            [
                {
                    t("entity_key", lang): e["key"],
                    t("entity_value", lang): e["value"],
                    t("entity_turn", lang): e["turn"],
                }
                for e in entities
            ]
        )


def render_stats(history: Sequence[Mapping[str, Any]], lang: str) -> None:
    """The seed's statistics block; summaries longer than their turns show as the cost."""
    stats = summary_stats(history)
    st.markdown(f"**{t('stats', lang)}**")
    longer = stats["summary"] - stats["original"]
    saved = (
        t("stats_saved", lang, pct=stats["saved_pct"])
        if longer <= 0
        else t("stats_cost", lang, extra=f"{longer:,}", pct=-stats["saved_pct"])
    )
    st.text(
        "\n".join(
            [
                t("stats_total", lang, n=stats["count"], turns=stats["turns"]),
                t("stats_chars", lang, orig=f"{stats['original']:,}", summ=f"{stats['summary']:,}"),
                saved,
            ]
        )
    )


def render_next_context(
    messages: Sequence[BaseMessage],
    chars: int,
    summarize_first: Sequence[int],
    lang: str,
    probe_key: str | None = None,
    fold_after: Sequence[int] = (),
) -> None:
    """The exact context the next model call receives; a probe question shows its recall.

    `fold_after`: the turns a recursive thread's memory takes in after that answer.
    """
    with st.expander(
        t("next_context", lang), expanded=bool(probe_key and st.session_state.get(probe_key))
    ):
        if probe_key:
            st.text_input(t("probe", lang), key=probe_key, help=t("probe_help", lang))
        st.caption(t("next_size", lang, chars=f"{chars:,}", n=len(messages)))
        if summarize_first:
            st.info(t("next_summarize", lang, start=summarize_first[0], end=summarize_first[-1]))
        if fold_after:
            st.info(t("next_fold", lang, start=fold_after[0], end=fold_after[-1]))
        sections = messages[0].response_metadata.get("sections") if messages else None
        if sections:
            render_sections(sections, lang)
        for msg in messages:
            content = msg.content if isinstance(msg.content, str) else str(msg.content)
            st.markdown(f"`{msg.type}` · {len(content)}")
            st.text(content[:3000])


def render_sections(sections: Mapping[str, Mapping[str, int]], lang: str) -> None:
    """Seed 003's sections of the context: estimated tokens against each budget."""
    rows = []
    for name, size in sections.items():
        budget = size["budget"]
        over = "⚠️ " if budget and size["tokens"] > budget else ""
        rows.append(
            f"| {t('section_' + name, lang)} | {over}{size['tokens']:,} | "
            f"{f'{budget:,}' if budget else '∞'} | {size['dropped'] or ''} |"
        )
    st.markdown("\n".join([t("sections_header", lang), "|---|---:|---:|---:|", *rows]))
    st.caption(t("sections_note", lang))


def line_chart(
    rows: Sequence[Mapping[str, Any]], series: str, lang: str, height: int = 200
) -> None:
    """Characters per turn, one line per series.

    Integer turn ticks, titled axes with units, and the legend below the plot so long
    names are not cut; `height` is the plot's, the legend and axes come on top of it.
    """
    import altair as alt
    import pandas as pd

    frame = pd.DataFrame(rows)
    chart = (
        alt.Chart(frame)
        .mark_line(point=len(frame) <= 60)
        .encode(
            x=alt.X(
                "turn:Q",
                title=t("axis_turn", lang),
                axis=alt.Axis(format="d", tickMinStep=1),
            ),
            y=alt.Y("chars:Q", title=t("axis_chars", lang), axis=alt.Axis(format=",d")),
            color=alt.Color(
                "series:N",
                title=series,
                legend=alt.Legend(orient="bottom", direction="vertical", labelLimit=0),
            ),
            tooltip=[
                alt.Tooltip("series:N", title=series),
                alt.Tooltip("turn:Q", title=t("axis_turn", lang)),
                alt.Tooltip("chars:Q", title=t("axis_chars", lang), format=","),
            ],
        )
        # fit the width only: Streamlit's default ("fit") squeezes the plot, legend and
        # axes into `height`, which left the plot a flat line without y labels
        .properties(height=height, autosize=alt.AutoSizeParams(type="fit-x", contains="padding"))
    )
    st.altair_chart(chart, width="stretch")


def render_chart(
    context_log: Sequence[Mapping[str, Any]],
    lang: str,
    sections: Mapping[str, Mapping[str, int]] | None = None,
) -> None:
    """Context size per turn against the size with no memory at all (the whole transcript).

    Below it, the saving that follows from the two at the last turn; when the context is
    the longer, the cost it is, in characters and percent, with what it holds that the
    transcript does not (`sections`, the last turn's: memory, entities), never a negative
    saving.
    """
    if not context_log:
        return
    st.markdown(f"**{t('chart', lang)}**")
    rows = [
        {"turn": int(e["turn"]), "chars": int(e[key]), "series": t(name, lang)}
        for e in context_log
        for key, name in (("context_chars", "chart_with"), ("full_chars", "chart_without"))
    ]
    line_chart(rows, t("chart_series", lang), lang, height=200)
    last = context_log[-1]
    used, whole = int(last["context_chars"]), int(last["full_chars"])
    if not whole:
        return
    figures = {"turn": int(last["turn"]), "used": f"{used:,}", "whole": f"{whole:,}"}
    if used <= whole:
        st.caption(t("chart_saving", lang, saving=f"{1 - used / whole:.0%}", **figures))
        return
    extra = [
        t(f"cost_{name}", lang)
        for name in ("memory", "entities")
        if int(((sections or {}).get(name) or {}).get("tokens") or 0) > 0
    ]
    st.caption(
        t(
            "chart_cost",
            lang,
            extra=f"{used - whole:,}",
            pct=f"{(used - whole) / whole:.0%}",
            what=", ".join(extra) or t("cost_memory", lang),
            **figures,
        )
    )


def render_comparison(
    sizes: Mapping[str, Sequence[int]] | None,
    lang: str,
    on_compare: Callable[[], None] | None,
) -> None:
    """Context size per turn of this conversation replayed under every strategy.

    `on_compare` is None while the conversation has no turns: there is nothing to replay.
    """
    with st.expander(t("compare", lang)):
        st.caption(t("compare_help", lang))
        if on_compare is None:
            st.caption(t("compare_empty", lang))
        else:
            st.button(t("compare_run", lang), on_click=on_compare, key="compare_run")
        if sizes:
            rows = [
                {"turn": turn, "chars": int(chars), "series": t(f"strategy_{name}", lang)}
                for name, values in sizes.items()
                for turn, chars in enumerate(values, start=1)
            ]
            line_chart(rows, t("strategy", lang), lang, height=220)
            last = {name: v[-1] for name, v in sizes.items() if v}
            turn = max(len(v) for v in sizes.values())
            shown = " · ".join(
                f"{t(f'strategy_{n}', lang)}: {t('n_chars', lang, n=f'{c:,}')}"
                for n, c in last.items()
            )
            st.caption(t("compare_last", lang, turn=turn, sizes=shown))


def render_plan(
    plan: Mapping[str, Any] | None, steps: Sequence[Mapping[str, Any]], lang: str
) -> None:
    """AGENT_MODE=supervisor: the last turn's plan, and each step's agent, status, sources."""
    if not plan:
        return
    planned = plan.get("steps") or []
    ran = {int(step["n"]): step for step in steps}
    with st.expander(t("plan", lang, n=len(planned), how=plan.get("how", "")), expanded=True):
        st.caption(t("plan_goal", lang, goal=plan.get("goal", ""), category=plan.get("category")))
        for n, step in enumerate(planned, 1):
            done = ran.get(n, {})
            st.markdown(
                t(
                    "plan_step",
                    lang,
                    n=n,
                    agent=step["agent"],
                    status=done.get("status", "planned"),
                    question=done.get("question", step["question"]),
                )
            )
            if done.get("sources"):
                st.caption(t("plan_sources", lang, sources="; ".join(done["sources"])))
        if plan.get("left_out"):
            st.caption(t("plan_left_out", lang, n=plan["left_out"]))


def render_summary_panel(
    *,
    strategy: str,
    history: Sequence[Mapping[str, Any]],
    digests: Sequence[Mapping[str, Any]],
    window: Sequence[str],
    memory: str,
    entities: Sequence[Mapping[str, Any]],
    calls: tuple[int, int],
    meta: Sequence[Mapping[str, Any]],
    rate: float,
    next_messages: Sequence[BaseMessage],
    next_chars: int,
    summarize_first: Sequence[int],
    context_log: Sequence[Mapping[str, Any]],
    route: str,
    retrieved: Sequence[Mapping[str, Any]],
    errors: Sequence[Mapping[str, Any]],
    retrieval: Mapping[str, Any] | None = None,
    export_json: str,
    export_name: str,
    lang: str,
    on_import: Callable[[bytes], None],
    comparison: Mapping[str, Sequence[int]] | None = None,
    on_compare: Callable[[], None] | None = None,
    facts: Mapping[tuple[int, int], Mapping[str, Any]] | None = None,
    times: Mapping[str, Sequence[str]] | None = None,
    pins: Sequence[Mapping[str, Any]] = (),
    recalled: Sequence[Mapping[str, Any]] = (),
    on_pin: Callable[[str, int], None] | None = None,
    on_unpin: Callable[[str], None] | None = None,
    probe_key: str | None = None,
    safeguard: Mapping[str, Any] | None = None,
    candidates: Sequence[Mapping[str, Any]] = (),
    plan: Mapping[str, Any] | None = None,
    steps: Sequence[Mapping[str, Any]] = (),
    fold_after: Sequence[int] = (),
    last_sections: Mapping[str, Mapping[str, int]] | None = None,
) -> None:
    """The whole right-hand panel of the chat tab.

    `last_sections` are the sections of the last turn's context (`last_context`).
    """
    st.subheader(t("panel", lang))
    st.caption(
        t(f"strategy_{strategy}", lang)
        + " · "
        + t("current_rate", lang, rate=rate)
        + " · "
        + t("calls", lang, calls=calls[0], requests=calls[1])
    )
    pinned = frozenset(str(p["fact"]) for p in pins)
    if strategy == "sliding_window":
        render_window(window, lang)
    elif strategy == "recursive":
        render_memory(memory, entities, lang)
    else:
        render_digests(digests, lang, facts, on_pin, pinned)
    render_pins(pins, lang, on_unpin)
    if not history and strategy not in ("sliding_window", "recursive"):
        # the window and the memory above say when theirs begin (not at turn 4)
        st.caption(t("no_summaries", lang))
    meta_by_turn = {tuple(m["turns"])[0]: m for m in meta}
    for entry in history:
        replaced_by = top_digest_of(entry, digests) if strategy == "three_turn" else None
        span = item_time(entry, times or {})
        render_card(
            entry,
            meta_by_turn.get(entry["turns"][0]),
            lang,
            replaced_by,
            (facts or {}).get(_span(entry)),
            describe_span(span[0], span[-1], lang) if span else "",
            on_pin,
            pinned,
        )
    render_stats(history, lang)
    render_recalled(recalled, lang)
    render_candidates(candidates, lang)
    render_next_context(next_messages, next_chars, summarize_first, lang, probe_key, fold_after)
    render_chart(context_log, lang, last_sections)
    render_comparison(comparison, lang, on_compare)
    if route:
        st.caption(t("route", lang, route=route))
    render_plan(plan, steps, lang)
    absent = (retrieval or {}).get("absent") or []
    if absent:
        st.caption(t("absent_words", lang, words=", ".join(absent)))
    if safeguard and safeguard.get("label"):
        reasons = safeguard.get("reasons") or []
        st.caption(
            t(
                "safeguard",
                lang,
                label=safeguard["label"],
                policy=safeguard.get("policy", ""),
                reasons=": " + ", ".join(reasons) if reasons else "",
            )
        )
    if retrieved:
        with st.expander(t("passages", lang)):
            for passage in retrieved:
                st.markdown(
                    f"**{passage['source']} > {passage['heading']}** · {float(passage['score']):.2f}"
                )
                st.text(str(passage["text"])[:800])
    steps = (retrieval or {}).get("steps") or []
    if steps:
        outcome = str((retrieval or {}).get("outcome", ""))
        with st.expander(t("retrieval_steps", lang, outcome=t(f"outcome_{outcome}", lang))):
            for number, step in enumerate(steps, 1):
                st.caption(
                    f"{number}. {step['tool']} {json.dumps(step['args'], ensure_ascii=False)}"
                )
                st.json(step["judgement"], expanded=False)
            menus = (retrieval or {}).get("menus") or []
            if menus:
                st.caption(t("menus", lang, menus=", ".join(menus)))
    # a stop or a rejection is the user's own act, not an error to list
    errors = [e for e in errors if e.get("code") not in USERS_OWN]
    if errors:
        with st.expander(t("errors", lang)):
            for error in errors[-10:]:
                st.caption(f"#{error['turn']} {error['node']} {error['code']}: {error['message']}")
    st.download_button(
        t("download", lang), export_json, file_name=export_name, mime="application/json"
    )
    # Streamlit writes the drop zone's own words in English ("Upload", "200MB per file"):
    # they are drawn in the UI's language over it
    limit = int(st.get_option("server.maxUploadSize"))
    st.markdown(
        UPLOADER_CSS.replace("@BUTTON", t("upload_button", lang)).replace(
            "@LIMIT", t("upload_limit", lang, mb=limit)
        ),
        unsafe_allow_html=True,
    )
    upload = st.file_uploader(t("import", lang), type=["json"], key="import_upload")
    if upload is not None and st.session_state.get("imported") != upload.file_id:
        st.session_state["imported"] = upload.file_id
        on_import(upload.getvalue())
