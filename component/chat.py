"""Chat column: turns redrawn from the checkpointed state, tool steps, approvals, streaming."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import streamlit as st
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from component.i18n import known, t
from graph.approval import NOT_RUN_AFTER_REJECT, REJECTED, USER_ANSWERED
from graph.times import describe_time, message_time
from graph.turns import cut_off, is_stopped


def _text(msg: BaseMessage) -> str:
    content = msg.content
    if isinstance(content, str):
        return content
    return "".join(b.get("text", "") if isinstance(b, dict) else str(b) for b in content)


@dataclass(frozen=True)
class LastTurnActions:
    """What the turns offer besides copying an answer.

    `on_retry` answers the last, unanswered turn again in place; `on_continue` asks the
    model to go on with the last answer, which was cut off. On every turn,
    `on_redo(turn, None)` sends its message again (regenerate) and `on_redo(turn, text)`
    an edited one (edit and resend), each a new version of the turn; `versions` maps a
    turn to (version shown, count) and `on_version(turn, k)` shows version k of it.
    """

    on_retry: Callable[[], None] | None = None
    on_redo: Callable[[int, str | None], None] | None = None
    on_continue: Callable[[], None] | None = None
    key: str = ""
    """Prefixes the widgets' keys (the thread): a branch's edit box starts from its own text."""
    versions: Mapping[int, tuple[int, int]] = field(default_factory=dict)
    on_version: Callable[[int, int], None] | None = None


def render_turn(
    number: int,
    messages: Sequence[BaseMessage],
    lang: str,
    actions: LastTurnActions | None = None,
    last: bool = True,
) -> None:
    """One turn: the user's message, then tool steps (collapsed) and the answer.

    An unanswered turn says so; every turn gets the redo and version actions of
    `actions`, the `last` one its retry and continue too.
    """
    actions = actions or LastTurnActions()
    on_retry = actions.on_retry if last else None
    on_continue = actions.on_continue if last else None
    results = {m.tool_call_id: m for m in messages if isinstance(m, ToolMessage)}
    assistant: list[BaseMessage] = [m for m in messages if not isinstance(m, HumanMessage)]
    key = f"{actions.key}{number}"
    for msg in messages:
        if isinstance(msg, HumanMessage):
            with st.chat_message("user"):
                st.markdown(_text(msg))
                sent = describe_time(message_time(msg), lang)
                if sent:
                    st.caption(f"🕒 {sent}")
                if actions.on_redo is not None and msg is messages[0]:
                    _edit_box(key, number, _text(msg), lang, actions.on_redo)
    if not assistant:
        if on_retry is not None:  # a fork taken before the answer: it goes on from there
            with st.chat_message("assistant"):
                st.caption(t("fork_waiting", lang))
                st.button(t("fork_continue", lang), key=f"retry_{number}", on_click=on_retry)
        render_versions(number, actions, lang)
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
                        if decision and known(f"decision_{decision}"):
                            st.caption(t(f"decision_{decision}", lang))
                        if result is not None:
                            st.text(result_text(_text(result), lang)[:4000])
            elif isinstance(msg, AIMessage):
                st.markdown(_text(msg))
                code = msg.response_metadata.get("error_code")
                if is_stopped(msg):  # the user's stop: what was written, marked, no error
                    st.caption(t("stopped_note", lang))
                elif code == "APPROVAL_REJECTED":  # the user's own decision, not a failure
                    st.caption(t("rejected_note", lang))
                elif code:
                    st.error(t("error_code", lang, code=code), icon="⚠️")
                cut = cut_off(msg)
                if cut:  # a partial answer: say so, and offer to go on
                    st.caption(t(f"cut_off_{cut}", lang))
                    if on_continue is not None:
                        st.button(
                            t("continue", lang),
                            key=f"continue_{actions.key}{number}",
                            on_click=on_continue,
                        )
        if on_retry is not None:
            if not is_stopped(assistant[-1]):
                st.caption(t("unanswered", lang))
            st.button(t("retry", lang), key=f"retry_{number}", on_click=on_retry)
        answer = _text(assistant[-1]) if isinstance(assistant[-1], AIMessage) else ""
        # an unanswered last turn has one way to be answered again: the retry above
        _turn_tools(key, number, answer, lang, actions, redo=on_retry is None)
        st.caption(t("turn", lang, n=number))


def result_text(text: str, lang: str) -> str:
    """A tool step's result as shown: a call the user decided not to run, in `lang`.

    The graph's results for such a call are written for the model (`graph.approval`); the
    user sees what they decided.
    """
    if text == REJECTED:
        return t("result_rejected", lang)
    if text == NOT_RUN_AFTER_REJECT:
        return t("result_not_run", lang)
    if text.startswith(USER_ANSWERED):
        return t("result_answered", lang, said=text[len(USER_ANSWERED) :].strip())
    return text


def _edit_box(
    key: str,
    number: int,
    asked: str,
    lang: str,
    on_redo: Callable[[int, str | None], None],
) -> None:
    """Edit a user message and send it again: a new version of its turn."""
    box = f"resend_{key}"
    with st.popover(t("edit_resend", lang), key=f"edit_resend_{key}"):
        st.text_area("message", value=asked, key=box, label_visibility="collapsed")
        # read the box when clicked: text typed but not committed arrives with the click
        st.button(
            t("edit_send", lang),
            key=f"{box}_send",
            help=t("edit_send_help", lang),
            on_click=lambda: on_redo(number, str(st.session_state.get(box, asked))),
        )


def _turn_tools(
    key: str,
    number: int,
    answer: str,
    lang: str,
    actions: LastTurnActions,
    redo: bool = True,
) -> None:
    """Copy the answer, regenerate it (unless `redo` is off), switch between its versions."""
    on_redo = actions.on_redo if redo else None
    if not answer and on_redo is None and number not in actions.versions:
        return
    # one row of content-wide buttons that wraps on a narrow window
    row = st.container(horizontal=True, gap="small", key=f"turn_tools_{key}")
    if answer:
        with row.popover(t("copy", lang), key=f"copy_{key}"):
            st.caption(t("copy_help", lang))
            st.code(answer, language=None, wrap_lines=True)
    if on_redo is not None:
        row.button(
            t("regenerate", lang),
            key=f"regenerate_{key}",
            help=t("regenerate_help", lang),
            on_click=lambda: on_redo(number, None),
        )
    with row:
        render_versions(number, actions, lang)


def render_versions(number: int, actions: LastTurnActions, lang: str) -> None:
    """The `◀ 2/3 ▶` switcher of a turn that has versions (nothing for one without)."""
    if number not in actions.versions:
        return
    shown, count = actions.versions[number]
    key = f"{actions.key}{number}"
    on_version = actions.on_version
    box = st.container(horizontal=True, gap="small", key=f"versions_{key}")
    box.button(
        "◀",
        key=f"version_prev_{key}",
        help=t("version_prev", lang),
        disabled=on_version is None or shown <= 1,
        on_click=(lambda: on_version(number, shown - 1)) if on_version else None,
    )
    box.markdown(t("version_of", lang, shown=shown, count=count))
    box.button(
        "▶",
        key=f"version_next_{key}",
        help=t("version_next", lang),
        disabled=on_version is None or shown >= count,
        on_click=(lambda: on_version(number, shown + 1)) if on_version else None,
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
    """The most recent turns, with a button for earlier ones, and the turns' `last` actions."""
    if first_shown > 1:
        st.button(
            t("show_earlier", lang, n=first_shown - 1),
            on_click=on_show_earlier,
            key="show_earlier",
        )
    actions = last or LastTurnActions()
    for i, (number, messages) in enumerate(turns):
        render_turn(number, messages, lang, actions, last=i == len(turns) - 1)
    # a version whose turn is not answered yet (its run was refused): switch back from it
    shown_last = turns[-1][0] if turns else 0
    for number in sorted(n for n in actions.versions if n > shown_last):
        with st.chat_message("assistant"):
            st.caption(t("version_unsent", lang, n=number))
            render_versions(number, actions, lang)


Decide = Callable[..., None]
"""`on_decide(action, args=None, response=None)`: a decision on the waiting call (a
button callback; `graph.approval` says what each action does)."""


def render_approval(pending: dict[str, Any], lang: str, on_decide: Decide) -> None:
    """A paused tool call: its category, the call, and Approve / Reject / Edit / Answer.

    A supervisor's step (`graph.supervisor`) is shown as its question, in words: the agent
    it goes to by what it does, and its question to edit as text.
    """
    category = str(pending.get("category") or "code")
    step = _supervisor_step(pending)
    with st.chat_message("assistant"):
        reason = str(pending.get("reason") or "")
        heading = "approval" if category == "code" else f"approval_{category}"
        if reason and known(f"approval_{reason}"):  # a contract question, not an act
            heading = f"approval_{reason}"
        st.warning(t(heading if known(heading) else "approval_outbound", lang))
        named = t(f"category_{category}", lang) if known(f"category_{category}") else category
        st.caption(t("approval_category", lang, category=named))
        if pending.get("may_have_run"):
            st.error(t("may_have_run", lang))
        if reason and known(f"outbound_{reason}"):
            st.info(t(f"outbound_{reason}", lang, tool=pending.get("tool", "")))
        if pending.get("sources"):  # which untrusted text it was (graph.untrusted)
            st.caption(t("approval_sources", lang, sources="; ".join(pending["sources"])))
        if step is not None:
            _render_step_approval(pending, step, lang, on_decide)
            return
        if category == "code":
            st.caption(t("approval_help", lang))
        else:
            st.caption(t("approval_call_help", lang, tool=pending.get("tool", "")))
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

        answer_key = f"respond_{pending.get('tool_call_id')}"

        def respond() -> None:
            text = str(st.session_state.get(answer_key) or "").strip()
            if text:  # an empty answer decides nothing
                on_decide("respond", None, text)

        st.text_input(t("respond_label", lang), key=answer_key, help=t("respond_help", lang))
        st.button(t("respond", lang), key="respond", on_click=respond)


def _supervisor_step(pending: Mapping[str, Any]) -> tuple[str, str] | None:
    """(agent, question) of a supervisor step's approval; None for a tool call."""
    tool = str(pending.get("tool") or "")
    args = pending.get("args") or {}
    if tool.endswith("_agent") and set(args) == {"question"}:
        return tool.removesuffix("_agent"), str(args["question"])
    return None


def _render_step_approval(
    pending: Mapping[str, Any], step: tuple[str, str], lang: str, on_decide: Decide
) -> None:
    """A supervisor step waiting for approval: what it will do, its question as text."""
    agent, question = step
    number = str(pending.get("tool_call_id") or "").rsplit("_", 1)[-1]
    who = t(f"agent_{agent}", lang) if known(f"agent_{agent}") else agent
    st.caption(t("step_help", lang, n=number, agent=who))
    st.markdown("> " + question.replace("\n", "\n> "))
    key = f"edit_{pending.get('tool_call_id')}"
    st.text_area("question", value=question, key=key, label_visibility="collapsed")

    def edit() -> None:
        edited = str(st.session_state.get(key, question)).strip() or question
        on_decide("edit", {"question": edited})

    left, middle, right = st.columns(3)
    left.button(
        t("approve", lang),
        key="approve",
        on_click=on_decide,
        args=("approve", None),
        type="primary",
    )
    middle.button(t("reject", lang), key="reject", on_click=on_decide, args=("reject", None))
    right.button(t("step_edit", lang), key="edit", on_click=edit)
    answer_key = f"respond_{pending.get('tool_call_id')}"

    def respond() -> None:
        text = str(st.session_state.get(answer_key) or "").strip()
        if text:
            on_decide("respond", None, text)

    st.text_input(t("respond_label", lang), key=answer_key, help=t("respond_help", lang))
    st.button(t("respond", lang), key="respond", on_click=respond)


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
    if meta.get("kind") == "plan":  # AGENT_MODE=supervisor: the plan, then each step
        agents = ", ".join(step["agent"] for step in meta.get("steps") or [])
        return t("step_plan", lang, n=len(meta.get("steps") or []), agents=agents)
    if meta.get("kind") == "step" and meta.get("status") == "running":
        return t(
            "step_agent",
            lang,
            n=meta.get("n"),
            agent=meta.get("agent"),
            question=meta.get("question"),
        )
    if meta.get("kind") == "summary":
        turns = meta.get("turns") or []
        span = f"{turns[0]}-{turns[-1]}" if turns else "?"
        return t("step_summary", lang, turns=span)
    return ""
