"""The application API that app.py, graph.replay and the service share.

- `app`: the compiled graph with its persistence (`open_app`).
- `turns`: running a turn, answering an approval (`decision` reads a client's answer in
  any of its shapes, `graph.approval`) or retrying an unanswered turn.
- `runner` and `events`: the one turn runner, a request in and seed 001's events out, in a
  worker thread per conversation; the app renders these events and the service forwards them.
- `threads`: creating, listing, configuring, reading, exporting and deleting threads.
- `context`: what a turn reads of its thread once (`TurnContext`) and hands down.
- `records`: a thread's record: making one, and the settings it holds (or the defaults).
- `facts`: the lost-facts records of summaries, and pinning facts into every context.
- `preview`: what the next model call would receive.
- `transfer`: importing a thread that `export_thread` wrote.
- `history`: a thread's kept checkpoints (all, or a page with a cursor), and forking a new
  thread from one of them.
- `versions`: sending a turn's message again (regenerate, edit and resend) as a new
  version of the turn in the same thread, and switching between a turn's versions;
  `slots`: where the versions not shown are kept (the bookkeeping `threads` reads).

Layers, top to bottom; a module imports only modules of a lower layer, never one of its
own layer or above (`tests/unit/test_import_graph.py` checks this and that there is no
import circle, at module or function level):

5. this package (re-exports the API below).
4. `runner`, `versions`, `transfer`, `preview`.
3. `threads` (reading a thread closes a turn a crash left open, through `turns`), `history`.
2. `turns`, `slots`.
1. `records`, `facts`, `context`.
0. `app`, `errors`, `events`.

Below the session: `graph.storage`'s face (never its lower modules), `graph.memory`,
`graph.nodes`, `graph.graph` and the leaves of `graph`. Nothing under `graph/` imports
`graph.session` except `graph.replay`; `service/` and `app.py` import it.
"""

from graph.approval import Answer, decision
from graph.session.app import ChatApp, open_app, pending_approval
from graph.session.events import Event, TurnEvents
from graph.session.facts import lost_facts, pin, pinned_facts, unpin
from graph.session.history import CheckpointPage, checkpoint_page, checkpoints, fork_thread
from graph.session.preview import NextContext, preview_next_context
from graph.session.runner import (
    TurnHandle,
    TurnRequest,
    run_request,
    start_turn,
    wait_idle,
)
from graph.session.threads import (
    ThreadView,
    delete_thread,
    ensure_thread,
    export_thread,
    load_thread,
    new_thread,
    rename_thread,
    salvage_thread,
    save_comparison,
    set_thread_budget,
    set_thread_rate,
    set_thread_recall,
    set_thread_strategy,
    thread_exists,
    thread_strategy,
    threads,
)
from graph.session.transfer import import_thread, is_export
from graph.session.turns import (
    TITLE_CHARS,
    TurnOutcome,
    check_message,
    continue_turn,
    resume_turn,
    retry_turn,
    run_turn,
    sent_now,
)
from graph.session.versions import (
    Redo,
    TurnVersions,
    new_version,
    redo_last_turn,
    switch_version,
    turn_versions,
    unsent_version,
)

__all__ = [
    "TITLE_CHARS",
    "Answer",
    "decision",
    "ChatApp",
    "NextContext",
    "ThreadView",
    "Event",
    "TurnEvents",
    "TurnHandle",
    "TurnRequest",
    "TurnOutcome",
    "check_message",
    "CheckpointPage",
    "checkpoint_page",
    "checkpoints",
    "fork_thread",
    "redo_last_turn",
    "unsent_version",
    "Redo",
    "TurnVersions",
    "new_version",
    "switch_version",
    "turn_versions",
    "delete_thread",
    "ensure_thread",
    "export_thread",
    "import_thread",
    "is_export",
    "load_thread",
    "lost_facts",
    "new_thread",
    "open_app",
    "pending_approval",
    "pin",
    "pinned_facts",
    "preview_next_context",
    "rename_thread",
    "thread_exists",
    "resume_turn",
    "continue_turn",
    "retry_turn",
    "run_request",
    "salvage_thread",
    "save_comparison",
    "run_turn",
    "sent_now",
    "set_thread_budget",
    "set_thread_rate",
    "set_thread_recall",
    "set_thread_strategy",
    "start_turn",
    "thread_strategy",
    "threads",
    "unpin",
    "wait_idle",
]
