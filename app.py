"""Streamlit entry point: `streamlit run app.py`.

Thin wiring only: session state is set up once, `turn_count` is incremented when a user
message arrives, the cached graph runs the turn, and `component/` renders what the
checkpointed state holds.
"""

from __future__ import annotations

import json

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from component.chat import (
    LastTurnActions,
    StreamingAnswer,
    render_approval,
    render_history,
    render_welcome,
)
from component.history_panel import render_timeline
from component.i18n import LANGUAGES, route_reason, t
from component.sidebar import (
    engine_label,
    plain_title,
    render_budget,
    render_engine,
    render_index,
    render_language,
    render_rate_slider,
    render_recall,
    render_strategy,
    render_threads,
)
from component.summary_panel import render_summary_panel
from graph.errors import InputError
from graph.memory import STRATEGIES
from graph.memory.window import window_summaries
from graph.providers import describe_engine
from graph.session import (
    ChatApp,
    TurnRequest,
    check_message,
    checkpoints,
    delete_thread,
    export_thread,
    fork_thread,
    import_thread,
    is_export,
    load_thread,
    lost_facts,
    new_thread,
    new_version,
    open_app,
    pin,
    pinned_facts,
    preview_next_context,
    rename_thread,
    salvage_thread,
    save_comparison,
    sent_now,
    set_thread_budget,
    set_thread_rate,
    set_thread_recall,
    set_thread_strategy,
    start_turn,
    switch_version,
    thread_exists,
    threads,
    turn_versions,
    unpin,
    wait_idle,
)
from graph.settings import load_settings
from graph.storage.persistence import StorageError
from graph.turns import cut_off

# Turns drawn at first; "show earlier" adds this many more. (A comment, not a docstring:
# Streamlit's "magic" would print a bare string on the page.)
PAGE_TURNS = 20
# The chat and the memory panel scroll in boxes of their own, as tall as the window
# allows (the CSS overrides this fallback height). On a narrow window they stack, the
# panel above the chat: a page with a chat input opens scrolled to its bottom, which
# must be the chat (it opened on the panel).
CHAT_HEIGHT = 640
LAYOUT_CSS = """<style>
.st-key-chat_scroll { height: calc(100vh - 21rem) !important; }
.st-key-memory_panel { height: calc(100vh - 12rem) !important; }
@media (max-width: 640px) {
  .st-key-chat_scroll { height: calc(100vh - 14rem) !important; }
  .st-key-memory_panel { height: 70vh !important; }
  [data-testid="stColumn"]:has(.st-key-memory_panel) { order: -1; }
}
</style>"""


@st.cache_resource(show_spinner=False)
def get_app() -> ChatApp:
    """The compiled graph on the SQLite database, built once per server process."""
    return open_app(load_settings())


def _thread_id(app: ChatApp, lang: str) -> str:
    """The thread in the URL (?thread=...), else the newest one, else a new one.

    A link to a conversation that is gone (deleted) says so and opens an empty one: the
    newest other conversation, opened without a word, looked like the linked one.
    """
    wanted = st.query_params.get("thread")
    listed = threads(app)
    if wanted and thread_exists(app, str(wanted)):  # not only the newest listed
        return str(wanted)
    if wanted:
        st.session_state["flash"] = t("thread_gone", lang)
        empty = [r for r in listed if not r.get("title")]
        thread = str(empty[0]["thread_id"]) if empty else new_thread(app)
    else:
        thread = str(listed[0]["thread_id"]) if listed else new_thread(app)
    st.query_params["thread"] = thread
    return thread


def _language() -> str:
    """The interface language: the URL's (?lang=), else this session's, else the setting."""
    wanted = st.query_params.get("lang")
    if wanted in LANGUAGES:
        st.session_state["lang"] = wanted
    st.session_state.setdefault("lang", load_settings().language)
    return str(st.session_state["lang"])


def _switch(thread: str) -> None:
    st.query_params["thread"] = thread


def main() -> None:
    """Render the page and handle one user action."""
    st.set_page_config(page_title="Context Chat", page_icon="📝", layout="wide")
    st.session_state.setdefault("shown_turns", {})
    lang = _language()
    try:
        app = get_app()
    except StorageError as exc:  # read-only folder, a newer schema, ...: say so, not a traceback
        st.error(t("storage_failed", lang, msg=str(exc)))
        st.stop()
    except ValueError as exc:  # a setting out of range (RETRIEVAL_MODE, CHECKPOINT_KEEP_TURNS)
        st.error(t("settings_failed", lang, msg=str(exc)))
        st.stop()
    if app.persistence.notice:
        st.warning(t("storage_notice", lang, msg=app.persistence.notice))
    thread = _thread_id(app, lang)
    wait_idle(app, thread)  # a turn from an interrupted run finishes before we redraw
    try:
        view = load_thread(
            app, thread, recent_turns=st.session_state["shown_turns"].get(thread, PAGE_TURNS)
        )
    except Exception as exc:  # noqa: BLE001 - one damaged thread must not take the page down
        _damaged(app, thread, exc, lang)
        return

    def on_new() -> None:
        # an untitled thread has no message yet: open it instead of piling up another
        empty = [r for r in threads(app) if not r.get("title")]
        _switch(str(empty[0]["thread_id"]) if empty else new_thread(app))

    def on_rename(target: str, title: str) -> None:
        try:
            rename_thread(app, target, title)
        except InputError as exc:
            st.session_state["flash"] = str(exc)

    def on_delete(target: str) -> None:
        delete_thread(app, target)
        st.query_params.pop("thread", None)

    def on_more() -> None:
        shown = st.session_state["shown_turns"]
        shown[thread] = shown.get(thread, PAGE_TURNS) + PAGE_TURNS

    def on_language(code: str) -> None:
        st.session_state["lang"] = code
        st.query_params["lang"] = code  # kept on reload and in shared links

    with st.sidebar:
        rate = render_rate_slider(thread, view.compression_rate, lang)
        if rate != view.compression_rate:
            set_thread_rate(app, thread, rate)
        budget = render_budget(thread, view.context_budget, lang)
        if budget != view.context_budget:
            set_thread_budget(app, thread, budget)
            view.context_budget = budget
        recall = render_recall(thread, view.recall, lang)
        if recall != view.recall:
            set_thread_recall(app, thread, recall)
            view.recall = recall
        strategy = render_strategy(thread, view.strategy, STRATEGIES, view.turn_count > 0, lang)
        if strategy != view.strategy:
            set_thread_strategy(app, thread, strategy)
            view.strategy = strategy
        render_threads(
            threads(app),
            thread,
            lang,
            on_new=on_new,
            on_switch=_switch,
            on_rename=on_rename,
            on_delete=on_delete,
        )
        engine = describe_engine(app.settings)
        render_engine(
            engine_label(engine.kind, engine.model, engine.base_url, lang),
            engine.kind == "offline",
            engine.summary_model,
            _tools(app),
            lang,
        )
        render_index(app.index.status() if app.index is not None else None, lang)
        render_language(lang, on_language)

    st.markdown(LAYOUT_CSS, unsafe_allow_html=True)
    chat_col, panel_col = st.columns([3, 2], gap="large")
    with chat_col:
        st.title(t("title", lang))
        if view.forked_from:
            source = next(
                (r for r in threads(app) if r["thread_id"] == view.forked_from["thread_id"]), {}
            )
            st.caption(
                t(
                    "forked_from",
                    lang,
                    title=plain_title(str(source.get("title") or view.forked_from["thread_id"])),
                    turn=view.forked_from.get("turn", "?"),
                )
            )
        # the chat scrolls in its own box and follows new answers; the page does not move
        chat_box = st.container(height=CHAT_HEIGHT, key="chat_scroll", border=False)
    # a decision, retry or Continue clicked: its turn runs below, with Stop on screen
    queued = st.session_state.pop("queued_turn", None)
    with chat_box:
        if not view.turns:  # boxed, so the first turn drawn in its place replaces it whole
            with st.container(key="welcome_box"):
                render_welcome(lang, lambda text: st.session_state.update(example=text))
        render_history(
            view.turns,
            view.first_turn_shown,
            lang,
            on_more,
            LastTurnActions(
                on_retry=(lambda: _retry(app, thread, lang))
                if (view.retryable or view.resumable) and not view.pending and not queued
                else None,
                # not while a clicked turn is about to run on this very page
                on_redo=(lambda turn, text: _redo(app, thread, text, turn, lang))
                if view.turns and not view.resumable and not queued
                else None,
                on_continue=(lambda: _continue(app, thread, lang))
                if view.turns and cut_off(view.turns[-1][1][-1]) and not view.pending and not queued
                else None,
                key=f"{thread}_",
                versions={n: (v.shown, v.count) for n, v in view.versions.items()},
                on_version=(lambda turn, k: _show_version(app, thread, turn, k))
                if not queued
                else None,
            ),
        )
        if view.pending and not queued:
            # in a box of its own: the decided turn's answer, drawn in its place on the
            # next run, replaces it whole instead of leaving its buttons there meanwhile
            with st.container(key="approval_box"):
                render_approval(
                    view.pending,
                    lang,
                    lambda action, args=None, response=None: _decide(
                        app, thread, action, args, lang, response, view.pending
                    ),
                )

        if "flash" in st.session_state:  # next to the input, where the user is looking
            st.warning(st.session_state.pop("flash"), icon="⚠️")
        if "notice" in st.session_state:
            st.success(st.session_state.pop("notice"), icon="✅")
    # Stop sits under the chat box, in sight however far the answer scrolls
    controls = chat_col.container(key="turn_controls")
    if "give_back" in st.session_state:  # a refused message returns to the input box
        st.session_state["chat_input"] = st.session_state.pop("give_back")
    prompt = st.chat_input(t("input", lang), key="chat_input")
    prompt = prompt if prompt is not None else st.session_state.pop("example", None)
    if queued is not None:
        if prompt is not None:  # sent as the click came: it goes after the clicked turn
            st.session_state["example"] = prompt
        with chat_box:
            _finish(app, queued, lang, controls)
        st.rerun()
    if prompt is not None:
        with chat_box:
            _send(app, thread, str(prompt), rate, lang, controls)
        if "redo_notice" in st.session_state:  # shown with the answer, after this rerun
            st.session_state["notice"] = st.session_state.pop("redo_notice")
        st.rerun()

    def on_pin(fact: str, turn: int) -> None:
        try:
            pin(app, thread, fact, turn)
        except (InputError, StorageError) as exc:
            st.session_state["flash"] = str(exc)

    def on_unpin(fact: str) -> None:
        unpin(app, thread, fact)

    with panel_col, st.container(height=CHAT_HEIGHT, key="memory_panel", border=False):
        probe_key = f"probe_{thread}"
        nxt = preview_next_context(app, view, str(st.session_state.get(probe_key) or ""))
        render_summary_panel(
            strategy=view.strategy,
            history=view.summary_history,
            digests=view.summary_digests,
            window=window_summaries(view.state.get("window_summary", "")),
            memory=view.state.get("memory", ""),
            entities=view.state.get("entities", []),
            calls=(
                int(view.state.get("summary_calls", 0)),
                int(view.state.get("summary_model_calls", 0)),
            ),
            meta=view.summary_meta,
            rate=rate,
            next_messages=nxt.messages,
            next_chars=nxt.chars,
            summarize_first=nxt.summarize_first,
            fold_after=nxt.fold_after,
            context_log=view.context_log,
            last_sections=(view.state.get("last_context") or {}).get("sections"),
            route=(
                f"{view.route} — {route_reason(str(view.state.get('route_reason', '')), lang)}"
                if view.route
                else ""
            ),
            retrieved=view.retrieved,
            retrieval=view.retrieval,
            errors=view.errors,
            export_json=json.dumps(export_thread(app, thread), ensure_ascii=False, indent=1),
            export_name=f"{thread}.json",
            lang=lang,
            on_import=lambda data: _import(app, data, rate, view.strategy, lang),
            comparison=view.comparison,
            on_compare=(lambda: _compare(app, thread, rate)) if view.turn_count else None,
            facts=lost_facts(app, thread),
            times=view.summary_times,
            pins=pinned_facts(app, thread),
            recalled=view.state.get("recalled", []),
            on_pin=on_pin,
            on_unpin=on_unpin,
            probe_key=probe_key,
            safeguard=view.state.get("safeguard"),
            candidates=view.state.get("candidates", []),
            plan=view.state.get("plan"),
            steps=view.state.get("steps", []),
        )
        render_timeline(
            checkpoints(app, thread),
            app.settings.keep_turns,
            rate,
            lang,
            lambda checkpoint_id, fork_rate: _fork(
                app, thread, view.title, checkpoint_id, fork_rate, lang
            ),
            key=f"timeline_{thread}",
        )


def _fork(
    app: ChatApp, thread: str, title: str, checkpoint_id: str, rate: float, lang: str
) -> None:
    """Fork a new thread from a kept checkpoint and open it, titled in the UI's language."""
    try:
        fork = fork_thread(app, thread, checkpoint_id, compression_rate=rate)
    except (InputError, StorageError) as exc:
        st.session_state["flash"] = str(exc)
        return
    turn = load_thread(app, fork, recent_turns=0).forked_from.get("turn", "?")
    # the turn is known once the fork is made (a message's arrival forks before it)
    try:
        rename_thread(
            app, fork, t("fork_title", lang, title=title or t("untitled", lang), turn=turn)
        )
    except (InputError, StorageError):  # the fork stands; its default title stays
        pass
    st.session_state["notice"] = t("forked", lang, turn=turn, rate=rate)
    _switch(fork)
    st.rerun()


def _damaged(app: ChatApp, thread: str, exc: BaseException, lang: str) -> None:
    """A thread that cannot be read: what happened, the other threads, and what can be read."""
    with st.sidebar:
        render_threads(
            threads(app),
            thread,
            lang,
            on_new=lambda: _switch(new_thread(app)),
            on_switch=_switch,
            on_rename=lambda target, title: rename_thread(app, target, title),
            on_delete=lambda target: delete_thread(app, target),
        )
    st.title(t("title", lang))
    st.error(t("thread_damaged", lang, error=f"{type(exc).__name__}: {exc}"[:500]))
    st.download_button(
        t("salvage", lang),
        json.dumps(salvage_thread(app, thread), ensure_ascii=False, indent=1),
        file_name=f"{thread}-salvaged.json",
        mime="application/json",
    )


def _send(
    app: ChatApp, thread: str, text: str, rate: float, lang: str, controls: DeltaGenerator
) -> None:
    """Run one turn in a worker and stream its tokens; refusals become a message.

    The worker owns the turn, so a rerun or a closed tab mid-answer loses nothing; a
    message sent meanwhile waits for the answer before it runs.
    """
    try:
        message = check_message(app, text)
    except InputError as exc:
        st.session_state["flash"] = (
            t("empty", lang)
            if not text.strip()
            else t("too_long", lang, n=len(text.strip()), limit=app.settings.message_limit)
            if len(text.strip()) > app.settings.message_limit
            else str(exc)
        )
        st.session_state["give_back"] = text
        return
    wait_idle(app, thread)
    view = load_thread(app, thread, recent_turns=1)
    if view.pending:
        st.session_state["flash"] = t("pending_block", lang)
        st.session_state["give_back"] = text
        return
    turn_count = view.turn_count + 1  # the seed: app.py counts the turn before invoking
    sent = sent_now(app)
    with st.chat_message("user"):
        st.markdown(message)
    _finish(
        app,
        TurnRequest(
            thread,
            message=message,
            turn_count=turn_count,
            compression_rate=rate,
            sent_at=sent,
        ),
        lang,
        controls,
        give_back=message,
    )


def _redo(app: ChatApp, thread: str, text: str | None, turn: int, lang: str) -> None:
    """Regenerate (`text` None) or edit and resend the message of `turn`: a new version.

    A button callback: the new version is shown at once, and the next run sends its
    message in the same thread as if it had been typed (streamed, stoppable). The earlier
    versions stay, behind the turn's ◀ ▶ switcher.
    """
    wait_idle(app, thread)
    try:
        redo = new_version(app, thread, turn, text)
    except (InputError, StorageError) as exc:
        st.session_state["flash"] = str(exc)
        if text is not None:
            st.session_state["give_back"] = text
        return
    count = turn_versions(app, thread)[turn].count
    st.session_state["example"] = redo.message
    st.session_state["redo_notice"] = t("redo_done", lang, n=redo.turn_count, k=count)


def _show_version(app: ChatApp, thread: str, turn: int, version: int) -> None:
    """Show another version of a turn, with its continuation (a button callback)."""
    wait_idle(app, thread)
    try:
        switch_version(app, thread, turn, version)
    except (InputError, StorageError) as exc:
        st.session_state["flash"] = str(exc)


def _decide(
    app: ChatApp,
    thread: str,
    action: str,
    args: dict | None,
    lang: str,
    response: str | None = None,
    pending: dict | None = None,
) -> None:
    """A button callback: the decision's turn runs in the run it starts (see `_queue`).

    `response` is the user's own answer (respond): handed to the waiting call instead of
    running it, as the API's `{"response": "..."}` is. The decision names the call it was
    shown for (`pending`), so one made on a stale page never answers another call.
    """
    call = str((pending or {}).get("tool_call_id") or "") or None
    request = TurnRequest(
        thread, kind="resume", action=action, args=args, response=response, tool_call_id=call
    )
    _queue(request)


def _continue(app: ChatApp, thread: str, lang: str) -> None:
    """Go on with the last answer, which was cut off (a button callback)."""
    _queue(TurnRequest(thread, kind="continue"))


def _retry(app: ChatApp, thread: str, lang: str) -> None:
    """Answer the last, unanswered turn again in place (a button callback)."""
    _queue(TurnRequest(thread, kind="retry"))


def _queue(request: TurnRequest) -> None:
    """Hand a clicked request to the script run the click starts.

    A callback runs before the page is drawn, so a turn run inside one would keep the page
    frozen on the old run, with no Stop, until it ended (an approved `python_repl` ran for
    seconds like that); the run draws the page, then the turn with Stop, as for a message.
    """
    st.session_state["queued_turn"] = request


def _finish(
    app: ChatApp,
    request: TurnRequest,
    lang: str,
    controls: DeltaGenerator,
    give_back: str = "",
) -> None:
    """Run a request through the turn runner, drawing it from its events as they come.

    Stop is drawn in `controls` before the first event: the turn runs in a worker, so the
    page shows it while the turn runs. A refusal (nothing saved) becomes a message next to
    the input, and a new message's text goes back into the input.
    """
    handle = start_turn(app, request)
    # a click reruns the page; the callback stops the turn, which keeps the message
    controls.button(t("stop", lang), key="stop_turn", on_click=handle.cancel)
    streamer = StreamingAnswer(lang)
    for event in handle.events():
        streamer(event)
    outcome = handle.result()
    if outcome.refused:
        st.session_state["flash"] = outcome.refused
        if give_back:
            st.session_state["give_back"] = give_back


def _import(app: ChatApp, data: bytes, rate: float, strategy: str, lang: str) -> None:
    """An export comes back as it was; a replay transcript is replayed into a new thread."""
    from graph.replay import import_transcript, parse_transcript

    try:
        parsed = json.loads(data.decode("utf-8"))
        if is_export(parsed):
            thread = import_thread(app, parsed, t("imported_mark", lang))
            count = len(parsed["turns"])
        else:
            turns = parse_transcript(data)
            thread = import_transcript(app, turns, rate, strategy)
            count = len(turns)
    except (ValueError, StorageError) as exc:  # InputError and JSON errors are ValueErrors
        st.session_state["flash"] = t("import_failed", lang, msg=str(exc))
        return
    st.session_state["notice"] = t("import_done", lang, n=count)
    _switch(thread)
    st.rerun()


def _compare(app: ChatApp, thread: str, rate: float) -> None:
    """Replay the whole conversation under every strategy (offline summarizer, no cost).

    The result is kept with the thread.
    """
    from graph.replay import compare_strategies, thread_transcript

    turns = thread_transcript(load_thread(app, thread).turns)
    if turns:
        save_comparison(app, thread, compare_strategies(turns, rate))


def _tools(app: ChatApp) -> dict[str, str | None]:
    from graph.tools import tool_availability

    return tool_availability(app.settings)


main()
