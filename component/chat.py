"""Chat column: turns redrawn from the checkpointed state, tool steps, approvals, streaming."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from component.i18n import t
from graph.times import describe_time, message_time
from graph.turns import cut_off


def _text(msg: BaseMessage) -> str:
    content = msg.content
    if isinstance(content, str):
        return content
    return "".join(b.get("text", "") if isinstance(b, dict) else str(b) for b in content)


@dataclass(frozen=True)
class LastTurnActions:
    """What the last turn offers besides copying its answer.

    `on_retry` answers an unanswered turn again in place; `on_redo(None)` sends its message
    again (regenerate) and `on_redo(text)` an edited one (edit and resend); `on_continue`
    asks the model to go on with an answer that was cut off.
    """

    on_retry: Callable[[], None] | None = None
    on_redo: Callable[[str | None], None] | None = None
    on_continue: Callable[[], None] | None = None
    key: str = ""
    """Prefixes the widgets' keys (the thread): a branch's edit box starts from its own text."""


def render_turn(
    number: int,
    messages: Sequence[BaseMessage],
    lang: str,
    actions: LastTurnActions | None = None,
) -> None:
    """One turn: the user's message, then tool steps (collapsed) and the answer.

    An unanswered turn says so; the last turn gets its `actions`.
    """
    actions = actions or LastTurnActions()
    on_retry = actions.on_retry
    results = {m.tool_call_id: m for m in messages if isinstance(m, ToolMessage)}
    assistant: list[BaseMessage] = [m for m in messages if not isinstance(m, HumanMessage)]
    for msg in messages:
        if isinstance(msg, HumanMessage):
            with st.chat_message("user"):
                st.markdown(_text(msg))
                sent = describe_time(message_time(msg), lang)
                if sent:
                    st.caption(f"🕒 {sent}")
    if not assistant:
        if on_retry is not None:  # a fork taken before the answer: it goes on from there
            with st.chat_message("assistant"):
                st.caption(t("fork_waiting", lang))
                st.button(t("fork_continue", lang), key=f"retry_{number}", on_click=on_retry)
        return
    with st.chat_message("assistant"):
        for msg in assistant:
            if isinstance(msg, AIMessage) and msg.tool_calls:
                for call in msg.tool_calls:
                    result = results.get(call["id"] or "")
                    artifact = result.artifact if result is not None else None
                    record = artifact if isinstance(artifact, dict) else {}
                    decision = record.get("decision")
                    # an edited call ran with the user's arguments: show those
                    ran = record.get("args") if decision == "edit" else None
                    with st.expander(t("tool_step", lang, name=call["name"]), expanded=False):
                        st.code(
                            json.dumps(ran or call["args"], ensure_ascii=False, indent=1),
                            language="json",
                        )
                        if decision and decision not in ("auto",):
                            st.caption(f"decision: {decision}")
                        if result is not None:
                            st.text(_text(result)[:4000])
            elif isinstance(msg, AIMessage):
                st.markdown(_text(msg))
                code = msg.response_metadata.get("error_code")
                if code:
                    st.error(t("error_code", lang, code=code), icon="⚠️")
                cut = cut_off(msg)
                if cut:  # a partial answer: say so, and offer to go on
                    st.caption(t(f"cut_off_{cut}", lang))
                    if actions.on_continue is not None:
                        st.button(
                            t("continue", lang),
                            key=f"continue_{actions.key}{number}",
                            on_click=actions.on_continue,
                        )
        if on_retry is not None:
            st.caption(t("unanswered", lang))
            st.button(t("retry", lang), key=f"retry_{number}", on_click=on_retry)
        answer = _text(assistant[-1]) if isinstance(assistant[-1], AIMessage) else ""
        _turn_tools(f"{actions.key}{number}", messages, answer, lang, actions.on_redo)
        st.caption(t("turn", lang, n=number))


def _turn_tools(
    number: str,
    messages: Sequence[BaseMessage],
    answer: str,
    lang: str,
    on_redo: Callable[[str | None], None] | None,
) -> None:
    """Copy the answer; on the last turn, regenerate it or edit and resend its message."""
    if not answer and on_redo is None:
        return
    # one row of content-wide buttons that wraps on a narrow window
    row = st.container(horizontal=True, gap="small", key=f"turn_tools_{number}")
    if answer:
        with row.popover(t("copy", lang), key=f"copy_{number}"):
            st.caption(t("copy_help", lang))
            st.code(answer, language=None, wrap_lines=True)
    if on_redo is None:
        return
    row.button(
        t("regenerate", lang),
        key=f"regenerate_{number}",
        help=t("regenerate_help", lang),
        on_click=lambda: on_redo(None),
    )
    asked = next((_text(m) for m in messages if isinstance(m, HumanMessage)), "")
    key = f"resend_{number}"
    with row.popover(t("edit_resend", lang), key=f"edit_resend_{number}"):
        st.text_area("message", value=asked, key=key, label_visibility="collapsed")
        # read the box when clicked: text typed but not committed arrives with the click
        st.button(
            t("edit_send", lang),
            key=f"{key}_send",
            on_click=lambda: on_redo(str(st.session_state.get(key, asked))),
        )


def render_welcome(lang: str, on_pick: Callable[[str], None]) -> None:
    """An empty conversation: what the app does, and example messages to click."""
    with st.chat_message("assistant"):
        st.markdown(t("welcome", lang))
        for i, example in enumerate(t("examples", lang).split("\n")):
            st.button(example, key=f"example_{i}", on_click=on_pick, args=(example,))


def render_history(
    turns: Sequence[tuple[int, Sequence[BaseMessage]]],
    first_shown: int,
    lang: str,
    on_show_earlier: Callable[[], None],
    last: LastTurnActions | None = None,
) -> None:
    """The most recent turns, with a button for earlier ones; `last` for the last turn."""
    if first_shown > 1:
        st.button(
            t("show_earlier", lang, n=first_shown - 1),
            on_click=on_show_earlier,
            key="show_earlier",
        )
    for i, (number, messages) in enumerate(turns):
        render_turn(number, messages, lang, last if i == len(turns) - 1 else None)


def render_approval(
    pending: dict[str, Any], lang: str, on_decide: Callable[[str, dict[str, Any] | None], None]
) -> None:
    """A paused tool call: show the code with Approve / Reject / Edit."""
    with st.chat_message("assistant"):
        st.warning(t("approval", lang))
        if pending.get("may_have_run"):
            st.error(t("may_have_run", lang))
        if pending.get("reason"):
            st.info(t(f"outbound_{pending['reason']}", lang, tool=pending.get("tool", "")))
        st.caption(t("approval_help", lang))
        args = dict(pending.get("args") or {})
        is_code = "code" in args
        code = str(args["code"]) if is_code else json.dumps(args, ensure_ascii=False)
        st.code(code, language="python" if is_code else "json")
        key = f"edit_{pending.get('tool_call_id')}"
        st.text_area("code", value=code, key=key, label_visibility="collapsed")

        def edit() -> None:
            # read the box when clicked: text typed but not yet committed (no Ctrl+Enter)
            # arrives with the click, after this run drew the button
            edited = str(st.session_state.get(key, code))
            on_decide("edit", {**args, "code": edited} if is_code else _json_args(edited, args))

        left, middle, right = st.columns(3)
        left.button(
            t("approve", lang),
            key="approve",
            on_click=on_decide,
            args=("approve", None),
            type="primary",
        )
        middle.button(t("reject", lang), key="reject", on_click=on_decide, args=("reject", None))
        right.button(t("edit", lang), key="edit", on_click=edit)


def _json_args(text: str, fallback: dict[str, Any]) -> dict[str, Any]:
    """Edited arguments of a non-code tool; the original ones if the text is not a JSON object."""
    try:
        value = json.loads(text)
    except ValueError:
        return fallback
    return value if isinstance(value, dict) else fallback


class StreamingAnswer:
    """Draws a running turn from its events: the answer's tokens, the steps as they happen."""

    def __init__(self, lang: str) -> None:
        self._lang = lang
        self._box = st.chat_message("assistant").empty()
        self._text = ""
        self._steps: list[str] = []

    def __call__(self, event: dict[str, Any]) -> None:
        """Take one event of the turn (graph.session.events) and redraw."""
        if event["type"] == "token":
            self._text += event["content"]
        elif event["type"] == "metadata":
            step = _step_line(event["metadata"], self._lang)
            if not step:
                return
            self._steps.append(step)
        else:
            return
        steps = "".join(f"{line}  \n" for line in self._steps)
        self._box.markdown(steps + ("\n" if steps else "") + self._text + "▌")


def _step_line(meta: dict[str, Any], lang: str) -> str:
    """A short line for a step worth seeing while the answer is written ('' otherwise)."""
    if meta.get("kind") == "tool_call":
        return t("step_tool", lang, tool=meta.get("tool", "?"))
    if meta.get("kind") == "node_start" and meta.get("node") == "tool_node":
        return t("step_running", lang)  # an approved python_repl may run for a while
    if meta.get("kind") == "summary":
        turns = meta.get("turns") or []
        span = f"{turns[0]}-{turns[-1]}" if turns else "?"
        return t("step_summary", lang, turns=span)
    return ""
