"""The application API that app.py, graph.replay and the service share.

A turn, from the request down (each module calls only those below it):

- `runner` and `events`: the one turn runner, a request in and seed 001's events out, in a
  worker thread per conversation; the app renders these events and the service forwards them.
- `start`: a new message: its checks, the thread's record, the turn's number, `history`
  for a new thread, and a message kept unanswered when its turn cannot run.
- `resume`: going on with the last turn: an approval's decision (`decision` reads a
  client's answer in any of its shapes, `graph.approval`), a retry, Continue.
- `streaming`: the graph run for the turn, its steps reported as events, a stop.
- `closing`: turns that did not finish: unanswered, interrupted by a crash, stopped, or
  cut by a storage error (the database, read again, says what was saved).
- `settle`: the thread's writer lease, and its head put right before a turn writes.
- `context`: what a turn reads of its thread once and hands down (`TurnContext`: config,
  record, the thread's settings, the state it starts from) and its `TurnOutcome`.
- `app`: the compiled graph with its persistence (`open_app`), and a thread's record and
  state (`new_thread`, `require_thread`, `thread_values`, `pending_approval`).

Around it:

- `threads`: listing, configuring, reading, exporting and deleting threads.
- `facts`: the lost-facts records of summaries, and pinning facts into every context.
- `preview`: what the next model call would receive.
- `transfer`: importing a thread that `export_thread` wrote.
- `history`: a thread's kept checkpoints (all, or a page with a cursor), and forking a new
  thread from one of them.
- `versions`: sending a turn's message again (regenerate, edit and resend) as a new
  version of the turn in the same thread, and switching between a turn's versions;
  `slots`: where the versions not shown are kept (the bookkeeping `threads` reads).

Layers, top to bottom; a module imports only modules of a lower layer, never one of its
own layer or above (import-linter's `session-layers` contract in pyproject.toml, run by
`lint-imports` and tests/unit/test_import_contracts.py; `|` marks modules of one layer):

7. this package (re-exports the API below).
6. `runner` | `versions` | `transfer` | `preview`.
5. `resume`.
4. `start`.
3. `streaming` | `threads` (reading a thread closes a turn a crash left open) | `history`.
2. `closing`.
1. `settle` | `slots` | `facts`.
0. `app`, over `context` | `errors` | `events`.

Below the session (`project-layers`): `graph.graph`, `graph.supervisor`, `graph.nodes`,
`graph.memory` and `graph.retrieval`, `graph.storage`'s face (never its lower modules:
`storage-face`) and the leaves of `graph`. Nothing under `graph/` imports `graph.session`
except `graph.replay`; `service/` and `app.py` import it (`session-callers`).
"""

from graph.approval import Answer, decision
from graph.session.app import ChatApp, open_app, pending_approval
from graph.session.context import TurnOutcome
from graph.session.events import Event, TurnEvents
from graph.session.facts import lost_facts, pin, pinned_facts, unpin
from graph.session.history import CheckpointPage, checkpoint_page, checkpoints, fork_thread
from graph.session.preview import NextContext, preview_next_context
from graph.session.resume import (
    ApprovalMismatch,
    check_decision,
    continue_turn,
    resume_turn,
    retry_turn,
)
from graph.session.runner import (
    TurnHandle,
    TurnRequest,
    run_request,
    start_turn,
    wait_idle,
)
from graph.session.start import TITLE_CHARS, check_message, run_turn, sent_now
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
    "ApprovalMismatch",
    "check_decision",
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
